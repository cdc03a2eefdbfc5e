//! The reference's bulk envelope (`{allowPartialSuccess, items: [{correlationId, data}]}`
//! answered by `{result: [{result, error, correlationId, operation, success}]}`). Every item
//! is planned first; without `allowPartialSuccess` one bad item fails the whole request and
//! nothing is written, with it the good items are written and the bad ones reported.

use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use axum::Json;

use super::error::ApiError;
use super::ok;
use crate::state::Sandbox;
use crate::world::{Id, World};

/// Most items one bulk request may carry.
pub const MAX_ITEMS: usize = 1000;

/// A bulk request whose items carry `T`; each item's `data` is parsed on its own, so one
/// malformed item is that item's error, not the request's.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BulkRequest<T> {
    pub allow_partial_success: Option<bool>,
    pub items: Option<Vec<BulkItem>>,
    #[serde(skip)]
    of: PhantomData<T>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BulkItem {
    pub correlation_id: Option<i64>,
    pub data: Option<Value>,
}

/// A bulk-delete item.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdOnly {
    pub id: Id,
}

/// Plans every item with `plan`, then applies the plans with `apply` (which renders the
/// written entity) unless the request is atomic and some item failed.
pub fn run<T: DeserializeOwned, P>(
    request: BulkRequest<T>,
    operation: &str,
    mut plan: impl FnMut(&T) -> Result<P, ApiError>,
    mut apply: impl FnMut(P) -> Value,
) -> Result<Value, ApiError> {
    let items = request.items.ok_or_else(|| ApiError::required("items"))?;
    if items.is_empty() || items.len() > MAX_ITEMS {
        return Err(ApiError::invalid(
            "INVALID_ITEM_COUNT",
            "items",
            format!(
                "items must hold 1 to {MAX_ITEMS} entries, got {}",
                items.len()
            ),
        ));
    }
    let partial = request.allow_partial_success.unwrap_or(false);
    let plans: Vec<(Option<i64>, Result<P, ApiError>)> = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let planned = match &item.data {
                Some(data) => super::extract::parse_value::<T>(data.clone()).and_then(|d| plan(&d)),
                None => Err(ApiError::required(&format!("items[{i}].data"))),
            };
            (item.correlation_id, planned)
        })
        .collect();
    if !partial && plans.iter().any(|(_, p)| p.is_err()) {
        let mut error = ApiError::new(
            axum::http::StatusCode::BAD_REQUEST,
            "INVALID_ARGUMENT",
            "some items are invalid; nothing was written",
        );
        for (i, (_, p)) in plans.iter().enumerate() {
            if let Err(e) = p {
                let (code, message, field) =
                    e.details
                        .first()
                        .cloned()
                        .unwrap_or((e.code, e.message.clone(), None));
                error.details.push((
                    code,
                    format!("items[{i}]: {message}"),
                    Some(format!("items[{i}].data.{}", field.unwrap_or_default())),
                ));
            }
        }
        return Err(error);
    }
    let results: Vec<Value> = plans
        .into_iter()
        .map(|(correlation_id, planned)| match planned {
            Ok(p) => json!({ "result": apply(p), "error": null, "correlationId": correlation_id, "operation": operation, "success": true }),
            Err(e) => json!({ "result": null, "error": e.body(), "correlationId": correlation_id, "operation": operation, "success": false }),
        })
        .collect();
    Ok(json!({ "result": results }))
}

/// A whole bulk request as one transaction under the world's write lock: plans every item
/// with `plan` reading the world, then (all planning done) applies the kept plans in order
/// with `apply` writing it, and puts each rendered result into its successful entry.
pub fn write<T: DeserializeOwned, P>(
    s: &Sandbox,
    request: BulkRequest<T>,
    operation: &str,
    mut plan: impl FnMut(&World, &T) -> Result<P, ApiError>,
    mut apply: impl FnMut(&mut World, P) -> Value,
) -> Result<Json<Value>, ApiError> {
    let mut w = s.world.write();
    w.begin_txn();
    let mut plans = Vec::new();
    let mut body = run(
        request,
        operation,
        |item| plan(&w, item),
        |p| {
            plans.push(p);
            Value::Null
        },
    )?;
    let mut rendered = plans.into_iter().map(|p| apply(&mut w, p));
    for entry in body["result"].as_array_mut().expect("array") {
        if entry["success"] == Value::Bool(true) {
            entry["result"] = rendered.next().unwrap_or(Value::Null);
        }
    }
    Ok(Json(body))
}

/// One write of an entity with bulk writes, the same way: opens the transaction first,
/// then plans (which may refuse) and applies; answers `{"result": applied}`.
pub fn write_one<P>(
    s: &Sandbox,
    plan: impl FnOnce(&World) -> Result<P, ApiError>,
    apply: impl FnOnce(&mut World, P) -> Value,
) -> Result<Json<Value>, ApiError> {
    let mut w = s.world.write();
    w.begin_txn();
    let p = plan(&w)?;
    Ok(ok(apply(&mut w, p)))
}
