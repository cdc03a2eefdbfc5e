//! Running rules (docs/api/rules.md "Ours, beyond the spec's calls", "A run"): preview and
//! backtest of a rule (saved or not; nothing stored, nothing sent), "Run now" (task and job
//! `run-rule`, trigger MANUAL), a rule's runs, one run with its items, and the undo of a run
//! (job `undo-rule-run`). Editors write (preview and backtest too: the screen is hidden for
//! readers); members read. Rules and runs are resources of the caller's workspace.
//!
//! Evaluation is `searchdeck_common::rules::run::evaluate`, the function the `run-rule`
//! job uses, so a preview shows what the next run would change, entity by entity.

use std::collections::{BTreeMap, HashMap};

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    ids,
    jobs::{RunRule, UndoRuleRun},
    money::currency::MoneyRule,
    report::{Cancel, DateRange, EntityRead, Metric},
    rules::{
        Frequency, Rule,
        run::{self as rule_run, Subject},
        schedule, window,
    },
    store::{
        self,
        rule_runs::{self, ItemRow, RunRow},
        tasks::NewTask,
    },
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::Duration;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{EditRoles, Editor, InWorkspace, StoredRule, StoredRun},
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiQuery},
    route,
    session::CurrentUser,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(preview))
        .routes(route!(backtest))
        .routes(route!(run_now))
        .routes(route!(runs))
        .routes(route!(one))
        .routes(route!(undo))
}

/// The days a run read.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunWindow {
    /// YYYY-MM-DD.
    pub start_date: String,
    pub end_date: String,
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

/// `{"rule": …}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreviewBody {
    /// A rule, saved or not (`id` and server fields ignored); its `campaignIds` are the
    /// campaigns it is evaluated on (campaigns of its campaign group).
    pub rule: Rule,
}

/// `{"rule": …, "days": 1–90}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BacktestBody {
    pub rule: Rule,
    /// How many past days to replay (1–90).
    #[schema(minimum = 1, maximum = 90)]
    pub days: u32,
}

/// The subject of a rule sent in a body: its connection must be the caller's (else 404),
/// its campaign group synced and its campaigns that group's (else 400 `rule.…`).
async fn subject_of(state: &AppState, user: &CurrentUser, rule: &Rule) -> ApiResult<Subject> {
    let account = store::accounts::by_id(&state.db.pool, &rule.account_id)
        .await?
        .filter(|a| a.workspace_id == user.workspace_id)
        .ok_or_else(|| ApiError::not_found("Account"))?;
    let org_id: i64 = rule
        .org_id
        .trim()
        .parse()
        .map_err(|_| ApiError::field("rule.orgId", "Must be a campaign group id"))?;
    let org = store::report_entities::sync_org_of(&state.db.pool, &account.id, org_id)
        .await?
        .ok_or_else(|| ApiError::field("rule.orgId", "This campaign group is not synced yet"))?;
    let known = store::synced::campaign_ids(&state.db.pool, org.org_key).await?;
    let mut campaigns = Vec::new();
    let mut errors = Vec::new();
    for (n, c) in rule.campaign_ids.iter().flatten().enumerate() {
        match c.trim().parse::<i64>() {
            Ok(id) if known.contains(&id) => campaigns.push(id),
            _ => errors.push(crate::error::FieldError::new(
                format!("rule.campaignIds.{n}"),
                "Not a campaign of the rule's campaign group",
            )),
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    if campaigns.is_empty() {
        return Err(ApiError::field(
            "rule.campaignIds",
            "Choose at least one campaign",
        ));
    }
    // The schema's rules, as saving the rule checks them (the body's rule is `rule`).
    if let Err(found) = searchdeck_common::rules::validate::validate(
        rule,
        org.currency.as_deref().unwrap_or_default(),
    ) {
        return Err(ApiError::validation(
            found
                .into_iter()
                .map(|f| crate::error::FieldError::new(format!("rule.{}", f.field), f.message))
                .collect(),
        ));
    }
    rule_run::subject(&state.db, &user.workspace_id, rule, campaigns)
        .await?
        .ok_or_else(|| ApiError::field("rule.orgId", "This campaign group is not synced yet"))
}

fn report_error(e: searchdeck_common::report::ReportError) -> ApiError {
    use searchdeck_common::report::ReportError;
    match e {
        ReportError::Invalid(errors) => ApiError::validation(
            errors
                .into_iter()
                .map(|f| crate::error::FieldError::new(&f.field, &f.message))
                .collect(),
        ),
        ReportError::Changing => ApiError::status(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            "The report's data is being updated. Try again in a moment.",
        ),
        ReportError::Cancelled => ApiError::bad_request("Cancelled"),
        ReportError::Db(e) => ApiError::from(e),
    }
}

/// What the rule would change now, entity by entity, with the values that matched
/// (`status` PREVIEW): the evaluation a run makes, without storing or sending anything.
#[utoipa::path(post, path = "/api/rules/preview", tag = "rules",
    request_body = PreviewBody,
    responses((status = 200, description = "The run as it would be now", body = Envelope<Item<RunOut>>),
              (status = 400, description = "Invalid rule, campaign group not synced, campaigns not of it", body = ErrorBody),
              (status = 404, description = "The rule's account is not a connection of the workspace", body = ErrorBody)))]
pub async fn preview(
    State(state): State<AppState>,
    user: Editor,
    ApiJson(body): ApiJson<PreviewBody>,
) -> ApiResult<impl IntoResponse> {
    let subject = subject_of(&state, &user, &body.rule).await?;
    let now = ids::now_ms() / 1000;
    let today = window::today(now, subject.org.time_zone.as_deref());
    let evaluated = rule_run::evaluate(
        &state.db,
        &state.engines.reports,
        &subject,
        today,
        &Cancel::new(),
    )
    .await
    .map_err(report_error)?;
    let count = |r: &str| evaluated.items.iter().filter(|i| i.result == r).count() as i64;
    let names = names_of(&state, Some(subject.org.org_key), &evaluated.items).await?;
    let newest = rule_run::newest_complete_day(&subject.org);
    // Why a run now would do nothing, before anyone saves: days Apple has not delivered,
    // else the collapse guard.
    let reason = match rule_run::incomplete_reason(&subject.org, evaluated.window.1) {
        Some(r) => Some(r),
        None => rule_run::collapse_guard(
            &state.db,
            &state.engines.reports,
            &subject,
            &evaluated,
            &Cancel::new(),
        )
        .await
        .map_err(report_error)?,
    };
    Ok(envelope::item(RunOut {
        id: None,
        rule_id: None,
        rule_name: subject.rule.name.clone(),
        trigger: "PREVIEW".into(),
        period: None,
        status: "PREVIEW".into(),
        reason,
        window: Some(RunWindow {
            start_date: evaluated.window.0.to_string(),
            end_date: evaluated.window.1.to_string(),
        }),
        newest_complete_day: newest.map(|d| d.to_string()),
        started_at: Some(now),
        finished_at: None,
        matched: evaluated.matched as i64,
        applied: 0,
        refused: 0,
        skipped: count(rule_runs::ITEM_SKIPPED),
        undo_of: None,
        undone_by: None,
        items: Some(
            evaluated
                .items
                .into_iter()
                .map(|i| item_out(i, &names))
                .collect(),
        ),
    }))
}

/// One replayed run of a backtest.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BacktestPoint {
    /// The scheduled time it replays (RFC 3339).
    pub at: String,
    pub window: RunWindow,
    pub matched: i64,
    /// Items it would have changed.
    pub changes: i64,
}

/// An entity the backtest would have changed.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BacktestEntity {
    pub level: String,
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub entity_id: String,
    pub name: String,
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub campaign_id: String,
    pub times_changed: i64,
    /// The common metrics over the backtest's days, by metric name (decimal strings; null
    /// without denominator).
    #[schema(value_type = BTreeMap<String, Option<String>>)]
    pub metrics: BTreeMap<String, Value>,
}

/// A backtest's answer.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Backtest {
    pub points: Vec<BacktestPoint>,
    pub entities: Vec<BacktestEntity>,
    /// What a backtest does not simulate.
    pub note: String,
}

/// The due time of `frequency` on day `day` (the campaign group's date), if it runs that
/// day: the last one of the day (metrics are daily, so an hourly rule replays once a day).
fn due_on(frequency: &Frequency, tz: Option<&str>, day: time::Date) -> Option<i64> {
    let midnight = schedule::start_of(day.next_day()?, tz)?;
    let due = schedule::latest_due(frequency, tz, midnight - 1, 0)?;
    (window::today(due, tz) == day).then_some(due)
}

/// Replays the rule over the last `days` days, once per day it is due at its scheduled
/// time (windows as of each day, only days whose window is complete), and shows what it
/// would have changed and the metrics of the entities it would have touched. Each day is
/// evaluated on the data as synced: the effect of earlier changes is not simulated.
#[utoipa::path(post, path = "/api/rules/backtest", tag = "rules",
    request_body = BacktestBody,
    responses((status = 200, description = "The replayed runs and the entities they would have changed", body = Envelope<Item<Backtest>>),
              (status = 400, description = "Invalid rule or days", body = ErrorBody),
              (status = 404, description = "The rule's account is not a connection of the workspace", body = ErrorBody)))]
pub async fn backtest(
    State(state): State<AppState>,
    user: Editor,
    ApiJson(body): ApiJson<BacktestBody>,
) -> ApiResult<impl IntoResponse> {
    if !(1..=90).contains(&body.days) {
        return Err(ApiError::field("days", "Between 1 and 90 days"));
    }
    let subject = subject_of(&state, &user, &body.rule).await?;
    let tz = subject.org.time_zone.clone();
    let now = ids::now_ms() / 1000;
    let today = window::today(now, tz.as_deref());
    let newest = rule_run::newest_complete_day(&subject.org);
    let cancel = Cancel::new();
    let mut points = Vec::new();
    let mut touched: HashMap<i64, (String, String, i64, i64)> = HashMap::new();
    for back in (1..=i64::from(body.days)).rev() {
        let day = today - Duration::days(back);
        let Some(due) = due_on(&subject.rule.frequency, tz.as_deref(), day) else {
            continue;
        };
        let evaluated =
            rule_run::evaluate(&state.db, &state.engines.reports, &subject, day, &cancel)
                .await
                .map_err(report_error)?;
        if newest.is_none_or(|n| evaluated.window.1 > n) {
            continue;
        }
        let changes: Vec<&ItemRow> = evaluated
            .items
            .iter()
            .filter(|i| i.result == rule_runs::ITEM_PLANNED)
            .collect();
        for i in &changes {
            let e = touched
                .entry(i.entity_id)
                .or_insert_with(|| (i.level.clone(), i.name.clone(), i.campaign_id, 0));
            e.3 += 1;
        }
        points.push(BacktestPoint {
            at: schedule::period(due),
            window: RunWindow {
                start_date: evaluated.window.0.to_string(),
                end_date: evaluated.window.1.to_string(),
            },
            matched: evaluated.matched as i64,
            changes: changes.len() as i64,
        });
    }
    // The touched entities' metrics over the backtest's days.
    let range = DateRange {
        from: today - Duration::days(i64::from(body.days)),
        to: today - Duration::days(1),
    };
    let read = EntityRead {
        level: rule_run::report_level(subject.rule.level),
        campaigns: subject.campaigns.clone(),
        range,
        tags: false,
        popularity: false,
    };
    let rows = searchdeck_common::report::entity_rows(
        &state.db,
        &state.engines.reports,
        &subject.workspace_id,
        &subject.org,
        &read,
        &cancel,
    )
    .await
    .map_err(report_error)?;
    let money = MoneyRule::of(Some(&subject.currency));
    let mut entities: Vec<BacktestEntity> = rows
        .iter()
        .filter_map(|r| {
            let (level, name, campaign, times) = touched.get(&r.id)?;
            let metrics = Metric::ALL
                .iter()
                .filter(|m| m.is_common())
                .map(|m| {
                    let v = m
                        .value(&r.counters, &money)
                        .map_or(Value::Null, |d| Value::String(d.normalize().to_string()));
                    (m.name().to_string(), v)
                })
                .collect();
            Some(BacktestEntity {
                level: level.clone(),
                entity_id: r.id.to_string(),
                name: name.clone(),
                campaign_id: campaign.to_string(),
                times_changed: *times,
                metrics,
            })
        })
        .collect();
    entities.sort_by(|a, b| {
        b.times_changed
            .cmp(&a.times_changed)
            .then(a.entity_id.cmp(&b.entity_id))
    });
    Ok(envelope::item(Backtest {
        points,
        entities,
        note: "Each day is evaluated on the metrics as synced: the effect of the changes of earlier days is not simulated.".into(),
    }))
}

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
