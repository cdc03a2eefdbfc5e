//! The one guard of a route another server calls: an attribution provider's postback names
//! its integration by the URL's provider and token (`/api/attribution/postbacks/{provider}/
//! {token}`), and nothing else. The token is looked up by its hash, for that provider only;
//! an unknown token, a rotated or disconnected one, and another provider's all answer 404
//! alike, so a URL reveals nothing about the tokens that exist. No session is read: the
//! providers have none, and the URL's secret is what a cross-site request cannot know.

use axum::{extract::FromRequestParts, http::request::Parts};
use searchdeck_common::attribution::Provider;
use searchdeck_common::store::{self, attribution::integrations::Integration};

use crate::{error::ApiError, extract::ApiPath, session::hash_token, state::AppState};

/// The integration a postback's URL names.
#[derive(Debug)]
pub struct PostbackIntegration {
    pub provider: Provider,
    pub integration: Integration,
}

/// The answer for every URL that names no integration.
pub const UNKNOWN_POSTBACK_URL: &str = "Postback URL not found";

impl FromRequestParts<AppState> for PostbackIntegration {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let not_found =
            || ApiError::status(axum::http::StatusCode::NOT_FOUND, UNKNOWN_POSTBACK_URL);
        let ApiPath((provider, token)) =
            ApiPath::<(String, String)>::from_request_parts(parts, state)
                .await
                .map_err(|_| not_found())?;
        let provider = Provider::parse(&provider).ok_or_else(not_found)?;
        let integration = store::attribution::integrations::by_token(
            &state.db.pool,
            provider.name(),
            &hash_token(&token),
        )
        .await?
        .ok_or_else(not_found)?;
        Ok(PostbackIntegration {
            provider,
            integration,
        })
    }
}
