//! The wire types of the suggester's other inputs and of recommendations ([`crate::AppleAds`]): phrase and
//! category suggestions (`POST /suggestions/{phrases,categories}/query`), app details
//! (`GET /apps/{adamId}`), and daily budget / target CPA recommendations
//! (`POST /recommendations/{daily-budgets,target-cpas}/{query,apply,dismiss}`).

use serde::Deserialize;
use serde_json::{Value, json};

/// A seed phrase with its popularity.
#[derive(Debug, Clone, Deserialize)]
pub struct PhraseSuggestion {
    pub phrase: String,
    pub popularity: u8,
}

/// An App Store category with its popularity.
#[derive(Debug, Clone, Deserialize)]
pub struct CategorySuggestion {
    pub category: String,
    pub popularity: u8,
}

/// The recommendation families.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recommendation {
    DailyBudgets,
    TargetCpas,
}

impl Recommendation {
    /// The family's path.
    pub(crate) fn path(self) -> &'static str {
        match self {
            Recommendation::DailyBudgets => "/recommendations/daily-budgets",
            Recommendation::TargetCpas => "/recommendations/target-cpas",
        }
    }
}

/// The required filters of a `RecommendationQueryRequest`: an app's adamId or a campaign id.
pub fn promoted(promoted_object_id: &str) -> Vec<Value> {
    vec![
        json!({ "field": "promotedObjectId", "operator": "EQUALS", "value": [promoted_object_id] }),
        json!({ "field": "promotedObjectType", "operator": "EQUALS", "value": ["APPSTORE_APP"] }),
    ]
}
