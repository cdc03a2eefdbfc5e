//! Goal optimisation of campaigns (`optimization/*`, docs/api/rules.md): the built-in rule
//! "move each keyword's bid toward the target" turned on per campaign with a type
//! (`CPA_GOAL`: the target, else each ad group's CPA goal; `CPT_GOAL`: a target, required;
//! on what the attributed installs earn, `COST_PER_TRIAL_GOAL`, `COST_PER_PURCHASE_GOAL`
//! and `ROAS_GOAL` with a cohort day, each with a target, required), a target in the campaign
//! group's currency (a ROAS goal's in percent) and the largest step per run. The settings
//! are ours (`store::optimizations`); the rules engine runs them. A goal on conversions
//! needs an attribution provider connected (Settings › Integrations): without one there is
//! nothing it could ever act on, so turning it on answers 400 on `type`.
//!
//! Goal optimisation is Growth-only: docs/product.md#6-growth-only-metrics locks the campaigns'
//! `optimizationTypes` unless the plan is growth, growth_trial or agency, so turning one on
//! (`optimization/one` with a type, `POST optimization/rulesCampaigns/{id}`) answers 403
//! [`GROWTH_ONLY`] on the other plans. Turning off and reading are open to every plan (a workspace
//! that fell back from a Growth trial can still stop what it set).
//!
//! The routes: one campaign's setting (`campaign`), the types and the optimised campaigns
//! (`list`), a type turned on or off for many campaigns (`turn`). This module holds the
//! setting as answered and the checks of a target and a step.

pub mod campaign;
pub mod list;
pub mod turn;

use axum::http::StatusCode;
use searchdeck_common::attribution::conversions::COHORT_DAYS;
use searchdeck_common::{
    ids::string_id,
    money::currency::MoneyRule,
    money::{self, Sign},
    store::{self, campaign_views::CampaignRow, optimizations::Optimization},
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    error::{ApiError, ApiResult},
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
pub enum OptimizationType {
    #[serde(rename = "CPA_GOAL")]
    Cpa,
    #[serde(rename = "CPT_GOAL")]
    Cpt,
    #[serde(rename = "COST_PER_TRIAL_GOAL")]
    CostPerTrial,
    #[serde(rename = "COST_PER_PURCHASE_GOAL")]
    CostPerPurchase,
    #[serde(rename = "ROAS_GOAL")]
    Roas,
}

impl OptimizationType {
    fn as_str(self) -> &'static str {
        match self {
            OptimizationType::Cpa => store::optimizations::CPA_GOAL,
            OptimizationType::Cpt => store::optimizations::CPT_GOAL,
            OptimizationType::CostPerTrial => store::optimizations::COST_PER_TRIAL_GOAL,
            OptimizationType::CostPerPurchase => store::optimizations::COST_PER_PURCHASE_GOAL,
            OptimizationType::Roas => store::optimizations::ROAS_GOAL,
        }
    }

    /// The type named in a path (`optimization/rulesCampaigns/{id}`), else 400 on `id`.
    fn from_path(raw: &str) -> ApiResult<OptimizationType> {
        serde_json::from_value(serde_json::Value::String(raw.to_string())).map_err(|_| {
            ApiError::field(
                "id",
                "Must be one of: CPA_GOAL, CPT_GOAL, COST_PER_TRIAL_GOAL, \
                 COST_PER_PURCHASE_GOAL, ROAS_GOAL",
            )
        })
    }
}

/// 400 on `type` when `kind` reads the attributed conversions and the workspace has no
/// attribution provider connected (module docs).
async fn conversions_connected(
    state: &AppState,
    workspace_id: &str,
    kind: OptimizationType,
) -> ApiResult<()> {
    if store::optimizations::reads_conversions(kind.as_str())
        && store::attribution::integrations::all(&state.db.pool, workspace_id)
            .await?
            .is_empty()
    {
        return Err(ApiError::field(
            "type",
            "Connect an attribution provider in Settings › Integrations first: trials, \
             purchases and revenue come from its data",
        ));
    }
    Ok(())
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
    /// Decimal in `currency`; null: each ad group's CPA goal (CPA_GOAL). A ROAS_GOAL's is
    /// a percentage (`"120"`: the revenue of the cohort 1.2 times its spend).
    pub target: Option<String>,
    pub currency: Option<String>,
    /// A ROAS_GOAL's cohort in days after the install (0, 1, 3, 7, 14 or 30); null for the
    /// other types.
    pub cohort_day: Option<i64>,
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

fn item(o: Optimization, currency: Option<String>) -> OptimizationItem {
    let money = MoneyRule::of(currency.as_deref());
    OptimizationItem {
        campaign_id: o.campaign_id,
        account_id: o.account_id,
        org_id: o.org_id,
        target: o
            .target_micros
            .map(|m| store::optimizations::target_text(&o.kind, m, &money)),
        kind: o.kind,
        currency,
        cohort_day: o.cohort_days,
        max_step_percent: o.max_step_percent.to_string(),
        created_by: o.created_by_email,
        enabled_at: o.enabled_at,
        updated_at: o.updated_at,
        last_run: None,
    }
}

/// What a request sets beside the type.
pub struct Sent<'a> {
    pub target: Option<&'a str>,
    pub max_step_percent: Option<&'a str>,
    pub cohort_day: Option<i64>,
}

/// A goal's target, step and cohort as stored.
#[derive(Debug, Clone, Copy)]
struct Checked {
    target: Option<i64>,
    step: i64,
    cohort_days: Option<i64>,
}

/// The target sent for `campaign` (money greater than 0 in its currency, or a ROAS
/// percentage; required for every type but CPA_GOAL), the step (1–100, default 20) and a
/// ROAS goal's cohort day (one of the Cohort columns', default 7).
fn settings(kind: OptimizationType, sent: &Sent<'_>, campaign: &CampaignRow) -> ApiResult<Checked> {
    let mut errors = Vec::new();
    let refuse = |errors: &mut Vec<searchdeck_common::FieldError>, field: &str, message: &str| {
        errors.push(searchdeck_common::FieldError::new(field, message));
    };
    let target = match sent.target.map(str::trim).filter(|t| !t.is_empty()) {
        None if kind != OptimizationType::Cpa => {
            refuse(&mut errors, "target", required(kind));
            None
        }
        None => None,
        Some(t) if kind == OptimizationType::Roas => roas_percent(t).or_else(|| {
            refuse(
                &mut errors,
                "target",
                "Enter a ROAS above 0 % and at most 100000 %, with at most 2 decimals",
            );
            None
        }),
        Some(t) => {
            match money::parse_text(
                "target",
                "Target",
                t,
                campaign.currency.as_deref(),
                Sign::NonNegative,
            ) {
                Ok(d) if d.is_zero() => {
                    refuse(&mut errors, "target", "Enter a target greater than 0");
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
    let step = match sent.max_step_percent {
        None => STEP_DEFAULT,
        Some(s) => match s.parse::<i64>() {
            Ok(n) if (1..=STEP_MAX).contains(&n) && s.chars().all(|c| c.is_ascii_digit()) => n,
            _ => {
                refuse(
                    &mut errors,
                    "maxStepPercent",
                    "Enter a whole percentage from 1 to 100",
                );
                STEP_DEFAULT
            }
        },
    };
    let cohort_days = match (kind, sent.cohort_day) {
        (OptimizationType::Roas, None) => Some(COHORT_DEFAULT),
        (OptimizationType::Roas, Some(d)) if COHORT_DAYS.contains(&d) => Some(d),
        (OptimizationType::Roas, Some(_)) => {
            refuse(
                &mut errors,
                "cohortDay",
                "Must be one of: 0, 1, 3, 7, 14, 30",
            );
            None
        }
        (_, None) => None,
        (_, Some(_)) => {
            refuse(
                &mut errors,
                "cohortDay",
                "Only a ROAS goal is judged on a cohort",
            );
            None
        }
    };
    if errors.is_empty() {
        Ok(Checked {
            target,
            step,
            cohort_days,
        })
    } else {
        Err(ApiError::validation(errors))
    }
}

/// The cohort a ROAS goal is judged on when none is sent: revenue of the first 7 days.
pub(super) const COHORT_DEFAULT: i64 = 7;

/// What a type without its target says.
fn required(kind: OptimizationType) -> &'static str {
    match kind {
        OptimizationType::Cpt => "Enter a target cost per tap",
        OptimizationType::CostPerTrial => "Enter a target cost per trial",
        OptimizationType::CostPerPurchase => "Enter a target cost per purchase",
        _ => "Enter a target ROAS in percent",
    }
}

/// Micros of a ROAS percentage (`"120"`, `"87.5"`): above 0, at most 100,000, two decimals.
fn roas_percent(text: &str) -> Option<i64> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let plain = !int.is_empty()
        && int.len() <= 6
        && int.chars().all(|c| c.is_ascii_digit())
        && frac.len() <= 2
        && frac.chars().all(|c| c.is_ascii_digit())
        && !(text.contains('.') && frac.is_empty());
    let d: rust_decimal::Decimal = text.parse().ok().filter(|_| plain)?;
    (d > rust_decimal::Decimal::ZERO && d <= rust_decimal::Decimal::from(100_000))
        .then(|| money::micros(d))
        .flatten()
}

fn setting(
    caller_ws: &str,
    email: &str,
    c: &CampaignRow,
    kind: OptimizationType,
    checked: Checked,
    now: i64,
) -> Optimization {
    Optimization {
        workspace_id: caller_ws.to_string(),
        account_id: c.account_id.clone(),
        org_id: c.org_id,
        campaign_id: c.id,
        kind: kind.as_str().to_string(),
        target_micros: checked.target,
        cohort_days: checked.cohort_days,
        max_step_percent: checked.step,
        created_by_email: Some(email.to_string()),
        enabled_at: now,
        updated_at: now,
    }
}
