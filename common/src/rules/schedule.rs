//! When a rule is due (`docs/api/rules.md` "Scheduling"): its frequency read in the campaign
//! group's time zone. [`latest_due`] gives the latest due time at or before now and not
//! before the rule was enabled; the scheduler enqueues `run-rule` for exactly that time
//! (the period of its uniqueness key), so a scheduler that was down runs only the latest
//! missed period, and a rule never fires before its first due time after it was enabled.
//!
//! Civil times are resolved with `jiff`'s "compatible" rule: a daily hour that a spring
//! DST change skips runs at the first instant after the gap, one that a fall change repeats
//! runs at its first occurrence; either way once a day. Hourly rules are due on every
//! local hour (in a zone offset by 30 minutes, on its half hours of UTC).

use jiff::{Timestamp, Zoned, civil, tz::TimeZone};

use super::{Frequency, Weekday};

/// The zone named `time_zone` (an IANA name), UTC when unknown or missing.
pub fn zone(time_zone: Option<&str>) -> TimeZone {
    time_zone
        .and_then(|name| TimeZone::get(name).ok())
        .unwrap_or(TimeZone::UTC)
}

fn weekday(w: Weekday) -> civil::Weekday {
    match w {
        Weekday::Monday => civil::Weekday::Monday,
        Weekday::Tuesday => civil::Weekday::Tuesday,
        Weekday::Wednesday => civil::Weekday::Wednesday,
        Weekday::Thursday => civil::Weekday::Thursday,
        Weekday::Friday => civil::Weekday::Friday,
        Weekday::Saturday => civil::Weekday::Saturday,
        Weekday::Sunday => civil::Weekday::Sunday,
    }
}

/// The latest time `frequency` is due at or before `now` (Unix seconds) in `time_zone`,
/// if it is at or after `enabled_at` (Unix seconds); None when the rule's first due time
/// after it was enabled is still to come.
pub fn latest_due(
    frequency: &Frequency,
    time_zone: Option<&str>,
    now: i64,
    enabled_at: i64,
) -> Option<i64> {
    let tz = zone(time_zone);
    let now_zoned = Timestamp::from_second(now).ok()?.to_zoned(tz.clone());
    let due = match *frequency {
        Frequency::Hourly => hour_start(&now_zoned)?,
        Frequency::Daily { hour } => last_at(&now_zoned, &tz, hour, None)?,
        Frequency::Weekly { weekday: w, hour } => last_at(&now_zoned, &tz, hour, Some(weekday(w)))?,
    };
    (due >= enabled_at).then_some(due)
}

/// The start of the local hour of `now` (keeping its offset in a repeated hour).
fn hour_start(now: &Zoned) -> Option<i64> {
    let start = now
        .with()
        .minute(0)
        .second(0)
        .subsec_nanosecond(0)
        .build()
        .ok()?;
    Some(start.timestamp().as_second())
}

/// The latest `hour`:00 (on `weekday` when given) at or before `now` in `tz`.
fn last_at(now: &Zoned, tz: &TimeZone, hour: u32, weekday: Option<civil::Weekday>) -> Option<i64> {
    let hour = i8::try_from(hour.min(23)).ok()?;
    let mut day = now.date();
    for _ in 0..9 {
        if weekday.is_none_or(|w| day.weekday() == w) {
            let at = day.at(hour, 0, 0, 0).to_zoned(tz.clone()).ok()?;
            let at = at.timestamp().as_second();
            if at <= now.timestamp().as_second() {
                return Some(at);
            }
        }
        day = day.yesterday().ok()?;
    }
    None
}

/// The first instant (Unix seconds) of `day` in `time_zone`.
pub fn start_of(day: time::Date, time_zone: Option<&str>) -> Option<i64> {
    let date = civil::date(
        i16::try_from(day.year()).ok()?,
        day.month() as i8,
        i8::try_from(day.day()).ok()?,
    );
    let start = date.to_zoned(zone(time_zone)).ok()?;
    Some(start.timestamp().as_second())
}

/// A due time as the period of a run and its uniqueness key: `2026-11-27T06:00:00Z`.
pub fn period(due: i64) -> String {
    Timestamp::from_second(due)
        .map(|t| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_default()
}

/// The Unix seconds of a period written by [`period`].
pub fn parse_period(text: &str) -> Option<i64> {
    text.parse::<Timestamp>().ok().map(|t| t.as_second())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unix seconds of an RFC 3339 instant.
    fn at(text: &str) -> i64 {
        text.parse::<Timestamp>().unwrap().as_second()
    }

    fn daily(hour: u32) -> Frequency {
        Frequency::Daily { hour }
    }

    #[test]
    fn daily_is_due_at_the_hour_of_the_org_time_zone() {
        let ny = Some("America/New_York");
        // 2026-11-27 12:00 UTC = 07:00 in New York (EST): 06:00 today is due.
        let due = latest_due(&daily(6), ny, at("2026-11-27T12:00:00Z"), 0).unwrap();
        assert_eq!(period(due), "2026-11-27T11:00:00Z");
        // 10:30 UTC = 05:30 in New York: yesterday's 06:00.
        let due = latest_due(&daily(6), ny, at("2026-11-27T10:30:00Z"), 0).unwrap();
        assert_eq!(period(due), "2026-11-26T11:00:00Z");
        // Exactly at the hour: due now.
        let due = latest_due(&daily(6), ny, at("2026-11-27T11:00:00Z"), 0).unwrap();
        assert_eq!(period(due), "2026-11-27T11:00:00Z");
        // Unknown zone: UTC.
        let due = latest_due(
            &daily(6),
            Some("Nope/Nowhere"),
            at("2026-11-27T12:00:00Z"),
            0,
        );
        assert_eq!(due.map(period).as_deref(), Some("2026-11-27T06:00:00Z"));
    }

    #[test]
    fn daily_survives_dst_changes_once_a_day() {
        let ny = Some("America/New_York");
        // 2026-03-08: 02:00 does not exist in New York; a 02:00 rule runs at 03:00 EDT
        // (07:00 UTC), once.
        let due = latest_due(&daily(2), ny, at("2026-03-08T12:00:00Z"), 0).unwrap();
        assert_eq!(period(due), "2026-03-08T07:00:00Z");
        let before = latest_due(&daily(2), ny, at("2026-03-08T06:59:59Z"), 0).unwrap();
        assert_eq!(period(before), "2026-03-07T07:00:00Z");
        // 2026-11-01: 01:00 happens twice; the rule runs at the first (05:00 UTC, EDT) and
        // the second (06:00 UTC, EST) is not a new due time.
        let first = latest_due(&daily(1), ny, at("2026-11-01T05:30:00Z"), 0).unwrap();
        assert_eq!(period(first), "2026-11-01T05:00:00Z");
        let second = latest_due(&daily(1), ny, at("2026-11-01T06:30:00Z"), 0).unwrap();
        assert_eq!(second, first);
        // The day after, the hour is back on EST.
        let next = latest_due(&daily(1), ny, at("2026-11-02T12:00:00Z"), 0).unwrap();
        assert_eq!(period(next), "2026-11-02T06:00:00Z");
    }

    #[test]
    fn hourly_is_due_on_each_local_hour() {
        let due = latest_due(&Frequency::Hourly, None, at("2026-11-27T12:59:59Z"), 0).unwrap();
        assert_eq!(period(due), "2026-11-27T12:00:00Z");
        // India is UTC+05:30: its hours start on UTC's half hours.
        let due = latest_due(
            &Frequency::Hourly,
            Some("Asia/Kolkata"),
            at("2026-11-27T12:20:00Z"),
            0,
        )
        .unwrap();
        assert_eq!(period(due), "2026-11-27T11:30:00Z");
        // The repeated hour of a fall change gives two due times, an hour apart.
        let ny = Some("America/New_York");
        let a = latest_due(&Frequency::Hourly, ny, at("2026-11-01T05:10:00Z"), 0).unwrap();
        let b = latest_due(&Frequency::Hourly, ny, at("2026-11-01T06:10:00Z"), 0).unwrap();
        assert_eq!(
            (period(a), period(b)),
            ("2026-11-01T05:00:00Z".into(), "2026-11-01T06:00:00Z".into())
        );
    }

    #[test]
    fn weekly_is_due_on_its_weekday() {
        let monday_6 = Frequency::Weekly {
            weekday: Weekday::Monday,
            hour: 6,
        };
        // 2026-11-27 is a Friday: the Monday before, 2026-11-23.
        let due = latest_due(&monday_6, None, at("2026-11-27T12:00:00Z"), 0).unwrap();
        assert_eq!(period(due), "2026-11-23T06:00:00Z");
        // Monday 05:00: the Monday a week before.
        let due = latest_due(&monday_6, None, at("2026-11-30T05:00:00Z"), 0).unwrap();
        assert_eq!(period(due), "2026-11-23T06:00:00Z");
        let due = latest_due(&monday_6, None, at("2026-11-30T06:00:00Z"), 0).unwrap();
        assert_eq!(period(due), "2026-11-30T06:00:00Z");
    }

    #[test]
    fn nothing_is_due_before_the_first_due_time_after_enabling() {
        let enabled = at("2026-11-27T09:00:00Z");
        // Enabled at 09:00 UTC; daily at 06:00 UTC: nothing due until tomorrow 06:00.
        assert_eq!(
            latest_due(&daily(6), None, at("2026-11-27T12:00:00Z"), enabled),
            None
        );
        assert_eq!(
            latest_due(&daily(6), None, at("2026-11-28T05:59:59Z"), enabled),
            None
        );
        let due = latest_due(&daily(6), None, at("2026-11-28T06:00:00Z"), enabled).unwrap();
        assert_eq!(period(due), "2026-11-28T06:00:00Z");
        // A due time equal to the enabling instant counts.
        let due = latest_due(&daily(9), None, at("2026-11-27T09:00:00Z"), enabled);
        assert_eq!(due, Some(enabled));
    }

    #[test]
    fn days_start_at_local_midnight() {
        let day = time::macros::date!(2026 - 11 - 27);
        assert_eq!(start_of(day, None), Some(at("2026-11-27T00:00:00Z")));
        assert_eq!(
            start_of(day, Some("America/New_York")),
            Some(at("2026-11-27T05:00:00Z"))
        );
    }

    #[test]
    fn periods_read_back() {
        let t = at("2026-11-27T06:00:00Z");
        assert_eq!(parse_period(&period(t)), Some(t));
    }
}
