//! Running rules (docs/api/rules.md "Ours, beyond the spec's calls", "A run"): preview and
//! backtest of a rule (saved or not; nothing stored, nothing sent), "Run now" (task and job
//! `run-rule`, trigger MANUAL), a rule's runs, one run with its items, and the undo of a run
//! (job `undo-rule-run`). Editors write (preview and backtest too: the screen is hidden for
//! readers); members read. Rules and runs are resources of the caller's workspace.
//!
//! Evaluation is `searchdeck_common::rules::run::evaluate`, the function the `run-rule`
//! job uses, so a preview shows what the next run would change, entity by entity. This
//! module holds the run as every route answers it (a stored run, or a preview's).

mod backtest;
mod preview;
mod runs;
mod subject;

use std::collections::{BTreeMap, HashMap};

use searchdeck_common::store::rule_runs::{self, ItemRow, RunRow};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{error::ApiResult, route, state::AppState};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(preview::preview))
        .routes(route!(backtest::backtest))
        .routes(route!(runs::run_now))
        .routes(route!(runs::runs))
        .routes(route!(runs::one))
        .routes(route!(runs::undo))
}

/// The days a run read.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunWindow {
    /// YYYY-MM-DD.
    pub start_date: String,
    pub end_date: String,
}

/// A Cohort metric a run judged (`roasD7`, `revenueD7`) and the installs it read: those
/// of the window's days `from` through `through`, the newest day old enough for the cohort
/// (`through` before `from`: no day of the window was, and the metric was null).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunCohort {
    pub metric: String,
    /// The cohort's age: its revenue is of the first `ageDays` days after each install.
    pub age_days: i64,
    /// YYYY-MM-DD.
    pub from: String,
    pub through: String,
}

impl RunCohort {
    fn of(used: searchdeck_common::rules::named::CohortUse) -> RunCohort {
        RunCohort {
            metric: used.metric,
            age_days: used.age_days,
            from: used.from.to_string(),
            through: used.through.to_string(),
        }
    }
}

/// One entity of a run and what the run does to it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunItem {
    /// CAMPAIGN, AD_GROUP, KEYWORD, SEARCH_TERM (an undo's deleted additions: KEYWORD,
    /// NEGATIVE_KEYWORD).
    pub level: String,
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub entity_id: String,
    pub name: String,
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub campaign_id: String,
    /// The campaign's name as synced (null when the campaign is not known any more).
    pub campaign_name: Option<String>,
    pub ad_group_id: Option<String>,
    /// The ad group's name as synced (null without an ad group, or when it is not known).
    pub ad_group_name: Option<String>,
    /// The metric values that matched, by metric name (`localSpend` and each metric the
    /// rule's conditions and minimum data read): decimal strings, null for a ratio without
    /// denominator.
    #[schema(value_type = BTreeMap<String, Option<String>>)]
    pub values: BTreeMap<String, Value>,
    pub action: String,
    /// `status`, `cptBid`, `defaultBidAmount`, `dailyBudget`, `keyword`, `negative`,
    /// `deleted`.
    pub field: String,
    pub old_value: Option<String>,
    pub new_value: Option<String>,
    /// Additions (`keyword`, `negative`): where and what, and `id` once created; null
    /// for the other changes.
    #[schema(value_type = Option<AdditionDetail>)]
    pub detail: Option<Value>,
    /// PLANNED, APPLIED, REFUSED, SKIPPED, UNDONE.
    pub result: String,
    pub message: Option<String>,
}

/// Where and what a rule's addition adds (a run item's `detail`): a keyword added to an
/// ad group, or a search term made a negative keyword of its campaign or ad group.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdditionDetail {
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub campaign_id: String,
    /// The ad group (null: a campaign's negative keyword).
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub ad_group_id: Option<String>,
    /// The keyword's or negative's text (the search term).
    pub text: String,
    /// EXACT or BROAD.
    pub match_type: String,
    /// An added keyword's bid (decimal text in the campaign group's currency), null to use
    /// the ad group's default bid; absent for a negative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bid: Option<String>,
    /// The id Apple Ads gave the created keyword or negative, once applied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub id: Option<String>,
}

/// A run (with its items when one run is asked for, or in a preview).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunOut {
    /// Null in a preview.
    pub id: Option<String>,
    /// Null for a goal optimisation's run.
    pub rule_id: Option<String>,
    pub rule_name: String,
    /// SCHEDULE, MANUAL, UNDO (PREVIEW for a preview).
    pub trigger: String,
    pub period: Option<String>,
    /// PREVIEW, PLANNED, APPLYING, DONE, SKIPPED, FAILED.
    pub status: String,
    pub reason: Option<String>,
    pub window: Option<RunWindow>,
    pub newest_complete_day: Option<String>,
    /// The Cohort metrics the rule names and the installs each was judged on (empty when
    /// it names none).
    pub cohorts: Vec<RunCohort>,
    /// Unix seconds.
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    pub matched: i64,
    pub applied: i64,
    pub refused: i64,
    pub skipped: i64,
    pub undo_of: Option<String>,
    pub undone_by: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<RunItem>>,
}

/// The campaign and ad group names of a run's items, by id.
#[derive(Debug, Default)]
struct Names {
    campaigns: HashMap<i64, String>,
    ad_groups: HashMap<i64, String>,
}

/// The names of the campaigns and ad groups `items` name, in campaign group `org_key`
/// (none when the group is not synced any more).
async fn names_of(state: &AppState, org_key: Option<i64>, items: &[ItemRow]) -> ApiResult<Names> {
    let Some(org_key) = org_key else {
        return Ok(Names::default());
    };
    let mut campaigns: Vec<i64> = items.iter().map(|i| i.campaign_id).collect();
    let mut groups: Vec<i64> = items.iter().filter_map(|i| i.ad_group_id).collect();
    for ids in [&mut campaigns, &mut groups] {
        ids.sort_unstable();
        ids.dedup();
    }
    let mut conn = state.db.pool.acquire().await?;
    let (campaigns, ad_groups) =
        rule_runs::entity_names(&mut conn, org_key, &campaigns, &groups).await?;
    Ok(Names {
        campaigns,
        ad_groups,
    })
}

fn item_out(i: ItemRow, names: &Names) -> RunItem {
    RunItem {
        level: i.level,
        entity_id: i.entity_id.to_string(),
        name: i.name,
        campaign_id: i.campaign_id.to_string(),
        campaign_name: names.campaigns.get(&i.campaign_id).cloned(),
        ad_group_id: i.ad_group_id.map(|g| g.to_string()),
        ad_group_name: i.ad_group_id.and_then(|g| names.ad_groups.get(&g).cloned()),
        values: i.values,
        action: i.action,
        field: i.field,
        old_value: i.old_value,
        new_value: i.new_value,
        detail: i.detail,
        result: i.result,
        message: i.message,
    }
}

fn run_out(r: RunRow, items: Option<(Vec<ItemRow>, Names)>) -> RunOut {
    RunOut {
        id: Some(r.id),
        rule_id: r.rule_id,
        rule_name: r.rule_name,
        trigger: r.trigger,
        period: Some(r.period),
        status: r.status,
        reason: r.reason,
        window: match (r.window_start, r.window_end) {
            (Some(start_date), Some(end_date)) => Some(RunWindow {
                start_date,
                end_date,
            }),
            _ => None,
        },
        newest_complete_day: r.newest_complete_day,
        cohorts: r
            .cohorts
            .as_deref()
            .and_then(|c| serde_json::from_str(c).ok())
            .unwrap_or_default(),
        started_at: Some(r.started_at),
        finished_at: r.finished_at,
        matched: r.matched,
        applied: r.applied,
        refused: r.refused,
        skipped: r.skipped,
        undo_of: r.undo_of,
        undone_by: r.undone_by,
        items: items.map(|(items, names)| items.into_iter().map(|i| item_out(i, &names)).collect()),
    }
}
