//! Password recovery by emailed code, and password change for signed-in users.
//!
//! A recovery code is 8 characters from a 32-letter alphabet without look-alikes (40 bits),
//! stored hashed, valid for 30 minutes, single-use (consumed by one atomic UPDATE), and
//! replaced by any newer code. Code checks are throttled per IP. Asking for a code answers
//! the same whether or not the email has an account. Setting a password ends every other
//! session of the user.

use axum::{
    extract::{Query, State},
    response::IntoResponse,
};
use rand::Rng;
use searchdeck_common::{
    email::OutgoingEmail,
    ids::{new_id, now_ms},
    store::{self, recovery::NewCode},
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    access::Member,
    domain::{Email, Fields, REQUIRED},
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ClientIp},
    passwords,
    session::hash_token,
    state::AppState,
};

/// How long a recovery code stays valid.
pub const CODE_TTL_MS: i64 = 30 * 60 * 1000;
/// Letters of a recovery code (no 0/O, 1/I).
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const CODE_LEN: usize = 8;
/// Message for a wrong, used or expired code.
pub const CODE_INVALID: &str = "The code is invalid or has expired";
/// Answer to a recovery request, whether or not the account exists.
pub const RECOVERY_SENT: &str =
    "If an account exists for this email, a recovery code was sent to it";

fn new_code() -> String {
    let mut rng = rand::rng();
    (0..CODE_LEN)
        .map(|_| CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())] as char)
        .collect()
}

/// Upper-cases and strips spaces and dashes, as people type codes from emails.
fn normalize_code(raw: &str) -> String {
    raw.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct RecoveryQuery {
    /// The account's email.
    #[serde(default)]
    pub email: String,
}

/// Emails a recovery code to the account's address.
#[utoipa::path(get, path = "/api/auth/recoveryPassword", tag = "auth", params(RecoveryQuery),
    responses((status = 200, description = "Sent if the account exists"),
              (status = 400, description = "Invalid email", body = ErrorBody),
              (status = 429, description = "Too many requests", body = ErrorBody)))]
pub async fn recovery_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Query(q): Query<RecoveryQuery>,
) -> ApiResult<impl IntoResponse> {
    let email = Email::parse(&q.email).map_err(|m| ApiError::field("email", m))?;
    state.throttles.code_ip.check(&ip)?;
    state
        .throttles
        .recovery_email
        .check(&email.as_str().to_string())?;
    let user_id = store::users::id_by_email(&state.db.pool, email.as_str()).await?;
    if let Some(user_id) = user_id {
        let code = new_code();
        let now = now_ms();
        let mut tx = state.db.pool.begin().await?;
        store::recovery::retire_open(&mut *tx, &user_id, now).await?;
        store::recovery::insert(
            &mut *tx,
            NewCode {
                id: &new_id(),
                user_id: &user_id,
                code_hash: &hash_token(&code),
                expires_at: now + CODE_TTL_MS,
                now,
            },
        )
        .await?;
        tx.commit().await?;
        state
            .send_email(OutgoingEmail {
                to: email.as_str().to_string(),
                subject: "Your Searchdeck password recovery code".into(),
                body: format!(
                    "Your recovery code is {code}. It is valid for 30 minutes and can be used once.\n\n\
                     Enter it on the password recovery screen, or open /reset?code={code} in Searchdeck.\n\
                     If you did not ask for it, ignore this email: your password stays as it is."
                ),
            })
            .await?;
        tracing::info!(user.id = %user_id, "recovery code sent");
    }
    Ok(envelope::ok_with(RECOVERY_SENT, serde_json::json!({})))
}

#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct CodeRequest {
    pub code: String,
    /// With both passwords, the code is consumed and the password set.
    pub new_password: Option<String>,
    pub repeat_password: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CodeValid {
    pub valid: bool,
}

/// Checks a recovery code; given passwords too, sets the new password with it.
#[utoipa::path(post, path = "/api/auth/checkCode", tag = "auth", request_body = CodeRequest,
    responses((status = 200, description = "The code is valid", body = Envelope<CodeValid>),
              (status = 400, description = "The code is invalid or has expired", body = ErrorBody)))]
pub async fn check_code(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<CodeRequest>,
) -> ApiResult<impl IntoResponse> {
    if req.new_password.is_some() || req.repeat_password.is_some() {
        set_password_by_code(&state, ip, req).await?;
        return Ok(envelope::ok(CodeValid { valid: true }));
    }
    let code = normalize_code(&req.code);
    if code.is_empty() {
        return Err(ApiError::field("code", REQUIRED));
    }
    state.throttles.code_ip.check(&ip)?;
    let found = store::recovery::find_valid(&state.db.pool, &hash_token(&code), now_ms()).await?;
    match found {
        Some(_) => Ok(envelope::ok(CodeValid { valid: true })),
        None => Err(ApiError::field("code", CODE_INVALID)),
    }
}

/// Sets a new password with a recovery code; the user then signs in with it.
#[utoipa::path(post, path = "/api/auth/changePasswordByCode", tag = "auth", request_body = CodeRequest,
    responses((status = 200, description = "Password changed"),
              (status = 400, description = "Invalid code or password", body = ErrorBody)))]
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
    state.throttles.code_ip.check(&ip)?;
    let hash = passwords::hash(password.expect("checked").expose().to_string()).await?;
    let now = now_ms();
    let mut tx = state.db.pool.begin().await?;
    let user_id = store::recovery::consume(&mut *tx, &hash_token(&code), now).await?;
    let Some(user_id) = user_id else {
        return Err(ApiError::field("code", CODE_INVALID));
    };
    store_password(&mut tx, &user_id, &hash, None).await?;
    tx.commit().await?;
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
    pub old_password: String,
    pub new_password: String,
    pub repeat_password: String,
}

/// Field message when the current password is wrong.
pub const OLD_PASSWORD_WRONG: &str = "The current password is incorrect";

/// Changes the signed-in user's password; other sessions are signed out.
#[utoipa::path(post, path = "/api/auth/changePassword", tag = "auth", request_body = ChangePasswordRequest,
    responses((status = 200, description = "Password changed"),
              (status = 400, description = "Invalid fields", body = ErrorBody)))]
pub async fn change_password(
    State(state): State<AppState>,
    user: Member,
    ApiJson(req): ApiJson<ChangePasswordRequest>,
) -> ApiResult<impl IntoResponse> {
    let mut fields = Fields::default();
    fields.ensure(!req.old_password.is_empty(), "oldPassword", REQUIRED);
    let password = fields.new_password("newPassword", &req.new_password, &req.repeat_password);
    fields.finish()?;
    state.throttles.login_email.check(&user.email)?;
    let stored = store::users::password_hash(&state.db.pool, &user.user_id).await?;
    if !passwords::verify(req.old_password, Some(stored)).await? {
        return Err(ApiError::field("oldPassword", OLD_PASSWORD_WRONG));
    }
    let hash = passwords::hash(password.expect("checked").expose().to_string()).await?;
    let mut tx = state.db.pool.begin().await?;
    store_password(&mut tx, &user.user_id, &hash, Some(&user.session_id)).await?;
    tx.commit().await?;
    Ok(envelope::done())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_use_the_alphabet_and_normalise() {
        let c = new_code();
        assert_eq!(c.len(), CODE_LEN);
        assert!(c.bytes().all(|b| CODE_ALPHABET.contains(&b)));
        assert_eq!(normalize_code(" ab2c-d3ef "), "AB2CD3EF");
    }
}
