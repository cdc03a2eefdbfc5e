//! What a collection answers: the [`Keyword`] items (docs/api/suggester.md, "`Keyword`"),
//! the phases the task's message walks through (docs/product.md#2-keyword-suggester progress
//! messages, in order) and the task's details while it runs.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where a candidate came from.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "camelCase")]
pub enum SourceType {
    /// A required keyword of the payload.
    Required,
    /// App Store search hints.
    Hint,
    /// The app's own store metadata.
    App,
    /// A competitor's store metadata or brand.
    Competitor,
    /// Combined from terms ('Doing some magic...').
    Phrase,
    /// Apple Ads keyword, phrase and category suggestions.
    Apple,
    /// The campaign group's own search terms with traffic.
    SearchTerm,
}

/// One source of a keyword; a competitor's carries the competitor.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Source {
    #[serde(rename = "type")]
    pub kind: SourceType,
    /// The competitor's App Store id (type `competitor`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adam_id: Option<String>,
    /// The competitor's name (type `competitor`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Source {
    /// A source without a competitor.
    pub fn of(kind: SourceType) -> Self {
        Source {
            kind,
            adam_id: None,
            name: None,
        }
    }

    /// Competitor `adam_id` named `name`.
    pub fn competitor(adam_id: i64, name: &str) -> Self {
        Source {
            kind: SourceType::Competitor,
            adam_id: Some(adam_id.to_string()),
            name: Some(name.to_string()),
        }
    }
}

/// An ad group of the campaign group that already bids on the keyword.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BidOn {
    pub campaign_id: String,
    pub campaign_name: String,
    pub ad_group_id: String,
    pub ad_group_name: String,
    /// EXACT or BROAD.
    pub match_type: String,
}

/// A campaign (ad group null) or ad group where the keyword is already a negative.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NegatedIn {
    pub campaign_id: String,
    pub campaign_name: String,
    pub ad_group_id: Option<String>,
}

/// One collected keyword.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Keyword {
    /// The text, as spec §5 keeps it (lower-case, no punctuation).
    pub name: String,
    /// Apple's search popularity 1–100; null when Apple has none.
    pub popularity: Option<u8>,
    /// The 1–5 scale Apple's UI shows; null with `popularity`.
    pub apple_popularity: Option<u8>,
    /// Estimated daily impressions (0 when none).
    pub impressions: i64,
    pub sources: Vec<Source>,
    /// A required keyword of the payload.
    pub required: bool,
    pub bid_on: Vec<BidOn>,
    pub negated_in: Vec<NegatedIn>,
}

/// Apple's 1–5 scale of a 1–100 popularity: 1–20 → 1, 21–40 → 2, …, 81–100 → 5.
pub fn apple_popularity(popularity: u8) -> u8 {
    popularity.clamp(1, 100).div_ceil(20)
}

/// Items sorted as answered: popularity descending (none last), then name.
pub fn sort(items: &mut [Keyword]) {
    items.sort_by(|a, b| {
        b.popularity
            .cmp(&a.popularity)
            .then_with(|| a.name.cmp(&b.name))
    });
}

/// The phases of a collection, in order; the task's message is the running one's and its
/// step the phase's number (docs/product.md#2-keyword-suggester progress messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    AppStoreSuggestions = 1,
    ExploringApp = 2,
    ExploringCompetitors = 3,
    Magic = 4,
    CollectingResults = 5,
    Popularity = 6,
    Excluding = 7,
}

/// The message of a finished collection.
pub const COMPLETED: &str = "Keywords collecting completed!";
/// The error (and message) of a stopped collection.
pub const STOPPED: &str = "Stopped";
/// What a failed collection answers (docs/product.md#8-suggester-failure).
pub const FAILED: &str = "Something went wrong";
/// The task's `totalSteps`.
pub const TOTAL_STEPS: i64 = 7;

impl Phase {
    /// Every phase, in order.
    pub const ALL: [Phase; 7] = [
        Phase::AppStoreSuggestions,
        Phase::ExploringApp,
        Phase::ExploringCompetitors,
        Phase::Magic,
        Phase::CollectingResults,
        Phase::Popularity,
        Phase::Excluding,
    ];

    /// The progress message of docs/product.md#2-keyword-suggester.
    pub fn message(self) -> &'static str {
        match self {
            Phase::AppStoreSuggestions => "Looking for App Store suggestions",
            Phase::ExploringApp => "Exploring your app...",
            Phase::ExploringCompetitors => "Exploring your competitors...",
            Phase::Magic => "Doing some magic...",
            Phase::CollectingResults => "Collecting results...",
            Phase::Popularity => "Getting Search Ads Popularity for all keywords...",
            Phase::Excluding => "Excluding keywords without traffic...",
        }
    }

    /// The task's step while this phase runs (1–7).
    pub fn step(self) -> i64 {
        self as i64
    }
}

/// The task's details while a collection runs, and once it ends.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CollectProgress {
    /// Distinct candidates found so far.
    pub candidates: u64,
    /// Set when the collection was stopped.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stopped: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_are_in_the_spec_order_with_its_messages() {
        let steps: Vec<i64> = Phase::ALL.iter().map(|p| p.step()).collect();
        assert_eq!(steps, (1..=TOTAL_STEPS).collect::<Vec<_>>());
        assert_eq!(Phase::Magic.message(), "Doing some magic...");
        assert_eq!(Phase::ALL[0].message(), "Looking for App Store suggestions");
    }

    #[test]
    fn apple_popularity_has_five_bands() {
        let bands: Vec<u8> = [1, 20, 21, 40, 41, 60, 61, 80, 81, 100]
            .iter()
            .map(|p| apple_popularity(*p))
            .collect();
        assert_eq!(bands, vec![1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    }

    #[test]
    fn items_sort_by_popularity_then_name() {
        let k = |name: &str, popularity| Keyword {
            name: name.into(),
            popularity,
            apple_popularity: popularity.map(apple_popularity),
            impressions: 0,
            sources: vec![],
            required: false,
            bid_on: vec![],
            negated_in: vec![],
        };
        let mut items = vec![
            k("b", Some(5)),
            k("z", None),
            k("a", Some(5)),
            k("c", Some(90)),
        ];
        sort(&mut items);
        let names: Vec<&str> = items.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, vec!["c", "a", "b", "z"]);
        let json = serde_json::to_value(Source::competitor(12, "Snap")).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"type": "competitor", "adamId": "12", "name": "Snap"})
        );
    }
}
