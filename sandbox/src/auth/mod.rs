//! The OAuth side of the sandbox: key registration (`POST /sandbox/keys`), the token
//! endpoint (`POST /auth/oauth2/token`), the consent page (`/auth/oauth2/authorize`) and the
//! bearer check in front of `/v1`.

pub mod jwt;
pub mod pages;
pub mod store;
pub mod token;

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::api::error::ApiError;
use crate::state::Sandbox;

/// Requires `Authorization: Bearer <token>` with a live token.
pub async fn require_bearer(
    State(sandbox): State<Arc<Sandbox>>,
    request: Request,
    next: Next,
) -> Response {
    let token = request
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    match token {
        None => {
            ApiError::unauthenticated("an Authorization: Bearer token is required").into_response()
        }
        Some(t) if sandbox.auth.check_token(t.trim()).is_none() => {
            ApiError::unauthenticated("the access token is invalid or expired").into_response()
        }
        Some(_) => next.run(request).await,
    }
}
