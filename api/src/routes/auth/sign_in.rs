//! Register, login, relogin, logout and me.

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

use super::user::{self, UserItem};
use crate::{
    access::Member,
    domain::{Email, Fields},
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ClientIp},
    passwords,
    session::{self, COOKIE, Role},
    state::AppState,
};

/// Message of a successful registration (spec §8).
pub const ACCOUNT_CREATED: &str = "Account was created";
/// Message of a failed login (spec §8).
pub const LOGIN_FAILED: &str = "Login or password doesnt match";
/// Field message when the email is taken.
pub const EMAIL_TAKEN: &str = "An account with this email already exists";

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
#[derive(Default)]
pub struct RegisterRequest {
    pub email: String,
    pub password: String,
    pub repeat_password: String,
    /// Where the sign-up came from (marketing attribution), free text.
    pub source: String,
    pub full_name: String,
}

/// Creates an account with its own workspace (the user is its owner) and signs in.
#[utoipa::path(post, path = "/api/auth/register", tag = "auth", request_body = RegisterRequest,
    responses((status = 200, description = "Account was created; session cookie set", body = Envelope<Item<UserItem>>),
              (status = 400, description = "Invalid fields or email taken", body = ErrorBody)))]
pub async fn register(
    State(state): State<AppState>,
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

    let hash = passwords::hash(password.expose().to_string()).await?;
    let (user_id, workspace_id) = (new_id(), new_id());
    let workspace_name = if full_name.is_empty() {
        email.as_str().to_string()
    } else {
        full_name.clone()
    };
    let now = now_ms();
    let mut tx = state.db.pool.begin().await?;
    let inserted = store::users::insert(
        &mut *tx,
        NewUser {
            id: &user_id,
            email: email.as_str(),
            password_hash: &hash,
            full_name: &full_name,
            source: &source,
            now,
        },
    )
    .await;
    if let Err(e) = inserted {
        return Err(if Db::is_unique_violation(&e) {
            ApiError::field("email", EMAIL_TAKEN)
        } else {
            e.into()
        });
    }
    store::workspaces::insert(&mut *tx, &workspace_id, &workspace_name, now).await?;
    store::workspaces::add_member(&mut *tx, &workspace_id, &user_id, Role::Owner.as_str(), now)
        .await?;
    tx.commit().await?;
    tracing::info!(user.id = %user_id, workspace.id = %workspace_id, "account created");

    let token = session::create_session(&state, &user_id, &workspace_id).await?;
    let jar = jar.add(session::session_cookie(
        token,
        session::secure_cookies(&headers),
    ));
    let item = user::load(&state, &user_id, &workspace_id).await?;
    Ok((jar, envelope::ok_with(ACCOUNT_CREATED, Item { item })))
}

#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct LoginRequest {
    pub email: String,
    pub password: String,
}

/// Signs in with email and password; issues a new session token.
#[utoipa::path(post, path = "/api/auth/login", tag = "auth", request_body = LoginRequest,
    responses((status = 200, description = "Signed in; session cookie set", body = Envelope<Item<UserItem>>),
              (status = 401, description = "Login or password doesnt match", body = ErrorBody),
              (status = 429, description = "Too many attempts", body = ErrorBody)))]
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
    state.throttles.login_ip.check(&ip)?;
    state
        .throttles
        .login_email
        .check(&email.as_str().to_string())?;

    // The user's first workspace (by join date) is where the session starts.
    let row = store::users::for_login(&state.db.pool, email.as_str()).await?;
    let stored = row.as_ref().map(|r| r.password_hash.clone());
    if !passwords::verify(req.password, stored).await? {
        return Err(ApiError::unauthorized(LOGIN_FAILED));
    }
    let LoginRow {
        user_id,
        workspace_id,
        ..
    } = row.expect("verified rows exist");

    // Rotate: a session token presented before login is never reused after it.
    if let Some(old) = jar.get(COOKIE) {
        session::delete_session(&state, old.value()).await?;
    }
    let token = session::create_session(&state, &user_id, &workspace_id).await?;
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
    responses((status = 200, description = "Signed out")))]
pub async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
    jar: CookieJar,
) -> ApiResult<impl IntoResponse> {
    if let Some(c) = jar.get(COOKIE) {
        session::delete_session(&state, c.value()).await?;
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
