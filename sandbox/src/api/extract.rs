//! Request extraction with reference-shaped errors: the `X-AP-Context` header and JSON
//! bodies whose serde errors (missing fields, unknown enum values) become `INVALID_ARGUMENT`.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use super::error::ApiError;
use crate::auth::store::Access;
use crate::state::Sandbox;
use crate::world::Id;

/// The ad account named by `X-AP-Context: adAccountId=<id>`, checked to exist and to be
/// one the calling key may use.
#[derive(Debug, Clone, Copy)]
pub struct AdAccountContext(pub Id);

impl FromRequestParts<Arc<Sandbox>> for AdAccountContext {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<Sandbox>) -> Result<Self, ApiError> {
        let id = context_account(
            parts
                .headers
                .get("x-ap-context")
                .and_then(|v| v.to_str().ok()),
        )?;
        if !state.world.read().accounts.contains_key(&id) {
            return Err(ApiError::forbidden(format!("no access to ad account {id}")));
        }
        let access = parts
            .extensions
            .get::<Access>()
            .cloned()
            .unwrap_or_default();
        if !access.allows(id) {
            return Err(crate::auth::denied(
                "LIMITED_ACCESS",
                format!(
                    "this API user has the {} role without ad account {id}",
                    access.role()
                ),
            ));
        }
        Ok(AdAccountContext(id))
    }
}

/// Parses the `X-AP-Context` header value (`adAccountId=123`).
pub fn context_account(value: Option<&str>) -> Result<Id, ApiError> {
    let value = value.ok_or_else(|| ApiError::required("X-AP-Context"))?;
    value
        .split(';')
        .filter_map(|part| part.trim().split_once('='))
        .find(|(k, _)| k.trim() == "adAccountId")
        .and_then(|(_, v)| v.trim().parse().ok())
        .ok_or_else(|| {
            ApiError::invalid(
                "INVALID_HEADER",
                "X-AP-Context",
                "X-AP-Context must be adAccountId=<id>",
            )
        })
}

/// A JSON body parsed into `T`.
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            ApiError::invalid(
                "INVALID_BODY",
                "body",
                format!("could not read the body: {e}"),
            )
        })?;
        parse_json(&bytes).map(Body)
    }
}

/// Parses JSON into `T`, classifying serde's message into a detail code.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let bytes = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}".as_slice()
    } else {
        bytes
    };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(&mut de).map_err(classify)
}

/// Parses an already read JSON value into `T` (a bulk item's `data`), as [`parse_json`].
pub fn parse_value<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(value).map_err(classify)
}

/// The `INVALID_ARGUMENT` for a serde error: the field's path and a detail code.
fn classify(e: serde_path_to_error::Error<serde_json::Error>) -> ApiError {
    let path = e.path().to_string();
    let e = e.into_inner();
    let text = e.to_string();
    if let Some(name) = unknown_field(&text) {
        let field = if path.is_empty() || path == "." {
            name.to_string()
        } else if path.ends_with(name) {
            path.clone()
        } else {
            format!("{path}.{name}")
        };
        return ApiError::invalid(
            "UNKNOWN_FIELD",
            field.clone(),
            format!("{field} is not a field of this request"),
        );
    }
    let detail = if text.contains("missing field") {
        "FIELD_REQUIRED"
    } else if text.contains("unknown variant") {
        "INVALID_ENUM_VALUE"
    } else if e.is_syntax() || e.is_eof() {
        "INVALID_JSON"
    } else {
        "INVALID_VALUE"
    };
    let field = if path.is_empty() || path == "." {
        "body".to_string()
    } else {
        path
    };
    ApiError::invalid(detail, field.clone(), format!("{field}: {text}"))
}

/// The name in serde's "unknown field `name`, expected …" message.
fn unknown_field(text: &str) -> Option<&str> {
    text.strip_prefix("unknown field `")?.split('`').next()
}
