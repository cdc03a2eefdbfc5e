//! Stand-ins for the attribution providers' reporting APIs, on the providers' own paths and
//! outside `/v1` (their own tokens, not Apple's): AppsFlyer's Master API
//! (`GET /api/master-agg-data/v4/app/{app_id}`, [`appsflyer`]). Their numbers are the
//! world's ([`cohorts`]): the installs of its campaigns, ad groups and keywords as a
//! provider attributes them, with trials, subscriptions and purchases in each app's currency.
//!
//! Each accepts one token ([`APPSFLYER_TOKEN`]) and answers any other as the provider does.
//! `PUT /sandbox/mmp/faults` (`GET` reads it) injects, for tests, `burst429`: the next n
//! reporting requests answer 429 with `Retry-After: 1`; and `partialLastDay`: the last day
//! a request asks for is served as still in progress, with half its installs and events.

pub mod appsflyer;
pub mod cohorts;

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use parking_lot::Mutex;
use serde::{Deserialize, Serialize};

use crate::state::Sandbox;

/// The one AppsFlyer API token the stand-in accepts.
pub const APPSFLYER_TOKEN: &str = "sandbox-appsflyer-token";

/// Faults of the reporting-API stand-ins.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MmpFaultConfig {
    /// The next n reporting requests answer 429 with `Retry-After: 1`.
    #[serde(default, rename = "burst429")]
    pub burst_429: u32,
    /// The last day of each request is served in progress: half its installs and events.
    #[serde(default)]
    pub partial_last_day: bool,
}

/// The stand-ins' faults, and how many reporting requests they answered (429s included).
#[derive(Debug, Default)]
pub struct MmpFaults {
    inner: Mutex<(MmpFaultConfig, u64)>,
}

impl MmpFaults {
    pub fn config(&self) -> MmpFaultConfig {
        self.inner.lock().0
    }

    /// Counts a request; whether it is answered 429 (a burst left).
    fn take_429(&self) -> bool {
        let mut inner = self.inner.lock();
        inner.1 += 1;
        if inner.0.burst_429 > 0 {
            inner.0.burst_429 -= 1;
            return true;
        }
        false
    }
}

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route(
            "/api/master-agg-data/v4/app/{app_id}",
            get(appsflyer::master_report),
        )
        .route("/sandbox/mmp/faults", get(faults).put(set_faults))
}

async fn faults(State(sandbox): State<Arc<Sandbox>>) -> Json<serde_json::Value> {
    let (config, requests) = *sandbox.mmp.inner.lock();
    Json(serde_json::json!({"faults": config, "requests": requests}))
}

async fn set_faults(State(sandbox): State<Arc<Sandbox>>, body: axum::body::Bytes) -> Response {
    match serde_json::from_slice::<MmpFaultConfig>(&body) {
        Ok(config) => {
            sandbox.mmp.inner.lock().0 = config;
            Json(config).into_response()
        }
        Err(e) => (StatusCode::BAD_REQUEST, e.to_string()).into_response(),
    }
}

/// The 429 a fault burst answers.
fn too_many() -> Response {
    (
        StatusCode::TOO_MANY_REQUESTS,
        [(axum::http::header::RETRY_AFTER, "1")],
        "Too many requests",
    )
        .into_response()
}
