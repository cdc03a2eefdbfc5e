//! Admin endpoints under `/sandbox/`: health, key registration (returns clientId, teamId,
//! keyId the way Apple's UI does; optionally limited to some ad accounts and to reads),
//! fault settings, token revocation, the clock, and a campaign's system status (what Apple
//! holds a campaign back for: a budget exhausted, ad groups missing, paused by the system),
//! a keyword's metrics on one day (so a test gets a known day, e.g. one that spent without
//! an install, whatever the date the world was seeded for), and Apple's own UI standing in:
//! `/sandbox/ui/v1/…` serves the API without a token, its writes recorded in the change
//! history as made by a person (`userType` `CUSTOMER`, `modifiedBy` the `X-Sandbox-User`
//! header, default [`UI_PERSON`]).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use p256::ecdsa::VerifyingKey;
use p256::pkcs8::DecodePublicKey;
use serde_json::json;
use sha2::{Digest, Sha256};

use std::collections::BTreeSet;

use serde::Deserialize;

use crate::auth::store::{Access, Credential};
use crate::faults::FaultConfig;
use crate::state::Sandbox;
use crate::world::Id;

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route(
            "/sandbox/health",
            get(|| async { Json(json!({"status": "ok"})) }),
        )
        .route("/sandbox/keys", post(register_key))
        .route("/sandbox/faults", get(get_faults).put(put_faults))
        .route("/sandbox/tokens/revoke", post(revoke_tokens))
        .route("/sandbox/clock", get(get_clock).put(put_clock))
        .route(
            "/sandbox/campaigns/{id}/systemStatus",
            axum::routing::put(put_system_status),
        )
        .route(
            "/sandbox/keywords/{id}/metrics",
            axum::routing::put(put_keyword_metrics),
        )
}

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

async fn put_keyword_metrics(
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

/// Who the UI stand-in's writes are by when the request names nobody.
pub const UI_PERSON: &str = "owner@sandbox.example";

/// Serves a request of `/sandbox/ui/v1/…` as the person its `X-Sandbox-User` names.
pub async fn as_ui_person(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let person = request
        .headers()
        .get("x-sandbox-user")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or(UI_PERSON)
        .to_string();
    crate::world::audit::ACTOR
        .scope(crate::world::audit::Actor::ui(&person), next.run(request))
        .await
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

async fn put_system_status(
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

fn bad_request(message: impl Into<String>) -> Response {
    (
        StatusCode::BAD_REQUEST,
        Json(json!({ "error": { "code": "INVALID_ARGUMENT", "message": message.into() } })),
    )
        .into_response()
}

/// A UUID-shaped id derived from a digest, so one key always gets the same ids.
fn uuid_like(digest: &[u8]) -> String {
    let h = hex::encode(&digest[..16]);
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

/// The JSON form of a key registration: the PEM and the access of its API user.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct KeyRequest {
    public_key: String,
    /// Limited Access: the only ad accounts the key may use.
    ad_account_ids: Option<Vec<Id>>,
    /// Read Only: every write is refused with 403.
    #[serde(default)]
    read_only: bool,
}

/// `POST /sandbox/keys`: body is a PEM public key, or JSON `{"publicKey": pem,
/// "adAccountIds": [id, …], "readOnly": bool}` to limit what the key's user may do.
async fn register_key(State(sandbox): State<Arc<Sandbox>>, body: Bytes) -> Response {
    let text = String::from_utf8_lossy(&body).to_string();
    let request = if text.trim_start().starts_with('{') {
        match serde_json::from_str::<KeyRequest>(&text) {
            Ok(r) => r,
            Err(e) => return bad_request(format!("invalid key registration: {e}")),
        }
    } else {
        KeyRequest {
            public_key: text,
            ad_account_ids: None,
            read_only: false,
        }
    };
    let pem = request.public_key;
    let key = match VerifyingKey::from_public_key_pem(pem.trim()) {
        Ok(k) => k,
        Err(e) => return bad_request(format!("body must be a PEM P-256 public key: {e}")),
    };
    let accounts: Option<BTreeSet<Id>> =
        request.ad_account_ids.map(|ids| ids.into_iter().collect());
    if let Some(ids) = &accounts {
        let w = sandbox.world.read();
        if let Some(unknown) = ids.iter().find(|id| !w.accounts.contains_key(id)) {
            return bad_request(format!("adAccountIds: ad account {unknown} does not exist"));
        }
    }
    let digest = Sha256::digest(pem.trim().as_bytes());
    let team_digest = Sha256::digest(digest);
    let credential = Credential {
        client_id: format!("SEARCHADS.{}", uuid_like(&digest)),
        team_id: format!("SEARCHADS.{}", uuid_like(&team_digest)),
        key_id: uuid_like(&digest[16..]),
        key,
        access: Access {
            accounts,
            read_only: request.read_only,
        },
    };
    let body = json!({
        "clientId": credential.client_id, "teamId": credential.team_id, "keyId": credential.key_id,
        "role": credential.access.role(),
    });
    sandbox.auth.register(credential);
    (StatusCode::CREATED, Json(body)).into_response()
}

async fn get_faults(State(sandbox): State<Arc<Sandbox>>) -> Json<FaultConfig> {
    Json(sandbox.faults.config())
}

async fn put_faults(State(sandbox): State<Arc<Sandbox>>, body: Bytes) -> Response {
    let config: FaultConfig = match serde_json::from_slice(&body) {
        Ok(c) => c,
        Err(e) => return bad_request(format!("invalid fault settings: {e}")),
    };
    if let Err(e) = config.validate() {
        return bad_request(e);
    }
    sandbox.faults.set(config);
    tracing::info!(?config, "sandbox faults set");
    Json(config).into_response()
}

async fn revoke_tokens(State(sandbox): State<Arc<Sandbox>>) -> Json<serde_json::Value> {
    Json(json!({ "revoked": sandbox.auth.revoke_all() }))
}

fn clock_body(sandbox: &Sandbox) -> serde_json::Value {
    let clock = sandbox.world.clock();
    let now = clock.now();
    json!({
        "now": crate::api::render::timestamp(now),
        "today": now.date().to_string(),
        "running": clock.running(),
    })
}

async fn get_clock(State(sandbox): State<Arc<Sandbox>>) -> Json<serde_json::Value> {
    Json(clock_body(&sandbox))
}

/// `PUT /sandbox/clock` body: one of `now` (RFC 3339), `today` (YYYY-MM-DD, keeping the
/// time of day), `advanceSeconds`, `advanceDays`; and/or `running`.
#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ClockChange {
    now: Option<String>,
    today: Option<String>,
    advance_seconds: Option<i64>,
    advance_days: Option<i64>,
    running: Option<bool>,
}

async fn put_clock(State(sandbox): State<Arc<Sandbox>>, body: Bytes) -> Response {
    let change: ClockChange = match serde_json::from_slice(&body) {
        Ok(c) => c,
        Err(e) => return bad_request(format!("invalid clock change: {e}")),
    };
    let moves = [
        change.now.is_some(),
        change.today.is_some(),
        change.advance_seconds.is_some(),
        change.advance_days.is_some(),
    ];
    if moves.iter().filter(|m| **m).count() > 1 {
        return bad_request("give one of now, today, advanceSeconds, advanceDays");
    }
    // Parse first, then move relative to the clock's time read under its lock.
    let to: Box<dyn FnOnce(time::OffsetDateTime) -> Result<time::OffsetDateTime, String>> =
        if let Some(now) = &change.now {
            match time::OffsetDateTime::parse(now, &time::format_description::well_known::Rfc3339) {
                Ok(t) => {
                    let t = t.to_offset(time::UtcOffset::UTC);
                    Box::new(move |_| Ok(t))
                }
                Err(_) => return bad_request("now must be an RFC 3339 date-time"),
            }
        } else if let Some(today) = &change.today {
            match crate::args::parse_day(today) {
                Ok(d) => Box::new(move |current| Ok(current.replace_date(d))),
                Err(e) => return bad_request(format!("today: {e}")),
            }
        } else if let Some(s) = change.advance_seconds {
            Box::new(move |current| Ok(current + time::Duration::seconds(s)))
        } else if let Some(d) = change.advance_days {
            Box::new(move |current| Ok(current + time::Duration::days(d)))
        } else {
            Box::new(Ok)
        };
    let clock = sandbox.world.clock();
    if let Err(e) = clock.change(to, change.running) {
        return bad_request(e);
    }
    sandbox.world.clock_changed();
    let body = clock_body(&sandbox);
    tracing::info!(now = %body["now"], "sandbox clock set");
    Json(body).into_response()
}
