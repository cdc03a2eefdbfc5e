//! Goal optimisation of campaigns (`optimization/*`, docs/api/rules.md): the built-in rule
//! "move each keyword's bid toward the target" turned on per campaign with a type
//! (`CPA_GOAL`: the target, else each ad group's CPA goal; `CPT_GOAL`: a target, required),
//! a target in the campaign group's currency and the largest step per run. The settings are
//! ours (`store::optimizations`); the rules engine runs them.
//!
//! Goal optimisation is Growth-only: spec §6 locks the campaigns' `optimizationTypes` unless
//! the plan is growth, growth_trial or agency, so turning one on (`optimization/one` with a
//! type, `POST optimization/rulesCampaigns/{id}`) answers 403 [`GROWTH_ONLY`] on the other
//! plans. Turning off and reading are open to every plan (a workspace that fell back from
//! a Growth trial can still stop what it set).

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use searchdeck_common::{
    ids::{now_ms, string_id},
    money::currency::MoneyRule,
    money::{self, Sign},
    store::{self, campaign_views::CampaignRow, optimizations::Optimization},
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::IDS_MAX;
use crate::{
    access::{Campaign, EditRoles, Editor, InWorkspace, Member, ScopeQuery, campaign_by_id, pick},
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath, ApiQuery},
    state::AppState,
};

/// The answer to turning goal optimisation on without Growth (403).
pub const GROWTH_ONLY: &str = "Goal optimisation is included in the Growth plan";

/// 403 [`GROWTH_ONLY`] unless the workspace's plan has Growth (module docs).
async fn growth_only(state: &AppState, workspace_id: &str) -> ApiResult<()> {
    if state
        .engines
        .plan(&state.db, workspace_id)
        .await?
        .has_growth()
    {
        Ok(())
    } else {
        Err(ApiError::status(StatusCode::FORBIDDEN, GROWTH_ONLY))
    }
}

/// The default and the bounds of the largest bid step per run, in percent.
const STEP_DEFAULT: i64 = 20;
const STEP_MAX: i64 = 100;

/// A goal optimisation type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum OptimizationType {
    CpaGoal,
    CptGoal,
}

impl OptimizationType {
    fn as_str(self) -> &'static str {
        match self {
            OptimizationType::CpaGoal => store::optimizations::CPA_GOAL,
            OptimizationType::CptGoal => store::optimizations::CPT_GOAL,
        }
    }

    /// The type named in a path (`optimization/rulesCampaigns/{id}`), else 400 on `id`.
    fn from_path(raw: &str) -> ApiResult<OptimizationType> {
        match raw {
            "CPA_GOAL" => Ok(OptimizationType::CpaGoal),
            "CPT_GOAL" => Ok(OptimizationType::CptGoal),
            _ => Err(ApiError::field("id", "Must be one of: CPA_GOAL, CPT_GOAL")),
        }
    }
}

/// A campaign's goal optimisation as answered.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OptimizationItem {
    #[serde(with = "string_id")]
    #[schema(value_type = String)]
    pub campaign_id: i64,
    pub account_id: String,
    #[serde(with = "string_id")]
    #[schema(value_type = String)]
    pub org_id: i64,
    #[serde(rename = "type")]
    pub kind: String,
    /// Decimal in `currency`; null: each ad group's CPA goal (CPA_GOAL).
    pub target: Option<String>,
    pub currency: Option<String>,
    /// Largest bid step per run, in percent.
    pub max_step_percent: String,
    pub created_by: Option<String>,
    /// Unix seconds.
    pub enabled_at: i64,
    /// Unix seconds.
    pub updated_at: i64,
    /// The latest run of the optimisation (the rules engine's runs; null until one ran).
    #[schema(value_type = Option<Object>)]
    pub last_run: Option<serde_json::Value>,
}

/// `micros` of `currency` as the decimal string answered (`"2.50"`).
pub fn money_text(micros: i64, currency: Option<&str>) -> String {
    MoneyRule::of(currency).micros(micros).to_string()
}

fn item(o: Optimization, currency: Option<String>) -> OptimizationItem {
    OptimizationItem {
        campaign_id: o.campaign_id,
        account_id: o.account_id,
        org_id: o.org_id,
        kind: o.kind,
        target: o.target_micros.map(|m| money_text(m, currency.as_deref())),
        currency,
        max_step_percent: o.max_step_percent.to_string(),
        created_by: o.created_by_email,
        enabled_at: o.enabled_at,
        updated_at: o.updated_at,
        last_run: None,
    }
}

/// The target sent for `campaign` (money greater than 0 in its currency; required for
/// CPT_GOAL) and the step (1–100, default 20).
fn settings(
    kind: OptimizationType,
    target: Option<&str>,
    step: Option<&str>,
    campaign: &CampaignRow,
) -> ApiResult<(Option<i64>, i64)> {
    let mut errors = Vec::new();
    let target = match target.map(str::trim).filter(|t| !t.is_empty()) {
        None if kind == OptimizationType::CptGoal => {
            errors.push(searchdeck_common::FieldError::new(
                "target",
                "Enter a target cost per tap",
            ));
            None
        }
        None => None,
        Some(t) => {
            match money::parse_text(
                "target",
                "Target",
                t,
                campaign.currency.as_deref(),
                Sign::NonNegative,
            ) {
                Ok(d) if d.is_zero() => {
                    errors.push(searchdeck_common::FieldError::new(
                        "target",
                        "Enter a target greater than 0",
                    ));
                    None
                }
                Ok(d) => money::micros(d),
                Err(e) => {
                    errors.push(e);
                    None
                }
            }
        }
    };
    let step = match step {
        None => STEP_DEFAULT,
        Some(s) => match s.parse::<i64>() {
            Ok(n) if (1..=STEP_MAX).contains(&n) && s.chars().all(|c| c.is_ascii_digit()) => n,
            _ => {
                errors.push(searchdeck_common::FieldError::new(
                    "maxStepPercent",
                    "Enter a whole percentage from 1 to 100",
                ));
                STEP_DEFAULT
            }
        },
    };
    if errors.is_empty() {
        Ok((target, step))
    } else {
        Err(ApiError::validation(errors))
    }
}

fn setting(
    caller_ws: &str,
    email: &str,
    c: &CampaignRow,
    kind: OptimizationType,
    target: Option<i64>,
    step: i64,
    now: i64,
) -> Optimization {
    Optimization {
        workspace_id: caller_ws.to_string(),
        account_id: c.account_id.clone(),
        org_id: c.org_id,
        campaign_id: c.id,
        kind: kind.as_str().to_string(),
        target_micros: target,
        max_step_percent: step,
        created_by_email: Some(email.to_string()),
        enabled_at: now,
        updated_at: now,
    }
}

/// `PUT optimization/one/{id}`'s body.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OptimizationBody {
    /// CPA_GOAL, CPT_GOAL, or null (absent) to turn it off.
    #[serde(rename = "type", default)]
    pub kind: Option<OptimizationType>,
    /// Decimal in the campaign group's currency, greater than 0, with at most its decimals
    /// (required for CPT_GOAL; null for CPA_GOAL: each ad group's CPA goal).
    pub target: Option<String>,
    /// 1–100 (default 20).
    #[schema(pattern = "^[0-9]{1,3}$")]
    pub max_step_percent: Option<String>,
}

/// Sets (or with `type` null turns off) a campaign's goal optimisation; answers the
/// setting, null when off. Setting one is Growth-only (403 on other plans); turning off is
/// not.
#[utoipa::path(put, path = "/api/optimization/one/{id}", operation_id = "set_optimization", tag = "optimization",
    params(("id" = String, Path, description = "Campaign id"), ScopeQuery),
    request_body = OptimizationBody,
    responses((status = 200, description = "The setting (null when off)", body = Envelope<Item<Option<OptimizationItem>>>),
              (status = 400, description = "Invalid target or step (field errors)", body = ErrorBody),
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
    let (target, step) = settings(
        kind,
        body.target.as_deref(),
        body.max_step_percent.as_deref(),
        &c,
    )?;
    let now = now_ms() / 1000;
    store::optimizations::set(
        &state.db.pool,
        &setting(ws, &caller.email, &c, kind, target, step, now),
    )
    .await?;
    let stored = store::optimizations::get(&state.db.pool, ws, &c.account_id, c.org_id, c.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Campaign"))?;
    Ok(envelope::item(Some(item(stored, c.currency.clone()))))
}

/// A goal optimisation type with its description and defaults.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OptimizationTypeItem {
    #[serde(rename = "type")]
    pub kind: OptimizationType,
    pub name: String,
    pub description: String,
    /// Whether a target must be given.
    pub target_required: bool,
    pub defaults: OptimizationDefaults,
}

/// What every goal optimisation runs with.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OptimizationDefaults {
    /// Largest bid step per run, in percent.
    pub max_step_percent: String,
    /// Days of metrics read (today excluded).
    pub window_days: u32,
    /// Hour of the day it runs, in the campaign group's time zone.
    pub hour: u32,
    /// Taps a keyword needs in the window before its bid moves.
    pub min_taps: u32,
}

/// The answer of `GET optimization/all/rules`.
#[derive(Debug, Serialize, ToSchema)]
pub struct AllOptimizations {
    pub items: Vec<OptimizationTypeItem>,
    pub campaigns: Vec<OptimizationItem>,
}

/// The query of `GET optimization/all/rules`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AllQuery {
    /// Only this connection's campaigns.
    pub account_id: Option<String>,
    /// Only this campaign group's campaigns.
    #[param(pattern = "^[0-9]{1,18}$")]
    pub org_id: Option<String>,
}

fn types() -> Vec<OptimizationTypeItem> {
    let defaults = || OptimizationDefaults {
        max_step_percent: STEP_DEFAULT.to_string(),
        window_days: 14,
        hour: 6,
        min_taps: 10,
    };
    vec![
        OptimizationTypeItem {
            kind: OptimizationType::CpaGoal,
            name: "CPA goal".into(),
            description: "Moves each keyword's bid toward the target cost per install (the ad \
                          group's CPA goal when no target is set), daily, from the last 14 days."
                .into(),
            target_required: false,
            defaults: defaults(),
        },
        OptimizationTypeItem {
            kind: OptimizationType::CptGoal,
            name: "CPT goal".into(),
            description: "Moves each keyword's bid toward the target cost per tap, daily, from \
                          the last 14 days."
                .into(),
            target_required: true,
            defaults: defaults(),
        },
    ]
}

/// The optimisation types with their description and defaults, and each optimised campaign
/// of the workspace (narrowed by `accountId` and `orgId`).
#[utoipa::path(get, path = "/api/optimization/all/rules", operation_id = "all_optimizations", tag = "optimization", params(AllQuery),
    responses((status = 200, description = "Types and optimised campaigns", body = Envelope<AllOptimizations>),
              (status = 400, description = "orgId is not an id", body = ErrorBody)))]
pub async fn all(
    State(state): State<AppState>,
    user: Member,
    ApiQuery(query): ApiQuery<AllQuery>,
) -> ApiResult<impl IntoResponse> {
    let org_id = match query.org_id.as_deref() {
        None => None,
        Some(s) => Some(
            s.parse::<i64>()
                .ok()
                .filter(|_| s.len() <= 18 && searchdeck_common::rules::validate::digits(s))
                .ok_or_else(|| ApiError::field("orgId", "Must be an id"))?,
        ),
    };
    let account = query.account_id.as_deref();
    // An account id holding a control character names no connection: nothing is optimised.
    let rows = if account.is_some_and(|a| crate::input::has_control(a, false)) {
        Vec::new()
    } else {
        store::optimizations::list(&state.db.pool, &user.workspace_id, account, org_id).await?
    };
    let orgs = store::synced::orgs_of_workspace(&state.db.pool, &user.workspace_id).await?;
    let campaigns = rows
        .into_iter()
        .map(|o| {
            let currency = orgs
                .iter()
                .find(|g| g.account_id == o.account_id && g.org_id == o.org_id)
                .and_then(|g| g.currency.clone());
            item(o, currency)
        })
        .collect();
    Ok(envelope::ok(AllOptimizations {
        items: types(),
        campaigns,
    }))
}

/// The body of `POST optimization/rulesCampaigns/{id}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OptimizationOn {
    /// 1–1,000 campaigns of the workspace.
    #[serde(with = "string_id::list")]
    #[schema(value_type = Vec<searchdeck_common::ids::AppleId>, min_items = 1, max_items = 1000)]
    pub campaigns_ids: Vec<i64>,
    /// Decimal in each campaign group's currency, greater than 0, with at most its
    /// decimals (required for CPT_GOAL).
    pub target: Option<String>,
    /// 1–100 (default 20).
    #[schema(pattern = "^[0-9]{1,3}$")]
    pub max_step_percent: Option<String>,
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

/// Turns goal optimisation type `{id}` (CPA_GOAL or CPT_GOAL, not a resource) on for
/// campaigns of the workspace (replacing another type there), all in one transaction.
#[utoipa::path(post, path = "/api/optimization/rulesCampaigns/{id}", tag = "optimization",
    params(("id" = OptimizationType, Path, description = "The optimisation type: CPA_GOAL or CPT_GOAL"), ScopeQuery),
    request_body = OptimizationOn,
    responses((status = 200, description = "The settings", body = Envelope<OptimizationsSet>),
              (status = 400, description = "Unknown type, or invalid target or step", body = ErrorBody),
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
    let now = now_ms() / 1000;
    let mut settings_of = Vec::new();
    for id in &body.campaigns_ids {
        let c = campaign_by_id(&state, &caller, &query, *id).await?;
        let (target, step) = settings(
            kind,
            body.target.as_deref(),
            body.max_step_percent.as_deref(),
            &c,
        )?;
        settings_of.push((
            setting(
                &caller.workspace_id,
                &caller.email,
                &c,
                kind,
                target,
                step,
                now,
            ),
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
    params(("id" = OptimizationType, Path, description = "The optimisation type: CPA_GOAL or CPT_GOAL"), ScopeQuery),
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
