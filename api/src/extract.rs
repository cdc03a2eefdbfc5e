//! Request extractors that answer bad input in the API's envelope.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::{
    extract::{ConnectInfo, FromRequest, FromRequestParts, Request, rejection::JsonRejection},
    http::request::Parts,
};
use serde::de::DeserializeOwned;

use crate::error::ApiError;

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

/// The client's IP address, from the connection (proxies are not trusted).
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let ip = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip())
            .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
        Ok(ClientIp(ip))
    }
}
