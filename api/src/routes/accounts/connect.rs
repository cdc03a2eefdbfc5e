//! Connecting an Apple Ads account, by either path; both end in one stored connection per
//! (workspace, Apple Ads user), made active for the caller:
//!
//! - Key pair: `account/getPublicKey` generates a P-256 key pair for the caller (the private
//!   key sealed and pending), the user registers the public key with Apple, and
//!   `account/create` (multipart: name, clientId, teamId, keyId) proves the credentials with
//!   a token exchange before saving them.
//! - Popup: `account/urlOauth` answers the provider's authorize page with a single-use state
//!   bound to the caller (10 minutes); the popup's return posts state and code to the app,
//!   which calls `account/oauth` to exchange the code and save the connection.
//!
//! A refused exchange, a bad, expired or reused state and a denied consent answer an error
//! in the envelope and store nothing.

use std::collections::HashMap;

use axum::{
    extract::{FromRequest, Multipart, Query, Request, State},
    response::IntoResponse,
};
use searchdeck_common::{
    ids::{new_id, now_ms},
    store::{self, accounts::NewAccount},
};
use searchdeck_provider::{Client, Credentials, KeyPair};
use secrecy::SecretString;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{AccountItem, credentials, item, orgs, parse_name};
use crate::{
    access::{Documented, Editor},
    domain::{Fields, REQUIRED},
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    route,
    session::{CurrentUser, hash_token, new_token},
    state::AppState,
};

/// How long a popup-connect state stays valid.
pub const STATE_TTL_MS: i64 = 10 * 60 * 1000;
/// Largest multipart field accepted.
const FIELD_MAX_BYTES: usize = 16 * 1024;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(get_public_key))
        .routes(route!(create))
        .routes(route!(url_oauth))
        .routes(route!(oauth))
}

/// The text fields of a `multipart/form-data` body; bad bodies answer 400 in the envelope.
#[derive(Debug, Default)]
pub struct MultipartForm(pub HashMap<String, String>);

impl Documented for MultipartForm {}

impl<S: Send + Sync> FromRequest<S> for MultipartForm {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bad = || ApiError::bad_request("Expected a multipart/form-data body");
        let mut multipart = Multipart::from_request(req, state)
            .await
            .map_err(|_| bad())?;
        let mut fields = HashMap::new();
        while let Some(field) = multipart.next_field().await.map_err(|_| bad())? {
            let Some(name) = field.name().map(str::to_string) else {
                continue;
            };
            let bytes = field.bytes().await.map_err(|_| bad())?;
            if bytes.len() > FIELD_MAX_BYTES {
                return Err(ApiError::field(&name, "This value is too long"));
            }
            let text = String::from_utf8(bytes.to_vec())
                .map_err(|_| ApiError::field(&name, "This value must be text"))?;
            fields.insert(name, text);
        }
        Ok(MultipartForm(fields))
    }
}

/// The public key the user registers with Apple.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicKey {
    /// SPKI PEM of a P-256 key.
    pub public_key: String,
}

/// The caller's pending public key, generating a key pair when none is pending. The same
/// key is answered until `account/create` uses it.
#[utoipa::path(post, path = "/api/account/getPublicKey", tag = "accounts",
    responses((status = 200, description = "The public key to register with Apple", body = Envelope<PublicKey>)))]
pub async fn get_public_key(
    State(state): State<AppState>,
    user: Editor,
) -> ApiResult<impl IntoResponse> {
    let key = KeyPair::generate();
    let sealed = state.secrets.seal_str(
        &credentials::pending_context(&user.workspace_id, &user.user_id),
        &key.private_pem(),
    );
    let public_key = store::accounts::insert_pending_key(
        &state.db.pool,
        &user.user_id,
        &user.workspace_id,
        &key.public_pem(),
        &sealed,
        now_ms(),
    )
    .await?;
    Ok(envelope::ok(PublicKey { public_key }))
}

/// The fields of `account/create`.
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "camelCase")]
pub struct CreateForm {
    /// The account name (required, at most 30 characters).
    name: String,
    client_id: String,
    team_id: String,
    key_id: String,
}

/// Connects by key pair: checks clientId, teamId and keyId with a token exchange signed by
/// the caller's pending key, then saves the connection with its campaign groups.
#[utoipa::path(post, path = "/api/account/create", tag = "accounts",
    request_body(content = CreateForm, content_type = "multipart/form-data"),
    responses((status = 200, description = "The connected account", body = Envelope<Item<AccountItem>>),
              (status = 400, description = "Invalid fields or credentials refused by Apple Ads", body = ErrorBody),
              (status = 502, description = "Apple Ads could not be reached", body = ErrorBody)))]
pub async fn create(
    State(state): State<AppState>,
    user: Editor,
    MultipartForm(form): MultipartForm,
) -> ApiResult<impl IntoResponse> {
    let mut fields = Fields::default();
    let text = |k: &str| {
        form.get(k)
            .map(|v| v.trim().to_string())
            .unwrap_or_default()
    };
    let name = fields.check(
        "name",
        parse_name(
            form.get("name")
                .or(form.get("accountName"))
                .map(String::as_str),
        ),
    );
    let (client_id, team_id, key_id) = (text("clientId"), text("teamId"), text("keyId"));
    for (field, value) in [
        ("clientId", &client_id),
        ("teamId", &team_id),
        ("keyId", &key_id),
    ] {
        fields.ensure(!value.is_empty(), field, REQUIRED);
    }
    fields.finish()?;
    let name = name.unwrap_or_default();
    let pending =
        store::accounts::pending_key(&state.db.pool, &user.user_id, &user.workspace_id).await?;
    let Some((public_key, sealed)) = pending else {
        return Err(ApiError::bad_request(
            "Generate a public key and register it with Apple Ads first",
        ));
    };
    let pem = credentials::open(
        &state,
        &credentials::pending_context(&user.workspace_id, &user.user_id),
        &sealed,
    )?;
    let creds = Credentials::ClientCredentials {
        client_id: client_id.clone(),
        team_id: team_id.clone(),
        key_id: key_id.clone(),
        key: credentials::key_pair(&pem)?,
    };
    let connection = Connection {
        name: &name,
        method: "key",
        client_id: &client_id,
        team_id: Some(&team_id),
        key_id: Some(&key_id),
        public_key: Some(&public_key),
        private_key: Some(&pem),
        refresh_token: None,
        access_token: None,
    };
    let id = save(&state, &user, creds, connection, None).await?;
    let row = store::accounts::in_workspace(&state.db.pool, &user.workspace_id, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("Account"))?;
    Ok(envelope::ok_with(
        "New account added",
        Item {
            item: item(&state, row).await?,
        },
    ))
}

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
    account_name: Option<String>,
}

/// Starts a popup connect: a single-use state bound to the caller and the authorize URL.
#[utoipa::path(get, path = "/api/account/urlOauth", tag = "accounts", params(UrlOauthQuery),
    responses((status = 200, description = "The URL to open in the popup", body = Envelope<OauthUrl>),
              (status = 400, description = "Invalid account name", body = ErrorBody)))]
pub async fn url_oauth(
    State(state): State<AppState>,
    user: Editor,
    Query(query): Query<UrlOauthQuery>,
) -> ApiResult<impl IntoResponse> {
    let name = parse_name(query.account_name.as_deref())
        .map_err(|m| ApiError::field("accountName", &m))?;
    let token = new_token();
    let now = now_ms();
    store::accounts::purge_states(&state.db.pool, now).await?;
    store::accounts::insert_state(
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
}

/// Finishes a popup connect: consumes the state, exchanges the code and saves the
/// connection with its campaign groups.
#[utoipa::path(get, path = "/api/account/oauth", tag = "accounts", params(OauthQuery),
    responses((status = 200, description = "Connected", body = Envelope<OauthResult>),
              (status = 400, description = "Bad, expired or used state, denied consent, refused code", body = ErrorBody),
              (status = 502, description = "Apple Ads could not be reached", body = ErrorBody)))]
pub async fn oauth(
    State(state): State<AppState>,
    user: Editor,
    Query(query): Query<OauthQuery>,
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
    let taken = store::accounts::take_state(
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
        .map_err(credentials::provider_error)?;
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
    let account_id = save(&state, &user, creds, connection, expected_user).await?;
    Ok(envelope::ok(OauthResult {
        status: "OK".into(),
        account_id,
    }))
}

/// What a connect path learnt, secrets in clear until sealed by [`save`].
struct Connection<'a> {
    name: &'a str,
    method: &'a str,
    client_id: &'a str,
    team_id: Option<&'a str>,
    key_id: Option<&'a str>,
    public_key: Option<&'a str>,
    private_key: Option<&'a SecretString>,
    refresh_token: Option<&'a SecretString>,
    /// The access token and its lifetime in milliseconds.
    access_token: Option<(&'a SecretString, i64)>,
}

/// Proves `creds` with the provider (who the Apple Ads user is, which campaign groups it
/// reaches), then saves the connection sealed, its campaign groups, and makes it the
/// caller's active account, in one transaction. Returns the connection's id.
async fn save(
    state: &AppState,
    user: &CurrentUser,
    creds: Credentials,
    c: Connection<'_>,
    expected_user: Option<i64>,
) -> Result<String, ApiError> {
    let client: Client = state
        .provider
        .client(creds)
        .map_err(credentials::provider_error)?;
    let me = client.me().await.map_err(credentials::provider_error)?;
    let apple_user = me.user_id.ok_or_else(|| {
        ApiError::bad_request("Apple Ads did not say which user these credentials belong to")
    })?;
    if expected_user.is_some_and(|u| u != apple_user) {
        return Err(ApiError::bad_request(
            "These credentials belong to another Apple Ads user than this account's",
        ));
    }
    let found = orgs::fetch(&client)
        .await
        .map_err(credentials::provider_error)?;
    let now = now_ms();
    let seal = |field: &str, secret: Option<&SecretString>| {
        secret.map(|s| {
            state.secrets.seal_str(
                &credentials::context(&user.workspace_id, apple_user, field),
                s,
            )
        })
    };
    let private_key = seal("private_key", c.private_key);
    let refresh_token = seal("refresh_token", c.refresh_token);
    let access_token = seal("access_token", c.access_token.map(|(t, _)| t));
    let id = new_id();
    let mut tx = state.db.pool.begin().await?;
    let id = store::accounts::upsert(
        &mut *tx,
        NewAccount {
            id: &id,
            workspace_id: &user.workspace_id,
            provider_user_id: apple_user,
            provider_org_id: me.org_id,
            name: c.name,
            method: c.method,
            client_id: c.client_id,
            team_id: c.team_id,
            key_id: c.key_id,
            public_key: c.public_key,
            private_key_sealed: private_key.as_deref(),
            refresh_token_sealed: refresh_token.as_deref(),
            access_token_sealed: access_token.as_deref(),
            access_expires_at: c.access_token.map(|(_, ms)| now + ms),
            created_by: &user.user_id,
            now,
        },
    )
    .await?;
    orgs::save(&mut tx, &id, &found).await?;
    if c.private_key.is_some() {
        store::accounts::delete_pending_key(&mut *tx, &user.user_id, &user.workspace_id).await?;
    }
    let active = store::accounts::Active {
        account_id: id.clone(),
        org_id: None,
    };
    store::accounts::set_active(&mut *tx, &user.user_id, &user.workspace_id, &active, now).await?;
    tx.commit().await?;
    tracing::info!(account_id = %id, method = c.method, "Apple Ads account connected");
    Ok(id)
}
