//! Negative keywords at campaign level (no `adGroupId`) or ad group level: single and bulk
//! create/update/delete, query, get.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::Value;
use time::OffsetDateTime;

use super::bulk::{self, BulkRequest};
use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::{crud, entity, non_blank, parse_id};
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
    crud::bulk_routes::<NegativeKeyword, _, _, _, _>(
        create_one,
        update_one,
        bulk_create,
        bulk_update,
    )
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

fn plan_create(w: &World, account: Id, b: &NegativeCreate) -> Result<NegativeKeyword, ApiError> {
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
    let now = OffsetDateTime::now_utc();
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

fn insert(w: &mut World, mut n: NegativeKeyword) -> Value {
    n.id = w.next_id();
    entity::insert(w, n.id, n)
}

fn plan_live(w: &World, account: Id, id: Option<Id>) -> Result<Id, ApiError> {
    let id = id.ok_or_else(|| ApiError::required("id"))?;
    entity::live::<NegativeKeyword>(w, account, id)?;
    Ok(id)
}

fn apply_update(w: &mut World, (id, status): (Id, Option<Status>)) -> Value {
    entity::modify(w, id, |n: &mut NegativeKeyword, from| {
        if let Some(s) = status {
            n.life.status.set(from, s);
        }
    })
}

async fn create_one(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<NegativeCreate>,
) -> Result<Json<Value>, ApiError> {
    bulk::write_one(&s, |w| plan_create(w, ctx.0, &b), insert)
}

async fn update_one(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
    Body(b): Body<NegativeUpdate>,
) -> Result<Json<Value>, ApiError> {
    bulk::write_one(
        &s,
        |w| {
            let id = plan_live(w, ctx.0, Some(parse_id(&id, "negative keyword")?))?;
            Ok((id, b.status))
        },
        apply_update,
    )
}

async fn bulk_create(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<BulkRequest<NegativeCreate>>,
) -> Result<Json<Value>, ApiError> {
    bulk::write(
        &s,
        b,
        "CREATE",
        |w, item| plan_create(w, ctx.0, item),
        insert,
    )
}

async fn bulk_update(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<BulkRequest<NegativeUpdate>>,
) -> Result<Json<Value>, ApiError> {
    bulk::write(
        &s,
        b,
        "UPDATE",
        |w, item| plan_live(w, ctx.0, item.id).map(|id| (id, item.status)),
        apply_update,
    )
}
