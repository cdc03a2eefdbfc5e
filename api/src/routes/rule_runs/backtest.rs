//! A rule's backtest (`POST rules/backtest`): the rule replayed once a day over past days at
//! its scheduled time, each day on the data as synced, with the entities it would have
//! changed and their metrics over those days.

use std::collections::{BTreeMap, HashMap};

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    ids,
    money::currency::MoneyRule,
    report::{Cancel, DateRange, EntityRead, Metric},
    rules::{Frequency, Rule, run as rule_run, schedule, window},
    store::rule_runs::{self, ItemRow},
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::Duration;
use utoipa::ToSchema;

use super::{
    RunWindow,
    subject::{report_error, subject_of},
};
use crate::{
    access::Editor,
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::ApiJson,
    state::AppState,
};

/// `{"rule": …, "days": 1–90}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BacktestBody {
    pub rule: Rule,
    /// How many past days to replay (1–90).
    #[schema(minimum = 1, maximum = 90)]
    pub days: u32,
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
              (status = 403, description = "The plan locks the Conversions and Cohort metrics the rule names (pro_limited)", body = ErrorBody),
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
        conversions: None,
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
