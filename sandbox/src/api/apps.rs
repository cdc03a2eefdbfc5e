//! `GET /apps/{adamId}`: an App Store app's details (any app, promoted or not), with the
//! storefronts it is sold in.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};

use super::error::ApiError;
use super::extract::AdAccountContext;
use super::{ok, rules};
use crate::state::Sandbox;
use crate::world::{App, World};

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new().route("/apps/{adam_id}", get(app))
}

/// `AppDetails`.
pub fn details(w: &World, a: &App) -> Value {
    json!({
        "id": a.adam_id.to_string(), "appName": a.name, "artistName": a.developer,
        "primaryLanguage": "en-US", "primaryGenre": a.category, "secondaryGenre": null,
        "deviceClasses": ["IPHONE", "IPAD"], "iconPictureUrl": a.icon_url, "isPreorder": false,
        "availableStorefronts": rules::storefronts(w, a.adam_id),
    })
}

async fn app(
    State(s): State<Arc<Sandbox>>,
    _ctx: AdAccountContext,
    Path(adam_id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    let app = adam_id
        .parse::<i64>()
        .ok()
        .and_then(|id| w.apps.get(&id))
        .ok_or_else(|| ApiError::not_found("app", &adam_id))?;
    Ok(ok(details(&w, app)))
}
