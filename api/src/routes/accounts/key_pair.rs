//! Connecting by key pair: `account/getPublicKey` generates a P-256 key pair for the caller
//! (the private key sealed and pending), the user registers the public key with Apple, and
//! `account/create` (multipart: name, clientId, teamId, keyId) proves the credentials with a
//! token exchange before saving them. Refused credentials store nothing.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{ids::now_ms, store};
use searchdeck_provider::{Credentials, KeyPair};
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    AccountItem,
    connect::{Connection, save},
    credentials, item, parse_name,
};
use crate::{
    access::Editor,
    domain::{Fields, REQUIRED},
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody},
    extract::MultipartForm,
    state::AppState,
};

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
    let public_key = store::connects::insert_pending_key(
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

/// The fields of `account/create` (read from the multipart body; this type documents them).
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct CreateForm {
    /// The account name (required, at most 30 characters).
    #[schema(min_length = 1, max_length = 30)]
    pub name: String,
    #[schema(min_length = 1)]
    pub client_id: String,
    #[schema(min_length = 1)]
    pub team_id: String,
    #[schema(min_length = 1)]
    pub key_id: String,
}

/// The answer of `account/create`: the connection and whether it was added.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Created {
    pub item: AccountItem,
    /// Whether a connection was added; false when the Apple Ads user was connected already
    /// and that connection was updated (the envelope's message says so).
    pub added: bool,
    /// The updated connection's name before this connect (null when added).
    pub previous_name: Option<String>,
}

/// Connects by key pair: checks clientId, teamId and keyId with a token exchange signed by
/// the caller's pending key, then saves the connection with its campaign groups. The same
/// Apple Ads user connected again updates its connection, and the message says what changed:
/// a key that reaches every campaign group of the connection's first key replaces it; one
/// limited to other groups is kept beside it for those (Apple grants access per key); one
/// that adds no group changes nothing.
#[utoipa::path(post, path = "/api/account/create", operation_id = "create_account", tag = "accounts",
    request_body(content = CreateForm, content_type = "multipart/form-data"),
    responses((status = 200, description = "The connected account", body = Envelope<Created>),
              (status = 400, description = "Invalid fields or credentials refused by Apple Ads", body = ErrorBody),
              (status = 403, description = "LIMIT_HAS_BEEN_REACHED (meta.type AVAILABLEAPPS or AVAILABLEDEVS): a new connection past the plan's apps", body = ErrorBody),
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
        store::connects::pending_key(&state.db.pool, &user.user_id, &user.workspace_id).await?;
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
    let saved = save(&state, &user, creds, connection, None).await?;
    let row = store::accounts::in_workspace(&state.db.pool, &user.workspace_id, &saved.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Account"))?;
    Ok(envelope::ok_with(
        &saved.message(&name),
        Created {
            item: item(&state, row).await?,
            added: saved.previous_name.is_none(),
            previous_name: saved.previous_name,
        },
    ))
}
