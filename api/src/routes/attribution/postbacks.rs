//! The postbacks providers send (docs/api/attribution.md "Postbacks"): GET with the
//! provider's macros in the query (Adjust, Kochava, Singular, Tenjin…) or POST with its JSON
//! webhook (AppsFlyer's Push API, Branch, RevenueCat, the custom tracking server). The URL's
//! token names the integration ([`PostbackIntegration`]); the custom server's requests are
//! also signed. The provider's adapter reads the events, and the ingest stores each once:
//! a replay answers 200 with the events counted as duplicates, so a provider's retries
//! never double an install or its revenue. Nothing is stored from a request refused.

use axum::{
    body::Bytes,
    extract::{RawQuery, State},
    http::HeaderMap,
    response::IntoResponse,
};
use searchdeck_common::attribution::Provider;
use searchdeck_common::{
    Db,
    attribution::{
        adapters::{self, Postback},
        ingest::{self, Ingested},
    },
    ids::now_ms,
};
use secrecy::ExposeSecret;
use serde::Serialize;
use utoipa::ToSchema;

use super::integrations::secret_context;
use crate::{
    access::PostbackIntegration,
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody},
    state::AppState,
};

/// The header carrying the custom tracking server's signature.
pub const SIGNATURE_HEADER: &str = "x-searchdeck-signature";

/// What a postback stored.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PostbackResult {
    #[serde(flatten)]
    pub ingested: Ingested,
    /// Events of other media sources than Apple Ads, not stored.
    pub skipped: usize,
}

/// A postback by GET: the provider's macros in the query string.
#[utoipa::path(get, path = "/api/attribution/postbacks/{provider}/{token}", tag = "attribution",
    params(("provider" = String, Path, description = "The provider the URL was made for"),
           ("token" = String, Path, description = "The integration's secret token, from its postback URL")),
    responses((status = 200, description = "The events stored", body = Envelope<PostbackResult>),
              (status = 400, description = "A field the provider sent is malformed", body = ErrorBody)))]
pub async fn by_get(
    State(state): State<AppState>,
    target: PostbackIntegration,
    RawQuery(query): RawQuery,
) -> ApiResult<impl IntoResponse> {
    let postback = Postback {
        query: query.as_deref().unwrap_or(""),
        content_type: None,
        body: &[],
    };
    Ok(envelope::ok(receive(&state, &target, &postback).await?))
}

/// A postback by POST: the provider's webhook body (JSON or a form), or the custom tracking
/// server's signed events.
#[utoipa::path(post, path = "/api/attribution/postbacks/{provider}/{token}", tag = "attribution",
    params(("provider" = String, Path, description = "The provider the URL was made for"),
           ("token" = String, Path, description = "The integration's secret token, from its postback URL")),
    request_body(content = inline(Object), description = "The provider's webhook, as it sends it"),
    responses((status = 200, description = "The events stored", body = Envelope<PostbackResult>),
              (status = 400, description = "A field the provider sent is malformed", body = ErrorBody),
              (status = 401, description = "The custom server's signature is missing, stale or wrong", body = ErrorBody)))]
pub async fn by_post(
    State(state): State<AppState>,
    target: PostbackIntegration,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<impl IntoResponse> {
    if target.provider == Provider::Custom {
        verify_signature(&state, &target, &headers, &body)?;
    }
    let postback = Postback {
        query: query.as_deref().unwrap_or(""),
        content_type: headers
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok()),
        body: &body,
    };
    Ok(envelope::ok(receive(&state, &target, &postback).await?))
}

/// The custom server's signature checked against the integration's secret.
fn verify_signature(
    state: &AppState,
    target: &PostbackIntegration,
    headers: &HeaderMap,
    body: &[u8],
) -> ApiResult<()> {
    let refused = || ApiError::unauthorized("The request's signature is missing, stale or wrong");
    let header = headers
        .get(SIGNATURE_HEADER)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(refused)?;
    let sealed = target
        .integration
        .secret_sealed
        .as_deref()
        .ok_or_else(refused)?;
    let secret = state
        .secrets
        .open_str(&secret_context(&target.integration.workspace_id), sealed)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!(e)))?;
    adapters::custom::verify(
        secret.expose_secret().as_bytes(),
        header,
        body,
        now_ms() / 1000,
    )
    .map_err(|_| refused())
}

/// Reads `postback` with its provider's adapter and stores what it holds.
async fn receive(
    state: &AppState,
    target: &PostbackIntegration,
    postback: &Postback<'_>,
) -> ApiResult<PostbackResult> {
    let parsed = adapters::parse(target.provider, postback).map_err(ApiError::validation)?;
    let (db, integration) = (&state.db, &target.integration);
    let events = &parsed.events;
    let ingested = Db::retry_busy(|| async move {
        ingest::ingest(
            db,
            &integration.workspace_id,
            &integration.id,
            events,
            false,
            now_ms(),
        )
        .await
    })
    .await?;
    tracing::info!(
        provider = target.provider.name(),
        received = ingested.received,
        stored = ingested.stored,
        duplicates = ingested.duplicates,
        skipped = parsed.skipped,
        "attribution postback"
    );
    Ok(PostbackResult {
        ingested,
        skipped: parsed.skipped,
    })
}
