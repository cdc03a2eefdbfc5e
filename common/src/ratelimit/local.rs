//! What one process knows about each key: its in-process governor, a pause it saw itself,
//! the pace it last wrote to the store, and the probe gate used while no pace is known.
//!
//! Until a response has taught a key's pace, each process lets one request at a time
//! through (the probe): reservations made at the conservative default pace would otherwise
//! pile up far ahead and waste the budget once the real, faster pace is learned.

use std::{
    collections::HashMap,
    num::NonZeroU32,
    sync::{Arc, Mutex, MutexGuard},
    time::{Duration, Instant},
};

use governor::{DefaultDirectRateLimiter, Quota};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How long a probe may stay unanswered before the next caller goes ahead anyway.
pub(super) const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

struct Local {
    governor: Arc<DefaultDirectRateLimiter>,
    governor_interval_us: i64,
    written_interval_us: Option<i64>,
    paused_until: Option<Instant>,
    known: bool,
    probe: Arc<Semaphore>,
    probe_held: Option<(OwnedSemaphorePermit, Instant)>,
}

/// Per-key local state of one limiter.
pub(super) struct LocalKeys {
    map: Mutex<HashMap<String, Local>>,
    default_interval_us: i64,
    burst: u32,
}

impl LocalKeys {
    pub(super) fn new(default_interval_us: i64, burst: u32) -> LocalKeys {
        LocalKeys {
            map: Mutex::new(HashMap::new()),
            default_interval_us,
            burst,
        }
    }

    /// The entry of `key`, created on first use; runs `f` on it under the lock.
    fn with<T>(&self, key: &str, f: impl FnOnce(&mut Local) -> T) -> T {
        let mut map: MutexGuard<'_, _> = self.map.lock().unwrap_or_else(|p| p.into_inner());
        let local = map.entry(key.to_string()).or_insert_with(|| Local {
            governor: Arc::new(local_limiter(self.default_interval_us, self.burst)),
            governor_interval_us: self.default_interval_us,
            written_interval_us: None,
            paused_until: None,
            known: false,
            probe: Arc::new(Semaphore::new(1)),
            probe_held: None,
        });
        f(local)
    }

    /// The in-process limiter of `key`.
    pub(super) fn governor(&self, key: &str) -> Arc<DefaultDirectRateLimiter> {
        self.with(key, |l| l.governor.clone())
    }

    /// Follows a pace reported by the store (`None`: not learned yet).
    pub(super) fn follow(&self, key: &str, interval_us: Option<i64>) {
        let burst = self.burst;
        self.with(key, |l| {
            let Some(interval) = interval_us else {
                // The store forgot the pace (expired or reset): write it again when seen.
                l.written_interval_us = None;
                return;
            };
            l.known = true;
            if l.written_interval_us.is_some_and(|w| w != interval) {
                l.written_interval_us = None;
            }
            if differs(interval, l.governor_interval_us) {
                l.governor = Arc::new(local_limiter(interval, burst));
                l.governor_interval_us = interval;
            }
        });
    }

    /// Whether `interval_us` differs from the pace this process last wrote to the store
    /// for `key` (none written yet: true).
    pub(super) fn unwritten(&self, key: &str, interval_us: i64) -> bool {
        self.with(key, |l| {
            l.written_interval_us
                .is_none_or(|w| differs(w, interval_us))
        })
    }

    /// Records a pace learned from a response; true when the store should be told.
    pub(super) fn learned(&self, key: &str, interval_us: i64) -> bool {
        self.follow(key, Some(interval_us));
        self.with(key, |l| {
            let changed = l
                .written_interval_us
                .is_none_or(|w| differs(w, interval_us));
            if changed {
                l.written_interval_us = Some(interval_us);
            }
            changed
        })
    }

    /// The end of a pause this process saw, while it lasts.
    pub(super) fn paused_until(&self, key: &str) -> Option<Instant> {
        self.with(key, |l| {
            let until = l.paused_until.filter(|u| *u > Instant::now());
            l.paused_until = until;
            until
        })
    }

    /// Extends this process's pause of `key` to `until`.
    pub(super) fn pause(&self, key: &str, until: Instant) {
        self.with(key, |l| {
            l.paused_until = Some(l.paused_until.map_or(until, |u| u.max(until)))
        });
    }

    /// Waits for the probe gate while the pace of `key` is unknown; the permit returned is
    /// handed to [`LocalKeys::hold_probe`] after reserving.
    pub(super) async fn probe(&self, key: &str) -> Option<OwnedSemaphorePermit> {
        let gate = self.with(key, |l| {
            if l.probe_held
                .as_ref()
                .is_some_and(|(_, at)| at.elapsed() > PROBE_TIMEOUT)
            {
                l.probe_held = None;
            }
            (!l.known).then(|| l.probe.clone())
        })?;
        tokio::time::timeout(PROBE_TIMEOUT, gate.acquire_owned())
            .await
            .ok()?
            .ok()
    }

    /// Keeps the probe closed until the response is observed (if the pace is still unknown).
    pub(super) fn hold_probe(&self, key: &str, permit: OwnedSemaphorePermit) {
        self.with(key, |l| {
            if !l.known {
                l.probe_held = Some((permit, Instant::now()));
            }
        });
    }

    /// A response arrived: let the next probe through.
    pub(super) fn answered(&self, key: &str) {
        self.with(key, |l| l.probe_held = None);
    }
}

/// Whether two paces differ by more than 1%.
fn differs(a: i64, b: i64) -> bool {
    (a - b).abs() * 100 > a.max(b)
}

fn local_limiter(interval_us: i64, burst: u32) -> DefaultDirectRateLimiter {
    let period = Duration::from_micros(u64::try_from(interval_us).unwrap_or(1).max(1));
    let quota = Quota::with_period(period)
        .expect("period is at least 1 µs")
        .allow_burst(NonZeroU32::new(burst.max(1)).expect("burst is at least 1"));
    governor::RateLimiter::direct(quota)
}
