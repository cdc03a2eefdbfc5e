//! A rule's window (`docs/api/rules.md` "window") as days: given "today" in the campaign
//! group's time zone, the inclusive `[start, end]` whose metrics the rule sums. Pure: the
//! caller finds today with [`today`] (the org's time zone) and passes it in, so a run, a
//! preview and every day of a backtest use one function.

use time::{Date, Duration};

use super::Window;

/// The days of `window` when it is `today` (inclusive both ends).
///
/// - `last N` excluding today: `[today − N, today − 1]`; including today:
///   `[today − N + 1, today]`;
/// - `between F and T days ago`: `[today − F, today − T]`.
pub fn days(window: &Window, today: Date) -> (Date, Date) {
    let ago = |n: u32| today - Duration::days(i64::from(n));
    match *window {
        Window::Last {
            days,
            exclude_today: true,
        } => (ago(days), ago(1)),
        Window::Last {
            days,
            exclude_today: false,
        } => (ago(days.saturating_sub(1)), today),
        Window::Between {
            from_days_ago,
            to_days_ago,
        } => (ago(from_days_ago), ago(to_days_ago)),
    }
}

pub use crate::zones::today;

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    const TODAY: Date = date!(2026 - 11 - 27);

    #[test]
    fn last_days_exclude_today_by_default() {
        let w: Window = serde_json::from_str(r#"{"type": "last", "days": 7}"#).unwrap();
        assert_eq!(
            days(&w, TODAY),
            (date!(2026 - 11 - 20), date!(2026 - 11 - 26))
        );
    }

    #[test]
    fn last_days_with_today_end_today() {
        let w = Window::Last {
            days: 7,
            exclude_today: false,
        };
        assert_eq!(days(&w, TODAY), (date!(2026 - 11 - 21), TODAY));
        let one = Window::Last {
            days: 1,
            exclude_today: false,
        };
        assert_eq!(days(&one, TODAY), (TODAY, TODAY));
        let yesterday = Window::Last {
            days: 1,
            exclude_today: true,
        };
        assert_eq!(
            days(&yesterday, TODAY),
            (date!(2026 - 11 - 26), date!(2026 - 11 - 26))
        );
    }

    #[test]
    fn between_counts_back_from_today_across_months_and_years() {
        let w = Window::Between {
            from_days_ago: 14,
            to_days_ago: 3,
        };
        assert_eq!(
            days(&w, TODAY),
            (date!(2026 - 11 - 13), date!(2026 - 11 - 24))
        );
        assert_eq!(
            days(&w, date!(2027 - 01 - 05)),
            (date!(2026 - 12 - 22), date!(2027 - 01 - 02))
        );
        let year = Window::Last {
            days: 365,
            exclude_today: true,
        };
        assert_eq!(
            days(&year, date!(2028 - 03 - 01)),
            (date!(2027 - 03 - 02), date!(2028 - 02 - 29))
        );
    }

    #[test]
    fn today_is_the_org_time_zones_date() {
        // 2026-11-27T03:30:00Z: still the 26th in Los Angeles, the 27th in Tokyo and UTC.
        let at = 1_795_750_200;
        assert_eq!(
            today(at, Some("America/Los_Angeles")),
            date!(2026 - 11 - 26)
        );
        assert_eq!(today(at, Some("Asia/Tokyo")), date!(2026 - 11 - 27));
        assert_eq!(today(at, None), date!(2026 - 11 - 27));
        assert_eq!(today(at, Some("Not/AZone")), date!(2026 - 11 - 27));
    }
}
