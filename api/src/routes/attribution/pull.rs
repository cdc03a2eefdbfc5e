//! A provider's pull (docs/api/attribution.md "Pull"): the user sets or replaces the API
//! token of the provider's reporting API with what else it needs (`PUT
//! /api/attribution/integrations/{provider}/pull`) and removes it (`DELETE`). The token is
//! sealed with the secrets key, never answered, logged or put in a job (the job opens it);
//! the integration item shows it masked with the pull's last success and last error. Setting
//! it enqueues the backfill in the same transaction and registers the daily refresh.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    attribution::{
        Provider,
        pull::settings::{self, AppsFlyerInput, PullSettings},
    },
    ids::now_ms,
    jobs::{PULL_DAYS, PULL_EVERY_MS, PullAttribution, pull_schedule_key},
    queue::{Job, outbox},
    store::{
        self,
        attribution::pulls::{NewPull, Pull, token_context},
    },
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{IntegrationItem, item_of, provider_of};
use crate::{
    access::Editor,
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath},
    state::AppState,
};

/// Longest API token accepted.
const MAX_TOKEN: usize = 4096;

/// Whether `provider`'s reporting API can be pulled.
pub fn available(provider: Provider) -> bool {
    provider == Provider::AppsFlyer
}

/// A provider's pull as the integration item shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PullItem {
    /// The API token masked: `…` and its last four characters.
    pub token: String,
    /// AppsFlyer's app ids (`id1234567890`).
    pub app_ids: Vec<String>,
    /// The app-specific currency revenue is read in (ISO 4217).
    pub currency: String,
    /// The in-app event names read.
    pub events: Vec<String>,
    /// When the token was set or last replaced (unix ms).
    pub updated_at: i64,
    /// When a pull last succeeded (unix ms); null before the first.
    pub last_success_at: Option<i64>,
    /// Why the last pull failed, in the user's words; null once one succeeds.
    pub last_error: Option<String>,
    pub last_error_at: Option<i64>,
}

impl PullItem {
    /// The item of a stored pull of `provider`.
    pub fn of(provider: Provider, pull: &Pull) -> PullItem {
        let (app_ids, currency, events) = match PullSettings::from_json(provider, &pull.settings) {
            Some(PullSettings::AppsFlyer(s)) => (s.app_ids, s.currency, s.events),
            None => (Vec::new(), String::new(), Vec::new()),
        };
        PullItem {
            token: format!("…{}", pull.token_hint),
            app_ids,
            currency,
            events,
            updated_at: pull.updated_at,
            last_success_at: pull.last_success_at,
            last_error: pull.last_error.clone(),
            last_error_at: pull.last_error_at,
        }
    }
}

/// The workspace's pulls.
pub(super) async fn all(state: &AppState, workspace_id: &str) -> ApiResult<Vec<Pull>> {
    Ok(store::attribution::pulls::all(&state.db.pool, workspace_id).await?)
}

/// An API token and what else the provider's reporting API needs.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetPull {
    /// The reporting API's token (AppsFlyer: the V2 API token): visible ASCII characters.
    /// Stored sealed, never shown again.
    #[schema(
        min_length = 1,
        max_length = 4096,
        pattern = "^[ \\t\\n\\r]*[!-~]+[ \\t\\n\\r]*$"
    )]
    pub token: String,
    /// AppsFlyer's app ids of the iOS apps to read: `id` and the App Store id.
    #[schema(value_type = Vec<AppsFlyerAppId>, min_items = 1, max_items = 20)]
    pub app_ids: Vec<String>,
    /// The app-specific currency set in AppsFlyer (ISO 4217; default USD).
    #[schema(pattern = "^[ \\t\\n\\r]*[A-Za-z]{3}[ \\t\\n\\r]*$")]
    pub currency: Option<String>,
    /// The in-app event names to read (default af_start_trial, af_subscribe, af_purchase).
    #[schema(value_type = Option<Vec<AppsFlyerEventName>>, max_items = 20)]
    pub events: Option<Vec<String>>,
}

/// A string of the document with `pattern`, described by `description`.
fn text_schema(
    pattern: &str,
    description: &str,
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .pattern(Some(pattern))
        .description(Some(description))
        .into()
}

/// The OpenAPI schema of an AppsFlyer app id of an iOS app: `id` and its App Store id.
pub struct AppsFlyerAppId;

impl utoipa::PartialSchema for AppsFlyerAppId {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        text_schema(
            "^[ \\t\\n\\r]*id0*[1-9][0-9]{0,17}[ \\t\\n\\r]*$",
            "An iOS app's AppsFlyer id: id and its App Store id (id1234567890)",
        )
    }
}

impl utoipa::ToSchema for AppsFlyerAppId {}

/// The OpenAPI schema of an AppsFlyer in-app event name.
pub struct AppsFlyerEventName;

impl utoipa::PartialSchema for AppsFlyerEventName {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        text_schema(
            "^[ \\t\\n\\r]*[A-Za-z0-9_]{1,100}[ \\t\\n\\r]*$",
            "An AppsFlyer event name: letters, digits and _ (af_purchase)",
        )
    }
}

impl utoipa::ToSchema for AppsFlyerEventName {}

fn token_of(raw: &str) -> Result<String, ApiError> {
    let token = raw.trim_matches(searchdeck_common::attribution::pull::settings::PADDING);
    if token.is_empty() || token.len() > MAX_TOKEN || !token.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(ApiError::field(
            "token",
            "Paste the API token as the provider shows it",
        ));
    }
    Ok(token.to_string())
}

/// The provider of the path if it can be pulled and is connected.
async fn pullable(state: &AppState, caller: &Editor, name: &str) -> ApiResult<Provider> {
    let provider = provider_of(name)?;
    if !available(provider) {
        return Err(ApiError::field(
            "provider",
            &format!(
                "{} has no reporting API connector: use its postback URL",
                provider.title()
            ),
        ));
    }
    store::attribution::integrations::get(&state.db.pool, &caller.workspace_id, provider.name())
        .await?
        .ok_or_else(|| ApiError::not_found("Integration"))?;
    Ok(provider)
}

/// Sets or replaces the pull of a connected provider: its reporting API is read for the
/// last 30 days at once, then every day. Answers the integration with the token masked.
#[utoipa::path(put, path = "/api/attribution/integrations/{provider}/pull", tag = "attribution", request_body = SetPull,
    params(("provider" = String, Path, description = "A connected provider with a reporting API: appsflyer", pattern = "^appsflyer$")),
    responses((status = 200, description = "The integration, its pull set", body = Envelope<Item<IntegrationItem>>),
              (status = 400, description = "Not a provider with a reporting API, or a field refused", body = ErrorBody),
              (status = 404, description = "Not connected", body = ErrorBody)))]
pub async fn set(
    State(state): State<AppState>,
    caller: Editor,
    ApiPath(provider): ApiPath<String>,
    ApiJson(body): ApiJson<SetPull>,
) -> ApiResult<impl IntoResponse> {
    let provider = pullable(&state, &caller, &provider).await?;
    let token = token_of(&body.token);
    let parsed = settings::appsflyer(AppsFlyerInput {
        app_ids: body.app_ids,
        currency: body.currency,
        events: body.events,
    });
    let (token, parsed) = match (token, parsed) {
        (Ok(t), Ok(s)) => (t, PullSettings::AppsFlyer(s)),
        (Err(e), Ok(_)) => return Err(e),
        (token, Err(mut errors)) => {
            if token.is_err() {
                errors.insert(
                    0,
                    searchdeck_common::FieldError::new(
                        "token",
                        "Paste the API token as the provider shows it",
                    ),
                );
            }
            return Err(ApiError::validation(errors));
        }
    };
    let ws = &caller.workspace_id;
    let sealed = state
        .secrets
        .seal(&token_context(ws, provider.name()), token.as_bytes());
    let hint: String = token
        .chars()
        .skip(token.chars().count().saturating_sub(4))
        .collect();
    let now = now_ms();
    let job = PullAttribution {
        workspace_id: ws.clone(),
        provider: provider.name().to_string(),
        days: PULL_DAYS,
    };
    let payload = serde_json::to_string(&job).map_err(|e| ApiError::Internal(e.into()))?;
    let mut tx = state.db.begin_write().await?;
    store::attribution::pulls::upsert(
        &mut *tx,
        ws,
        provider.name(),
        &NewPull {
            token_sealed: &sealed,
            token_hint: &hint,
            settings: &parsed.to_json(),
            created_by: &caller.user_id,
        },
        now,
    )
    .await?;
    store::attribution::pulls::set_schedule(
        &mut *tx,
        &pull_schedule_key(ws, provider.name()),
        ws,
        PullAttribution::KIND,
        &payload,
        PULL_EVERY_MS,
        now,
    )
    .await?;
    outbox::push(&mut *tx, &job, outbox::OutboxOptions::default()).await?;
    tx.commit().await?;
    tracing::info!(provider = provider.name(), "attribution pull set");
    Ok(envelope::item(item_of(&state, ws, provider).await?))
}

/// Removes the pull of a provider: its reporting API is read no more. The facts pulled
/// stay in the reports.
#[utoipa::path(delete, path = "/api/attribution/integrations/{provider}/pull", tag = "attribution",
    params(("provider" = String, Path, description = "A connected provider with a reporting API: appsflyer", pattern = "^appsflyer$")),
    responses((status = 200, description = "The integration, its pull removed", body = Envelope<Item<IntegrationItem>>),
              (status = 400, description = "Not a provider with a reporting API", body = ErrorBody),
              (status = 404, description = "Not connected, or no pull set", body = ErrorBody)))]
pub async fn remove(
    State(state): State<AppState>,
    caller: Editor,
    ApiPath(provider): ApiPath<String>,
) -> ApiResult<impl IntoResponse> {
    let provider = pullable(&state, &caller, &provider).await?;
    let ws = &caller.workspace_id;
    let mut tx = state.db.begin_write().await?;
    let removed = store::attribution::pulls::delete(&mut *tx, ws, provider.name()).await?;
    store::attribution::pulls::delete_schedule(&mut *tx, &pull_schedule_key(ws, provider.name()))
        .await?;
    tx.commit().await?;
    if !removed {
        return Err(ApiError::not_found("Pull"));
    }
    tracing::info!(provider = provider.name(), "attribution pull removed");
    Ok(envelope::item(item_of(&state, ws, provider).await?))
}
