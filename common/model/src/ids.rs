//! Identifiers and clock helpers used across the data layer.

use time::OffsetDateTime;

/// A new random identifier (UUID v7: time-ordered, so indexes stay compact).
pub fn new_id() -> String {
    uuid::Uuid::now_v7().simple().to_string()
}

/// The current time as Unix milliseconds, the form every timestamp column stores.
pub fn now_ms() -> i64 {
    (OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
}

/// Unix milliseconds rendered as RFC 3339 for API responses.
pub fn rfc3339(ms: i64) -> String {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_default()
}

/// Pattern of an Apple id in a request: decimal digits, at most 18 (every 18-digit number
/// fits an `i64`; Apple's ids, search-term hashes included, are at most 19 digits, and the
/// server still takes a 19th digit below 2^63).
pub const APPLE_ID_PATTERN: &str = "^[0-9]{1,18}$";

/// The OpenAPI schema of an Apple id sent in a request (`#[schema(value_type = AppleId)]`):
/// a string of digits, or a JSON integer, see [`string_id`]. The document names it once, as
/// a component.
pub struct AppleId;

impl utoipa::PartialSchema for AppleId {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::{ObjectBuilder, schema::AnyOfBuilder, schema::Type};
        AnyOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .pattern(Some(APPLE_ID_PATTERN)),
            )
            .item(ObjectBuilder::new().schema_type(Type::Integer).format(Some(
                utoipa::openapi::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::Int64),
            )))
            .description(Some(
                "An Apple Ads id as a string of digits (ids exceed JavaScript's exact \
                 integers); a JSON integer is taken too",
            ))
            .into()
    }
}

impl utoipa::ToSchema for AppleId {}

/// The OpenAPI schema of a calendar day in a request (`#[schema(value_type = Day)]`):
/// `YYYY-MM-DD`, a real date.
pub struct Day;

impl utoipa::PartialSchema for Day {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
                utoipa::openapi::KnownFormat::Date,
            )))
            .description(Some("A calendar day, YYYY-MM-DD"))
            .into()
    }
}

impl utoipa::ToSchema for Day {}

/// Apple Ads ids (campaign groups, campaigns, ad groups, keywords, search terms, ads, apps)
/// are 64-bit integers; past 2^53 a browser's JSON parser rounds them (search-term ids are
/// 63-bit hashes, so nearly all of them). Every such id travels as a JSON string of
/// digits: `#[serde(with = "string_id")]` on an `i64` field (and `string_id::option` on an
/// `Option<i64>`), with `#[schema(value_type = String)]` for the OpenAPI document, and
/// [`string_id::value`] where a row is built as JSON. Requests accept the string and, as
/// before, a JSON integer.
pub mod string_id {
    use std::fmt;

    use serde::{Deserializer, Serializer, de};

    /// The id as a JSON string.
    pub fn value(id: i64) -> serde_json::Value {
        serde_json::Value::String(id.to_string())
    }

    /// An optional id as a JSON string or null.
    pub fn value_opt(id: Option<i64>) -> serde_json::Value {
        id.map_or(serde_json::Value::Null, value)
    }

    /// Reads an id from a JSON string of digits (surrounding spaces allowed) or a JSON
    /// integer; anything else (a fraction, a word, a number past i64) is refused.
    pub fn parse(value: &serde_json::Value) -> Option<i64> {
        match value {
            serde_json::Value::Number(n) => n.as_i64(),
            serde_json::Value::String(s) => parse_str(s),
            _ => None,
        }
    }

    /// An id from its text: optional sign and digits, surrounding spaces allowed.
    pub fn parse_str(s: &str) -> Option<i64> {
        let s = s.trim();
        let digits = s.strip_prefix('-').unwrap_or(s);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    }

    pub fn serialize<S: Serializer>(id: &i64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(id)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        d.deserialize_any(IdVisitor)
    }

    struct IdVisitor;

    impl de::Visitor<'_> for IdVisitor {
        type Value = i64;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an id as a string of digits")
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
            Ok(v)
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
            i64::try_from(v).map_err(|_| E::custom("id out of range"))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<i64, E> {
            parse_str(v).ok_or_else(|| E::custom("an id must be a string of digits"))
        }
    }

    /// `Option<i64>` as a string or null.
    pub mod option {
        use serde::{Deserialize, Deserializer, Serializer};

        pub fn serialize<S: Serializer>(id: &Option<i64>, s: S) -> Result<S::Ok, S::Error> {
            match id {
                Some(id) => s.collect_str(id),
                None => s.serialize_none(),
            }
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
            #[derive(Deserialize)]
            struct Wrapped(#[serde(with = "super")] i64);
            Ok(Option::<Wrapped>::deserialize(d)?.map(|w| w.0))
        }
    }

    /// `Vec<i64>` as a list of strings (integers accepted when read).
    pub mod list {
        use serde::{Deserialize, Deserializer, Serializer, ser::SerializeSeq};

        pub fn serialize<S: Serializer>(ids: &[i64], s: S) -> Result<S::Ok, S::Error> {
            let mut seq = s.serialize_seq(Some(ids.len()))?;
            for id in ids {
                seq.serialize_element(&id.to_string())?;
            }
            seq.end()
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<i64>, D::Error> {
            #[derive(Deserialize)]
            struct Wrapped(#[serde(with = "super")] i64);
            Ok(Vec::<Wrapped>::deserialize(d)?
                .into_iter()
                .map(|w| w.0)
                .collect())
        }
    }

    /// `Option<Vec<i64>>` as a list of strings or null (integers accepted when read).
    pub mod option_list {
        use serde::{Deserialize, Deserializer, Serialize, Serializer};

        pub fn serialize<S: Serializer>(ids: &Option<Vec<i64>>, s: S) -> Result<S::Ok, S::Error> {
            #[derive(Serialize)]
            struct Wrapped<'a>(#[serde(with = "super::list")] &'a [i64]);
            ids.as_deref().map(Wrapped).serialize(s)
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<i64>>, D::Error> {
            #[derive(Deserialize)]
            struct Wrapped(#[serde(with = "super::list")] Vec<i64>);
            Ok(Option::<Wrapped>::deserialize(d)?.map(|w| w.0))
        }
    }

    #[cfg(test)]
    mod tests {
        use serde::{Deserialize, Serialize};
        use serde_json::json;

        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct Ids {
            #[serde(with = "super")]
            id: i64,
            #[serde(with = "super::option", default)]
            parent: Option<i64>,
            #[serde(with = "super::list", default)]
            many: Vec<i64>,
        }

        #[test]
        fn ids_past_2_pow_53_travel_as_exact_strings() {
            let ids = Ids {
                id: 772_182_579_262_523_445,
                parent: Some(9_007_199_254_740_993),
                many: vec![1, i64::MAX],
            };
            let wire = serde_json::to_value(&ids).unwrap();
            assert_eq!(
                wire,
                json!({"id": "772182579262523445", "parent": "9007199254740993",
                       "many": ["1", "9223372036854775807"]})
            );
            assert_eq!(serde_json::from_value::<Ids>(wire).unwrap(), ids);
        }

        #[test]
        fn requests_may_send_integers_but_not_fractions_or_words() {
            let read = |v| serde_json::from_value::<Ids>(v);
            assert_eq!(
                read(json!({"id": 7, "parent": null, "many": [" 8 ", 9]})).unwrap(),
                Ids {
                    id: 7,
                    parent: None,
                    many: vec![8, 9]
                }
            );
            assert!(read(json!({"id": 1.5})).is_err());
            assert!(read(json!({"id": "seven"})).is_err());
            assert!(read(json!({"id": "1e3"})).is_err());
            assert!(read(json!({"id": 18_446_744_073_709_551_615u64})).is_err());
            assert_eq!(
                super::parse(&json!(" 9007199254740993 ")),
                Some(9_007_199_254_740_993)
            );
            assert_eq!(super::parse(&json!(true)), None);
        }
    }
}
