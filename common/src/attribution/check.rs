//! The install check of an integration (docs/api/attribution.md "Install check"): the
//! installs a provider attributed over the last seven complete days against the installs
//! Apple reports for the workspace's campaigns, and what a gap most likely means. Pure: the
//! caller reads the four counts.

use serde::Serialize;

/// Days the check covers, ending yesterday.
pub const DAYS: i64 = 7;

/// Below this share of Apple's installs the check warns.
pub const LOW_RATE: f64 = 0.5;

/// Apple installs the check needs before it judges a rate (fewer say too little).
pub const MIN_APPLE_INSTALLS: i64 = 20;

/// The counts the check compares.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Installs the provider attributed.
    pub tracked: i64,
    /// Of those, installs that named a keyword.
    pub tracked_with_keyword: i64,
    /// Installs Apple reports.
    pub apple: i64,
    /// Of those, installs Apple's keywords won (not Search Match).
    pub apple_keyword: i64,
    /// Events the provider sent in the last 24 hours.
    pub events_last_day: i64,
}

/// What the check found, with a sentence saying what to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Finding {
    /// Apple reports installs and the provider sent nothing for a day.
    NoPostbacks,
    /// Installs arrive, never with a keyword, though Apple's keywords won installs.
    NoKeywords,
    /// Far fewer installs arrive than Apple reports.
    LowRate,
}

impl Finding {
    /// What the integration screen says.
    pub fn message(self, provider: &str) -> String {
        match self {
            Finding::NoPostbacks => format!(
                "No postbacks from {provider} in the last 24 hours while Apple Ads reports installs: check that the postback URL is pasted in {provider} and enabled for installs and events."
            ),
            Finding::NoKeywords => format!(
                "Installs from {provider} arrive without keyword ids: it is sending the standard Apple Ads attribution payload. Turn on detailed (keyword-level) Apple Ads attribution in {provider}."
            ),
            Finding::LowRate => format!(
                "Fewer than half of Apple's installs arrive from {provider}. Apple no longer attributes installs of ad groups targeting age or gender (since September 2026); otherwise the app's SDK or the postbacks of some events may be broken."
            ),
        }
    }
}

/// What `counts` most likely means (None: nothing to say, or too little to judge). The
/// first cause found wins, in the order a user should look.
pub fn diagnose(c: Counts) -> Option<Finding> {
    if c.apple == 0 {
        return None;
    }
    if c.events_last_day == 0 {
        return Some(Finding::NoPostbacks);
    }
    if c.tracked > 0 && c.tracked_with_keyword == 0 && c.apple_keyword > 0 {
        return Some(Finding::NoKeywords);
    }
    if c.apple >= MIN_APPLE_INSTALLS && (c.tracked as f64) < LOW_RATE * c.apple as f64 {
        return Some(Finding::LowRate);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(tracked: i64, with_keyword: i64, apple: i64, events: i64) -> Counts {
        Counts {
            tracked,
            tracked_with_keyword: with_keyword,
            apple,
            apple_keyword: apple / 2,
            events_last_day: events,
        }
    }

    #[test]
    fn a_gap_says_its_likeliest_cause() {
        assert_eq!(
            diagnose(counts(0, 0, 0, 0)),
            None,
            "nothing to compare with"
        );
        assert_eq!(diagnose(counts(0, 0, 100, 0)), Some(Finding::NoPostbacks));
        assert_eq!(diagnose(counts(90, 0, 100, 5)), Some(Finding::NoKeywords));
        assert_eq!(diagnose(counts(30, 20, 100, 5)), Some(Finding::LowRate));
        assert_eq!(diagnose(counts(80, 40, 100, 5)), None);
        assert_eq!(
            diagnose(counts(3, 2, 10, 5)),
            None,
            "too few installs to judge"
        );
        assert!(Finding::NoKeywords.message("Adjust").contains("Adjust"));
    }
}
