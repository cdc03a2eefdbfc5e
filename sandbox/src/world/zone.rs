//! UTC offsets of the ad accounts' time zones, for reports in `timeZone: UTC`. The
//! simulation's days are the ad account's own days (the reference's `ORTZ`, the default);
//! a UTC day takes the hours of the one or two local days it overlaps. The sandbox's zones
//! follow their daylight-saving rules (United States: second Sunday of March to the first
//! Sunday of November; European Union: last Sunday of March to the last Sunday of October),
//! by whole days: a switch day is on the offset it switches to.

use time::{Date, Duration, Month, Weekday};

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
}
