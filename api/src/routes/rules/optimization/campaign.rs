//! One campaign's goal optimisation (`PUT optimization/one/{id}`): set with a type, target
//! and step, or turned off with `type` null.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{ids::now_ms, store};
use serde::Deserialize;
use utoipa::ToSchema;

use super::{
    OptimizationItem, OptimizationType, Sent, conversions_connected, growth_only, item, setting,
    settings,
};
use crate::{
    access::{Campaign, EditRoles, InWorkspace, ScopeQuery, pick},
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiQuery},
    state::AppState,
};

/// `PUT optimization/one/{id}`'s body.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OptimizationBody {
    /// A type, or null (absent) to turn it off.
    #[serde(rename = "type", default)]
    pub kind: Option<OptimizationType>,
    /// Decimal in the campaign group's currency, greater than 0, with at most its decimals
    /// (required but for CPA_GOAL, where null is each ad group's CPA goal); a ROAS_GOAL's a
    /// percentage above 0, at most 100000, with at most 2 decimals (`"120"`).
    pub target: Option<String>,
    /// 1–100 (default 20).
    #[schema(pattern = "^[0-9]{1,3}$")]
    pub max_step_percent: Option<String>,
    /// A ROAS_GOAL's cohort in days after the install: 0, 1, 3, 7 (default), 14 or 30.
    #[schema(minimum = 0, maximum = 30)]
    pub cohort_day: Option<i64>,
}

/// Sets (or with `type` null turns off) a campaign's goal optimisation; answers the
/// setting, null when off. Setting one is Growth-only (403 on other plans); turning off is
/// not.
#[utoipa::path(put, path = "/api/optimization/one/{id}", operation_id = "set_optimization", tag = "optimization",
    params(("id" = String, Path, description = "Campaign id"), ScopeQuery),
    request_body = OptimizationBody,
    responses((status = 200, description = "The setting (null when off)", body = Envelope<Item<Option<OptimizationItem>>>),
              (status = 400, description = "Invalid target, step or cohort (field errors), or a goal on conversions without an attribution provider connected", body = ErrorBody),
              (status = 403, description = "Goal optimisation is included in the Growth plan (the plan is not growth, growth_trial or agency)", body = ErrorBody)))]
pub async fn one(
    State(state): State<AppState>,
    campaign: InWorkspace<Campaign, EditRoles>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<OptimizationBody>,
) -> ApiResult<impl IntoResponse> {
    let caller = campaign.caller;
    let c = pick(campaign.item.0, &query)?;
    let ws = &caller.workspace_id;
    let Some(kind) = body.kind else {
        store::optimizations::delete(&state.db.pool, ws, &c.account_id, c.org_id, c.id, None)
            .await?;
        return Ok(envelope::item(None));
    };
    growth_only(&state, ws).await?;
    let checked = settings(
        kind,
        &Sent {
            target: body.target.as_deref(),
            max_step_percent: body.max_step_percent.as_deref(),
            cohort_day: body.cohort_day,
        },
        &c,
    )?;
    conversions_connected(&state, ws, kind).await?;
    let now = now_ms() / 1000;
    store::optimizations::set(
        &state.db.pool,
        &setting(ws, &caller.email, &c, kind, checked, now),
    )
    .await?;
    let stored = store::optimizations::get(&state.db.pool, ws, &c.account_id, c.org_id, c.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Campaign"))?;
    Ok(envelope::item(Some(item(stored, c.currency.clone()))))
}
