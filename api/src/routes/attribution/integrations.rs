//! The integrations screen's calls: every provider with its status, and connect, rotate and
//! disconnect. A postback URL's token is made here and shown once — in the answer of connect
//! and of rotate —, then stored hashed; the list shows the URL with the token masked. The
//! custom tracking server also gets a signing secret, shown once the same way and stored
//! sealed.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::attribution::Provider;
use searchdeck_common::{
    attribution::check::{self, Finding},
    ids::{new_id, now_ms},
    store::{self, attribution::integrations::Token},
};
use serde::Serialize;
use utoipa::ToSchema;

use super::{SetupItem, provider_of, setup_of};
use crate::{
    access::{Editor, Member},
    envelope::{self, Envelope, Item, Items},
    error::{ApiError, ApiResult, ErrorBody},
    extract::ApiPath,
    session::{hash_token, new_token},
    state::AppState,
};

/// A provider's integration with the workspace.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IntegrationItem {
    /// `appsflyer`, `adjust`, `branch`, `singular`, `kochava`, `tenjin`, `revenuecat` or
    /// `custom`.
    #[schema(value_type = String, pattern = "^(appsflyer|adjust|branch|singular|kochava|tenjin|revenuecat|custom)$")]
    pub provider: Provider,
    /// The provider's name as users know it.
    pub title: String,
    /// `attribution` (the six MMPs), `revenue` (RevenueCat) or `custom`.
    #[schema(pattern = "^(attribution|revenue|custom)$")]
    pub kind: String,
    pub connected: bool,
    /// 'Active' once any event arrived, 'Loading data' before (docs/product.md#4-integration-status); null when not
    /// connected.
    pub status: Option<String>,
    /// When the newest event arrived (unix ms), test events included.
    pub last_event_at: Option<i64>,
    /// Events received in the last 24 hours (test events left out).
    pub events_last_day: i64,
    /// Unix ms.
    pub connected_at: Option<i64>,
    /// What to paste into the provider's dashboard, the token masked; null when not
    /// connected.
    pub setup: Option<SetupItem>,
    /// The installs it attributed against Apple's, over the last seven complete days (UTC);
    /// null when not connected, and for RevenueCat, which sends no installs.
    pub install_check: Option<InstallCheck>,
    /// Whether the provider's reporting API can be pulled (docs/api/attribution.md "Pull").
    pub pull_available: bool,
    /// Its pull: the API token masked, the last success and the last error; null when not
    /// set.
    pub pull: Option<super::pull::PullItem>,
}

/// An integration's install check (docs/api/attribution.md "Install check").
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InstallCheck {
    /// First and last day compared (YYYY-MM-DD).
    pub from: String,
    pub to: String,
    pub tracked_installs: i64,
    /// Of those, installs that named a keyword.
    pub tracked_with_keyword: i64,
    /// Installs Apple reports for the workspace's campaigns over the same days.
    pub apple_installs: i64,
    /// Tracked ÷ Apple's installs (null without Apple installs).
    pub rate: Option<f64>,
    /// What a gap most likely means; null when the numbers look right or are too few.
    pub finding: Option<Finding>,
    /// The finding as the screen says it.
    pub message: Option<String>,
}

/// The install check of `provider` for the workspace.
async fn install_check(
    state: &AppState,
    workspace_id: &str,
    provider: Provider,
    events_last_day: i64,
) -> ApiResult<InstallCheck> {
    let today = searchdeck_common::zones::today(now_ms() / 1000, None);
    let (from, to) = (
        (today - time::Duration::days(check::DAYS)).to_string(),
        (today - time::Duration::days(1)).to_string(),
    );
    let pool = &state.db.pool;
    let facts = &store::attribution::facts::tracked_installs;
    let (tracked, tracked_with_keyword) =
        facts(pool, workspace_id, provider.name(), (&from, &to)).await?;
    let (apple, apple_keyword) =
        store::attribution::facts::apple_installs(pool, workspace_id, (&from, &to)).await?;
    let finding = check::diagnose(check::Counts {
        tracked,
        tracked_with_keyword,
        apple,
        apple_keyword,
        events_last_day,
    });
    Ok(InstallCheck {
        from,
        to,
        tracked_installs: tracked,
        tracked_with_keyword,
        apple_installs: apple,
        rate: (apple > 0).then(|| tracked as f64 / apple as f64),
        finding,
        message: finding.map(|f| f.message(provider.title())),
    })
}

/// Status of a connected integration with events (docs/product.md#4-integration-status).
pub const ACTIVE: &str = "Active";
/// Status of a connected integration before its first event
/// (docs/product.md#4-integration-status).
pub const LOADING: &str = "Loading data";

fn kind_of(p: Provider) -> &'static str {
    match p {
        Provider::RevenueCat => "revenue",
        Provider::Custom => "custom",
        _ => "attribution",
    }
}

/// Every provider, connected or not, in the screen's order.
pub(super) async fn items(state: &AppState, workspace_id: &str) -> ApiResult<Vec<IntegrationItem>> {
    let pool = &state.db.pool;
    let stored = store::attribution::integrations::all(pool, workspace_id).await?;
    let counts =
        store::attribution::events::counts_since(pool, workspace_id, now_ms() - 86_400_000).await?;
    let pulls = super::pull::all(state, workspace_id).await?;
    let mut out = Vec::new();
    for p in Provider::ALL {
        let row = stored.iter().find(|i| i.provider == p.name());
        let (recent, ever) = counts
            .iter()
            .find(|(name, ..)| name == p.name())
            .map_or((0, 0), |(_, recent, ever)| (*recent, *ever));
        let check = match row {
            Some(_) if p != Provider::RevenueCat => {
                Some(install_check(state, workspace_id, p, recent).await?)
            }
            _ => None,
        };
        out.push(IntegrationItem {
            provider: p,
            title: p.title().to_string(),
            kind: kind_of(p).to_string(),
            connected: row.is_some(),
            status: row.map(|_| if ever > 0 { ACTIVE } else { LOADING }.to_string()),
            last_event_at: row.and_then(|r| r.last_event_at),
            events_last_day: recent,
            connected_at: row.map(|r| r.created_at),
            setup: row.map(|r| setup_of(state, p, &format!("…{}", r.token_hint))),
            install_check: check,
            pull_available: super::pull::available(p),
            pull: pulls
                .iter()
                .find(|x| x.provider == p.name())
                .map(|x| super::pull::PullItem::of(p, x)),
        });
    }
    Ok(out)
}

/// Every provider with its status (any role reads the integration settings).
#[utoipa::path(get, path = "/api/attribution/integrations", tag = "attribution",
    responses((status = 200, description = "The providers", body = Envelope<Items<IntegrationItem>>)))]
pub async fn list(State(state): State<AppState>, user: Member) -> ApiResult<impl IntoResponse> {
    Ok(envelope::items(items(&state, &user.workspace_id).await?))
}

/// A new postback URL (and the custom server's signing secret), shown once.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Connected {
    pub item: IntegrationItem,
    /// What to paste, with the token: shown this once.
    pub setup: SetupItem,
    /// The custom tracking server's signing secret (HMAC-SHA256, docs/api/attribution.md
    /// "Custom tracking server"): shown this once; null for the other providers.
    pub secret: Option<String>,
}

/// Makes a token (and a secret for `custom`), stores it for `provider`, and answers them.
async fn issue(state: &AppState, caller: &Editor, provider: Provider) -> ApiResult<Connected> {
    let token = new_token();
    let secret = (provider == Provider::Custom).then(new_token);
    let sealed = secret.as_ref().map(|s| {
        state
            .secrets
            .seal(&secret_context(&caller.workspace_id), s.as_bytes())
    });
    let hint: String = token
        .chars()
        .skip(token.chars().count().saturating_sub(4))
        .collect();
    store::attribution::integrations::upsert(
        &state.db.pool,
        &new_id(),
        &caller.workspace_id,
        provider.name(),
        &Token {
            hash: &hash_token(&token),
            hint: &hint,
            secret_sealed: sealed.as_deref(),
        },
        &caller.user_id,
        now_ms(),
    )
    .await?;
    let item = items(state, &caller.workspace_id)
        .await?
        .into_iter()
        .find(|i| i.provider == provider)
        .ok_or_else(|| ApiError::not_found("Integration"))?;
    Ok(Connected {
        item,
        setup: setup_of(state, provider, &token),
        secret,
    })
}

/// The sealing context of a workspace's custom-server secret.
pub(super) fn secret_context(workspace_id: &str) -> String {
    format!("attribution-secret:{workspace_id}")
}

/// Connects `provider`: answers its postback URL (and, for `custom`, its signing secret),
/// shown this once. A provider already connected answers 409: rotate to get a new URL.
#[utoipa::path(post, path = "/api/attribution/integrations/{provider}", tag = "attribution",
    params(("provider" = String, Path, description = "appsflyer, adjust, branch, singular, kochava, tenjin, revenuecat or custom", pattern = "^(appsflyer|adjust|branch|singular|kochava|tenjin|revenuecat|custom)$")),
    responses((status = 200, description = "Connected", body = Envelope<Connected>),
              (status = 400, description = "Not a provider", body = ErrorBody),
              (status = 409, description = "Already connected", body = ErrorBody)))]
pub async fn connect(
    State(state): State<AppState>,
    caller: Editor,
    ApiPath(provider): ApiPath<String>,
) -> ApiResult<impl IntoResponse> {
    let provider = provider_of(&provider)?;
    if store::attribution::integrations::get(&state.db.pool, &caller.workspace_id, provider.name())
        .await?
        .is_some()
    {
        return Err(ApiError::status(
            axum::http::StatusCode::CONFLICT,
            format!(
                "{} is already connected: rotate its URL to get a new one",
                provider.title()
            ),
        ));
    }
    let connected = issue(&state, &caller, provider).await?;
    tracing::info!(
        provider = provider.name(),
        "attribution integration connected"
    );
    Ok(envelope::ok(connected))
}

/// Gives `provider` a new postback URL (and a new secret for `custom`): the old one stops
/// working at once.
#[utoipa::path(post, path = "/api/attribution/integrations/{provider}/rotate", tag = "attribution",
    params(("provider" = String, Path, description = "The connected provider", pattern = "^(appsflyer|adjust|branch|singular|kochava|tenjin|revenuecat|custom)$")),
    responses((status = 200, description = "The new URL", body = Envelope<Connected>),
              (status = 400, description = "Not a provider", body = ErrorBody),
              (status = 404, description = "Not connected", body = ErrorBody)))]
pub async fn rotate(
    State(state): State<AppState>,
    caller: Editor,
    ApiPath(provider): ApiPath<String>,
) -> ApiResult<impl IntoResponse> {
    let provider = provider_of(&provider)?;
    store::attribution::integrations::get(&state.db.pool, &caller.workspace_id, provider.name())
        .await?
        .ok_or_else(|| ApiError::not_found("Integration"))?;
    let connected = issue(&state, &caller, provider).await?;
    tracing::info!(
        provider = provider.name(),
        "attribution postback URL rotated"
    );
    Ok(envelope::ok(connected))
}

/// Disconnects `provider`: its URL stops working; the events received stay in the reports.
#[utoipa::path(delete, path = "/api/attribution/integrations/{provider}", tag = "attribution",
    params(("provider" = String, Path, description = "The connected provider", pattern = "^(appsflyer|adjust|branch|singular|kochava|tenjin|revenuecat|custom)$")),
    responses((status = 200, description = "Disconnected", body = Envelope<Item<IntegrationItem>>),
              (status = 400, description = "Not a provider", body = ErrorBody),
              (status = 404, description = "Not connected", body = ErrorBody)))]
pub async fn disconnect(
    State(state): State<AppState>,
    caller: Editor,
    ApiPath(provider): ApiPath<String>,
) -> ApiResult<impl IntoResponse> {
    let provider = provider_of(&provider)?;
    if !store::attribution::integrations::delete(
        &state.db.pool,
        &caller.workspace_id,
        provider.name(),
    )
    .await?
    {
        return Err(ApiError::not_found("Integration"));
    }
    // Its pull went with it (the foreign key); so goes the pull's daily schedule.
    let key = searchdeck_common::jobs::pull_schedule_key(&caller.workspace_id, provider.name());
    store::attribution::pulls::delete_schedule(&state.db.pool, &key).await?;
    tracing::info!(
        provider = provider.name(),
        "attribution integration disconnected"
    );
    let item = items(&state, &caller.workspace_id)
        .await?
        .into_iter()
        .find(|i| i.provider == provider)
        .ok_or_else(|| ApiError::not_found("Integration"))?;
    Ok(envelope::item(item))
}
