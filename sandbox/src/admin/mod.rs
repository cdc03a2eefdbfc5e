//! Admin endpoints under `/sandbox/`: health, key registration (returns clientId, teamId,
//! keyId the way Apple's UI does; optionally limited to some ad accounts and to reads),
//! fault settings, token revocation, the clock, and a campaign's system status (what Apple
//! holds a campaign back for: a budget exhausted, ad groups missing, paused by the system),
//! a keyword's metrics on one day (so a test gets a known day, e.g. one that spent without
//! an install, whatever the date the world was seeded for), and Apple's own UI standing in:
//! `/sandbox/ui/v1/…` serves the API without a token, its writes recorded in the change
//! history as made by a person (`userType` `CUSTOMER`, `modifiedBy` the `X-Sandbox-User`
//! header, default [`UI_PERSON`]).

mod entities;
mod keys;

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;

use crate::faults::FaultConfig;
use crate::state::Sandbox;
use entities::{put_keyword_metrics, put_system_status};
use keys::register_key;

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route(
            "/sandbox/health",
            get(|| async { Json(json!({"status": "ok"})) }),
        )
        .route("/sandbox/keys", post(register_key))
        .route("/sandbox/faults", get(get_faults).put(put_faults))
        .route("/sandbox/tokens/revoke", post(revoke_tokens))
        .route("/sandbox/clock", get(get_clock).put(put_clock))
        .route(
            "/sandbox/campaigns/{id}/systemStatus",
            axum::routing::put(put_system_status),
        )
        .route(
            "/sandbox/keywords/{id}/metrics",
            axum::routing::put(put_keyword_metrics),
        )
}

/// Who the UI stand-in's writes are by when the request names nobody.
pub const UI_PERSON: &str = "owner@sandbox.example";

/// Serves a request of `/sandbox/ui/v1/…` as the person its `X-Sandbox-User` names.
pub async fn as_ui_person(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let person = request
        .headers()
        .get("x-sandbox-user")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or(UI_PERSON)
        .to_string();
    crate::world::audit::ACTOR
        .scope(crate::world::audit::Actor::ui(&person), next.run(request))
        .await
}

fn bad_request(message: impl Into<String>) -> Response {
    (
        StatusCode::BAD_REQUEST,
        Json(json!({ "error": { "code": "INVALID_ARGUMENT", "message": message.into() } })),
    )
        .into_response()
}

async fn get_faults(State(sandbox): State<Arc<Sandbox>>) -> Json<FaultConfig> {
    Json(sandbox.faults.config())
}

async fn put_faults(State(sandbox): State<Arc<Sandbox>>, body: Bytes) -> Response {
    let config: FaultConfig = match serde_json::from_slice(&body) {
        Ok(c) => c,
        Err(e) => return bad_request(format!("invalid fault settings: {e}")),
    };
    if let Err(e) = config.validate() {
        return bad_request(e);
    }
    sandbox.faults.set(config);
    tracing::info!(?config, "sandbox faults set");
    Json(config).into_response()
}

async fn revoke_tokens(State(sandbox): State<Arc<Sandbox>>) -> Json<serde_json::Value> {
    Json(json!({ "revoked": sandbox.auth.revoke_all() }))
}

fn clock_body(sandbox: &Sandbox) -> serde_json::Value {
    let clock = sandbox.world.clock();
    let now = clock.now();
    json!({
        "now": crate::api::render::timestamp(now),
        "today": now.date().to_string(),
        "running": clock.running(),
    })
}

async fn get_clock(State(sandbox): State<Arc<Sandbox>>) -> Json<serde_json::Value> {
    Json(clock_body(&sandbox))
}

/// `PUT /sandbox/clock` body: one of `now` (RFC 3339), `today` (YYYY-MM-DD, keeping the
/// time of day), `advanceSeconds`, `advanceDays`; and/or `running`.
#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ClockChange {
    now: Option<String>,
    today: Option<String>,
    advance_seconds: Option<i64>,
    advance_days: Option<i64>,
    running: Option<bool>,
}

async fn put_clock(State(sandbox): State<Arc<Sandbox>>, body: Bytes) -> Response {
    let change: ClockChange = match serde_json::from_slice(&body) {
        Ok(c) => c,
        Err(e) => return bad_request(format!("invalid clock change: {e}")),
    };
    let moves = [
        change.now.is_some(),
        change.today.is_some(),
        change.advance_seconds.is_some(),
        change.advance_days.is_some(),
    ];
    if moves.iter().filter(|m| **m).count() > 1 {
        return bad_request("give one of now, today, advanceSeconds, advanceDays");
    }
    // Parse first, then move relative to the clock's time read under its lock.
    let to: Box<dyn FnOnce(time::OffsetDateTime) -> Result<time::OffsetDateTime, String>> =
        if let Some(now) = &change.now {
            match time::OffsetDateTime::parse(now, &time::format_description::well_known::Rfc3339) {
                Ok(t) => {
                    let t = t.to_offset(time::UtcOffset::UTC);
                    Box::new(move |_| Ok(t))
                }
                Err(_) => return bad_request("now must be an RFC 3339 date-time"),
            }
        } else if let Some(today) = &change.today {
            match crate::args::parse_day(today) {
                Ok(d) => Box::new(move |current| Ok(current.replace_date(d))),
                Err(e) => return bad_request(format!("today: {e}")),
            }
        } else if let Some(s) = change.advance_seconds {
            Box::new(move |current| Ok(current + time::Duration::seconds(s)))
        } else if let Some(d) = change.advance_days {
            Box::new(move |current| Ok(current + time::Duration::days(d)))
        } else {
            Box::new(Ok)
        };
    let clock = sandbox.world.clock();
    if let Err(e) = clock.change(to, change.running) {
        return bad_request(e);
    }
    sandbox.world.clock_changed();
    let body = clock_body(&sandbox);
    tracing::info!(now = %body["now"], "sandbox clock set");
    Json(body).into_response()
}
