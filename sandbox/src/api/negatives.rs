//! Negative keywords at campaign level (no `adGroupId`) or ad group level: single and bulk
//! create/update/delete, query, get.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::Value;
use time::OffsetDateTime;

use super::bulk::{self, BulkRequest};
use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::keywords::fill;
use super::query::{self, QueryRequest};
use super::{adgroups, campaigns, non_blank, ok, parse_id, render};
use crate::state::Sandbox;
use crate::world::timeline::Timeline;
use crate::world::{Id, Lifecycle, MatchType, NegativeKeyword, Status, World};

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
    Router::new()
        .route("/negative-keywords", post(create_one))
        .route("/negative-keywords/query", post(query))
        .route("/negative-keywords/bulk-create", post(bulk_create))
        .route("/negative-keywords/bulk-update", post(bulk_update))
        .route("/negative-keywords/bulk-delete", post(bulk_delete))
        .route(
            "/negative-keywords/{id}",
            get(get_one).put(update_one).delete(delete_one),
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

#[derive(Debug, Deserialize)]
pub struct IdOnly {
    id: i64,
}

fn find(w: &World, account: Id, id: Id) -> Result<&NegativeKeyword, ApiError> {
    w.negative_keywords
        .get(&id)
        .filter(|n| n.ad_account_id == account)
        .ok_or_else(|| ApiError::not_found("negative keyword", id))
}

fn plan_create(w: &World, account: Id, b: &NegativeCreate) -> Result<NegativeKeyword, ApiError> {
    non_blank(&b.text, "text")?;
    let (campaign_id, ad_group_id) = match (b.campaign_id, b.ad_group_id) {
        (_, Some(g)) => {
            let group = adgroups::find(w, account, g).map_err(|_| {
                ApiError::invalid(
                    "INVALID_VALUE",
                    "adGroupId",
                    format!("ad group {g} not found"),
                )
            })?;
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
            campaigns::find(w, account, c).map_err(|_| {
                ApiError::invalid(
                    "INVALID_VALUE",
                    "campaignId",
                    format!("campaign {c} not found"),
                )
            })?;
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
    let life = Lifecycle {
        status: Timeline::new(from, b.status.unwrap_or(Status::Enabled)),
        created: now,
        modified: now,
        serving_from: from,
        deleted_on: None,
    };
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
    let id = n.id;
    w.negative_keywords.insert(id, n);
    let after = render::negative_keyword(&w.negative_keywords[&id]);
    w.record("NegativeKeyword", None, &after);
    after
}

fn plan_live(w: &World, account: Id, id: Option<Id>) -> Result<Id, ApiError> {
    let id = id.ok_or_else(|| ApiError::required("id"))?;
    if find(w, account, id)?.life.deleted() {
        return Err(ApiError::invalid(
            "ENTITY_DELETED",
            "id",
            format!("negative keyword {id} is deleted"),
        ));
    }
    Ok(id)
}

fn apply_update(w: &mut World, id: Id, status: Option<Status>) -> Value {
    let before = render::negative_keyword(&w.negative_keywords[&id]);
    let from = w.effective_day();
    let n = w.negative_keywords.get_mut(&id).expect("planned");
    if let Some(s) = status {
        n.life.status.set(from, s);
    }
    n.life.modified = OffsetDateTime::now_utc();
    let after = render::negative_keyword(n);
    w.record("NegativeKeyword", Some(&before), &after);
    after
}

fn apply_delete(w: &mut World, id: Id) -> Value {
    let before = render::negative_keyword(&w.negative_keywords[&id]);
    let from = w.effective_day();
    let n = w.negative_keywords.get_mut(&id).expect("planned");
    n.life.deleted_on = Some(from);
    n.life.modified = OffsetDateTime::now_utc();
    let after = render::negative_keyword(n);
    w.record("NegativeKeyword", Some(&before), &after);
    after
}

async fn get_one(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    Ok(ok(render::negative_keyword(find(
        &w,
        ctx.0,
        parse_id(&id, "negative keyword")?,
    )?)))
}

async fn query(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(q): Body<QueryRequest>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    let items = w
        .negative_keywords
        .values()
        .filter(|n| n.ad_account_id == ctx.0)
        .map(render::negative_keyword)
        .collect();
    Ok(Json(query::run(&q, items, FIELDS)?))
}

async fn create_one(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<NegativeCreate>,
) -> Result<Json<Value>, ApiError> {
    let mut w = s.world.write();
    w.begin_txn();
    let n = plan_create(&w, ctx.0, &b)?;
    Ok(ok(insert(&mut w, n)))
}

async fn update_one(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
    Body(b): Body<NegativeUpdate>,
) -> Result<Json<Value>, ApiError> {
    let mut w = s.world.write();
    w.begin_txn();
    let id = plan_live(&w, ctx.0, Some(parse_id(&id, "negative keyword")?))?;
    Ok(ok(apply_update(&mut w, id, b.status)))
}

async fn delete_one(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let mut w = s.world.write();
    w.begin_txn();
    let id = plan_live(&w, ctx.0, Some(parse_id(&id, "negative keyword")?))?;
    apply_delete(&mut w, id);
    Ok(ok(Value::Null))
}

async fn bulk_create(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<BulkRequest<NegativeCreate>>,
) -> Result<Json<Value>, ApiError> {
    let mut w = s.world.write();
    w.begin_txn();
    let mut plans = Vec::new();
    let mut body = bulk::run(
        b,
        "CREATE",
        |item| plan_create(&w, ctx.0, item),
        |n| {
            plans.push(n);
            Value::Null
        },
    )?;
    fill(&mut body, plans.into_iter().map(|n| insert(&mut w, n)));
    Ok(Json(body))
}

async fn bulk_update(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<BulkRequest<NegativeUpdate>>,
) -> Result<Json<Value>, ApiError> {
    let mut w = s.world.write();
    w.begin_txn();
    let mut plans = Vec::new();
    let mut body = bulk::run(
        b,
        "UPDATE",
        |item| plan_live(&w, ctx.0, item.id).map(|id| (id, item.status)),
        |p| {
            plans.push(p);
            Value::Null
        },
    )?;
    fill(
        &mut body,
        plans
            .into_iter()
            .map(|(id, status)| apply_update(&mut w, id, status)),
    );
    Ok(Json(body))
}

async fn bulk_delete(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<BulkRequest<IdOnly>>,
) -> Result<Json<Value>, ApiError> {
    let mut w = s.world.write();
    w.begin_txn();
    let mut plans = Vec::new();
    let mut body = bulk::run(
        b,
        "DELETE",
        |item| plan_live(&w, ctx.0, Some(item.id)),
        |id| {
            plans.push(id);
            Value::Null
        },
    )?;
    fill(
        &mut body,
        plans.into_iter().map(|id| apply_delete(&mut w, id)),
    );
    Ok(Json(body))
}
