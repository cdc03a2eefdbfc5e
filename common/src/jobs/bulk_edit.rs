//! `bulk-edit`: one field of many entities of one level changed at Apple Ads (issue 10; the
//! bulk routes of `api/src/routes/edits` enqueue it — updates, renames, deletions, added
//! negative keywords; handler in `searchdeck_workers::jobs::bulk_edit`).
//!
//! The route resolves every item in the caller's workspace and computes each item's new value
//! from OUR stored current value once, before enqueueing: a raise by 10 % becomes "set to
//! 1.65" in the payload. The job only ever sends absolute values, so a retry after a crash
//! (or a sync that wrote the provider's new value in between) can never apply a relative
//! change twice: an item already at its target is skipped, or reported applied when this
//! job's change record says it made it so.

use serde::{Deserialize, Serialize};

use crate::queue::Job;

/// Most items one bulk edit takes.
pub const MAX_ITEMS: usize = 10_000;

/// Payload of `bulk-edit`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct BulkEdit {
    /// Who asked, for the change records.
    pub workspace_id: String,
    pub user_id: Option<String>,
    pub user_email: Option<String>,
    /// The connection and campaign group (`sync_orgs.org_key`, Apple's org id) of every item.
    pub account_id: String,
    pub org_key: i64,
    #[serde(with = "crate::ids::string_id")]
    pub org_id: i64,
    /// The campaign group's currency, which money values are in.
    pub currency: Option<String>,
    /// CAMPAIGN, AD_GROUP, KEYWORD or NEGATIVE_KEYWORD.
    pub level: String,
    /// The table's column: `dailyBudget`, `defaultBidAmount`, `cpaGoal`, `cptBid`, `status`,
    /// `name` (a rename); or [`DELETED`] (a deletion) or [`CREATED`] (negative keywords
    /// added: each item's [`BulkEditItem::negative`]).
    pub field: String,
    /// What was asked, as shown on the task (e.g. "Raise by 10 %").
    pub operation: String,
    pub items: Vec<BulkEditItem>,
}

/// The field of a deletion: items end with `target` "true".
pub const DELETED: &str = "deleted";
/// The field of added negative keywords.
pub const CREATED: &str = "created";

/// One entity of a bulk edit and the value it must end with.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct BulkEditItem {
    /// Apple's id of the entity (of a negative keyword to add: 0 until created).
    #[serde(with = "crate::ids::string_id")]
    pub id: i64,
    /// The new value as change records write it (money an exact decimal such as `"1.65"`,
    /// statuses `ENABLED` / `PAUSED`); None when no value could be computed (see `note`).
    pub target: Option<String>,
    /// Why no target was computed (e.g. no current value to raise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The negative keyword to add (field [`CREATED`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub negative: Option<NewNegative>,
}

impl BulkEditItem {
    /// Item `id` to end at `target`.
    pub fn to(id: i64, target: Option<String>) -> Self {
        BulkEditItem {
            id,
            target,
            note: None,
            negative: None,
        }
    }
}

/// A negative keyword to add: campaign level (no ad group) or ad group level.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "camelCase")]
pub struct NewNegative {
    #[serde(with = "crate::ids::string_id")]
    pub campaign_id: i64,
    #[serde(default, with = "crate::ids::string_id::option")]
    pub ad_group_id: Option<i64>,
    pub text: String,
    /// EXACT or BROAD.
    pub match_type: String,
}

impl NewNegative {
    /// What makes two negatives the same at Apple Ads: level, text (any case), match type.
    pub fn key(&self) -> (i64, Option<i64>, String, String) {
        (
            self.campaign_id,
            self.ad_group_id,
            self.text.to_lowercase(),
            self.match_type.clone(),
        )
    }
}

/// How one item ended.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Changed at Apple Ads (and in our database, with a change record).
    Applied,
    /// Apple Ads refused it; `message` says why.
    Refused,
    /// Nothing to send: already at the value, gone, or no value to compute from.
    Skipped,
}

/// The result of one item, listed in the task's details.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ItemResult {
    #[serde(with = "crate::ids::string_id")]
    #[schema(value_type = String)]
    pub id: i64,
    /// An added negative keyword's text (its id is known once created).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    pub result: Outcome,
    pub old_value: Option<String>,
    pub new_value: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Progress and final details of `bulk-edit`: counts, every item's result, and the refused
/// ones again as `errors`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkEditProgress {
    pub level: String,
    pub field: String,
    pub operation: String,
    pub total: u64,
    pub done: u64,
    pub applied: u64,
    pub refused: u64,
    pub skipped: u64,
    pub items: Vec<ItemResult>,
    pub errors: Vec<ItemResult>,
}

impl BulkEditProgress {
    /// Counts and lists one item's result.
    pub fn push(&mut self, r: ItemResult) {
        self.done += 1;
        match r.result {
            Outcome::Applied => self.applied += 1,
            Outcome::Refused => {
                self.refused += 1;
                self.errors.push(r.clone());
            }
            Outcome::Skipped => self.skipped += 1,
        }
        self.items.push(r);
    }
}

impl Job for BulkEdit {
    const KIND: &'static str = "bulk-edit";
    // Every run resumes: items already at their target are not sent again.
    const MAX_ATTEMPTS: u32 = 10;
    type Progress = BulkEditProgress;
}

/// `micros` as an exact decimal (`"1.65"`), as change records and targets write money.
pub fn money_text(micros: Option<i64>) -> Option<String> {
    micros.map(|m| rust_decimal::Decimal::new(m, 6).normalize().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_counted_and_refusals_listed() {
        let mut p = BulkEditProgress::default();
        for (id, result) in [
            (1, Outcome::Applied),
            (2, Outcome::Refused),
            (3, Outcome::Skipped),
        ] {
            p.push(ItemResult {
                id,
                text: None,
                result,
                old_value: None,
                new_value: None,
                message: None,
            });
        }
        assert_eq!((p.done, p.applied, p.refused, p.skipped), (3, 1, 1, 1));
        assert_eq!(p.errors.len(), 1);
        assert_eq!(p.errors[0].id, 2);
        assert_eq!(money_text(Some(1_650_000)), Some("1.65".into()));
        assert_eq!(money_text(Some(2_000_000)), Some("2".into()));
    }
}
