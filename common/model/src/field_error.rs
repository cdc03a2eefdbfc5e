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

/// Starts and ends the path of a refusal raised by [`nested`] (a control character, which no
/// field name or message holds).
pub const NESTED: char = '\u{1f}';

/// Deserialises `value` as `T` from inside another type's `Deserialize` — one whose members
/// serde cannot follow, as a flattened part — keeping the path of a refusal: the error's
/// message carries it between [`NESTED`] marks, and the API's extractor joins it to the
/// path where the outer type stands (`api::input::field_error`), so `"words": [["x"]]` is
/// refused on `words.0`, not on the whole body.
pub fn nested<T: serde::de::DeserializeOwned, E: serde::de::Error>(
    value: serde_json::Value,
) -> Result<T, E> {
    serde_path_to_error::deserialize(value).map_err(|err| {
        use serde_path_to_error::Segment;
        let path: Vec<String> = err
            .path()
            .iter()
            .filter_map(|s| match s {
                Segment::Seq { index } => Some(index.to_string()),
                Segment::Map { key } | Segment::Enum { variant: key } => Some(key.clone()),
                Segment::Unknown => None,
            })
            .collect();
        E::custom(format!("{NESTED}{}{NESTED}{}", path.join("."), err.inner()))
    })
}
