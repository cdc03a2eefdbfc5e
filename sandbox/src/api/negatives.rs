//! Negative keywords at campaign level (no `adGroupId`) or ad group level: single and bulk
//! create/update/delete, query, get.

use std::sync::Arc;

use axum::Router;
use serde::Deserialize;
use serde_json::Value;

use super::error::ApiError;
use super::writable::{self, Writable};
use super::{entity, non_blank};
use crate::state::Sandbox;
use crate::world::{AdGroup, Campaign, Id, Lifecycle, MatchType, NegativeKeyword, Status, World};

/// Fields `POST /negative-keywords/query` filters and sorts on.
pub const FIELDS: &[&str] = &[
    "id",
    "adAccountId",
    "campaignId",
    "adGroupId",
    "text",
    "matchType",
    "status",
    "creationTime",
    "modificationTime",
    "deleted",
];

pub fn router() -> Router<Arc<Sandbox>> {
    writable::routes::<NegativeKeyword>()
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NegativeCreate {
    campaign_id: Option<i64>,
    ad_group_id: Option<i64>,
    text: String,
    match_type: Option<MatchType>,
    status: Option<Status>,
}

#[derive(Debug, Deserialize)]
pub struct NegativeUpdate {
    id: Option<i64>,
    status: Option<Status>,
}

fn plan_live(w: &World, account: Id, id: Option<Id>) -> Result<Id, ApiError> {
    let id = id.ok_or_else(|| ApiError::required("id"))?;
    entity::live::<NegativeKeyword>(w, account, id)?;
    Ok(id)
}

impl Writable for NegativeKeyword {
    type Create = NegativeCreate;
    type Update = NegativeUpdate;
    type Change = (Id, Option<Status>);
    type Taken = ();

    fn taken(_: &World, _: Id) {}

    fn plan_create(
        w: &World,
        account: Id,
        _: &mut (),
        b: &NegativeCreate,
    ) -> Result<NegativeKeyword, ApiError> {
        non_blank(&b.text, "text")?;
        let (campaign_id, ad_group_id) = match (b.campaign_id, b.ad_group_id) {
            (_, Some(g)) => {
                let group = entity::parent::<AdGroup>(w, account, g, "adGroupId")?;
                if b.campaign_id.is_some_and(|c| c != group.campaign_id) {
                    return Err(ApiError::invalid(
                        "INVALID_VALUE",
                        "campaignId",
                        "campaignId does not own adGroupId",
                    ));
                }
                (group.campaign_id, Some(g))
            }
            (Some(c), None) => {
                entity::parent::<Campaign>(w, account, c, "campaignId")?;
                (c, None)
            }
            (None, None) => return Err(ApiError::required("campaignId")),
        };
        let match_type = b.match_type.unwrap_or(MatchType::Exact);
        if w.negative_keywords.values().any(|n| {
            n.campaign_id == campaign_id
                && n.ad_group_id == ad_group_id
                && !n.life.deleted()
                && n.match_type == match_type
                && n.text.eq_ignore_ascii_case(b.text.trim())
        }) {
            return Err(ApiError::invalid(
                "DUPLICATE_KEYWORD",
                "text",
                format!(
                    "negative keyword {:?} already exists at this level",
                    b.text.trim()
                ),
            ));
        }
        let now = w.now;
        let from = w.effective_day();
        let life = Lifecycle::new(from, b.status.unwrap_or(Status::Enabled), now);
        Ok(NegativeKeyword {
            id: 0,
            campaign_id,
            ad_group_id,
            ad_account_id: account,
            text: b.text.trim().to_string(),
            match_type,
            life,
        })
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
