//! The apps benchmarks are set for (`GET benchmarks/apps`): every app the workspace's synced
//! campaign groups list or its synced campaigns advertise, with its currency and how many
//! targets of each kind it has — the list the benchmarks screen opens with.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{ids::string_id, store};
use serde::Serialize;
use utoipa::ToSchema;

use super::currency_of;
use crate::{
    access::Member,
    envelope::{self, Envelope, Items},
    error::ApiResult,
    state::AppState,
};

/// An app of the workspace and its targets.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BenchmarkApp {
    #[serde(with = "string_id")]
    #[schema(value_type = String)]
    pub adam_id: i64,
    /// The synced name (null: only a campaign names the app).
    pub app_name: Option<String>,
    pub developer_name: Option<String>,
    /// The currency of its money targets (its campaign group's).
    pub currency: String,
    /// Cost-per-install targets set.
    pub installs: i64,
    /// Cost-per-event targets set (every event).
    pub events: i64,
    /// ROAS targets set.
    pub revenues: i64,
}

/// The workspace's apps, by app id, with how many targets of each kind each has.
#[utoipa::path(get, path = "/api/benchmarks/apps", operation_id = "benchmark_apps", tag = "benchmarks",
    responses((status = 200, description = "The apps", body = Envelope<Items<BenchmarkApp>>)))]
pub async fn list(State(state): State<AppState>, user: Member) -> ApiResult<impl IntoResponse> {
    let pool = &state.db.pool;
    let apps = store::benchmarks::apps(pool, &user.workspace_id).await?;
    let counts = store::benchmarks::counts(pool, &user.workspace_id).await?;
    let count = |adam_id: i64, kind: &str| {
        counts
            .iter()
            .find(|(a, k, _)| *a == adam_id && k == kind)
            .map_or(0, |(_, _, n)| *n)
    };
    let items = apps
        .into_iter()
        .map(|a| BenchmarkApp {
            adam_id: a.adam_id,
            installs: count(a.adam_id, "installs"),
            events: count(a.adam_id, "events"),
            revenues: count(a.adam_id, "revenues"),
            currency: currency_of(a.currency.as_deref()).to_string(),
            app_name: a.app_name,
            developer_name: a.developer_name,
        })
        .collect();
    Ok(envelope::items(items))
}
