//! Password recovery by emailed code, and password change for signed-in users.
//!
//! A recovery code is 8 characters from a 32-letter alphabet without look-alikes (40 bits),
//! stored hashed, valid for 30 minutes, single-use (consumed by one atomic UPDATE), and
//! replaced by any newer code. Its first [`SELECTOR_LEN`](crate::recovery::SELECTOR_LEN) characters are also stored in
//! clear as a selector: a wrong guess that shares a live code's selector counts against that
//! code, which dies after [`MAX_CODE_ATTEMPTS`](crate::recovery::MAX_CODE_ATTEMPTS) wrong guesses. Wrong codes are throttled per
//! IP too, and every cheap check runs before the new password is hashed.
//!
//! Asking for a code answers the same, in the same time, whether or not the email has an
//! account: the handler only checks the input and the throttles and hands the address to the
//! background task of [`crate::recovery`], which looks the account up, stores a code and
//! queues the email, one request after the other. Setting a password ends every other session
//! of the user.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{Db, ids::now_ms, store};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    access::Member,
    domain::{Email, Fields, REQUIRED},
    envelope::{self, Empty, Envelope},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiQuery, ClientIp},
    recovery::{CODE_LEN, MAX_CODE_ATTEMPTS, SELECTOR_LEN},
    session::hash_token,
    state::AppState,
};

/// Message for a wrong, used or expired code.
pub const CODE_INVALID: &str = "The code is invalid or has expired";
/// Answer to a recovery request, whether or not the account exists.
pub const RECOVERY_SENT: &str =
    "If an account exists for this email, a recovery code was sent to it";
/// Upper-cases and strips spaces and dashes, as people type codes from emails.
fn normalize_code(raw: &str) -> String {
    raw.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RecoveryQuery {
    /// The account's email.
    #[serde(default)]
    #[param(required = true, format = "email")]
    pub email: String,
}

/// Emails a recovery code to the account's address.
#[utoipa::path(get, path = "/api/auth/recoveryPassword", tag = "auth", params(RecoveryQuery),
    responses((status = 200, description = "Sent if the account exists", body = Envelope<Empty>),
              (status = 400, description = "Invalid email", body = ErrorBody),
              (status = 405, description = "HEAD is refused on this route", body = ErrorBody),
              (status = 429, description = "Too many requests", body = ErrorBody),
              (status = 503, description = "Too many pending requests; retry after Retry-After", body = ErrorBody)))]
pub async fn recovery_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiQuery(q): ApiQuery<RecoveryQuery>,
) -> ApiResult<impl IntoResponse> {
    let email = Email::parse(&q.email).map_err(|m| ApiError::field("email", m))?;
    state.throttles.recovery_ip.check(&ip)?;
    state
        .throttles
        .recovery_email
        .check(&email.as_str().to_string())?;
    state.request_recovery(email).await?;
    Ok(envelope::ok_with(RECOVERY_SENT, Empty {}))
}

/// The live code matching `code`, as (code id, user id). A wrong guess counts against every
/// live code sharing its selector; the IP's failure budget is spent unless it matches.
async fn find_code(
    state: &AppState,
    ip: std::net::IpAddr,
    code: &str,
) -> ApiResult<(String, String)> {
    if code.is_empty() {
        return Err(ApiError::field("code", REQUIRED));
    }
    let attempt = state.throttles.code_ip.attempt(ip)?;
    if code.len() != CODE_LEN {
        return Err(ApiError::field("code", CODE_INVALID));
    }
    let selector = &code[..SELECTOR_LEN];
    let now = now_ms();
    let pool = &state.db.pool;
    let live = store::recovery::live_by_selector(pool, selector, now, MAX_CODE_ATTEMPTS).await?;
    let hash = hash_token(code);
    if let Some(found) = live.into_iter().find(|c| c.code_hash == hash) {
        attempt.succeeded();
        return Ok((found.id, found.user_id));
    }
    Db::retry_busy(move || store::recovery::count_wrong_guess(pool, selector, now)).await?;
    Err(ApiError::field("code", CODE_INVALID))
}

#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct CodeRequest {
    #[schema(required = true, min_length = 1, example = "AB2CD3EF")]
    pub code: String,
    /// With both passwords, the code is consumed and the password set.
    #[schema(format = Password)]
    pub new_password: Option<String>,
    #[schema(format = Password)]
    pub repeat_password: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CodeValid {
    pub valid: bool,
}

/// Checks a recovery code; given passwords too, sets the new password with it.
#[utoipa::path(post, path = "/api/auth/checkCode", operation_id = "check_recovery_code", tag = "auth", request_body = CodeRequest,
    responses((status = 200, description = "The code is valid", body = Envelope<CodeValid>),
              (status = 400, description = "The code is invalid or has expired", body = ErrorBody),
              (status = 429, description = "Too many wrong codes", body = ErrorBody),
              (status = 503, description = "Busy hashing passwords; retry after Retry-After", body = ErrorBody)))]
pub async fn check_code(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<CodeRequest>,
) -> ApiResult<impl IntoResponse> {
    if req.new_password.is_some() || req.repeat_password.is_some() {
        set_password_by_code(&state, ip, req).await?;
        return Ok(envelope::ok(CodeValid { valid: true }));
    }
    find_code(&state, ip, &normalize_code(&req.code)).await?;
    Ok(envelope::ok(CodeValid { valid: true }))
}

/// Sets a new password with a recovery code; the user then signs in with it.
#[utoipa::path(post, path = "/api/auth/changePasswordByCode", tag = "auth", request_body = CodeRequest,
    responses((status = 200, description = "Password changed", body = Envelope<Empty>),
              (status = 400, description = "Invalid code or password", body = ErrorBody),
              (status = 429, description = "Too many wrong codes", body = ErrorBody),
              (status = 503, description = "Busy hashing passwords; retry after Retry-After", body = ErrorBody)))]
pub async fn change_password_by_code(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<CodeRequest>,
) -> ApiResult<impl IntoResponse> {
    set_password_by_code(&state, ip, req).await?;
    Ok(envelope::done())
}

async fn set_password_by_code(
    state: &AppState,
    ip: std::net::IpAddr,
    req: CodeRequest,
) -> ApiResult<()> {
    let code = normalize_code(&req.code);
    let mut fields = Fields::default();
    fields.ensure(!code.is_empty(), "code", REQUIRED);
    let password = fields.new_password(
        "newPassword",
        req.new_password.as_deref().unwrap_or_default(),
        req.repeat_password.as_deref().unwrap_or_default(),
    );
    fields.finish()?;
    let (code_id, user_id) = find_code(state, ip, &code).await?;
    let hash = state
        .passwords
        .hash(password.expect("checked").expose().to_string())
        .await?;
    let (pool, code_id, user_id_ref, hash) = (&state.db.pool, &code_id, &user_id, &hash);
    Db::retry_busy(move || async move {
        let now = now_ms();
        let mut tx = searchdeck_common::db::begin_write(pool).await?;
        if !store::recovery::consume(&mut *tx, code_id, now, MAX_CODE_ATTEMPTS).await? {
            return Err(ApiError::field("code", CODE_INVALID));
        }
        store_password(&mut tx, user_id_ref, hash, None).await?;
        tx.commit().await?;
        Ok::<(), ApiError>(())
    })
    .await?;
    tracing::info!(user.id = %user_id, "password reset by recovery code");
    Ok(())
}

/// Writes a password hash and ends the user's sessions except `keep_session`.
async fn store_password(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    user_id: &str,
    hash: &str,
    keep_session: Option<&str>,
) -> Result<(), sqlx::Error> {
    store::users::set_password(&mut **tx, user_id, hash, now_ms()).await?;
    store::sessions::delete_others(&mut **tx, user_id, keep_session).await
}

#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ChangePasswordRequest {
    #[schema(required = true, format = Password)]
    pub old_password: String,
    #[schema(required = true, format = Password, min_length = 8, max_length = 128)]
    pub new_password: String,
    #[schema(required = true, format = Password)]
    pub repeat_password: String,
}

/// Field message when the current password is wrong.
pub const OLD_PASSWORD_WRONG: &str = "The current password is incorrect";

/// Changes the signed-in user's password; other sessions are signed out.
#[utoipa::path(post, path = "/api/auth/changePassword", tag = "auth", request_body = ChangePasswordRequest,
    responses((status = 200, description = "Password changed", body = Envelope<Empty>),
              (status = 400, description = "Invalid fields", body = ErrorBody),
              (status = 429, description = "Too many wrong passwords", body = ErrorBody),
              (status = 503, description = "Busy hashing passwords; retry after Retry-After", body = ErrorBody)))]
pub async fn change_password(
    State(state): State<AppState>,
    user: Member,
    ApiJson(req): ApiJson<ChangePasswordRequest>,
) -> ApiResult<impl IntoResponse> {
    let mut fields = Fields::default();
    fields.ensure(!req.old_password.is_empty(), "oldPassword", REQUIRED);
    let password = fields.new_password("newPassword", &req.new_password, &req.repeat_password);
    fields.finish()?;
    let attempt = state
        .throttles
        .change_password
        .attempt(user.user_id.clone())?;
    let stored = store::users::password_hash(&state.db.pool, &user.user_id).await?;
    if !state
        .passwords
        .verify(req.old_password, Some(stored))
        .await?
    {
        return Err(ApiError::field("oldPassword", OLD_PASSWORD_WRONG));
    }
    attempt.succeeded();
    let hash = state
        .passwords
        .hash(password.expect("checked").expose().to_string())
        .await?;
    let (pool, user, hash) = (&state.db.pool, &user, &hash);
    Db::retry_busy(move || async move {
        let mut tx = searchdeck_common::db::begin_write(pool).await?;
        store_password(&mut tx, &user.user_id, hash, Some(&user.session_id)).await?;
        tx.commit().await
    })
    .await?;
    Ok(envelope::done())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_normalise() {
        assert_eq!(normalize_code(" ab2c-d3ef "), "AB2CD3EF");
    }
}
