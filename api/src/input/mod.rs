//! The one set of rules for what a request may carry, applied by the extractors in
//! [`crate::extract`] (see `docs/api/input.md`).
//!
//! - Text: no C0 control character (U+0000–U+001F) nor DEL in anything the server reads —
//!   JSON strings and kept keys, query names and values, path segments and multipart fields —
//!   except tab, line feed and carriage return inside bodies (JSON and multipart text), which
//!   may hold multi-line text. PostgreSQL cannot store U+0000, and no field means the others.
//!   Members of a JSON body that its type does not know are skipped unread, as serde skips
//!   them. The OpenAPI document states the rule as a pattern on every such string
//!   ([`crate::openapi`]).
//! - JSON bodies: an object wherever the type is a struct or map (serde alone would fill a
//!   struct from an array), no key twice in one object, numbers as numbers and strings as
//!   strings, enums by their exact spelling.
//! - Every refusal is a 400 whose `errors` name the field by its path (`conditions.0.value`);
//!   a refusal of the whole body (not JSON, not an object) keeps the message alone.
//!
//! The strict reading of a value lives in `strict`, the wording of serde's refusals as
//! field errors in `errors`.

mod errors;
mod strict;

use serde::de::DeserializeOwned;
use serde_json::Value;

pub use errors::{describe, dotted, field_error};

use crate::error::{ApiError, FieldError};
use strict::{Checked, Strict};

/// Message of text holding a control character.
pub const CONTROL_CHARACTERS: &str = "Must not contain control characters";
/// Message of a key given twice in one object or query.
pub const DUPLICATE: &str = "Must be given once";
/// Message of a body that is not JSON.
pub const NOT_JSON: &str = "The request body is not valid JSON";
/// Message of a body that is JSON but not an object.
pub const NOT_AN_OBJECT: &str = "The request body must be a JSON object";
/// Message of a number too large for any number type (`1e400`).
pub const NUMBER_OUT_OF_RANGE: &str = "Number out of range";
/// Message of a member whose value is not JSON (`NaN`, `Infinity`).
pub const NOT_A_JSON_VALUE: &str = "Not a valid JSON value";
/// Message of a value that must be an object.
pub const MUST_BE_OBJECT: &str = "Must be an object";

/// Whether `text` holds a control character; `breaks` allows tab, line feed and carriage
/// return (multi-line body text). The bidirectional embedding, override and isolate controls
/// (U+202A–U+202E, U+2066–U+2069) count as control characters too: stored in a campaign,
/// rule or list name or a keyword they make text read as something else
/// (`"\u{202e}gnp.exe"` shows as "exe.png"). The marks U+200E and U+200F, which
/// right-to-left text needs, are allowed.
pub fn has_control(text: &str, breaks: bool) -> bool {
    text.chars().any(|c| {
        (c.is_ascii_control() && !(breaks && matches!(c, '\t' | '\n' | '\r')))
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    })
}

/// Parses a JSON body into `T` under the rules of this module.
pub fn json_body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    from_value(&json_value(bytes)?)
}

/// `value` (read by [`json_value`]) as `T`: objects where `T` has structs or maps, exact
/// types and enum spellings, each refusal naming its field.
pub fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(Strict(value)).map_err(|err| field_error(&err))
}

/// A JSON body as a value: valid JSON, no key twice, no control characters, nothing after it.
pub fn json_value(bytes: &[u8]) -> Result<Value, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = match serde_path_to_error::deserialize::<_, Checked>(&mut de) {
        Ok(Checked(value)) => value,
        Err(err) => {
            let path = dotted(err.path());
            let raw = err.inner().to_string();
            return Err(match err.inner().classify() {
                serde_json::error::Category::Data => field_error(&err),
                // A number JSON cannot hold (`1e400`) or text that is no JSON value inside a
                // member (`NaN`): named by the member where it stands.
                _ if raw.starts_with("number out of range") && !path.is_empty() => {
                    ApiError::validation(vec![FieldError::new(path, NUMBER_OUT_OF_RANGE)])
                }
                serde_json::error::Category::Syntax
                    if raw.starts_with("expected value") && !path.is_empty() =>
                {
                    ApiError::validation(vec![FieldError::new(path, NOT_A_JSON_VALUE)])
                }
                _ => ApiError::bad_request(NOT_JSON),
            });
        }
    };
    // Trailing characters after the value.
    if de.end().is_err() {
        return Err(ApiError::bad_request(NOT_JSON));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;
    use crate::domain::REQUIRED;

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "camelCase")]
    #[expect(
        dead_code,
        reason = "only the parse is under test; the fields are read through Debug"
    )]
    struct Login {
        email: String,
        password: String,
    }

    #[derive(Debug, Deserialize)]
    enum Status {
        #[serde(rename = "ENABLED")]
        Enabled,
        #[serde(rename = "PAUSED")]
        Paused,
    }

    #[derive(Debug, Deserialize)]
    #[expect(
        dead_code,
        reason = "only the parse is under test; the fields are read through Debug"
    )]
    struct Condition {
        value: i64,
        status: Option<Status>,
    }

    #[derive(Debug, Deserialize)]
    #[expect(
        dead_code,
        reason = "only the parse is under test; the fields are read through Debug"
    )]
    struct Rule {
        conditions: Vec<Condition>,
    }

    fn fails<T: DeserializeOwned + std::fmt::Debug>(body: &str) -> (String, Vec<FieldError>) {
        match json_body::<T>(body.as_bytes()) {
            Ok(v) => panic!("{body} accepted as {v:?}"),
            Err(ApiError::Status {
                message, errors, ..
            }) => (message, errors),
            Err(e) => panic!("{e:?}"),
        }
    }

    #[test]
    fn structs_come_from_objects_only() {
        assert_eq!(fails::<Login>(r#"["a@x.io","password"]"#).0, NOT_AN_OBJECT);
        let (_, errors) = fails::<Rule>(r#"{"conditions":[[1,null]]}"#);
        assert_eq!(
            errors,
            vec![FieldError::new("conditions.0", MUST_BE_OBJECT)]
        );
        assert!(json_body::<Rule>(r#"{"conditions":[{"value":1}]}"#.as_bytes()).is_ok());
    }

    #[test]
    fn errors_name_the_field_by_its_path() {
        let (message, errors) = fails::<Rule>(r#"{"conditions":[{"value":"1"}]}"#);
        assert_eq!(
            errors,
            vec![FieldError::new(
                "conditions.0.value",
                "Must be a whole number"
            )]
        );
        assert_eq!(message, "Must be a whole number");
        let (_, errors) = fails::<Rule>(r#"{"conditions":[{"value":1,"status":"enabled"}]}"#);
        assert_eq!(
            errors,
            vec![FieldError::new(
                "conditions.0.status",
                "Must be one of: ENABLED, PAUSED"
            )]
        );
        let (_, errors) = fails::<Login>(r#"{"email":"a@x.io"}"#);
        assert_eq!(errors, vec![FieldError::new("password", REQUIRED)]);
        let (_, errors) = fails::<Login>(r#"{"email":"a","email":"b","password":"p"}"#);
        assert_eq!(errors, vec![FieldError::new("email", DUPLICATE)]);
        let (_, errors) = fails::<Value>(r#"{"a":{"k":1,"k":2}}"#);
        assert_eq!(errors, vec![FieldError::new("a.k", DUPLICATE)]);
        assert_eq!(fails::<Login>("{\"email\":").0, NOT_JSON);
        // Numbers JSON cannot hold, and no value at all, named where they stand.
        let (_, errors) = fails::<Value>(r#"{"window":{"days":1e400}}"#);
        assert_eq!(
            errors,
            vec![FieldError::new("window.days", NUMBER_OUT_OF_RANGE)]
        );
        let (_, errors) = fails::<Value>(r#"{"bids":[1, NaN]}"#);
        assert_eq!(errors, vec![FieldError::new("bids.1", NOT_A_JSON_VALUE)]);
        assert_eq!(
            fails::<Login>(r#"{"email":"a","password":"b"} x"#).0,
            NOT_JSON
        );
        let invalid_utf8 = json_body::<Login>(b"{\"email\":\"\xff\",\"password\":\"p\"}");
        assert!(
            matches!(invalid_utf8, Err(ApiError::Status { message, .. }) if message == NOT_JSON)
        );
    }

    #[test]
    fn control_characters_are_refused_where_they_are() {
        let (_, errors) = fails::<Login>(r#"{"email":"a\u0000b","password":"p"}"#);
        assert_eq!(errors, vec![FieldError::new("email", CONTROL_CHARACTERS)]);
        let (_, errors) = fails::<Value>(r#"{"tags":["ok","\u001b[31m"]}"#);
        assert_eq!(errors, vec![FieldError::new("tags.1", CONTROL_CHARACTERS)]);
        assert!(json_body::<Value>(r#"{"note":"line\nnext\tcol"}"#.as_bytes()).is_ok());
        // A key kept as text is checked; a member the type does not read is skipped unread.
        let (_, errors) = fails::<Value>(r#"{"a":{"b\u0007":1}}"#);
        assert_eq!(errors, vec![FieldError::new("a", CONTROL_CHARACTERS)]);
        assert!(
            json_body::<Login>(
                r#"{"email":"a","password":"p","x\u0001":"\u0000","y":["\u001b"]}"#.as_bytes()
            )
            .is_ok()
        );
        assert!(has_control("a\u{7f}", true));
        assert!(has_control("\u{202e}gnp.exe", true));
        assert!(has_control("a\u{2066}b\u{2069}", false));
        assert!(!has_control(
            "\u{5e9}\u{5dc}\u{5d5}\u{5dd} \u{200f}photo",
            true
        ));
        assert!(has_control("a\tb", false));
        assert!(!has_control("a\tb", true));
    }
}
