//! Connecting by popup: `account/urlOauth` answers the provider's authorize page with a
//! single-use state bound to the caller (10 minutes); the popup's return hands state and code
//! to the app, which calls `account/oauth` to exchange the code and save the connection. A
//! bad, expired or reused state, a denied consent and a refused code store nothing.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{ids::now_ms, store};
use searchdeck_provider::Credentials;
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    connect::{Connection, save},
    parse_name,
};
use crate::{
    access::Editor,
    domain::{Fields, REQUIRED},
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody},
    extract::ApiQuery,
    provider::provider_error,
    session::{hash_token, new_token},
    state::AppState,
};

/// How long a popup-connect state stays valid.
pub const STATE_TTL_MS: i64 = 10 * 60 * 1000;

/// The provider's authorize page for the popup.
#[derive(Debug, Serialize, ToSchema)]
pub struct OauthUrl {
    pub url: String,
}

/// The query of `account/urlOauth`.
#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct UrlOauthQuery {
    /// The name the new account gets (required, at most 30 characters).
    #[param(required = true, nullable = false, min_length = 1, max_length = 30)]
    account_name: Option<String>,
}

/// Starts a popup connect: a single-use state bound to the caller and the authorize URL.
#[utoipa::path(get, path = "/api/account/urlOauth", tag = "accounts", params(UrlOauthQuery),
    responses((status = 200, description = "The URL to open in the popup", body = Envelope<OauthUrl>),
              (status = 400, description = "Invalid account name", body = ErrorBody)))]
pub async fn url_oauth(
    State(state): State<AppState>,
    user: Editor,
    ApiQuery(query): ApiQuery<UrlOauthQuery>,
) -> ApiResult<impl IntoResponse> {
    let name = parse_name(query.account_name.as_deref())
        .map_err(|m| ApiError::field("accountName", &m))?;
    let token = new_token();
    let now = now_ms();
    store::connects::purge_states(&state.db.pool, now).await?;
    store::connects::insert_state(
        &state.db.pool,
        &hash_token(&token),
        &user.user_id,
        &user.workspace_id,
        &name,
        now + STATE_TTL_MS,
    )
    .await?;
    let url = state.provider.popup.authorize_page(&token);
    Ok(envelope::ok(OauthUrl { url }))
}

/// The popup's answer, sent back form-encoded in the query.
#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct OauthQuery {
    /// The state of `account/urlOauth`.
    state: Option<String>,
    /// The authorization code.
    code: Option<String>,
    /// An account to reconnect (it must be the same Apple Ads user).
    account_id: Option<String>,
    /// The provider's refusal (`access_denied` when the user denied consent).
    error: Option<String>,
}

/// The outcome of a popup connect.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OauthResult {
    /// `OK`.
    pub status: String,
    pub account_id: String,
    /// Whether a connection was added; false when the Apple Ads user was connected already
    /// and that connection was updated (the envelope's message says so).
    pub added: bool,
    /// The updated connection's name before this connect (null when added).
    pub previous_name: Option<String>,
}

/// Finishes a popup connect: consumes the state, exchanges the code and saves the
/// connection with its campaign groups. The message says 'New account added', or that the
/// Apple Ads user was already connected (as which name) and its connection was updated.
#[utoipa::path(get, path = "/api/account/oauth", tag = "accounts", params(OauthQuery),
    responses((status = 200, description = "Connected", body = Envelope<OauthResult>),
              (status = 400, description = "Bad, expired or used state, denied consent, refused code", body = ErrorBody),
              (status = 403, description = "LIMIT_HAS_BEEN_REACHED (meta.type AVAILABLEAPPS or AVAILABLEDEVS): a new connection past the plan's apps", body = ErrorBody),
              (status = 502, description = "Apple Ads could not be reached", body = ErrorBody)))]
pub async fn oauth(
    State(state): State<AppState>,
    user: Editor,
    ApiQuery(query): ApiQuery<OauthQuery>,
) -> ApiResult<impl IntoResponse> {
    let given = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    let (state_token, code, denied) =
        (given(&query.state), given(&query.code), given(&query.error));
    let mut fields = Fields::default();
    fields.ensure(state_token.is_some(), "state", REQUIRED);
    fields.ensure(code.is_some() || denied.is_some(), "code", REQUIRED);
    fields.finish()?;
    let reconnect = match given(&query.account_id).as_deref() {
        Some(id) => Some(
            store::accounts::in_workspace(&state.db.pool, &user.workspace_id, id)
                .await?
                .ok_or_else(|| ApiError::not_found("Account"))?,
        ),
        None => None,
    };
    let state_hash = hash_token(state_token.as_deref().unwrap_or_default());
    let taken = store::connects::take_state(
        &state.db.pool,
        &state_hash,
        &user.user_id,
        &user.workspace_id,
        now_ms(),
    )
    .await?;
    let Some(name) = taken else {
        return Err(ApiError::bad_request(
            "This connection request is unknown, expired or already used. Please start again",
        ));
    };
    if let Some(reason) = denied {
        return Err(ApiError::bad_request(format!(
            "Access to Apple Ads was not granted ({reason}). Please try again and allow access"
        )));
    }
    let popup = &state.provider.popup;
    let tokens = popup
        .exchange_code(&state.provider.http, code.as_deref().unwrap_or_default())
        .await
        .map_err(provider_error)?;
    let refresh_token = tokens.refresh_token.ok_or_else(|| {
        ApiError::bad_request("Apple Ads granted no refresh token. Please connect again")
    })?;
    let creds = Credentials::RefreshToken {
        client_id: popup.client_id.clone(),
        refresh_token: refresh_token.clone(),
        key: None,
    };
    let name = reconnect.as_ref().map_or(name, |r| r.name.clone());
    let connection = Connection {
        name: &name,
        method: "oauth",
        client_id: &popup.client_id,
        team_id: None,
        key_id: None,
        public_key: None,
        private_key: None,
        refresh_token: Some(&refresh_token),
        access_token: Some((&tokens.access_token, tokens.expires_in.as_millis() as i64)),
    };
    let expected_user = reconnect.map(|r| r.provider_user_id);
    let saved = save(&state, &user, creds, connection, expected_user).await?;
    Ok(envelope::ok_with(
        &saved.message(&name),
        OauthResult {
            status: "OK".into(),
            account_id: saved.id,
            added: saved.previous_name.is_none(),
            previous_name: saved.previous_name,
        },
    ))
}
