//! What a test sets on the world's entities: a keyword's whole-day metrics on one day
//! (served instead of the model's, so a test gets a known day), and the reasons Apple
//! holds a campaign back for (its system status).

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::bad_request;
use crate::state::Sandbox;
use crate::world::Id;

/// `PUT /sandbox/keywords/{id}/metrics` body: the day (`day`, or `daysAgo` from the ad
/// account's today) and the keyword's whole-day figures on it; spend in micros of the ad
/// account's currency. Installs are new downloads after a tap.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct KeywordMetrics {
    day: Option<String>,
    days_ago: Option<i64>,
    impressions: u64,
    taps: u64,
    installs: u64,
    spend_micros: i64,
}

pub(super) async fn put_keyword_metrics(
    State(sandbox): State<Arc<Sandbox>>,
    axum::extract::Path(id): axum::extract::Path<Id>,
    body: Bytes,
) -> Response {
    let set: KeywordMetrics = match serde_json::from_slice(&body) {
        Ok(c) => c,
        Err(e) => return bad_request(format!("invalid keyword metrics: {e}")),
    };
    if set.taps > set.impressions {
        return bad_request("taps: more taps than impressions");
    }
    if set.installs > set.taps {
        return bad_request("installs: more installs than taps");
    }
    if set.spend_micros < 0 || (set.taps == 0 && set.spend_micros > 0) {
        return bad_request("spendMicros: spend needs taps and is never negative");
    }
    let mut w = sandbox.world.write();
    let Some(keyword) = w.keywords.get(&id) else {
        return (
            StatusCode::NOT_FOUND,
            Json(json!({ "error": { "code": "NOT_FOUND", "message": format!("keyword {id} does not exist") } })),
        )
            .into_response();
    };
    let today = w.account_now(keyword.ad_account_id).today;
    let day = match (&set.day, set.days_ago) {
        (Some(d), None) => match crate::args::parse_day(d) {
            Ok(d) => d,
            Err(e) => return bad_request(format!("day: {e}")),
        },
        (None, Some(n)) if n >= 0 => today - time::Duration::days(n),
        _ => return bad_request("give one of day (YYYY-MM-DD) or daysAgo (≥ 0)"),
    };
    if day > today || day < w.first_day() {
        return bad_request(format!("day: {day} has no metrics (today is {today})"));
    }
    let totals = crate::metrics::Totals {
        impressions: set.impressions,
        taps: set.taps,
        tap_new_downloads: set.installs,
        spend: set.spend_micros,
        ..Default::default()
    };
    w.set_days.entry(id).or_default().insert(day, totals);
    // Served days kept for the keyword's campaign are stale from now.
    w.touch("Keyword", id);
    tracing::info!(keyword = id, %day, ?totals, "sandbox keyword metrics set");
    Json(json!({
        "id": id, "day": day.to_string(), "impressions": set.impressions, "taps": set.taps,
        "installs": set.installs, "spendMicros": set.spend_micros,
    }))
    .into_response()
}

/// The reasons Apple gives for holding a campaign back (the reference's
/// `CampaignSystemStatusReason`), without those a user's own pause or deletion gives.
const SYSTEM_REASONS: &[&str] = &[
    "PROCESSING",
    "PAUSED_BY_SYSTEM",
    "FEATURE_NOT_YET_AVAILABLE",
    "FEATURE_NO_LONGER_AVAILABLE",
    "USER_REQUESTED_ACCOUNT_SUSPENSION",
    "CAMPAIGN_DELETED_FOR_BASIC_MSF_MIGRATION",
    "SCHEDULE_PENDING",
    "SCHEDULE_EXPIRED",
    "APP_DOC_APPROVAL_REJECTED",
    "APP_NOT_CATEGORIZED",
    "APP_NOT_ELIGIBLE",
    "APP_NOT_ELIGIBLE_SEARCHADS",
    "APP_NOT_ELIGIBLE_SUPPLY_PLACEMENT",
    "APP_NOT_PUBLISHED_YET",
    "APP_SENSITIVE_CONTENT",
    "COUNTRIES_OR_REGIONS_NOT_ELIGIBLE",
    "SAPIN_LAW_AGENT_UNKNOWN",
    "SAPIN_LAW_FRENCH_BIZ",
    "SAPIN_LAW_FRENCH_BIZ_UNKNOWN",
    "LIFETIME_BUDGET_EXHAUSTED",
    "MONTHLY_BUDGET_EXHAUSTED",
    "BUDGET_ORDER_EXHAUSTED",
    "BUDGET_ORDER_SCHEDULE_PENDING",
    "BUDGET_ORDER_SCHEDULE_EXPIRED",
    "BUDGET_ORDER_CANCELED",
    "BUDGET_ORDER_OR_INVOICE_DETAIL_MISSING",
    "ORG_PAYMENT_TYPE_DECLINED",
    "LINE_OF_CREDIT_EXHAUSTED",
    "TAX_VERIFICATION_PENDING",
    "AD_ACCOUNT_PAYMENT_ISSUES",
    "ORG_NO_PAYMENT_METHOD_ON_FILE",
    "ORG_CHARGE_BACK_DISPUTED",
    "ORG_PAYMENT_METHOD_CHANGED",
    "ORG_SUSPENDED_FRAUD",
    "ORG_SUSPENDED_POLICY_VIOLATION",
    "CONTENT_PROVIDER_UNLINKED",
    "AD_ACCOUNT_BRAND_DELEGATION_ISSUES",
    "AD_GROUPS_MISSING",
    "AD_GROUPS_NOT_RUNNING",
    "AUTOMATED_KEYWORDS_REQUIRED_AD_GROUP_MISSING",
    "AUTOMATED_KEYWORDS_REQUIRED_AD_GROUP_NOT_RUNNING",
];

/// `PUT /sandbox/campaigns/{id}/systemStatus` body: the reasons Apple holds the campaign
/// back for (empty: it runs again).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SystemStatus {
    reasons: Vec<String>,
}

pub(super) async fn put_system_status(
    State(sandbox): State<Arc<Sandbox>>,
    axum::extract::Path(id): axum::extract::Path<Id>,
    body: Bytes,
) -> Response {
    let change: SystemStatus = match serde_json::from_slice(&body) {
        Ok(c) => c,
        Err(e) => return bad_request(format!("invalid system status: {e}")),
    };
    if let Some(bad) = change
        .reasons
        .iter()
        .find(|r| !SYSTEM_REASONS.contains(&r.as_str()))
    {
        return bad_request(format!(
            "reasons: {bad} is not a CampaignSystemStatusReason"
        ));
    }
    let mut w = sandbox.world.write();
    let now = w.now;
    let Some(c) = w.campaigns.get_mut(&id) else {
        return (
            StatusCode::NOT_FOUND,
            Json(json!({ "error": { "code": "NOT_FOUND", "message": format!("campaign {id} does not exist") } })),
        )
            .into_response();
    };
    c.system_reasons = change.reasons.clone();
    c.life.modified = now;
    w.touch("Campaign", id);
    tracing::info!(campaign = id, reasons = ?change.reasons, "sandbox campaign system status set");
    Json(json!({ "id": id, "reasons": change.reasons })).into_response()
}
