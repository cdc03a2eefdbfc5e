//! The OAuth side of the sandbox: key registration (`POST /sandbox/keys`), the token
//! endpoint (`POST /auth/oauth2/token`), the consent page (`/auth/oauth2/authorize`) and the
//! bearer check in front of `/v1`.

pub mod credential;
pub mod jwt;
pub mod kept;
pub mod pages;
pub mod store;
pub mod token;

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::api::error::ApiError;
use crate::state::Sandbox;

/// Whether a `/v1` request only reads: GETs, `…/query` searches and the geo search.
fn reads(method: &Method, path: &str) -> bool {
    method == Method::GET
        || method == Method::HEAD
        || (method == Method::POST && (path.ends_with("/query") || path.ends_with("/search/geo")))
}

/// The 403 of a key without access: `detail` says which limit refused it.
pub fn denied(detail: &'static str, message: String) -> ApiError {
    let mut e = ApiError::new(StatusCode::FORBIDDEN, "PERMISSION_DENIED", message.clone());
    e.details.push((detail, message, None));
    e
}

/// Requires `Authorization: Bearer <token>` with a live token, refuses writes to read-only
/// keys and hands the key's [`store::Access`] to the handlers as a request extension.
pub async fn require_bearer(
    State(sandbox): State<Arc<Sandbox>>,
    mut request: Request,
    next: Next,
) -> Response {
    let token = request
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::to_string);
    match token {
        None => {
            ApiError::unauthenticated("an Authorization: Bearer token is required").into_response()
        }
        Some(t) => {
            let Some(client_id) = sandbox.auth.check_token(t.trim()) else {
                return ApiError::unauthenticated("the access token is invalid or expired")
                    .into_response();
            };
            let access = sandbox.auth.access(&client_id);
            if access.read_only && !reads(request.method(), request.uri().path()) {
                return denied(
                    "READ_ONLY",
                    format!(
                        "this API user has the {} role and cannot make changes",
                        access.role()
                    ),
                )
                .into_response();
            }
            request.extensions_mut().insert(access);
            let actor = crate::world::audit::Actor::api(&client_id);
            crate::world::audit::ACTOR
                .scope(actor, next.run(request))
                .await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_gets_queries_and_the_geo_search() {
        assert!(reads(&Method::GET, "/v1/campaigns/1"));
        assert!(reads(&Method::POST, "/v1/reports/apps/campaigns/query"));
        assert!(reads(
            &Method::POST,
            "/v1/recommendations/daily-budgets/query"
        ));
        assert!(reads(&Method::POST, "/v1/search/geo"));
        assert!(!reads(&Method::POST, "/v1/keywords/bulk-create"));
        assert!(!reads(
            &Method::POST,
            "/v1/recommendations/daily-budgets/apply"
        ));
        assert!(!reads(&Method::PUT, "/v1/campaigns/1"));
        assert!(!reads(&Method::DELETE, "/v1/keywords/1"));
    }
}
