//! `GET /me`, `GET /acls`, `GET /ad-accounts/{id}`.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::{Extension, Json};
use serde_json::{Value, json};

use super::error::ApiError;
use super::extract::AdAccountContext;
use super::{ok, parse_id, render};
use crate::auth::store::Access;
use crate::state::Sandbox;

pub async fn me(State(sandbox): State<Arc<Sandbox>>) -> Json<Value> {
    let w = sandbox.world.read();
    ok(json!({ "orgId": w.org_id, "userId": w.user_id }))
}

/// `GET /acls`: the ad accounts the calling key may use, with its role in each.
pub async fn acls(
    State(sandbox): State<Arc<Sandbox>>,
    access: Option<Extension<Access>>,
) -> Json<Value> {
    let access = access.map(|a| a.0).unwrap_or_default();
    let w = sandbox.world.read();
    let acls: Vec<Value> = w
        .accounts
        .values()
        .filter(|a| access.allows(a.id))
        .map(|a| json!({ "adAccount": { "id": a.id, "name": a.name, "orgId": w.org_id }, "roles": [access.role()] }))
        .collect();
    ok(json!({ "acls": acls }))
}

pub async fn get_ad_account(
    State(sandbox): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let id = parse_id(&id, "ad account")?;
    if id != ctx.0 {
        return Err(ApiError::forbidden(
            "the path's ad account differs from X-AP-Context",
        ));
    }
    let w = sandbox.world.read();
    let account = w
        .accounts
        .get(&id)
        .ok_or_else(|| ApiError::not_found("ad account", id))?;
    Ok(ok(render::ad_account(&w, account)))
}
