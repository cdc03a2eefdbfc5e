//! A saved rule's runs: "Run now" (a task and its `run-rule` job, joined while one is
//! unfinished), the rule's runs page by page, one run with its items, and the undo of a run
//! (job `undo-rule-run`).

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    ids,
    jobs::{RunRule, UndoRuleRun},
    store::{self, rule_runs, tasks::NewTask},
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{RunOut, names_of, run_out};
use crate::{
    access::{EditRoles, InWorkspace, StoredRule, StoredRun},
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::ApiQuery,
    state::AppState,
};

/// `{"id": "<task id>"}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct RuleTaskStarted {
    pub id: String,
}

/// Runs the rule now: a task and its `run-rule` job (trigger MANUAL). Editors only. While a
/// run of the rule requested this way is queued or running, a second request joins it (the
/// same task id); a run on the same delivered data as the rule's last one applies nothing
/// again and says so in its task (docs/api/rules.md "Once per intent").
#[utoipa::path(post, path = "/api/rules/user/{id}/run", tag = "rules",
    params(("id" = String, Path, description = "Rule id")),
    responses((status = 200, description = "The run is queued, or joined: its task id", body = Envelope<RuleTaskStarted>)))]
pub async fn run_now(
    State(state): State<AppState>,
    rule: InWorkspace<StoredRule, EditRoles>,
) -> ApiResult<impl IntoResponse> {
    let r = &rule.item.0.rule;
    let job = RunRule {
        rule: r.id.clone(),
        period: format!("manual:{}", ids::new_id()),
        trigger: "MANUAL".into(),
        user_id: Some(rule.caller.user_id.clone()),
        user_email: Some(rule.caller.email.clone()),
    };
    let started = state
        .start_or_join_task(
            &format!("rule:{}", r.id),
            NewTask {
                workspace_id: &rule.caller.workspace_id,
                user_id: Some(&rule.caller.user_id),
                kind: "run-rule",
                message: "Running the rule...",
                total_steps: 1,
                account_id: Some(&r.account_id),
                org_id: r.org_id.parse().ok(),
            },
            &job,
        )
        .await
        .map_err(ApiError::from)?;
    Ok(envelope::ok(RuleTaskStarted {
        id: started.id().to_string(),
    }))
}

/// `page` (from 1), `pageSize` (1–100, default 20).
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct PageQuery {
    #[param(minimum = 1)]
    pub page: Option<u32>,
    #[param(minimum = 1, maximum = 100)]
    pub page_size: Option<u32>,
}

/// A page of runs.
#[derive(Debug, Serialize, ToSchema)]
pub struct RunPage {
    pub items: Vec<RunOut>,
    pub total: i64,
}

/// The rule's runs without their items, newest first.
#[utoipa::path(get, path = "/api/rules/user/{id}/runs", tag = "rules",
    params(("id" = String, Path, description = "Rule id"), PageQuery),
    responses((status = 200, description = "A page of runs", body = Envelope<RunPage>),
              (status = 400, description = "Invalid page", body = ErrorBody)))]
pub async fn runs(
    State(state): State<AppState>,
    rule: InWorkspace<StoredRule>,
    ApiQuery(query): ApiQuery<PageQuery>,
) -> ApiResult<impl IntoResponse> {
    let page = query.page.unwrap_or(1);
    let size = query.page_size.unwrap_or(20);
    if page == 0 {
        return Err(ApiError::field("page", "Must be at least 1"));
    }
    if !(1..=100).contains(&size) {
        return Err(ApiError::field("pageSize", "Between 1 and 100"));
    }
    let mut conn = state.db.pool.acquire().await?;
    let (rows, total) = rule_runs::of_rule(
        &mut conn,
        &rule.caller.workspace_id,
        &rule.item.0.rule.id,
        page,
        size,
    )
    .await?;
    Ok(envelope::ok(RunPage {
        items: rows.into_iter().map(|r| run_out(r, None)).collect(),
        total,
    }))
}

/// One run with its items, each with its campaign's and ad group's names.
#[utoipa::path(get, path = "/api/rules/runs/{id}", operation_id = "one_rule_run", tag = "rules",
    params(("id" = String, Path, description = "Run id")),
    responses((status = 200, description = "The run", body = Envelope<Item<RunOut>>)))]
pub async fn one(
    State(state): State<AppState>,
    run: InWorkspace<StoredRun>,
) -> ApiResult<impl IntoResponse> {
    let r = run.item.0;
    let items = rule_runs::items(&state.db.pool, &r.id).await?;
    let org = store::synced::org_of(&state.db.pool, &r.account_id, r.org_id).await?;
    let names = names_of(&state, org.map(|o| o.org_key), &items).await?;
    Ok(envelope::item(run_out(r, Some((items, names)))))
}

/// Undoes a run: its applied items still at their new value go back to their old one
/// (job `undo-rule-run`). 400 when the run changed nothing, is an undo, or was undone.
#[utoipa::path(post, path = "/api/rules/runs/{id}/undo", operation_id = "undo_rule_run", tag = "rules",
    params(("id" = String, Path, description = "Run id")),
    responses((status = 200, description = "The undo is queued: its task id", body = Envelope<RuleTaskStarted>),
              (status = 400, description = "Nothing to undo", body = ErrorBody)))]
pub async fn undo(
    State(state): State<AppState>,
    run: InWorkspace<StoredRun, EditRoles>,
) -> ApiResult<impl IntoResponse> {
    let r = &run.item.0;
    if r.trigger == "UNDO" {
        return Err(ApiError::bad_request("An undo cannot be undone"));
    }
    if r.undone_by.is_some()
        || rule_runs::by_period(&state.db.pool, &r.rule_key, &format!("undo:{}", r.id))
            .await?
            .is_some()
    {
        return Err(ApiError::bad_request("This run was undone already"));
    }
    if !matches!(r.status.as_str(), rule_runs::DONE | rule_runs::FAILED) || r.applied == 0 {
        return Err(ApiError::bad_request("This run changed nothing"));
    }
    let job = UndoRuleRun {
        workspace_id: run.caller.workspace_id.clone(),
        run_id: r.id.clone(),
        user_id: Some(run.caller.user_id.clone()),
        user_email: Some(run.caller.email.clone()),
    };
    let id = state
        .start_task(
            NewTask {
                workspace_id: &run.caller.workspace_id,
                user_id: Some(&run.caller.user_id),
                kind: "undo-rule-run",
                message: "Undoing the run...",
                total_steps: 1,
                account_id: Some(&r.account_id),
                org_id: Some(r.org_id),
            },
            &job,
        )
        .await
        .map_err(ApiError::from)?;
    Ok(envelope::ok(RuleTaskStarted { id }))
}
