//! `GET optimization/all/rules`: the goal optimisation types with their description and
//! the defaults every run uses, and each optimised campaign of the workspace.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{COHORT_DEFAULT, OptimizationItem, OptimizationType, STEP_DEFAULT, item};
use crate::{
    access::Member,
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody},
    extract::ApiQuery,
    state::AppState,
};
use searchdeck_common::attribution::conversions::COHORT_DAYS;

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
    /// What the target is: `money` in the campaign group's currency, or `percent` (a ROAS).
    #[schema(pattern = "^(money|percent)$")]
    pub target_unit: String,
    /// Whether it reads the attributed conversions (an attribution provider connected in
    /// Settings › Integrations; the Conversions columns on the plan).
    pub conversions: bool,
    /// The cohorts (days after the install) it can be judged on; empty when it reads none.
    pub cohort_days: Vec<i64>,
    pub defaults: OptimizationDefaults,
}

/// What every goal optimisation runs with.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OptimizationDefaults {
    /// Largest bid step per run, in percent.
    pub max_step_percent: String,
    /// Days of metrics read.
    pub window_days: u32,
    /// How many days ago the newest day read is (1: yesterday; a ROAS D7 goal: 8, the
    /// newest install day whose cohort has matured).
    pub newest_day_ago: i64,
    /// Hour of the day it runs, in the campaign group's time zone.
    pub hour: u32,
    /// Taps a keyword needs in the window before its bid moves.
    pub min_taps: u32,
    /// The cohort a ROAS goal is judged on when none is chosen; null for the other types.
    pub cohort_day: Option<i64>,
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
    let defaults = |newest_day_ago: i64, cohort_day: Option<i64>| OptimizationDefaults {
        max_step_percent: STEP_DEFAULT.to_string(),
        window_days: 14,
        newest_day_ago,
        hour: 6,
        min_taps: 10,
        cohort_day,
    };
    let item = |kind: OptimizationType, name: &str, description: &str, unit: &str, defaults| {
        let conversions = store::optimizations::reads_conversions(kind.as_str());
        OptimizationTypeItem {
            kind,
            name: name.into(),
            description: description.into(),
            target_required: kind != OptimizationType::Cpa,
            target_unit: unit.into(),
            conversions,
            cohort_days: if kind == OptimizationType::Roas {
                COHORT_DAYS.to_vec()
            } else {
                Vec::new()
            },
            defaults,
        }
    };
    vec![
        item(
            OptimizationType::Cpa,
            "CPA goal",
            "Moves each keyword's bid toward the target cost per install (the ad group's CPA \
             goal when no target is set), daily, from the last 14 days.",
            "money",
            defaults(1, None),
        ),
        item(
            OptimizationType::Cpt,
            "CPT goal",
            "Moves each keyword's bid toward the target cost per tap, daily, from the last 14 \
             days.",
            "money",
            defaults(1, None),
        ),
        item(
            OptimizationType::CostPerTrial,
            "Cost per trial goal",
            "Moves each keyword's bid toward the target cost per trial started by its \
             attributed installs, daily, from the 14 days ending the day before yesterday.",
            "money",
            defaults(2, None),
        ),
        item(
            OptimizationType::CostPerPurchase,
            "Cost per purchase goal",
            "Moves each keyword's bid toward the target cost per paying user of its \
             attributed installs, daily, from the 14 days ending the day before yesterday.",
            "money",
            defaults(2, None),
        ),
        item(
            OptimizationType::Roas,
            "ROAS goal",
            "Raises each keyword's bid while its cohort ROAS is above the target and lowers it \
             below, daily, judged only on the 14 newest install days old enough for the cohort \
             (ROAS D7: installs at least 7 full days old).",
            "percent",
            defaults(COHORT_DEFAULT + 1, Some(COHORT_DEFAULT)),
        ),
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
