//! Automated rules and goal optimisation (docs/product.md#7-the-calls-it-makes `rules`,
//! `optimization`; contract `docs/api/rules.md`): the rules of a workspace (`crud.rs`: list,
//! create, replace, delete), the campaigns they apply to (`campaigns.rs`: the `rulesCampaigns`
//! calls) and the campaigns' goal optimisation (`optimization.rs`). Every member reads; owners,
//! admins and writers change. A rule acts in one campaign group: the workspace's connection
//! `accountId` and its synced org `orgId`, whose currency the rule's money is in; its
//! campaigns are campaigns of that group. Every write is validated whole
//! (`searchdeck_common::rules::validate`, 400 with field errors) and checked against the
//! plan's limits (`AVAILABLERULES`, `AVAILABLERULESCAMPAIGNS`, 403), then stored. The
//! limits are counted inside the write's transaction, after a lock on the workspace's row
//! ([`lock_limits`]): concurrent creations or attachments of one workspace take turns
//! (SQLite's busy writer retried, `Db::retry_busy`) and cannot pass a limit together.
//!
//! Running rules (preview, backtest, runs, undo) lives in the rules engine's own route
//! module; it reads the `rules` table and the helpers here ([`StoredRule`], [`rule_item`]).

mod campaigns;
mod crud;
mod optimization;

use std::collections::{HashMap, HashSet};

use searchdeck_common::{
    plan::Plan,
    rules::{LastRun, Rule, validate},
    store::{self, rules::RuleRow, synced::SyncOrg},
};
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{StoredRule, WorkspaceResource},
    error::{ApiError, ApiResult, FieldError},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(crud::all))
        .routes(route!(crud::create))
        .routes(route!(crud::replace))
        .routes(route!(crud::delete_many))
        .routes(route!(campaigns::attach))
        .routes(route!(campaigns::detach))
        .routes(route!(campaigns::set_campaigns))
        .routes(route!(campaigns::set_rules_of_campaign))
        .routes(route!(campaigns::toggle))
        .routes(route!(optimization::campaign::one))
        .routes(route!(optimization::list::all))
        .routes(route!(optimization::turn::turn_on))
        .routes(route!(optimization::turn::turn_off))
}

/// 403 with the Pro lock's message ('Upgrade to Pro to track events from your MMP.') when
/// `rule` names a Conversions or Cohort metric and the workspace's plan locks them
/// (pro_limited; docs/product.md#6-conversions-lock). Saving, previewing and backtesting
/// such a rule all check it.
pub async fn conversions_granted(
    state: &AppState,
    workspace_id: &str,
    rule: &Rule,
) -> ApiResult<()> {
    if searchdeck_common::rules::named::reads_conversions(rule)
        && !state
            .engines
            .plan(&state.db, workspace_id)
            .await?
            .columns()
            .conversions
    {
        return Err(ApiError::status(
            axum::http::StatusCode::FORBIDDEN,
            searchdeck_common::report::catalog::PRO_LOCK_MESSAGE,
        ));
    }
    Ok(())
}

/// Most ids one request names (rules, campaigns).
pub const IDS_MAX: usize = 1_000;

/// `rule` as answered: its attached campaigns (`campaigns`, as strings of digits), its
/// currency (the synced org's) and `lastRun` (its newest run, [`last_run`]).
pub fn rule_item(
    row: RuleRow,
    campaigns: &[i64],
    currency: Option<String>,
    last: Option<LastRun>,
) -> Rule {
    let mut rule = row.rule;
    rule.campaign_ids = Some(campaigns.iter().map(i64::to_string).collect());
    rule.currency = currency.or(rule.currency);
    rule.last_run = last;
    rule
}

/// The newest run of rule `rule_id` as the rules list shows it.
pub async fn last_run(state: &AppState, rule_id: &str) -> ApiResult<Option<LastRun>> {
    let Some(run) = store::rule_runs::latest(&state.db.pool, rule_id).await? else {
        return Ok(None);
    };
    let count = |n: i64| u32::try_from(n).unwrap_or(u32::MAX);
    Ok(Some(LastRun {
        at: run.finished_at.unwrap_or(run.started_at),
        status: run.status,
        matched: count(run.matched),
        applied: count(run.applied),
        refused: count(run.refused),
        skipped: count(run.skipped),
        trigger: run.trigger,
        by: run.user_email,
        undo_of: run.undo_of,
        undone_by: run.undone_by,
        id: run.id,
    }))
}

/// Rule `id` of `workspace_id` as answered (404 when gone).
pub async fn stored_rule(state: &AppState, workspace_id: &str, id: &str) -> ApiResult<Rule> {
    let row = store::rules::get(&state.db.pool, workspace_id, id)
        .await?
        .ok_or_else(|| ApiError::not_found(StoredRule::NAME))?;
    let campaigns: Vec<i64> = store::rules::campaigns(&state.db.pool, id)
        .await?
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    let org_id = row.rule.org_id.parse::<i64>().unwrap_or_default();
    let currency = store::synced::org_of(&state.db.pool, &row.rule.account_id, org_id)
        .await?
        .and_then(|o| o.currency);
    let last = last_run(state, &row.rule.id).await?;
    Ok(rule_item(row, &campaigns, currency, last))
}

/// The campaign group a rule names: the workspace's connection `account_id` and its synced
/// org `org_id`, else field errors on `accountId` / `orgId`.
pub async fn rule_scope(
    state: &AppState,
    workspace_id: &str,
    account_id: &str,
    org_id: &str,
) -> ApiResult<Result<SyncOrg, Vec<FieldError>>> {
    let account = if crate::input::has_control(account_id, false) || account_id.trim().is_empty() {
        None
    } else {
        store::accounts::in_workspace(&state.db.pool, workspace_id, account_id).await?
    };
    let Some(account) = account else {
        return Ok(Err(vec![FieldError::new(
            "accountId",
            "Choose a connection of this workspace",
        )]));
    };
    let org = match org_id.parse::<i64>() {
        Ok(o) if validate::digits(org_id) => {
            store::synced::org_of(&state.db.pool, &account.id, o).await?
        }
        _ => None,
    };
    Ok(org.ok_or_else(|| {
        vec![FieldError::new(
            "orgId",
            "Choose a synced campaign group of this connection",
        )]
    }))
}

/// The ids of the campaigns of synced group `org` (deleted ones included: a rule keeps a
/// campaign Apple deleted until it is detached).
pub async fn campaigns_of_org(state: &AppState, org: &SyncOrg) -> ApiResult<HashSet<i64>> {
    Ok(
        store::campaign_views::campaigns(&state.db.pool, org.org_key, true)
            .await?
            .into_iter()
            .map(|c| c.id)
            .collect(),
    )
}

/// Field errors (`{field}.N`) for the ids of `ids` that are not campaigns of `org`.
pub async fn foreign_campaigns(
    state: &AppState,
    org: &SyncOrg,
    ids: &[i64],
    field: &str,
) -> ApiResult<Vec<FieldError>> {
    let ours = campaigns_of_org(state, org).await?;
    Ok(ids
        .iter()
        .enumerate()
        .filter(|(_, id)| !ours.contains(id))
        .map(|(i, _)| {
            FieldError::new(
                format!("{field}.{i}"),
                "Not a campaign of the rule's campaign group",
            )
        })
        .collect())
}

/// 403 `AVAILABLERULES` when the workspace has as many rules as `plan` allows. Called in
/// the write's transaction after [`lock_limits`], so two concurrent creations cannot both
/// pass it.
pub async fn check_rules_limit(
    conn: &mut sqlx::AnyConnection,
    plan: Plan,
    workspace_id: &str,
) -> ApiResult<()> {
    let count = store::rules::count(&mut *conn, workspace_id).await?;
    match plan.rule_limits().rules_exceeded(count as u64 + 1) {
        Some(kind) => Err(ApiError::limit_reached(kind)),
        None => Ok(()),
    }
}

/// 403 `AVAILABLERULESCAMPAIGNS` when, after `change` to the workspace's attachments
/// (rule id → campaigns), more distinct campaigns would have a rule than `plan` allows, and
/// more than before (a workspace over its limit may still detach). Called in the write's
/// transaction after [`lock_limits`].
pub async fn check_campaigns_limit(
    conn: &mut sqlx::AnyConnection,
    plan: Plan,
    workspace_id: &str,
    change: impl FnOnce(&mut HashMap<String, HashSet<i64>>),
) -> ApiResult<()> {
    let mut links: HashMap<String, HashSet<i64>> = HashMap::new();
    for (rule, campaign, _) in store::rules::links(&mut *conn, workspace_id).await? {
        links.entry(rule).or_default().insert(campaign);
    }
    let distinct = |l: &HashMap<String, HashSet<i64>>| {
        l.values().flatten().collect::<HashSet<_>>().len() as u64
    };
    let before = distinct(&links);
    change(&mut links);
    let after = distinct(&links);
    match plan.rule_limits().campaigns_exceeded(after) {
        Some(kind) if after > before => Err(ApiError::limit_reached(kind)),
        _ => Ok(()),
    }
}

/// The plan of `workspace_id`, and the workspace's rule writes serialised from here to the
/// end of `conn`'s transaction (`store::rules::lock_workspace`): what the limit checks need
/// before they count.
pub async fn lock_limits(
    state: &AppState,
    conn: &mut sqlx::AnyConnection,
    workspace_id: &str,
) -> ApiResult<Plan> {
    store::rules::lock_workspace(&mut *conn, workspace_id).await?;
    Ok(state.engines.plan(&state.db, workspace_id).await?)
}

/// Campaign ids sent as strings of digits (`campaignIds`), parsed; field errors for the rest
/// were already given by validation.
pub fn parsed_ids(ids: &[String]) -> Vec<i64> {
    ids.iter().filter_map(|s| s.parse().ok()).collect()
}
