//! `GET /change-history/{detailId}`: the field changes of one changed entity (or of every
//! entity of a transaction), paged by `limit` / `offset`.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::error::ApiError;
use crate::api::extract::AdAccountContext;
use crate::api::render::timestamp;
use crate::state::Sandbox;
use crate::world::audit::AuditEvent;

/// `limit` / `offset` of `GET /change-history/{detailId}`.
#[derive(Debug, Deserialize)]
pub struct DetailPage {
    limit: Option<String>,
    offset: Option<String>,
}

/// `GET /change-history/{detailId}`: the field changes of one event (by its detail id; a
/// transaction id also answers each of its events), `limit` (1–1000, default 1000) of them
/// from `offset`; `totalCount` counts the field changes.
pub(super) async fn history_detail(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
    axum::extract::Query(p): axum::extract::Query<DetailPage>,
) -> Result<Json<Value>, ApiError> {
    let number =
        |v: &Option<String>, field: &str, min: i64, max: i64, default: i64| match v.as_deref() {
            None => Ok(default),
            Some(t) => t
                .trim()
                .parse::<i64>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| {
                    ApiError::invalid(
                        "INVALID_VALUE",
                        field,
                        format!("{field} must be a whole number from {min} to {max}"),
                    )
                }),
        };
    let limit = number(&p.limit, "limit", 1, 1000, 1000)? as usize;
    let offset = number(&p.offset, "offset", 0, i64::MAX, 0)? as usize;
    let w = s.world.read();
    let events: Vec<&AuditEvent> = w
        .audit
        .iter()
        .filter(|e| e.ad_account_id == ctx.0 && (e.txn == id || e.detail_id == id))
        .collect();
    if events.is_empty() {
        return Err(ApiError::not_found("change detail", id));
    }
    let total: usize = events.iter().map(|e| e.changes.len()).sum();
    // The field changes `offset..offset + limit`, counted across the events in order.
    let mut skip = offset;
    let mut left = limit;
    let mut details = Vec::new();
    for e in events {
        let n = e.changes.len();
        if skip >= n && n > 0 {
            skip -= n;
            continue;
        }
        let changes: Vec<Value> = e
            .changes
            .iter()
            .skip(skip)
            .take(left)
            .map(|(f, o, n)| json!({ "field": f, "oldValues": o, "newValues": n }))
            .collect();
        skip = 0;
        left -= changes.len();
        details.push(json!({
            "transactionId": e.txn, "detailId": e.detail_id, "eventType": e.event, "entityType": e.entity_type,
            "entityId": e.entity_id.to_string(), "eventTime": timestamp(e.time), "userType": e.user_type,
            "modifiedBy": e.modified_by, "entityMetaData": e.meta,
            "details": [{ "transactionId": e.txn, "changes": changes }],
        }));
        if left == 0 {
            break;
        }
    }
    Ok(Json(
        json!({ "result": details, "pagination": { "offset": offset, "pageSize": limit, "totalCount": total }, "error": null }),
    ))
}
