//! Request extractors that answer bad input in the API's envelope.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::{
    extract::{
        ConnectInfo, FromRequest, FromRequestParts, Request,
        rejection::{JsonRejection, PathRejection, QueryRejection},
    },
    http::{StatusCode, request::Parts},
};
use serde::de::DeserializeOwned;

use crate::{error::ApiError, state::AppState};

/// Largest accepted request body (JSON and forms); larger bodies answer 413.
pub const BODY_LIMIT_BYTES: usize = 1024 * 1024;
/// Message of a body over [`BODY_LIMIT_BYTES`].
pub const BODY_TOO_LARGE: &str = "The request body is too large (at most 1 MB)";

/// JSON body whose rejections (wrong content type, malformed JSON, wrong field types)
/// become 400 errors in the envelope instead of axum's plain-text answers.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::status(StatusCode::PAYLOAD_TOO_LARGE, BODY_TOO_LARGE);
    }
    let message = match &rejection {
        JsonRejection::MissingJsonContentType(_) => {
            "Expected a JSON body (Content-Type: application/json)".to_string()
        }
        JsonRejection::JsonSyntaxError(_) => "The request body is not valid JSON".to_string(),
        JsonRejection::JsonDataError(e) => format!(
            "Invalid request body: {}",
            e.body_text()
                .trim_start_matches("Failed to deserialize the JSON body into the target type: ")
        ),
        _ => "Invalid request body".to_string(),
    };
    ApiError::bad_request(message)
}

/// Query parameters whose rejections (a duplicated or malformed field) answer 400 in the
/// envelope.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiQuery<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(ApiQuery(value)),
            Err(QueryRejection::FailedToDeserializeQueryString(e)) => {
                Err(ApiError::bad_request(format!(
                    "Invalid query: {}",
                    e.body_text()
                        .trim_start_matches("Failed to deserialize query string: ")
                )))
            }
            Err(_) => Err(ApiError::bad_request("Invalid query")),
        }
    }
}

/// Path parameters whose rejections (e.g. a segment that is not valid UTF-8) answer 400 in
/// the envelope.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiPath<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(ApiPath(value)),
            Err(PathRejection::FailedToDeserializePathParams(_)) => {
                Err(ApiError::bad_request("Invalid path parameter"))
            }
            Err(other) => Err(ApiError::Internal(anyhow::anyhow!(
                "path extraction: {other}"
            ))),
        }
    }
}

/// The client's IP address: the peer of the connection, or, when that peer is a trusted
/// proxy (`SEARCHDECK_TRUSTED_PROXIES`), the rightmost untrusted forwarded-for hop.
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub IpAddr);

/// The connection's peer address (localhost when served without connect info, as in tests).
pub fn peer_ip(parts: &Parts) -> IpAddr {
    parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip())
        .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))
}

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        Ok(ClientIp(crate::forwarded::client_ip(
            peer_ip(parts),
            &parts.headers,
            &state.config.trusted_proxies,
        )))
    }
}
