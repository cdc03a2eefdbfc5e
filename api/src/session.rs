//! Sessions: random tokens in an HttpOnly cookie, stored hashed, and the signed-in caller.
//!
//! A token is 256 random bits (base64url) sent as the `sd_session` cookie (HttpOnly,
//! SameSite=Lax, Secure unless the request came to localhost). Only its SHA-256 is stored,
//! so a database leak yields no usable sessions. Login always issues a new token; logout and
//! password changes delete rows.

use axum::http::{HeaderMap, header};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use base64::Engine;
use rand::RngCore;
use searchdeck_common::{
    Db,
    ids::{new_id, now_ms},
    store::{self, sessions::NewSession},
};
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

/// Name of the session cookie.
pub const COOKIE: &str = "sd_session";
/// Lifetime of a session.
pub const SESSION_TTL_MS: i64 = 30 * 24 * 3600 * 1000;
/// How stale `last_seen_at` may get before a request refreshes it.
const TOUCH_AFTER_MS: i64 = 5 * 60 * 1000;

/// A member's role in a workspace (spec §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Owner,
    Admin,
    Writer,
    Reader,
}

impl Role {
    /// The role stored as `s`, if it is one.
    pub fn parse(s: &str) -> Option<Role> {
        match s {
            "owner" => Some(Role::Owner),
            "admin" => Some(Role::Admin),
            "writer" => Some(Role::Writer),
            "reader" => Some(Role::Reader),
            _ => None,
        }
    }

    /// The role as stored and sent (`owner`, `admin`, `writer`, `reader`).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Admin => "admin",
            Role::Writer => "writer",
            Role::Reader => "reader",
        }
    }
}

/// The signed-in caller: who, in which workspace, with which role. Handlers receive it
/// through the guards of [`crate::access`] (`Member`, `Editor`, `Manager`).
#[derive(Debug, Clone)]
pub struct CurrentUser {
    pub session_id: String,
    pub user_id: String,
    pub email: String,
    pub workspace_id: String,
    pub role: Role,
}

/// SHA-256 of a token, hex-encoded, as stored.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A fresh random token.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Whether cookies should be marked Secure: everywhere but on localhost.
pub fn secure_cookies(headers: &HeaderMap) -> bool {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        host.split(':').next().unwrap_or("")
    };
    !(name == "localhost"
        || name.ends_with(".localhost")
        || name.starts_with("127.")
        || name == "::1")
}

/// The cookie carrying a new session token.
pub fn session_cookie(token: String, secure: bool) -> Cookie<'static> {
    Cookie::build((COOKIE, token))
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .path("/")
        .max_age(time::Duration::milliseconds(SESSION_TTL_MS))
        .build()
}

/// A cookie that removes the session cookie.
pub fn removal_cookie(secure: bool) -> Cookie<'static> {
    let mut c = session_cookie(String::new(), secure);
    c.make_removal();
    c
}

/// Creates a session row and returns its token.
pub async fn create_session(
    db: &Db,
    user_id: &str,
    workspace_id: &str,
) -> Result<String, sqlx::Error> {
    let token = new_token();
    let now = now_ms();
    let (id, token_hash, pool) = (&new_id(), &hash_token(&token), &db.pool);
    let row = NewSession {
        id,
        token_hash,
        user_id,
        workspace_id,
        now,
        expires_at: now + SESSION_TTL_MS,
    };
    searchdeck_common::Db::retry_busy(move || store::sessions::insert(pool, row)).await?;
    Ok(token)
}

/// Deletes the session a token belongs to, if any.
pub async fn delete_session(db: &Db, token: &str) -> Result<(), sqlx::Error> {
    let (pool, token_hash) = (&db.pool, &hash_token(token));
    searchdeck_common::Db::retry_busy(move || {
        store::sessions::delete_by_token_hash(pool, token_hash)
    })
    .await
}

/// Loads the caller behind a session token, if the session is valid.
pub async fn lookup(db: &Db, token: &str) -> Result<Option<CurrentUser>, sqlx::Error> {
    let now = now_ms();
    let Some(row) = store::sessions::find_valid(&db.pool, &hash_token(token), now).await? else {
        return Ok(None);
    };
    let Some(role) = Role::parse(&row.role) else {
        return Ok(None);
    };
    if now - row.last_seen_at > TOUCH_AFTER_MS {
        // Best effort: a busy database delays the next refresh, never the request.
        if let Err(e) = store::sessions::touch(&db.pool, &row.id, now).await {
            tracing::warn!(error = %e, "session last-seen refresh skipped");
        }
    }
    Ok(Some(CurrentUser {
        session_id: row.id,
        user_id: row.user_id,
        email: row.email,
        workspace_id: row.workspace_id,
        role,
    }))
}

/// `meta.reason` of the 401 a removed member's session answers (docs/api/team.md).
pub const REMOVED_FROM_WORKSPACE: &str = "REMOVED_FROM_WORKSPACE";

/// The 401 of a session that no longer is: "You were removed from <workspace> by <name>"
/// (`meta`: `reason` REMOVED_FROM_WORKSPACE, `workspace`, `by`) when its member was removed
/// from the workspace it was in, else the plain "Unauthorized".
pub async fn ended(db: &Db, token: &str) -> Result<crate::error::ApiError, sqlx::Error> {
    use crate::error::{ApiError, UNAUTHORIZED_MESSAGE};
    let Some(ending) = store::sessions::ending(&db.pool, &hash_token(token), now_ms()).await?
    else {
        return Ok(ApiError::unauthorized(UNAUTHORIZED_MESSAGE));
    };
    Ok(ApiError::Status {
        status: axum::http::StatusCode::UNAUTHORIZED,
        message: format!(
            "You were removed from {} by {}",
            ending.workspace_name, ending.removed_by
        ),
        errors: Vec::new(),
        meta: Some(serde_json::json!({
            "reason": REMOVED_FROM_WORKSPACE,
            "workspace": ending.workspace_name,
            "by": ending.removed_by,
        })),
        retry_after: None,
    })
}

/// The session token of a request's cookie, if it carries a non-empty one.
pub fn token_of(headers: &HeaderMap) -> Option<String> {
    CookieJar::from_headers(headers)
        .get(COOKIE)
        .map(|c| c.value().to_string())
        .filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_hashed() {
        let a = new_token();
        assert_eq!(a.len(), 43, "256 bits in base64url");
        assert_ne!(a, new_token());
        assert_eq!(hash_token(&a).len(), 64);
        assert_ne!(hash_token(&a), a);
    }

    #[test]
    fn secure_everywhere_but_localhost() {
        let mut h = HeaderMap::new();
        for (host, secure) in [
            ("localhost:8080", false),
            ("127.0.0.1:8080", false),
            ("[::1]:8080", false),
            ("app.searchdeck.io", true),
            ("localhost.evil.io", true),
        ] {
            h.insert(header::HOST, host.parse().unwrap());
            assert_eq!(secure_cookies(&h), secure, "{host}");
        }
    }
}
