//! Negative keywords at campaign level (`campaignId` only) or ad group level (`adGroupId`
//! only): single and bulk create/update/delete, query, get. Duplicates per level are
//! refused, within one bulk request too.

use std::collections::HashSet;
use std::sync::Arc;

use axum::Router;
use serde::Deserialize;
use serde_json::Value;

use super::entity;
use super::error::ApiError;
use super::rules::{self, MatchTypeIn};
use super::writable::{self, Writable};
use crate::state::Sandbox;
use crate::world::{AdGroup, Campaign, Id, Lifecycle, MatchType, NegativeKeyword, Status, World};

pub fn router() -> Router<Arc<Sandbox>> {
    writable::routes::<NegativeKeyword>()
}

/// `NegativeKeywordCreate` / `BulkNegativeKeywordCreate`, closed.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NegativeCreate {
    campaign_id: Option<i64>,
    ad_group_id: Option<i64>,
    text: String,
    match_type: Option<MatchTypeIn>,
    status: Option<Status>,
}

/// `NegativeKeywordUpdate` / `BulkNegativeKeywordUpdate` (which names the `id`), closed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NegativeUpdate {
    id: Option<i64>,
    status: Option<Status>,
}

fn plan_live(w: &World, account: Id, id: Option<Id>) -> Result<Id, ApiError> {
    let id = id.ok_or_else(|| ApiError::required("id"))?;
    entity::live::<NegativeKeyword>(w, account, id)?;
    Ok(id)
}

/// The key a negative keyword is unique by: level (campaign, ad group), text, match type.
type Key = (Id, Option<Id>, String, &'static str);

fn key(n: &NegativeKeyword) -> Key {
    (
        n.campaign_id,
        n.ad_group_id,
        n.text.to_lowercase(),
        n.match_type.as_str(),
    )
}

/// The (campaign, ad group) level a create names: exactly one of `campaignId` (campaign
/// level) or `adGroupId` (ad group level).
fn level(w: &World, account: Id, b: &NegativeCreate) -> Result<(Id, Option<Id>), ApiError> {
    match (b.campaign_id, b.ad_group_id) {
        (Some(_), Some(_)) => Err(ApiError::invalid(
            "INVALID_LEVEL",
            "adGroupId",
            "a negative keyword belongs to a campaign or to an ad group: give campaignId or adGroupId, not both",
        )),
        (None, Some(g)) => {
            let group = entity::live_parent::<AdGroup>(w, account, g, "adGroupId")?;
            Ok((group.campaign_id, Some(g)))
        }
        (Some(c), None) => {
            entity::live_parent::<Campaign>(w, account, c, "campaignId")?;
            Ok((c, None))
        }
        (None, None) => Err(ApiError::invalid(
            "FIELD_REQUIRED",
            "campaignId",
            "campaignId (campaign level) or adGroupId (ad group level) is required",
        )),
    }
}

impl Writable for NegativeKeyword {
    type Create = NegativeCreate;
    type Update = NegativeUpdate;
    type Change = (Id, Option<Status>);
    type Taken = HashSet<Key>;

    fn taken(w: &World, account: Id) -> HashSet<Key> {
        w.negative_keywords
            .values()
            .filter(|n| n.ad_account_id == account && !n.life.deleted())
            .map(key)
            .collect()
    }

    fn plan_create(
        w: &World,
        account: Id,
        taken: &mut HashSet<Key>,
        b: &NegativeCreate,
    ) -> Result<NegativeKeyword, ApiError> {
        rules::keyword_text(&b.text)?;
        let (campaign_id, ad_group_id) = level(w, account, b)?;
        let match_type = b
            .match_type
            .map_or(Ok(MatchType::Exact), |m| m.simulated("matchType"))?;
        let now = w.now;
        let from = w.effective_day(account);
        let life = Lifecycle::new(from, b.status.unwrap_or(Status::Enabled), now);
        let negative = NegativeKeyword {
            id: 0,
            campaign_id,
            ad_group_id,
            ad_account_id: account,
            text: b.text.trim().to_string(),
            match_type,
            life,
        };
        if !taken.insert(key(&negative)) {
            return Err(ApiError::invalid(
                "DUPLICATE_KEYWORD",
                "text",
                format!(
                    "negative keyword {:?} ({}) is repeated or already exists at this level",
                    negative.text,
                    match_type.as_str()
                ),
            ));
        }
        Ok(negative)
    }

    fn update_id(b: &NegativeUpdate) -> Option<Id> {
        b.id
    }

    fn plan_update(
        w: &World,
        account: Id,
        id: Option<Id>,
        b: &NegativeUpdate,
    ) -> Result<Self::Change, ApiError> {
        plan_live(w, account, id).map(|id| (id, b.status))
    }

    fn apply_update(w: &mut World, (id, status): Self::Change) -> Value {
        entity::modify(w, id, |n: &mut NegativeKeyword, from| {
            if let Some(s) = status {
                n.life.status.set(from, s);
            }
        })
    }
}
