//! Change history: `POST /change-history/query` (one row per actor — `userType` and
//! `modifiedBy` —, transaction, event type and entity type; an `eventTime` filter is
//! required, as Apple requires it; filters on the event fields with the reference's
//! operators, sorting, paging; `options.metadata` `latest` or `snapshot` fills each row's
//! `metas` with its entities and their `detailId`s, empty otherwise) and
//! `GET /change-history/{detailId}` (one entity's field changes, paged by `limit` /
//! `offset`; a transaction id is also accepted, for all of its entities).

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Value, json};

mod detail;
mod filters;

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::query::{QueryPagination, SortOrder, page};
use super::render::timestamp;
use crate::state::Sandbox;
use crate::world::audit::AuditEvent;
pub use detail::DetailPage;
use detail::history_detail;
use filters::{Check, Row, check, order, passes, sorts};

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route("/change-history/query", post(history))
        .route("/change-history/{detail_id}", get(history_detail))
}

/// `AuditQuery`, closed.
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct AuditQuery {
    filters: Option<Vec<AuditFilter>>,
    sorting: Option<Vec<AuditSorting>>,
    pagination: Option<AuditPagination>,
    /// `timeZone` (`UTC`, the default, or `ORTZ`: dates and date-times without an offset
    /// in the filters are the ad account's local time); `needTotals` and `metadata` are
    /// accepted. Times are answered in UTC.
    options: Option<AuditOptions>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AuditPagination {
    offset: Option<i64>,
    page_size: Option<i64>,
    #[serde(rename = "totalCount")]
    _total_count: Option<IgnoredAny>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AuditOptions {
    need_totals: Option<String>,
    time_zone: Option<String>,
    metadata: Option<String>,
}

/// `AuditOperator`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Operator {
    Equals,
    In,
    LessThan,
    LessThanOrEqualTo,
    GreaterThan,
    GreaterThanOrEqualTo,
    Between,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AuditFilter {
    field: Option<String>,
    operator: Option<Operator>,
    value: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AuditSorting {
    field: Option<String>,
    order: Option<SortOrder>,
}

/// `POST /change-history/query`: one row per (transaction, event type, entity type).
async fn history(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(q): Body<AuditQuery>,
) -> Result<Json<Value>, ApiError> {
    // The whole change history is scanned: off the async threads.
    super::crud::off_thread(move || history_rows(&s, ctx.0, &q)).await
}

fn history_rows(
    s: &Sandbox,
    account: crate::world::Id,
    q: &AuditQuery,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    let zone = match q.options.as_ref().and_then(|o| o.time_zone.as_deref()) {
        None | Some("UTC") => None,
        Some("ORTZ") => Some(w.accounts.get(&account).map_or("UTC", |a| a.timezone)),
        Some(other) => {
            return Err(ApiError::invalid(
                "INVALID_ENUM_VALUE",
                "options.timeZone",
                format!("unknown timeZone {other}; expected UTC or ORTZ"),
            ));
        }
    };
    let checks: Vec<Check> = q
        .filters
        .iter()
        .flatten()
        .enumerate()
        .map(|(i, f)| check(i, f, zone))
        .collect::<Result<_, _>>()?;
    if !checks.iter().any(|c| matches!(c, Check::Time(..))) {
        return Err(ApiError::invalid(
            "INVALID_VALUE",
            "filters",
            "the change history needs an eventTime filter (BETWEEN, GREATER_THAN or LESS_THAN)",
        ));
    }
    let options = q.options.as_ref();
    let metadata = match options.and_then(|o| o.metadata.as_deref()) {
        None | Some("none") => None,
        Some(m @ ("latest" | "snapshot")) => Some(m),
        Some(other) => {
            return Err(ApiError::invalid(
                "INVALID_ENUM_VALUE",
                "options.metadata",
                format!("unknown metadata {other}; expected none, latest or snapshot"),
            ));
        }
    };
    let totals = match options.and_then(|o| o.need_totals.as_deref()) {
        None | Some("true") => true,
        Some("false") => false,
        Some(other) => {
            return Err(ApiError::invalid(
                "INVALID_VALUE",
                "options.needTotals",
                format!("needTotals is \"true\" or \"false\", not {other:?}"),
            ));
        }
    };
    let sorts = sorts(q)?;
    let p = q.pagination.as_ref().map(|p| QueryPagination {
        page_size: p.page_size,
        offset: p.offset,
        fetch_total_count: None,
    });
    let (offset, size) = page(p.as_ref())?;
    type Key<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str);
    let mut groups: BTreeMap<Key<'_>, (usize, Vec<&AuditEvent>)> = BTreeMap::new();
    // The entity's state as last recorded, for `latest`.
    let mut latest: BTreeMap<(&str, i64), &AuditEvent> = BTreeMap::new();
    for (seq, e) in w
        .audit
        .iter()
        .enumerate()
        .filter(|(_, e)| e.ad_account_id == account)
    {
        latest.insert((e.entity_type, e.entity_id), e);
        if passes(&w, e, &checks) {
            groups
                .entry((
                    e.txn.as_str(),
                    e.event,
                    e.entity_type,
                    e.user_type.as_str(),
                    e.modified_by.as_str(),
                ))
                .or_insert_with(|| (seq, Vec::new()))
                .1
                .push(e);
        }
    }
    let metas = |events: &[&AuditEvent]| -> Vec<Value> {
        let Some(kind) = metadata else {
            return vec![];
        };
        events
            .iter()
            .map(|e| {
                let meta = match kind {
                    "latest" => &latest[&(e.entity_type, e.entity_id)].meta,
                    _ => &e.meta,
                };
                json!({ e.entity_type: e.entity_id.to_string(), "detailId": e.detail_id, "meta": meta })
            })
            .collect()
    };
    let mut rows: Vec<Row> = groups
        .into_iter()
        .map(|((txn, event, kind, user_type, by), (seq, events))| (events[0].time, seq, json!({
            "transactionId": txn, "eventType": event, "eventTime": timestamp(events[0].time), "entityType": kind,
            "count": events.len(), "metas": metas(&events), "userType": user_type, "modifiedBy": by,
        })))
        .collect();
    rows.sort_by(|a, b| order(a, b, &sorts));
    let total = if totals { rows.len() } else { 0 };
    let page: Vec<Value> = rows
        .into_iter()
        .skip(offset as usize)
        .take(size as usize)
        .map(|(_, _, v)| v)
        .collect();
    Ok(Json(
        json!({ "result": page, "pagination": { "offset": offset, "pageSize": size, "totalCount": total }, "error": null }),
    ))
}
