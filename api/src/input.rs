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

use serde::{
    Deserializer,
    de::{
        self, DeserializeOwned, IntoDeserializer, MapAccess, SeqAccess, Visitor,
        value::{MapAccessDeserializer, MapDeserializer, SeqDeserializer},
    },
    forward_to_deserialize_any,
};
use serde_json::{Map, Value};

use crate::{
    domain::REQUIRED,
    error::{ApiError, FieldError},
};

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

/// A JSON value parsed under the duplicate-key rule (the text rule applies as the value is
/// read into its type, see [`Strict`]).
struct Checked(Value);

impl<'de> de::Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(CheckedVisitor)
    }
}

struct CheckedVisitor;

impl<'de> Visitor<'de> for CheckedVisitor {
    type Value = Checked;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Checked, E> {
        Ok(Checked(Value::Bool(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Checked, E> {
        Ok(Checked(v.into()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Checked, E> {
        Ok(Checked(v.into()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Checked, E> {
        Ok(Checked(
            serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number),
        ))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Checked, E> {
        Ok(Checked(Value::String(v.to_string())))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Checked, E> {
        Ok(Checked(Value::Null))
    }
    fn visit_none<E: de::Error>(self) -> Result<Checked, E> {
        Ok(Checked(Value::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Checked, D::Error> {
        de::Deserialize::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Checked, A::Error> {
        let mut items = Vec::new();
        while let Some(Checked(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Checked(Value::Array(items)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Checked, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format!("duplicate field `{key}`")));
            }
            let Checked(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Checked(Value::Object(object)))
    }
}

/// Deserialises a checked value strictly: structs and maps from objects only, and no
/// control character in a string or key the type reads. Members the type does not know are
/// skipped unread, as serde skips them, so they are not checked either: nothing of them is
/// kept.
struct Strict<'a>(&'a Value);

impl<'de> IntoDeserializer<'de, serde_json::Error> for Strict<'de> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> Strict<'de> {
    fn map<V: Visitor<'de>>(
        o: &'de Map<String, Value>,
        v: V,
    ) -> Result<V::Value, serde_json::Error> {
        let mut map = MapDeserializer::new(o.iter().map(|(k, v)| (Key(k), Strict(v))));
        let value = v.visit_map(&mut map)?;
        map.end()?;
        Ok(value)
    }
}

impl<'de> Deserializer<'de> for Strict<'de> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => v.visit_unit(),
            Value::Bool(b) => v.visit_bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => v.visit_u64(u),
                (None, Some(i), _) => v.visit_i64(i),
                // A whole number written with a fraction (`345.0`) is that integer, as JSON
                // Schema counts it; larger than an i64 it stays a float.
                (None, None, Some(f)) if f.fract() == 0.0 && f.abs() < 9.0e18 => {
                    v.visit_i64(f as i64)
                }
                _ => v.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) if has_control(s, true) => Err(de::Error::custom(CONTROL_CHARACTERS)),
            Value::String(s) => v.visit_borrowed_str(s),
            Value::Array(a) => {
                let mut seq = SeqDeserializer::new(a.iter().map(Strict));
                let value = v.visit_seq(&mut seq)?;
                seq.end()?;
                Ok(value)
            }
            Value::Object(o) => Strict::map(o, v),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => v.visit_none(),
            _ => v.visit_some(self),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Self::Error> {
        self.deserialize_map(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Object(o) => Strict::map(o, v),
            _ => Err(de::Error::custom(MUST_BE_OBJECT)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::String(s) => v.visit_enum(s.as_str().into_deserializer()),
            Value::Object(o) if o.len() == 1 => v.visit_enum(MapAccessDeserializer::new(
                MapDeserializer::new(o.iter().map(|(k, v)| (Key(k), Strict(v)))),
            )),
            _ => Err(de::Error::custom("Must be a string")),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, Self::Error> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        v.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct identifier
    }
}

/// An object's key: a struct's field name is matched as it is (an unknown one is skipped
/// with its value), a key kept as text (a map's) must hold no control character.
struct Key<'a>(&'a str);

impl<'de> IntoDeserializer<'de, serde_json::Error> for Key<'de> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> Deserializer<'de> for Key<'de> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        if has_control(self.0, false) {
            return Err(de::Error::custom(CONTROL_CHARACTERS));
        }
        v.visit_borrowed_str(self.0)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        v.visit_borrowed_str(self.0)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .into_deserializer()
            .deserialize_enum(name, variants, v)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct ignored_any
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

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
