//! Alerts (docs/product.md#7-the-calls-it-makes `alerts`; docs/api/rules.md "Alerts"): what rules
//! and the sync raised, listed for the workspace or its campaigns (`GET alerts`) and dismissed for
//! the workspace (`DELETE alerts`); and the workspace's Slack incoming webhook they are posted to
//! (`GET/PUT alerts/slack`: shown masked to members, set or cleared by a manager, stored
//! sealed like a connection's secrets).

use axum::{extract::State, response::IntoResponse};
use reqwest::Url;
use searchdeck_common::{
    ids::{now_ms, string_id},
    store::{self, alerts::AlertRow},
};
use secrecy::ExposeSecret;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{Editor, Manager, Member},
    envelope::{self, Envelope, Item, Items},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiQuery},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(list))
        .routes(route!(dismiss))
        .routes(route!(slack))
        .routes(route!(set_slack))
}

/// Most ids one request names.
const IDS_MAX: usize = 1_000;
/// Longest webhook URL accepted.
const URL_MAX: usize = 500;

/// An alert as answered.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlertItem {
    pub id: String,
    /// RULE, RULE_PAUSED, RULE_STOPPED, BUDGET_EXHAUSTED, AD_GROUP_MISSING or PAUSED_BY_SYSTEM.
    pub kind: String,
    #[serde(with = "string_id::option")]
    #[schema(value_type = Option<String>)]
    pub campaign_id: Option<i64>,
    #[serde(with = "string_id::option")]
    #[schema(value_type = Option<String>)]
    pub org_id: Option<i64>,
    pub account_id: Option<String>,
    pub rule_id: Option<String>,
    pub run_id: Option<String>,
    pub title: String,
    pub message: String,
    /// Unix seconds.
    pub created_at: i64,
}

impl From<AlertRow> for AlertItem {
    fn from(a: AlertRow) -> AlertItem {
        AlertItem {
            id: a.id,
            kind: a.kind,
            campaign_id: a.campaign_id,
            org_id: a.org_id,
            account_id: a.account_id,
            rule_id: a.rule_id,
            run_id: a.run_id,
            title: a.title,
            message: a.message,
            created_at: a.created_at,
        }
    }
}

/// The query of `GET alerts`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AlertsQuery {
    /// Comma-separated campaign ids (at most 1,000); absent: the whole workspace's alerts.
    #[param(pattern = "^[0-9]{1,18}(,[0-9]{1,18})*$")]
    pub campaign_ids: Option<String>,
}

/// The workspace's alerts not dismissed, newest first (at most 500); only those of
/// `campaignIds` when given.
#[utoipa::path(get, path = "/api/alerts", operation_id = "list_alerts", tag = "alerts", params(AlertsQuery),
    responses((status = 200, description = "The alerts", body = Envelope<Items<AlertItem>>),
              (status = 400, description = "campaignIds is not a list of ids", body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    user: Member,
    ApiQuery(query): ApiQuery<AlertsQuery>,
) -> ApiResult<impl IntoResponse> {
    let campaigns = match query.campaign_ids.as_deref() {
        None => None,
        Some(raw) => {
            // Exactly the documented pattern: 1–18 digits each, no spaces.
            let ids: Option<Vec<i64>> = raw
                .split(',')
                .map(|s| {
                    (s.len() <= 18 && searchdeck_common::rules::validate::digits(s))
                        .then(|| s.parse().ok())
                        .flatten()
                })
                .collect();
            match ids {
                Some(ids) if ids.len() <= IDS_MAX => Some(ids),
                _ => {
                    return Err(ApiError::field(
                        "campaignIds",
                        "Must be up to 1000 comma-separated campaign ids",
                    ));
                }
            }
        }
    };
    let rows =
        store::alerts::list(&state.db.pool, &user.workspace_id, campaigns.as_deref()).await?;
    Ok(envelope::items(
        rows.into_iter().map(AlertItem::from).collect(),
    ))
}

/// The body of `DELETE alerts`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlertIds {
    /// 1–1,000 alert ids.
    #[schema(min_items = 1, max_items = 1000)]
    pub alert_ids: Vec<String>,
}

/// How many alerts were dismissed.
#[derive(Debug, Serialize, ToSchema)]
pub struct AlertsDismissed {
    pub deleted: u64,
}

/// Dismisses alerts for the workspace (an id that is not an open alert of the workspace is
/// not counted).
#[utoipa::path(delete, path = "/api/alerts", tag = "alerts", request_body = AlertIds,
    responses((status = 200, description = "How many were dismissed", body = Envelope<AlertsDismissed>),
              (status = 400, description = "No ids, or too many", body = ErrorBody)))]
pub async fn dismiss(
    State(state): State<AppState>,
    caller: Editor,
    ApiJson(body): ApiJson<AlertIds>,
) -> ApiResult<impl IntoResponse> {
    if body.alert_ids.is_empty() || body.alert_ids.len() > IDS_MAX {
        return Err(ApiError::field("alertIds", "Name 1 to 1000 alerts"));
    }
    let ids: Vec<String> = body
        .alert_ids
        .into_iter()
        .filter(|id| !crate::input::has_control(id, false))
        .collect();
    let deleted =
        store::alerts::dismiss(&state.db.pool, &caller.workspace_id, &ids, now_ms() / 1000).await?;
    Ok(envelope::ok(AlertsDismissed { deleted }))
}

/// The workspace's Slack webhook as shown: whether one is set, and its URL masked.
#[derive(Debug, Serialize, ToSchema)]
pub struct SlackItem {
    pub configured: bool,
    /// `https://hooks.slack.com/…/abcd`: the host and the last four characters.
    pub url: Option<String>,
}

/// `url` masked: its scheme and host, then `…/` and its last four characters.
pub fn masked(url: &str) -> String {
    let host = Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_default();
    let chars: Vec<char> = url.chars().collect();
    let tail: String = chars[chars.len().saturating_sub(4)..].iter().collect();
    format!("https://{host}/…/{tail}")
}

async fn slack_item(state: &AppState, workspace_id: &str) -> ApiResult<SlackItem> {
    let Some(sealed) = store::slack::sealed(&state.db.pool, workspace_id).await? else {
        return Ok(SlackItem {
            configured: false,
            url: None,
        });
    };
    let url = state
        .secrets
        .open_str(&store::slack::context(workspace_id), &sealed)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!(e)))?;
    Ok(SlackItem {
        configured: true,
        url: Some(masked(url.expose_secret())),
    })
}

/// Whether the workspace has a Slack incoming webhook, its URL masked.
#[utoipa::path(get, path = "/api/alerts/slack", tag = "alerts",
    responses((status = 200, description = "The webhook, masked", body = Envelope<Item<SlackItem>>)))]
pub async fn slack(State(state): State<AppState>, user: Member) -> ApiResult<impl IntoResponse> {
    Ok(envelope::item(
        slack_item(&state, &user.workspace_id).await?,
    ))
}

/// `PUT alerts/slack`'s body.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SlackBody {
    /// An https URL of a Slack incoming webhook (at most 500 characters), or null to clear it.
    #[schema(pattern = "^https://", max_length = 500)]
    pub url: Option<String>,
}

/// Stores (or with null clears) the workspace's Slack incoming-webhook URL; https only.
#[utoipa::path(put, path = "/api/alerts/slack", tag = "alerts", request_body = SlackBody,
    responses((status = 200, description = "The webhook, masked", body = Envelope<Item<SlackItem>>),
              (status = 400, description = "Not an https URL", body = ErrorBody)))]
pub async fn set_slack(
    State(state): State<AppState>,
    caller: Manager,
    ApiJson(body): ApiJson<SlackBody>,
) -> ApiResult<impl IntoResponse> {
    let ws = &caller.workspace_id;
    match body.url.as_deref() {
        None => {
            store::slack::clear(&state.db.pool, ws).await?;
            tracing::info!("Slack webhook cleared");
        }
        Some(raw) => {
            let ok = raw.chars().count() <= URL_MAX
                && Url::parse(raw).is_ok_and(|u| {
                    u.scheme() == "https"
                        && u.host_str().is_some_and(|h| !h.is_empty())
                        && u.username().is_empty()
                        && u.password().is_none()
                });
            if !ok {
                return Err(ApiError::field(
                    "url",
                    "Enter the https URL of a Slack incoming webhook",
                ));
            }
            let sealed = state
                .secrets
                .seal(&store::slack::context(ws), raw.as_bytes());
            store::slack::set(
                &state.db.pool,
                ws,
                &sealed,
                Some(&caller.email),
                now_ms() / 1000,
            )
            .await?;
            tracing::info!("Slack webhook set");
        }
    }
    Ok(envelope::item(slack_item(&state, ws).await?))
}
