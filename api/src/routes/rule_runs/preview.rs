//! A rule's preview (`POST rules/preview`): what a run would change now, entity by entity,
//! with the values that matched and why a run would do nothing; nothing is stored or sent.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    ids,
    report::Cancel,
    rules::{Rule, named, run as rule_run, window},
    store::rule_runs,
};
use serde::Deserialize;
use utoipa::ToSchema;

use super::{
    RunCohort, RunOut, RunWindow, item_out, names_of,
    subject::{report_error, subject_of},
};
use crate::{
    access::Editor,
    envelope::{self, Envelope, Item},
    error::{ApiResult, ErrorBody},
    extract::ApiJson,
    state::AppState,
};

/// `{"rule": …}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreviewBody {
    /// A rule, saved or not (`id` and server fields ignored); its `campaignIds` are the
    /// campaigns it is evaluated on (campaigns of its campaign group).
    pub rule: Rule,
}

/// What the rule would change now, entity by entity, with the values that matched
/// (`status` PREVIEW): the evaluation a run makes, without storing or sending anything.
#[utoipa::path(post, path = "/api/rules/preview", tag = "rules",
    request_body = PreviewBody,
    responses((status = 200, description = "The run as it would be now", body = Envelope<Item<RunOut>>),
              (status = 403, description = "The plan locks the Conversions and Cohort metrics the rule names (pro_limited)", body = ErrorBody),
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
        None => match rule_run::conversions_reason(
            &state.db,
            &subject,
            state
                .engines
                .plan(&state.db, &user.workspace_id)
                .await?
                .columns(),
            now,
        )
        .await?
        {
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
        },
    };
    let cohorts = named::cohorts(&subject.rule, evaluated.window, today)
        .into_iter()
        .map(RunCohort::of)
        .collect();
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
        cohorts,
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
