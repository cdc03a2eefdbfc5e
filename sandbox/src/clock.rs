//! The sandbox's simulated clock: every timestamp the sandbox writes (creation,
//! modification, change history, token expiry) and the reporting "today" come from it.
//! It runs at wall-clock speed from the instant it was last set (or stands still when
//! stopped), and only moves forward: `PUT /sandbox/clock` sets or advances it.

use std::time::Instant;

use parking_lot::Mutex;
use time::{Duration, OffsetDateTime};

#[derive(Debug, Clone, Copy)]
struct State {
    /// The simulated instant at `wall`.
    at: OffsetDateTime,
    wall: Instant,
    running: bool,
}

/// A settable, forward-only clock.
#[derive(Debug)]
pub struct Clock {
    state: Mutex<State>,
}

impl Clock {
    /// A clock showing `now`, running at wall-clock speed unless `running` is false.
    pub fn new(now: OffsetDateTime, running: bool) -> Self {
        Clock {
            state: Mutex::new(State {
                at: now,
                wall: Instant::now(),
                running,
            }),
        }
    }

    /// The simulated now.
    pub fn now(&self) -> OffsetDateTime {
        let s = *self.state.lock();
        if s.running {
            s.at + s.wall.elapsed()
        } else {
            s.at
        }
    }

    /// Whether it runs at wall-clock speed.
    pub fn running(&self) -> bool {
        self.state.lock().running
    }

    /// Moves the clock to `to` (refused when that is in its past) and, when given, starts
    /// or stops it.
    pub fn set(&self, to: OffsetDateTime, running: Option<bool>) -> Result<(), String> {
        self.change(|_| Ok(to), running)
    }

    /// Moves the clock to the time `to` computes from its current time, read under the
    /// same lock (so "stay where you are" or "one day on" cannot lose the moment between
    /// reading and setting to a running clock), and, when given, starts or stops it.
    pub fn change(
        &self,
        to: impl FnOnce(OffsetDateTime) -> Result<OffsetDateTime, String>,
        running: Option<bool>,
    ) -> Result<(), String> {
        let mut s = self.state.lock();
        let now = if s.running {
            s.at + s.wall.elapsed()
        } else {
            s.at
        };
        let to = to(now)?;
        if to < now {
            return Err(format!(
                "the clock only moves forward: {to} is before its current time {now}"
            ));
        }
        *s = State {
            at: to,
            wall: Instant::now(),
            running: running.unwrap_or(s.running),
        };
        Ok(())
    }

    /// Moves the clock forward by `by` (not negative).
    pub fn advance(&self, by: Duration) -> Result<(), String> {
        if by.is_negative() {
            return Err("advanceSeconds must not be negative".into());
        }
        let to = self.now() + by;
        self.set(to, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn a_running_clock_stops_where_it_is() {
        let clock = Clock::new(datetime!(2026-11-01 10:00 UTC), true);
        std::thread::sleep(std::time::Duration::from_millis(5));
        clock.change(Ok, Some(false)).unwrap();
        assert!(!clock.running());
        let stopped = clock.now();
        assert!(stopped > datetime!(2026-11-01 10:00 UTC));
        assert_eq!(clock.now(), stopped);
    }

    #[test]
    fn it_moves_forward_only() {
        let c = Clock::new(datetime!(2026-03-15 10:00 UTC), false);
        assert_eq!(c.now(), datetime!(2026-03-15 10:00 UTC));
        c.advance(Duration::hours(30)).unwrap();
        assert_eq!(c.now(), datetime!(2026-03-16 16:00 UTC));
        assert!(c.set(datetime!(2026-03-16 15:00 UTC), None).is_err());
        assert!(c.advance(Duration::seconds(-1)).is_err());
        c.set(datetime!(2026-04-01 00:00 UTC), Some(true)).unwrap();
        assert!(c.running() && c.now() >= datetime!(2026-04-01 00:00 UTC));
    }
}
