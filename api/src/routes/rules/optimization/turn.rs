//! A goal optimisation type turned on or off for many campaigns of the workspace at once
//! (`POST` and `DELETE optimization/rulesCampaigns/{id}`), each in one transaction.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    ids::{now_ms, string_id},
    store,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    OptimizationItem, OptimizationType, Sent, conversions_connected, growth_only, item, setting,
    settings,
};
use crate::{
    access::{Editor, ScopeQuery, campaign_by_id},
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath, ApiQuery},
    routes::rules::IDS_MAX,
    state::AppState,
};

/// The body of `POST optimization/rulesCampaigns/{id}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OptimizationOn {
    /// 1–1,000 campaigns of the workspace.
    #[serde(with = "string_id::list")]
    #[schema(value_type = Vec<searchdeck_common::ids::AppleId>, min_items = 1, max_items = 1000)]
    pub campaigns_ids: Vec<i64>,
    /// Decimal in each campaign group's currency, greater than 0, with at most its
    /// decimals (required but for CPA_GOAL); a ROAS_GOAL's a percentage (`"120"`).
    pub target: Option<String>,
    /// 1–100 (default 20).
    #[schema(pattern = "^[0-9]{1,3}$")]
    pub max_step_percent: Option<String>,
    /// A ROAS_GOAL's cohort in days after the install: 0, 1, 3, 7 (default), 14 or 30.
    #[schema(minimum = 0, maximum = 30)]
    pub cohort_day: Option<i64>,
}

/// The body of `DELETE optimization/rulesCampaigns/{id}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OptimizationOff {
    /// 1–1,000 campaigns of the workspace.
    #[serde(with = "string_id::list")]
    #[schema(value_type = Vec<searchdeck_common::ids::AppleId>, min_items = 1, max_items = 1000)]
    pub campaigns_ids: Vec<i64>,
}

/// The settings stored.
#[derive(Debug, Serialize, ToSchema)]
pub struct OptimizationsSet {
    pub items: Vec<OptimizationItem>,
}

/// How many campaigns' optimisation was turned off.
#[derive(Debug, Serialize, ToSchema)]
pub struct OptimizationsOff {
    pub deleted: u64,
}

fn bounded(ids: &[i64]) -> ApiResult<()> {
    if ids.is_empty() || ids.len() > IDS_MAX {
        return Err(ApiError::field(
            "campaignsIds",
            &format!("Name 1 to {IDS_MAX} campaigns"),
        ));
    }
    Ok(())
}

/// Turns goal optimisation type `{id}` (a type, not a resource) on for
/// campaigns of the workspace (replacing another type there), all in one transaction.
#[utoipa::path(post, path = "/api/optimization/rulesCampaigns/{id}", tag = "optimization",
    params(("id" = OptimizationType, Path, description = "The optimisation type"), ScopeQuery),
    request_body = OptimizationOn,
    responses((status = 200, description = "The settings", body = Envelope<OptimizationsSet>),
              (status = 400, description = "Unknown type, invalid target, step or cohort, or a goal on conversions without an attribution provider connected", body = ErrorBody),
              (status = 403, description = "Goal optimisation is included in the Growth plan (the plan is not growth, growth_trial or agency)", body = ErrorBody),
              (status = 404, description = "A campaign is not of the workspace", body = ErrorBody)))]
pub async fn turn_on(
    State(state): State<AppState>,
    caller: Editor,
    ApiPath(kind): ApiPath<String>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<OptimizationOn>,
) -> ApiResult<impl IntoResponse> {
    let kind = OptimizationType::from_path(&kind)?;
    bounded(&body.campaigns_ids)?;
    growth_only(&state, &caller.workspace_id).await?;
    conversions_connected(&state, &caller.workspace_id, kind).await?;
    let now = now_ms() / 1000;
    let mut settings_of = Vec::new();
    for id in &body.campaigns_ids {
        let c = campaign_by_id(&state, &caller, &query, *id).await?;
        let checked = settings(
            kind,
            &Sent {
                target: body.target.as_deref(),
                max_step_percent: body.max_step_percent.as_deref(),
                cohort_day: body.cohort_day,
            },
            &c,
        )?;
        settings_of.push((
            setting(&caller.workspace_id, &caller.email, &c, kind, checked, now),
            c.currency,
        ));
    }
    let mut tx = state.db.begin_write().await?;
    for (s, _) in &settings_of {
        store::optimizations::set(&mut *tx, s).await?;
    }
    tx.commit().await?;
    let mut items = Vec::new();
    for (s, currency) in settings_of {
        if let Some(o) = store::optimizations::get(
            &state.db.pool,
            &s.workspace_id,
            &s.account_id,
            s.org_id,
            s.campaign_id,
        )
        .await?
        {
            items.push(item(o, currency));
        }
    }
    Ok(envelope::ok(OptimizationsSet { items }))
}

/// Turns goal optimisation type `{id}` off for campaigns of the workspace (a campaign
/// optimised with the other type keeps it).
#[utoipa::path(delete, path = "/api/optimization/rulesCampaigns/{id}", tag = "optimization",
    params(("id" = OptimizationType, Path, description = "The optimisation type"), ScopeQuery),
    request_body = OptimizationOff,
    responses((status = 200, description = "How many were turned off", body = Envelope<OptimizationsOff>),
              (status = 400, description = "Unknown type", body = ErrorBody),
              (status = 404, description = "A campaign is not of the workspace", body = ErrorBody)))]
pub async fn turn_off(
    State(state): State<AppState>,
    caller: Editor,
    ApiPath(kind): ApiPath<String>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<OptimizationOff>,
) -> ApiResult<impl IntoResponse> {
    let kind = OptimizationType::from_path(&kind)?;
    bounded(&body.campaigns_ids)?;
    let mut campaigns = Vec::new();
    for id in &body.campaigns_ids {
        campaigns.push(campaign_by_id(&state, &caller, &query, *id).await?);
    }
    let mut deleted = 0;
    let mut tx = state.db.begin_write().await?;
    for c in &campaigns {
        if store::optimizations::delete(
            &mut *tx,
            &caller.workspace_id,
            &c.account_id,
            c.org_id,
            c.id,
            Some(kind.as_str()),
        )
        .await?
        {
            deleted += 1;
        }
    }
    tx.commit().await?;
    Ok(envelope::ok(OptimizationsOff { deleted }))
}
