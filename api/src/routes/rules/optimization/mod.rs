//! Goal optimisation of campaigns (`optimization/*`, docs/api/rules.md): the built-in rule
//! "move each keyword's bid toward the target" turned on per campaign with a type
//! (`CPA_GOAL`: the target, else each ad group's CPA goal; `CPT_GOAL`: a target, required),
//! a target in the campaign group's currency and the largest step per run. The settings are
//! ours (`store::optimizations`); the rules engine runs them.
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
