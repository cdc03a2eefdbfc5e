//! Keywords: single and bulk create/update/delete, query, get. A new keyword serves from
//! the next simulated day; bid and status changes apply from then on.

use std::collections::HashSet;
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
use super::query::{self, QueryRequest};
use super::{MoneyIn, adgroups, non_blank, ok, parse_id, render};
use crate::state::Sandbox;
use crate::world::timeline::Timeline;
use crate::world::{Id, Keyword, Lifecycle, MatchType, Status, World};

/// Fields `POST /keywords/query` filters and sorts on.
pub const FIELDS: &[&str] = &[
    "id",
    "adAccountId",
    "campaignId",
    "adGroupId",
    "text",
    "matchType",
    "bid",
    "status",
    "displayStatus",
    "creationTime",
    "modificationTime",
    "deleted",
];

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route("/keywords", post(create_one))
        .route("/keywords/query", post(query))
        .route("/keywords/bulk-create", post(bulk_create))
        .route("/keywords/bulk-update", post(bulk_update))
        .route("/keywords/bulk-delete", post(bulk_delete))
        .route(
            "/keywords/{id}",
            get(get_one).put(update_one).delete(delete_one),
        )
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeywordCreate {
    ad_group_id: i64,
    text: String,
    match_type: Option<MatchType>,
    bid: Option<MoneyIn>,
    status: Option<Status>,
}

#[derive(Debug, Deserialize)]
pub struct KeywordUpdate {
    id: Option<i64>,
    bid: Option<MoneyIn>,
    status: Option<Status>,
}

#[derive(Debug, Deserialize)]
pub struct IdOnly {
    id: i64,
}

/// A checked keyword update.
struct Change {
    id: Id,
    bid: Option<i64>,
    status: Option<Status>,
}

fn find(w: &World, account: Id, id: Id) -> Result<&Keyword, ApiError> {
    w.keywords
        .get(&id)
        .filter(|k| k.ad_account_id == account)
        .ok_or_else(|| ApiError::not_found("keyword", id))
}

/// Keys of live keywords, to refuse duplicates in an ad group.
fn existing(w: &World, account: Id) -> HashSet<(Id, String, &'static str)> {
    w.keywords
        .values()
        .filter(|k| k.ad_account_id == account && !k.life.deleted())
        .map(|k| (k.ad_group_id, k.text.to_lowercase(), k.match_type.as_str()))
        .collect()
}

fn plan_create(
    w: &World,
    account: Id,
    seen: &mut HashSet<(Id, String, &'static str)>,
    b: &KeywordCreate,
) -> Result<Keyword, ApiError> {
    non_blank(&b.text, "text")?;
    if b.text.chars().count() > 80 {
        return Err(ApiError::invalid(
            "INVALID_VALUE",
            "text",
            "text must be at most 80 characters",
        ));
    }
    let group = adgroups::find(w, account, b.ad_group_id).map_err(|_| {
        ApiError::invalid(
            "INVALID_VALUE",
            "adGroupId",
            format!("ad group {} not found", b.ad_group_id),
        )
    })?;
    if group.life.deleted() {
        return Err(ApiError::invalid(
            "ENTITY_DELETED",
            "adGroupId",
            "the ad group is deleted",
        ));
    }
    let match_type = b.match_type.unwrap_or(MatchType::Broad);
    if !seen.insert((b.ad_group_id, b.text.to_lowercase(), match_type.as_str())) {
        return Err(ApiError::invalid(
            "DUPLICATE_KEYWORD",
            "text",
            format!(
                "{:?} ({}) already exists in ad group {}",
                b.text,
                match_type.as_str(),
                b.ad_group_id
            ),
        ));
    }
    let currency = w.accounts[&account].currency;
    let bid = b
        .bid
        .as_ref()
        .map(|m| m.micros("bid", currency))
        .transpose()?
        .unwrap_or(group.default_bid);
    let now = OffsetDateTime::now_utc();
    let from = w.effective_day();
    let life = Lifecycle {
        status: Timeline::new(from, b.status.unwrap_or(Status::Enabled)),
        created: now,
        modified: now,
        serving_from: from,
        deleted_on: None,
    };
    Ok(Keyword {
        id: 0,
        ad_group_id: group.id,
        campaign_id: group.campaign_id,
        ad_account_id: account,
        text: b.text.trim().to_string(),
        match_type,
        bid: Timeline::new(from, bid),
        life,
    })
}

fn insert(w: &mut World, mut k: Keyword) -> Value {
    k.id = w.next_id();
    let id = k.id;
    w.keywords.insert(id, k);
    let after = render::keyword(w, &w.keywords[&id]);
    w.record("Keyword", None, &after);
    after
}

fn plan_update(
    w: &World,
    account: Id,
    id: Option<Id>,
    b: &KeywordUpdate,
) -> Result<Change, ApiError> {
    let id = id.ok_or_else(|| ApiError::required("id"))?;
    if find(w, account, id)?.life.deleted() {
        return Err(ApiError::invalid(
            "ENTITY_DELETED",
            "id",
            format!("keyword {id} is deleted"),
        ));
    }
    let currency = w.accounts[&account].currency;
    Ok(Change {
        id,
        bid: b
            .bid
            .as_ref()
            .map(|m| m.micros("bid", currency))
            .transpose()?,
        status: b.status,
    })
}

fn apply_update(w: &mut World, c: Change) -> Value {
    let before = render::keyword(w, &w.keywords[&c.id]);
    let from = w.effective_day();
    let k = w.keywords.get_mut(&c.id).expect("planned");
    if let Some(bid) = c.bid {
        k.bid.set(from, bid);
    }
    if let Some(status) = c.status {
        k.life.status.set(from, status);
    }
    k.life.modified = OffsetDateTime::now_utc();
    let after = render::keyword(w, &w.keywords[&c.id]);
    w.record("Keyword", Some(&before), &after);
    after
}

fn plan_delete(w: &World, account: Id, id: Id) -> Result<Id, ApiError> {
    if find(w, account, id)?.life.deleted() {
        return Err(ApiError::invalid(
            "ENTITY_DELETED",
            "id",
            format!("keyword {id} is already deleted"),
        ));
    }
    Ok(id)
}

fn apply_delete(w: &mut World, id: Id) -> Value {
    let before = render::keyword(w, &w.keywords[&id]);
    let from = w.effective_day();
    let k = w.keywords.get_mut(&id).expect("planned");
    k.life.deleted_on = Some(from);
    k.life.modified = OffsetDateTime::now_utc();
    let after = render::keyword(w, &w.keywords[&id]);
    w.record("Keyword", Some(&before), &after);
    after
}

async fn get_one(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    Ok(ok(render::keyword(
        &w,
        find(&w, ctx.0, parse_id(&id, "keyword")?)?,
    )))
}

async fn query(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(q): Body<QueryRequest>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    let items = w
        .keywords
        .values()
        .filter(|k| k.ad_account_id == ctx.0)
        .map(|k| render::keyword(&w, k))
        .collect();
    Ok(Json(query::run(&q, items, FIELDS)?))
}

async fn create_one(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<KeywordCreate>,
) -> Result<Json<Value>, ApiError> {
    let mut w = s.world.write();
    w.begin_txn();
    let mut seen = existing(&w, ctx.0);
    let k = plan_create(&w, ctx.0, &mut seen, &b)?;
    Ok(ok(insert(&mut w, k)))
}

async fn update_one(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
    Body(b): Body<KeywordUpdate>,
) -> Result<Json<Value>, ApiError> {
    let mut w = s.world.write();
    w.begin_txn();
    let c = plan_update(&w, ctx.0, Some(parse_id(&id, "keyword")?), &b)?;
    Ok(ok(apply_update(&mut w, c)))
}

async fn delete_one(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let mut w = s.world.write();
    w.begin_txn();
    let id = plan_delete(&w, ctx.0, parse_id(&id, "keyword")?)?;
    apply_delete(&mut w, id);
    Ok(ok(Value::Null))
}

async fn bulk_create(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<BulkRequest<KeywordCreate>>,
) -> Result<Json<Value>, ApiError> {
    let mut w = s.world.write();
    w.begin_txn();
    let mut seen = existing(&w, ctx.0);
    let mut plans = Vec::new();
    let mut body = bulk::run(
        b,
        "CREATE",
        |item| plan_create(&w, ctx.0, &mut seen, item),
        |k| {
            plans.push(k);
            Value::Null
        },
    )?;
    fill(&mut body, plans.into_iter().map(|k| insert(&mut w, k)));
    Ok(Json(body))
}

async fn bulk_update(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<BulkRequest<KeywordUpdate>>,
) -> Result<Json<Value>, ApiError> {
    let mut w = s.world.write();
    w.begin_txn();
    let mut plans = Vec::new();
    let mut body = bulk::run(
        b,
        "UPDATE",
        |item| plan_update(&w, ctx.0, item.id, item),
        |c| {
            plans.push(c);
            Value::Null
        },
    )?;
    fill(
        &mut body,
        plans.into_iter().map(|c| apply_update(&mut w, c)),
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
        |item| plan_delete(&w, ctx.0, item.id),
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

/// Puts the rendered results of applied plans into the successful entries, in order.
pub fn fill(body: &mut Value, rendered: impl Iterator<Item = Value>) {
    let mut rendered = rendered;
    for entry in body["result"].as_array_mut().expect("array") {
        if entry["success"] == Value::Bool(true) {
            entry["result"] = rendered.next().unwrap_or(Value::Null);
        }
    }
}
