//! `account/checkAppsLimit`: whether the workspace may add more apps and developers under
//! its plan (docs/product.md#8-limit-reached, docs/product.md#4-plans). The limits per plan are
//! decided and documented in [`searchdeck_common::plan`].

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::Member,
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(route!(check_apps_limit))
}

/// Meta type of the apps limit (docs/product.md#8-limit-reached).
pub const APPS_LIMIT: &str = "AVAILABLEAPPS";
/// Meta type of the developers limit (docs/product.md#8-limit-reached).
pub const DEVS_LIMIT: &str = "AVAILABLEDEVS";

/// How much of one limit is used.
#[derive(Debug, Serialize, ToSchema)]
pub struct Usage {
    /// Distinct apps (or developers) synced for the workspace's accounts.
    pub used: i64,
    /// What the plan allows; null for no limit.
    pub limit: Option<u32>,
}

/// The workspace's plan and its app and developer usage, when more may be added.
#[derive(Debug, Serialize, ToSchema)]
pub struct AppsLimit {
    /// The plan (spec §4).
    #[schema(
        pattern = "^(pro_free|pro_limited|pro_trial|pro_free_trial|pro|growth|growth_trial|agency)$"
    )]
    pub plan: String,
    pub apps: Usage,
    pub developers: Usage,
}

fn reached(usage: &Usage) -> bool {
    usage.limit.is_some_and(|l| usage.used >= i64::from(l))
}

/// Answers the plan and usage when the workspace may add more apps and developers; when
/// either limit is reached, 403 `LIMIT_HAS_BEEN_REACHED` with `meta.type` `AVAILABLEAPPS`
/// (checked first) or `AVAILABLEDEVS`, which opens the web app's limits modal.
#[utoipa::path(get, path = "/api/account/checkAppsLimit", tag = "accounts",
    responses((status = 200, description = "More apps and developers may be added", body = Envelope<AppsLimit>),
              (status = 403, description = "LIMIT_HAS_BEEN_REACHED, meta.type AVAILABLEAPPS or AVAILABLEDEVS", body = ErrorBody)))]
pub async fn check_apps_limit(
    State(state): State<AppState>,
    user: Member,
) -> ApiResult<impl IntoResponse> {
    let plan = state.engines.plan(&state.db, &user.workspace_id).await?;
    let limits = plan.app_limits();
    let (apps, developers) = store::catalog::usage(&state.db.pool, &user.workspace_id).await?;
    let answer = AppsLimit {
        plan: plan.as_str().to_string(),
        apps: Usage {
            used: apps,
            limit: limits.apps,
        },
        developers: Usage {
            used: developers,
            limit: limits.developers,
        },
    };
    if reached(&answer.apps) {
        return Err(ApiError::limit_reached(APPS_LIMIT));
    }
    if reached(&answer.developers) {
        return Err(ApiError::limit_reached(DEVS_LIMIT));
    }
    Ok(envelope::ok(answer))
}
