//! Register, login, relogin, logout and me.

use crate::routes::users::item::{self as user, UserItem};
use axum::{extract::State, http::HeaderMap, response::IntoResponse};
use axum_extra::extract::cookie::CookieJar;
use searchdeck_common::{
    Db,
    ids::{new_id, now_ms},
    store::{
        self,
        users::{LoginRow, NewUser},
    },
};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::{
    access::Member,
    domain::{Email, Fields},
    envelope::{self, Empty, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ClientIp},
    session::{self, COOKIE, Role},
    state::AppState,
};

/// Message of a successful registration (docs/product.md#8-generic-mapping).
pub const ACCOUNT_CREATED: &str = "Account was created";
/// Message of a failed login (docs/product.md#8-generic-mapping).
pub const LOGIN_FAILED: &str = "Login or password doesnt match";
/// Field message when the email is taken.
pub const EMAIL_TAKEN: &str = "An account with this email already exists";

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
#[derive(Default)]
pub struct RegisterRequest {
    #[schema(required = true, format = Email, max_length = 254)]
    pub email: String,
    #[schema(required = true, format = Password, min_length = 8, max_length = 128)]
    pub password: String,
    #[schema(required = true, format = Password)]
    pub repeat_password: String,
    /// Where the sign-up came from (marketing attribution), free text.
    pub source: String,
    pub full_name: String,
}

/// Creates an account with its own workspace (the user is its owner) and signs in.
#[utoipa::path(post, path = "/api/auth/register", tag = "auth", request_body = RegisterRequest,
    responses((status = 200, description = "Account was created; session cookie set", body = Envelope<Item<UserItem>>),
              (status = 400, description = "Invalid fields or email taken", body = ErrorBody),
              (status = 429, description = "Too many sign-ups from this address", body = ErrorBody),
              (status = 503, description = "Busy hashing passwords; retry after Retry-After", body = ErrorBody)))]
pub async fn register(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    jar: CookieJar,
    ApiJson(req): ApiJson<RegisterRequest>,
) -> ApiResult<impl IntoResponse> {
    let mut fields = Fields::default();
    let email = fields.check("email", Email::parse(&req.email));
    let password = fields.new_password("password", &req.password, &req.repeat_password);
    let full_name = req.full_name.trim().to_string();
    fields.ensure(
        full_name.chars().count() <= 100,
        "fullName",
        "Name must be at most 100 characters",
    );
    let source = req.source.trim().chars().take(100).collect::<String>();
    fields.finish()?;
    let (email, password) = (email.expect("checked"), password.expect("checked"));
    state.throttles.register_ip.check(&ip)?;
    // A taken email is answered before any hashing; the unique index still decides races.
    if store::users::id_by_email(&state.db.pool, email.as_str())
        .await?
        .is_some()
    {
        return Err(ApiError::field("email", EMAIL_TAKEN));
    }

    let hash = state.passwords.hash(password.expose().to_string()).await?;
    let (user_id, workspace_id) = (new_id(), new_id());
    // A workspace of its own name ("Olga Owner invited you to join Olga Owner" read as if
    // the person were the workspace); renamable in Settings › General.
    let workspace_name = if full_name.is_empty() {
        format!("{}'s workspace", email.as_str())
    } else {
        format!("{full_name}'s workspace")
    };
    let now = now_ms();
    let user = NewUser {
        id: &user_id,
        email: email.as_str(),
        password_hash: &hash,
        full_name: &full_name,
        source: &source,
        now,
    };
    let (pool, workspace_id, workspace_name) = (&state.db.pool, &workspace_id, &workspace_name);
    Db::retry_busy(move || async move {
        let mut tx = searchdeck_common::db::begin_write(pool).await?;
        if let Err(e) = store::users::insert(&mut *tx, user).await {
            return Err(if Db::is_unique_violation(&e) {
                ApiError::field("email", EMAIL_TAKEN)
            } else {
                e.into()
            });
        }
        store::workspaces::insert(&mut *tx, workspace_id, workspace_name, now).await?;
        store::workspaces::add_member(&mut *tx, workspace_id, user.id, Role::Owner.as_str(), now)
            .await?;
        tx.commit().await?;
        Ok::<(), ApiError>(())
    })
    .await?;
    tracing::info!(user.id = %user_id, workspace.id = %workspace_id, "account created");

    let token = session::create_session(&state.db, &user_id, workspace_id).await?;
    let jar = jar.add(session::session_cookie(
        token,
        session::secure_cookies(&headers),
    ));
    let item = user::load(&state, &user_id, workspace_id).await?;
    Ok((jar, envelope::ok_with(ACCOUNT_CREATED, Item { item })))
}

#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct LoginRequest {
    #[schema(required = true, format = Email)]
    pub email: String,
    #[schema(required = true, format = Password, min_length = 1)]
    pub password: String,
}

/// Signs in with email and password; issues a new session token.
#[utoipa::path(post, path = "/api/auth/login", tag = "auth", request_body = LoginRequest,
    responses((status = 200, description = "Signed in; session cookie set", body = Envelope<Item<UserItem>>),
              (status = 400, description = "Invalid fields", body = ErrorBody),
              (status = 401, description = "Login or password doesnt match", body = ErrorBody),
              (status = 429, description = "Too many failed attempts", body = ErrorBody),
              (status = 503, description = "Busy hashing passwords; retry after Retry-After", body = ErrorBody)))]
pub async fn login(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    jar: CookieJar,
    ApiJson(req): ApiJson<LoginRequest>,
) -> ApiResult<impl IntoResponse> {
    let mut fields = Fields::default();
    let email = fields.check("email", Email::parse(&req.email));
    fields.ensure(
        !req.password.is_empty(),
        "password",
        crate::domain::REQUIRED,
    );
    fields.finish()?;
    let email = email.expect("checked");
    let attempt = state.throttles.login(email.as_str(), ip)?;

    // The session opens the workspace the user last switched to, if still a member there,
    // else their first (by join date).
    let row = store::users::for_login(&state.db.pool, email.as_str()).await?;
    let stored = row.as_ref().map(|r| r.password_hash.clone());
    if !state.passwords.verify(req.password, stored).await? {
        return Err(ApiError::unauthorized(LOGIN_FAILED));
    }
    attempt.succeeded();
    let LoginRow {
        user_id,
        workspace_id,
        ..
    } = row.expect("verified rows exist");

    // Rotate: a session token presented before login is never reused after it.
    if let Some(old) = jar.get(COOKIE) {
        session::delete_session(&state.db, old.value()).await?;
    }
    let token = session::create_session(&state.db, &user_id, &workspace_id).await?;
    let jar = jar.add(session::session_cookie(
        token,
        session::secure_cookies(&headers),
    ));
    let item = user::load(&state, &user_id, &workspace_id).await?;
    Ok((jar, envelope::item(item)))
}

/// Restores the session from its cookie (silent relogin at start-up).
#[utoipa::path(get, path = "/api/auth/relogin", tag = "auth",
    responses((status = 200, description = "The session is valid", body = Envelope<Item<UserItem>>)))]
pub async fn relogin(State(state): State<AppState>, user: Member) -> ApiResult<impl IntoResponse> {
    Ok(envelope::item(user::of(&state, &user).await?))
}

/// Ends the session (also answers 200 when there was none) and removes the cookie.
#[utoipa::path(get, path = "/api/auth/logout", tag = "auth",
    responses((status = 200, description = "Signed out", body = Envelope<Empty>),
              (status = 405, description = "HEAD is refused on this route", body = ErrorBody)))]
pub async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
    jar: CookieJar,
) -> ApiResult<impl IntoResponse> {
    if let Some(c) = jar.get(COOKIE) {
        session::delete_session(&state.db, c.value()).await?;
    }
    let jar = jar.add(session::removal_cookie(session::secure_cookies(&headers)));
    Ok((jar, envelope::done()))
}

/// The signed-in user.
#[utoipa::path(get, path = "/api/auth/me", tag = "auth",
    responses((status = 200, description = "The user", body = Envelope<Item<UserItem>>)))]
pub async fn me(State(state): State<AppState>, user: Member) -> ApiResult<impl IntoResponse> {
    Ok(envelope::item(user::of(&state, &user).await?))
}
