//! A rule sent in a body, made ready to evaluate: its connection, campaign group and
//! campaigns checked against the caller's workspace and its definition validated as saving
//! checks it; and the report engine's failures as the API answers them.

use searchdeck_common::{
    report::ReportError,
    rules::{
        Rule,
        run::{self as rule_run, Subject},
    },
    store,
};

use crate::{
    error::{ApiError, ApiResult, FieldError},
    session::CurrentUser,
    state::AppState,
};

/// The subject of a rule sent in a body: its connection must be the caller's (else 404),
/// its campaign group synced and its campaigns that group's (else 400 `rule.…`).
pub(super) async fn subject_of(
    state: &AppState,
    user: &CurrentUser,
    rule: &Rule,
) -> ApiResult<Subject> {
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
            _ => errors.push(FieldError::new(
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
                .map(|f| FieldError::new(format!("rule.{}", f.field), f.message))
                .collect(),
        ));
    }
    crate::routes::rules::conversions_granted(state, &user.workspace_id, rule).await?;
    rule_run::subject(&state.db, &user.workspace_id, rule, campaigns)
        .await?
        .ok_or_else(|| ApiError::field("rule.orgId", "This campaign group is not synced yet"))
}

pub(super) fn report_error(e: ReportError) -> ApiError {
    match e {
        ReportError::Invalid(errors) => ApiError::validation(
            errors
                .into_iter()
                .map(|f| FieldError::new(&f.field, &f.message))
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
