//! `apply-negative-lists`: makes Apple's negative keywords at some places match the
//! workspace's negative keyword lists (docs/api/creation.md "Negative keyword lists",
//! docs/sync-and-jobs.md). The list routes enqueue it when a list with places is saved,
//! edited or deleted, naming every place whose lists changed (the old places too); the
//! handler is `searchdeck_workers::jobs::apply_negative_lists`.
//!
//! The payload names places, not terms: at each place the job reads what the lists hold
//! *now* and what Apple holds *now*, creates what is missing and deletes what a list created
//! there that no list holds any more. So a rerun (after a crash, or a second save) converges
//! on the same negatives and sends nothing twice.
//!
//! Also the conflict rule the routes' `dryRun` uses ([`blocks`]): which negative terms would
//! stop a keyword from serving.

use serde::{Deserialize, Serialize};

use crate::queue::Job;

/// Payload of `apply-negative-lists`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ApplyNegativeLists {
    pub workspace_id: String,
    pub user_id: Option<String>,
    /// The list whose save started the job (None after a deletion).
    pub list_id: Option<String>,
    /// Every place to bring in line with the lists.
    pub places: Vec<PlaceRef>,
}

/// A place: campaign `campaign_id` of campaign group `org_id` through connection
/// `account_id`, at campaign level or in ad group `ad_group_id`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "camelCase")]
pub struct PlaceRef {
    pub account_id: String,
    #[serde(with = "crate::ids::string_id")]
    pub org_id: i64,
    #[serde(with = "crate::ids::string_id")]
    pub campaign_id: i64,
    #[serde(default, with = "crate::ids::string_id::option")]
    pub ad_group_id: Option<i64>,
}

/// The task details of `apply-negative-lists`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApplyProgress {
    pub places_done: u64,
    pub places_total: u64,
    /// Negatives created at Apple by this run.
    pub created: u64,
    /// Negatives deleted at Apple by this run.
    pub deleted: u64,
    /// Places or terms Apple refused, with its message; they do not stop the rest.
    pub errors: Vec<PlaceError>,
}

/// A refusal at one place.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlaceError {
    #[serde(with = "crate::ids::string_id")]
    #[schema(value_type = String)]
    pub campaign_id: i64,
    #[serde(default, with = "crate::ids::string_id::option")]
    #[schema(value_type = Option<String>)]
    pub ad_group_id: Option<i64>,
    /// The term refused, when one was.
    pub text: Option<String>,
    pub message: String,
}

impl Job for ApplyNegativeLists {
    const KIND: &'static str = "apply-negative-lists";
    const MAX_ATTEMPTS: u32 = 5;
    type Progress = ApplyProgress;
}

/// Whether negative `text` of `match_type` would block keyword `keyword` (texts as
/// docs/product.md#5-keyword-lists cleans them): an EXACT negative equal to the keyword, a BROAD
/// negative whose every word is a word of the keyword.
pub fn blocks(text: &str, match_type: &str, keyword: &str) -> bool {
    let negative = crate::suggester::text::clean(text);
    let keyword = crate::suggester::text::clean(keyword);
    if negative.is_empty() {
        return false;
    }
    if match_type.eq_ignore_ascii_case("BROAD") {
        let words: Vec<&str> = keyword.split(' ').collect();
        negative.split(' ').all(|w| words.contains(&w))
    } else {
        negative == keyword
    }
}

#[cfg(test)]
mod tests {
    use super::blocks;

    #[test]
    fn exact_blocks_equal_texts_and_broad_blocks_by_words() {
        assert!(blocks("free", "EXACT", "Free"));
        assert!(!blocks("free", "EXACT", "free games"));
        assert!(blocks("free", "BROAD", "free games"));
        assert!(blocks("games free", "BROAD", "free puzzle games"));
        assert!(!blocks("free games", "BROAD", "free puzzle"));
        assert!(!blocks("", "BROAD", "free"));
    }
}
