//! A refused request body in the answer's words: serde's error turned into a field error at
//! its dotted path (`conditions.0.value`) with a message a person reads ("Must be a whole
//! number"), or the whole-body message at the root.

use super::{DUPLICATE, MUST_BE_OBJECT, NOT_AN_OBJECT};
use crate::{
    domain::REQUIRED,
    error::{ApiError, FieldError},
};

/// The dotted path of an error (`conditions.0.value`), empty at the root.
pub fn dotted(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    path.iter()
        .filter_map(|s| match s {
            Segment::Seq { index } => Some(index.to_string()),
            Segment::Map { key } | Segment::Enum { variant: key } => Some(key.clone()),
            Segment::Unknown => None,
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// `parent.name`, or `name` at the root.
fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_string()
    } else {
        format!("{parent}.{name}")
    }
}

/// A deserialisation error as the answer names it: a field error at its path, or the
/// whole-body message at the root.
pub fn field_error<E: std::fmt::Display>(err: &serde_path_to_error::Error<E>) -> ApiError {
    let mut path = dotted(err.path());
    let mut raw = err.inner().to_string();
    // A refusal raised inside a type read by hand carries its own path
    // (`searchdeck_common::field_error::nested`).
    let marker = searchdeck_common::field_error::NESTED;
    if let Some((inner, message)) = raw
        .strip_prefix(marker)
        .and_then(|rest| rest.split_once(marker))
    {
        path = join(&path, inner).trim_end_matches('.').to_string();
        raw = message.to_string();
    }
    let (field, message) = describe(&path, &raw);
    if field.is_empty() {
        let whole = if message == MUST_BE_OBJECT {
            NOT_AN_OBJECT.to_string()
        } else {
            format!("Invalid request body: {message}")
        };
        return ApiError::bad_request(whole);
    }
    ApiError::validation(vec![FieldError::new(field, message)])
}

/// The field and the message of serde's error `raw` raised at `path`.
pub fn describe(path: &str, raw: &str) -> (String, String) {
    // serde_json appends the position; the field path says more.
    let raw = raw.split(" at line ").next().unwrap_or(raw);
    let named = |prefix: &str| {
        raw.strip_prefix(prefix)
            .and_then(|rest| rest.split('`').nth(1))
            .map(|name| join(path, name))
    };
    if let Some(field) = named("missing field") {
        return (field, REQUIRED.to_string());
    }
    if let Some(field) = named("duplicate field") {
        return (field, DUPLICATE.to_string());
    }
    if raw.starts_with("unknown variant") {
        let allowed: Vec<&str> = raw
            .split_once("expected")
            .map(|(_, e)| e.split('`').skip(1).step_by(2).collect())
            .unwrap_or_default();
        return (
            path.to_string(),
            format!("Must be one of: {}", allowed.join(", ")),
        );
    }
    let message = if let Some((_, expected)) = raw
        .strip_prefix("invalid type:")
        .or_else(|| raw.strip_prefix("invalid value:"))
        .and_then(|rest| rest.rsplit_once(", expected "))
    {
        format!("Must be {}", expected_noun(expected))
    } else if raw.starts_with("invalid length") {
        "Has the wrong number of items".to_string()
    } else if raw.starts_with("invalid digit") || raw.starts_with("cannot parse integer") {
        "Must be a whole number".to_string()
    } else if raw.starts_with("invalid float") {
        "Must be a number".to_string()
    } else {
        let mut chars = raw.chars();
        chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default()
    };
    (path.to_string(), message)
}

/// serde's name of an expected type in words.
fn expected_noun(expected: &str) -> String {
    let e = expected.trim();
    let integer = [
        "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "usize", "isize",
    ];
    if e == "an integer" || integer.iter().any(|t| e.starts_with(t)) {
        "a whole number".into()
    } else if e.starts_with("f32") || e.starts_with("f64") {
        "a number".into()
    } else if e.starts_with("struct ") || e.starts_with("a map") {
        "an object".into()
    } else if e.starts_with("a sequence") || e.starts_with("a tuple") {
        "a list".into()
    } else if e == "a boolean" || e == "a string" {
        e.into()
    } else {
        e.trim_end_matches('.').into()
    }
}
