//! UTC offsets of the ad accounts' time zones, for reports in `timeZone: UTC`. The
//! simulation's days are the ad account's own days (the reference's `ORTZ`, the default);
//! a UTC day takes the hours of the one or two local days it overlaps. The sandbox's zones
//! follow their daylight-saving rules (United States: second Sunday of March to the first
//! Sunday of November; European Union: last Sunday of March to the last Sunday of October),
//! by whole days: a switch day is on the offset it switches to. An ad account's today and
//! the hours of it served so far are those of its zone ([`local_now`]).

use time::{Date, Duration, Month, OffsetDateTime, UtcOffset, Weekday};

/// Standard offset in hours and the daylight-saving rule of a zone the sandbox uses.
fn rule(tz: &str) -> (i64, Dst) {
    match tz {
        "America/Los_Angeles" => (-8, Dst::Us),
        "America/Denver" => (-7, Dst::Us),
        "America/Chicago" => (-6, Dst::Us),
        "America/New_York" => (-5, Dst::Us),
        "Europe/London" => (0, Dst::Eu),
        "Europe/Berlin" | "Europe/Paris" | "Europe/Madrid" => (1, Dst::Eu),
        "Asia/Tokyo" => (9, Dst::None),
        _ => (0, Dst::None),
    }
}

#[derive(Clone, Copy)]
enum Dst {
    None,
    Us,
    Eu,
}

/// The `n`-th `weekday` of `month` (1-based), or the last one for `n` = 0.
fn nth_weekday(year: i32, month: Month, weekday: Weekday, n: u8) -> Date {
    if n == 0 {
        let next = month.next();
        let year = if next == Month::January {
            year + 1
        } else {
            year
        };
        let mut d =
            Date::from_calendar_date(year, next, 1).expect("valid date") - Duration::days(1);
        while d.weekday() != weekday {
            d -= Duration::days(1);
        }
        return d;
    }
    let mut d = Date::from_calendar_date(year, month, 1).expect("valid date");
    while d.weekday() != weekday {
        d += Duration::days(1);
    }
    d + Duration::weeks(i64::from(n) - 1)
}

/// Hours `tz` is ahead of UTC on local `day` (negative west of Greenwich).
pub fn offset_hours(tz: &str, day: Date) -> i64 {
    let (standard, dst) = rule(tz);
    let y = day.year();
    let summer = match dst {
        Dst::None => false,
        Dst::Us => {
            nth_weekday(y, Month::March, Weekday::Sunday, 2) <= day
                && day < nth_weekday(y, Month::November, Weekday::Sunday, 1)
        }
        Dst::Eu => {
            nth_weekday(y, Month::March, Weekday::Sunday, 0) <= day
                && day < nth_weekday(y, Month::October, Weekday::Sunday, 0)
        }
    };
    standard + i64::from(summer)
}

/// The UTC hour (Julian day × 24 + hour) of hour `h` of local `day` in `tz`.
pub fn utc_hour(tz: &str, day: Date, h: i64) -> i64 {
    i64::from(day.to_julian_day()) * 24 + h - offset_hours(tz, day)
}

/// An ad account's now in its own zone: its today and the hours of it gone so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalNow {
    pub today: Date,
    /// The local hour now is in (0–23): the hours before it are served.
    pub hour: u8,
}

impl LocalNow {
    /// Hours of local `day` served so far: 24 for past days, the hours before now's for
    /// today, none for days to come.
    pub fn hours_served(&self, day: Date) -> u8 {
        if day < self.today {
            24
        } else if day == self.today {
            self.hour
        } else {
            0
        }
    }

    /// The day writes take effect in this zone: its next day.
    pub fn next_day(&self) -> Date {
        self.today.next_day().expect("date in range")
    }
}

/// `now` in `tz`: the local date and hour, with the offset of the local day (so that
/// [`utc_hour`] of the local day and hour gives back now's UTC hour).
pub fn local_now(tz: &str, now: OffsetDateTime) -> LocalNow {
    let utc = now.to_offset(UtcOffset::UTC);
    let guess = utc + Duration::hours(offset_hours(tz, utc.date()));
    let local = utc + Duration::hours(offset_hours(tz, guess.date()));
    LocalNow {
        today: local.date(),
        hour: local.hour(),
    }
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    #[test]
    fn offsets_follow_daylight_saving() {
        assert_eq!(
            offset_hours("America/Los_Angeles", date!(2026 - 01 - 15)),
            -8
        );
        assert_eq!(
            offset_hours("America/Los_Angeles", date!(2026 - 03 - 07)),
            -8
        );
        // Second Sunday of March 2026: the 8th; first Sunday of November: the 1st.
        assert_eq!(
            offset_hours("America/Los_Angeles", date!(2026 - 03 - 08)),
            -7
        );
        assert_eq!(offset_hours("America/New_York", date!(2026 - 10 - 31)), -4);
        assert_eq!(offset_hours("America/New_York", date!(2026 - 11 - 01)), -5);
        // Last Sundays of March and October 2026: the 29th and the 25th.
        assert_eq!(offset_hours("Europe/Berlin", date!(2026 - 03 - 28)), 1);
        assert_eq!(offset_hours("Europe/Berlin", date!(2026 - 03 - 29)), 2);
        assert_eq!(offset_hours("Europe/Berlin", date!(2026 - 10 - 25)), 1);
        assert_eq!(offset_hours("Asia/Tokyo", date!(2026 - 07 - 01)), 9);
        assert_eq!(offset_hours("UTC", date!(2026 - 07 - 01)), 0);
        let day = date!(2026 - 01 - 15);
        assert_eq!(
            utc_hour("Asia/Tokyo", day, 0),
            i64::from(day.to_julian_day()) * 24 - 9
        );
    }

    #[test]
    fn local_now_is_the_zones_day_and_hour() {
        use time::macros::datetime;
        let at = |tz: &str, now: OffsetDateTime| {
            let l = local_now(tz, now);
            (l.today.to_string(), l.hour)
        };
        // 03:30 UTC on a winter day is 21:30 the day before in Chicago (UTC−6).
        let winter = datetime!(2026-01-15 03:30 UTC);
        assert_eq!(at("America/Chicago", winter), ("2026-01-14".into(), 21));
        assert_eq!(at("UTC", winter), ("2026-01-15".into(), 3));
        assert_eq!(at("Asia/Tokyo", winter), ("2026-01-15".into(), 12));
        assert_eq!(at("Europe/Berlin", winter), ("2026-01-15".into(), 4));
        // Summer: Chicago is UTC−5.
        let summer = datetime!(2026-07-01 04:00 UTC);
        assert_eq!(at("America/Chicago", summer), ("2026-06-30".into(), 23));
        assert_eq!(
            at("America/Chicago", summer + Duration::hours(1)),
            ("2026-07-01".into(), 0)
        );
        // Every hour of a year maps back to its UTC hour, across the switches.
        let mut t = datetime!(2026-01-01 00:00 UTC);
        while t < datetime!(2027-01-01 00:00 UTC) {
            for tz in [
                "America/Chicago",
                "America/Los_Angeles",
                "Europe/Berlin",
                "Asia/Tokyo",
            ] {
                let l = local_now(tz, t);
                let back = utc_hour(tz, l.today, i64::from(l.hour));
                let want = i64::from(t.date().to_julian_day()) * 24 + i64::from(t.hour());
                // A switch day takes its offset whole, so the hour after a switch repeats
                // or skips one hour at the local midnight; elsewhere it is exact.
                assert!((back - want).abs() <= 1, "{tz} {t}");
                let off = |d: i64| offset_hours(tz, l.today + Duration::days(d));
                if off(-1) == off(0) && off(0) == off(1) {
                    assert_eq!(back, want, "{tz} {t}");
                }
            }
            t += Duration::hours(1);
        }
        let l = local_now("America/Chicago", winter);
        assert_eq!(l.hours_served(l.today), 21);
        assert_eq!(l.hours_served(l.today - Duration::days(1)), 24);
        assert_eq!(l.hours_served(l.next_day()), 0);
    }
}
