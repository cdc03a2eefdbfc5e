//! A message about one request field: what every validation in the product (the API's
//! handlers, the report engine's request checks) answers, and what the API's error envelope
//! lists under `errors`.

use serde::Serialize;

/// A message about one request field (`field` is its name or path, e.g. `filters[0].value`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError {
            field: field.into(),
            message: message.into(),
        }
    }
}
