//! `POST /auth/oauth2/token`: `client_credentials` with an ES256 client secret,
//! `authorization_code` from the consent page, and `refresh_token`. Errors follow OAuth 2.0
//! (`{"error": "invalid_client", "error_description": ...}`).

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Form, Json};
use serde::Deserialize;
use serde_json::json;
use time::OffsetDateTime;

use super::jwt;
use crate::state::Sandbox;

/// The form fields the token endpoint reads.
#[derive(Debug, Deserialize)]
pub struct TokenForm {
    grant_type: Option<String>,
    client_id: Option<String>,
    client_secret: Option<String>,
    scope: Option<String>,
    code: Option<String>,
    redirect_uri: Option<String>,
    refresh_token: Option<String>,
}

fn oauth_error(status: StatusCode, error: &str, description: impl Into<String>) -> Response {
    (
        status,
        Json(json!({ "error": error, "error_description": description.into() })),
    )
        .into_response()
}

/// The token endpoint.
pub async fn token(State(sandbox): State<Arc<Sandbox>>, Form(form): Form<TokenForm>) -> Response {
    let Some(client_id) = form.client_id.as_deref().filter(|c| !c.is_empty()) else {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "client_id is required",
        );
    };
    let now = OffsetDateTime::now_utc().unix_timestamp();
    let registered = sandbox.auth.credential(client_id).is_some();
    // Registered clients must prove themselves with a signed secret; popup-connect partners
    // that never registered a key are trusted by their code or refresh token alone.
    if registered || form.grant_type.as_deref() == Some("client_credentials") {
        let Some(secret) = form.client_secret.as_deref() else {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                "client_secret is required",
            );
        };
        if let Err(reason) = jwt::verify(&sandbox.auth, client_id, secret, now) {
            tracing::debug!(client_id, reason, "sandbox rejected a client secret");
            return oauth_error(StatusCode::UNAUTHORIZED, "invalid_client", reason);
        }
    }
    let with_refresh = match form.grant_type.as_deref() {
        Some("client_credentials") => {
            if form.scope.as_deref() != Some("searchadsorg") {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_scope",
                    "scope must be searchadsorg",
                );
            }
            false
        }
        Some("authorization_code") => {
            let Some(code) = form.code.as_deref() else {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_request",
                    "code is required",
                );
            };
            if !sandbox
                .auth
                .take_code(code, client_id, form.redirect_uri.as_deref())
            {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "the code is unknown, used, expired or for another client",
                );
            }
            true
        }
        Some("refresh_token") => {
            let owner = form
                .refresh_token
                .as_deref()
                .and_then(|t| sandbox.auth.refresh_client(t));
            if owner.as_deref() != Some(client_id) {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "unknown refresh token",
                );
            }
            false
        }
        Some(other) => {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "unsupported_grant_type",
                format!("unsupported grant_type {other}"),
            );
        }
        None => {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                "grant_type is required",
            );
        }
    };
    let (access_token, expires_in) = sandbox.auth.issue_token(client_id);
    let mut body = json!({ "access_token": access_token, "token_type": "Bearer", "expires_in": expires_in, "scope": "searchadsorg" });
    if with_refresh {
        body["refresh_token"] = json!(sandbox.auth.issue_refresh_token(client_id));
    }
    Json(body).into_response()
}
