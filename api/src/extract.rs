//! Request extractors that answer bad input in the API's envelope.

use std::{
    collections::HashMap,
    net::{IpAddr, Ipv4Addr, SocketAddr},
};

use axum::{
    extract::{
        ConnectInfo, FromRequest, FromRequestParts, Multipart, Request, path::ErrorKind,
        rejection::PathRejection,
    },
    http::{StatusCode, request::Parts},
};
use serde::de::DeserializeOwned;

use crate::{
    error::{ApiError, FieldError},
    input,
    state::AppState,
};

/// Largest accepted request body (JSON and forms); larger bodies answer 413.
pub const BODY_LIMIT_BYTES: usize = 1024 * 1024;
/// Message of a body over [`BODY_LIMIT_BYTES`].
pub const BODY_TOO_LARGE: &str = "The request body is too large (at most 1 MB)";

/// JSON body parsed under the rules of [`crate::input`]: a wrong content type, a body that
/// is not JSON or not an object, a value of the wrong type or shape, a key given twice,
/// text with control characters and a member the operation's documented body does not have
/// (`additionalProperties: false`, [`crate::body_rules`]) answer 400 in the envelope, naming
/// the field by its path.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

/// Message of a body sent without a JSON content type.
pub const NOT_JSON_CONTENT_TYPE: &str = "Expected a JSON body (Content-Type: application/json)";

/// Whether the request says its body is JSON (`application/json`, `application/*+json`).
fn json_content_type(headers: &axum::http::HeaderMap) -> bool {
    let Some(value) = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let essence = value
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || essence
            .strip_prefix("application/")
            .is_some_and(|sub| sub.ends_with("+json"))
}

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !json_content_type(req.headers()) {
            return Err(ApiError::bad_request(NOT_JSON_CONTENT_TYPE));
        }
        // The operation this body is for, to refuse the members its document does not know
        // and the whole numbers its integers cannot hold.
        let operation = req
            .extensions()
            .get::<axum::extract::MatchedPath>()
            .map(|p| {
                (
                    req.method().as_str().to_ascii_lowercase(),
                    p.as_str().to_string(),
                )
            });
        let bytes = match axum::body::Bytes::from_request(req, state).await {
            Ok(bytes) => bytes,
            Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                return Err(ApiError::status(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    BODY_TOO_LARGE,
                ));
            }
            Err(_) => return Err(ApiError::bad_request("The request body could not be read")),
        };
        let value = input::json_value(&bytes)?;
        if let Some((method, path)) = operation {
            let refused = crate::body_rules::refusals(&method, &path, &value);
            if !refused.is_empty() {
                return Err(ApiError::validation(refused));
            }
        }
        input::from_value(&value).map(ApiJson)
    }
}

/// Query parameters under the rules of [`crate::input`]: a parameter given twice, a name
/// or value with control characters, or a value of the wrong type answers 400 naming the
/// parameter. An empty value (`orgId=`) is a value, not an absent parameter.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiQuery<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let raw = parts.uri.query().unwrap_or("");
        // Parameters the operation's document does not list are refused, by name.
        if let Some(path) = parts.extensions.get::<axum::extract::MatchedPath>() {
            let names: Vec<String> = form_urlencoded::parse(raw.as_bytes())
                .map(|(name, _)| name.into_owned())
                .collect();
            let method = parts.method.as_str().to_ascii_lowercase();
            let unknown = crate::body_rules::unknown_parameters(
                &method,
                path.as_str(),
                names.iter().map(String::as_str),
            );
            if !unknown.is_empty() {
                return Err(ApiError::validation(unknown));
            }
        }
        query(raw).map(ApiQuery)
    }
}

/// Parses a query string under the rules of [`crate::input`].
pub fn query<T: DeserializeOwned>(raw: &str) -> Result<T, ApiError> {
    let mut seen = std::collections::HashSet::new();
    let mut errors = Vec::new();
    for (name, value) in form_urlencoded::parse(raw.as_bytes()) {
        if input::has_control(&name, false) || input::has_control(&value, false) {
            errors.push(FieldError::new(name.clone(), input::CONTROL_CHARACTERS));
        } else if !seen.insert(name.clone()) {
            errors.push(FieldError::new(name.clone(), input::DUPLICATE));
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(raw.as_bytes()));
    serde_path_to_error::deserialize(de).map_err(|err| {
        let path = input::dotted(err.path());
        let (field, message) = input::describe(&path, &err.inner().to_string());
        if field.is_empty() {
            ApiError::bad_request(format!("Invalid query: {message}"))
        } else {
            ApiError::validation(vec![FieldError::new(field, message)])
        }
    })
}

/// Path parameters whose rejections (a segment that is not valid UTF-8, holds a control
/// character or does not parse) answer 400 in the envelope, naming the parameter.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiPath<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let raw = axum::extract::RawPathParams::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::bad_request("Invalid path parameter"))?;
        let errors: Vec<FieldError> = raw
            .iter()
            .filter(|(_, value)| input::has_control(value, false))
            .map(|(name, _)| FieldError::new(name, input::CONTROL_CHARACTERS))
            .collect();
        if !errors.is_empty() {
            return Err(ApiError::validation(errors));
        }
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(ApiPath(value)),
            Err(PathRejection::FailedToDeserializePathParams(e)) => Err(match e.into_kind() {
                ErrorKind::ParseErrorAtKey { key, .. }
                | ErrorKind::InvalidUtf8InPathParam { key } => {
                    ApiError::field(&key, "Invalid path parameter")
                }
                _ => ApiError::bad_request("Invalid path parameter"),
            }),
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

/// Largest multipart field accepted.
const FIELD_MAX_BYTES: usize = 16 * 1024;

/// The text fields of a `multipart/form-data` body; bad bodies answer 400 in the envelope.
#[derive(Debug, Default)]
pub struct MultipartForm(pub HashMap<String, String>);

impl<S: Send + Sync> FromRequest<S> for MultipartForm {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bad = || ApiError::bad_request("Expected a multipart/form-data body");
        let mut multipart = Multipart::from_request(req, state)
            .await
            .map_err(|_| bad())?;
        let mut fields = HashMap::new();
        while let Some(field) = multipart.next_field().await.map_err(|_| bad())? {
            let Some(name) = field.name().map(str::to_string) else {
                continue;
            };
            let bytes = field.bytes().await.map_err(|_| bad())?;
            if bytes.len() > FIELD_MAX_BYTES {
                return Err(ApiError::field(&name, "This value is too long"));
            }
            let text = String::from_utf8(bytes.to_vec())
                .map_err(|_| ApiError::field(&name, "This value must be text"))?;
            if input::has_control(&name, false) || input::has_control(&text, true) {
                return Err(ApiError::field(&name, input::CONTROL_CHARACTERS));
            }
            fields.insert(name, text);
        }
        Ok(MultipartForm(fields))
    }
}
