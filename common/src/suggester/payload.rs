//! The suggester search payload (docs/product.md#3-suggester-search-payload, both forms) as the
//! start route reads it ([`SearchBody`], [`SearchPayload`]) and as the job carries it once
//! checked ([`Search`]). docs/api/suggester.md "Collection" is the contract; the rules
//! JSON Schema can state are declared on the fields, the others ([`SearchPayload::check`])
//! answer field errors in the error envelope.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::text::parse_list;
use crate::{FieldError, countries, ids::string_id};

/// Most required or negative keywords one collection takes.
pub const MAX_WORDS: usize = 200;
/// Longest keyword (characters, as sent).
pub const MAX_WORD_CHARS: usize = 100;
/// Most competitors one collection explores.
pub const MAX_COMPETITORS: usize = 10;
/// `excludedWordsByPopularities` when not sent.
pub const DEFAULT_MIN_POPULARITY: u8 = 1;

/// The step-1 hints of docs/product.md#2-keyword-suggester that double as field errors.
pub const ADD_REQUIRED_KEYWORDS: &str = "Add required keywords";
pub const ADD_COMPETITOR: &str = "Add at least one competitor to continue";
const REQUIRED: &str = "Please complete this field to continue";

/// What a collection explores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SuggestionType {
    /// The app's own metadata and the required keywords.
    App,
    /// Only the required keywords.
    Keywords,
    /// The app and the chosen competitors.
    Competitors,
}

impl SuggestionType {
    /// Every type, as the wire spells them.
    pub const ALL: [&'static str; 3] = ["app", "keywords", "competitors"];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            SuggestionType::App => "app",
            SuggestionType::Keywords => "keywords",
            SuggestionType::Competitors => "competitors",
        }
    }

    /// The type named `name`, exactly as the wire spells it.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "app" => Some(SuggestionType::App),
            "keywords" => Some(SuggestionType::Keywords),
            "competitors" => Some(SuggestionType::Competitors),
            _ => None,
        }
    }
}

/// The OpenAPI schema of a country code of the payload: one Apple Ads serves.
fn country_schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(countries::all().iter().map(|c| c.code.as_str())))
        .description(Some(
            "A country or region Apple Ads serves (ISO 3166-1 alpha-2)",
        ))
        .into()
}

/// The search payload, first form (docs/api/suggester.md, "Start").
#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchPayload {
    /// The country (served by Apple Ads) to collect for.
    #[schema(schema_with = country_schema)]
    pub country: Option<String>,
    /// app, keywords or competitors.
    pub suggestion_type: Option<SuggestionType>,
    /// Required keywords: always in the result; parsed as spec §5 (one per line).
    #[schema(max_items = 200)]
    pub words: Option<Vec<String>>,
    /// Negative keywords: no result contains one as a word; parsed as spec §5.
    #[schema(max_items = 200)]
    pub excluded_words: Option<Vec<String>>,
    /// Candidates below this popularity (1–100) are dropped; 0 keeps all. Default 1.
    #[schema(minimum = 0, maximum = 100)]
    pub excluded_words_by_popularities: Option<i64>,
    /// Competitors (App Store adam ids) explored, at most 10.
    #[schema(value_type = Option<Vec<crate::ids::AppleId>>, max_items = 10)]
    pub competitors: Option<Vec<Value>>,
    /// Do not split descriptions into terms. Default false.
    pub without_description: Option<bool>,
    /// Add the campaign group's own search terms with traffic. Default true.
    pub with_aggregation: Option<bool>,
    /// Drop candidates that are another app's name. Default false.
    pub without_apps: Option<bool>,
    /// Popularity of the required keywords only, no exploration. Default false.
    pub only_popularity: Option<bool>,
    /// Skip 'Doing some magic...' (no phrases combined from terms). Default false.
    pub without_shuffle: Option<bool>,
}

/// The start route's body: the first form, or the second (`{adamId, data, query}`, where
/// `data` is the first form and `query` a running collection's id to poll).
#[derive(Debug, Clone, Default, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchBody {
    #[serde(flatten)]
    pub payload: SearchPayload,
    /// Second form: the app, equal to the path's.
    #[serde(default, with = "string_id::option")]
    #[schema(value_type = Option<crate::ids::AppleId>)]
    pub adam_id: Option<i64>,
    /// Second form: the payload.
    pub data: Option<SearchPayload>,
    /// Second form: the task id of a running collection to poll (as `?id=`).
    #[schema(max_length = 64)]
    pub query: Option<String>,
}

// Read by hand: serde's flatten would lose the path of a refused member of the first form.
impl<'de> Deserialize<'de> for SearchBody {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Form;
        impl<'de> serde::de::Visitor<'de> for Form {
            type Value = SearchBody;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<SearchBody, A::Error> {
                #[derive(Deserialize)]
                struct AppId(#[serde(with = "string_id::option")] Option<i64>);
                let mut body = SearchBody::default();
                let mut first = serde_json::Map::new();
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "adamId" => body.adam_id = map.next_value::<AppId>()?.0,
                        "data" => body.data = map.next_value()?,
                        "query" => body.query = map.next_value()?,
                        _ => {
                            first.insert(key, map.next_value()?);
                        }
                    }
                }
                body.payload = crate::field_error::nested(Value::Object(first))?;
                Ok(body)
            }
        }
        d.deserialize_map(Form)
    }
}

impl SearchBody {
    /// The first-form payload, whichever form was sent.
    pub fn payload(&self) -> &SearchPayload {
        self.data.as_ref().unwrap_or(&self.payload)
    }
}

/// A checked payload: what the `collect-keywords` job carries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Search {
    /// Upper-case ISO code.
    pub country: String,
    pub suggestion_type: SuggestionType,
    /// Required keywords, parsed (docs/product.md#5-keyword-lists).
    pub words: Vec<String>,
    /// Negative keywords, parsed (docs/product.md#5-keyword-lists).
    pub excluded_words: Vec<String>,
    /// Popularity below which candidates are dropped (0 keeps all).
    pub min_popularity: u8,
    /// Competitors' adam ids, in the order sent, without repeats.
    #[serde(with = "ids_as_strings")]
    pub competitors: Vec<i64>,
    pub without_description: bool,
    pub with_aggregation: bool,
    pub without_apps: bool,
    pub only_popularity: bool,
    pub without_shuffle: bool,
}

/// Adam ids as JSON strings in the job's payload.
mod ids_as_strings {
    use serde::{Deserialize, Deserializer, Serializer, ser::SerializeSeq};

    pub fn serialize<S: Serializer>(ids: &[i64], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(ids.len()))?;
        for id in ids {
            seq.serialize_element(&id.to_string())?;
        }
        seq.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<i64>, D::Error> {
        let raw: Vec<String> = Vec::deserialize(d)?;
        raw.iter()
            .map(|s| s.parse().map_err(serde::de::Error::custom))
            .collect()
    }
}

/// Checks one keyword list: at most [`MAX_WORDS`] entries of at most [`MAX_WORD_CHARS`].
fn words(field: &str, raw: Option<&Vec<String>>, errors: &mut Vec<FieldError>) -> Vec<String> {
    let raw = raw.map(Vec::as_slice).unwrap_or_default();
    if raw.len() > MAX_WORDS {
        errors.push(FieldError::new(
            field,
            format!("At most {MAX_WORDS} keywords"),
        ));
        return vec![];
    }
    for (i, w) in raw.iter().enumerate() {
        if w.chars().count() > MAX_WORD_CHARS {
            errors.push(FieldError::new(
                format!("{field}.{i}"),
                format!("A keyword has at most {MAX_WORD_CHARS} characters"),
            ));
        }
    }
    let parsed = parse_list(raw);
    if parsed.len() > MAX_WORDS {
        errors.push(FieldError::new(
            field,
            format!("At most {MAX_WORDS} keywords"),
        ));
    }
    parsed
}

impl SearchPayload {
    /// Checks the payload (every rule of docs/api/suggester.md "Start" that needs no
    /// database or provider) and parses its lists; every refused field is listed.
    pub fn check(&self) -> Result<Search, Vec<FieldError>> {
        let mut errors = Vec::new();
        let country = match self.country.as_deref() {
            None | Some("") => {
                errors.push(FieldError::new("country", REQUIRED));
                None
            }
            Some(c) => match countries::all().iter().find(|x| x.code == c) {
                Some(found) => Some(found.code.clone()),
                None => {
                    errors.push(FieldError::new(
                        "country",
                        "Must be a country or region Apple Ads serves",
                    ));
                    None
                }
            },
        };
        if self.suggestion_type.is_none() {
            errors.push(FieldError::new("suggestionType", REQUIRED));
        }
        let required = words("words", self.words.as_ref(), &mut errors);
        let excluded = words("excludedWords", self.excluded_words.as_ref(), &mut errors);
        let min_popularity = match self.excluded_words_by_popularities {
            None => DEFAULT_MIN_POPULARITY,
            Some(n @ 0..=100) => n as u8,
            Some(_) => {
                errors.push(FieldError::new(
                    "excludedWordsByPopularities",
                    "Must be between 0 and 100",
                ));
                DEFAULT_MIN_POPULARITY
            }
        };
        let raw_competitors = self.competitors.as_deref().unwrap_or_default();
        let mut competitors: Vec<i64> = Vec::new();
        if raw_competitors.len() > MAX_COMPETITORS {
            errors.push(FieldError::new(
                "competitors",
                format!("At most {MAX_COMPETITORS} competitors"),
            ));
        } else {
            for (i, v) in raw_competitors.iter().enumerate() {
                match string_id::parse(v).filter(|id| *id > 0) {
                    Some(id) if !competitors.contains(&id) => competitors.push(id),
                    Some(_) => {}
                    None => errors.push(FieldError::new(
                        format!("competitors.{i}"),
                        "Must be an App Store app id",
                    )),
                }
            }
        }
        let only_popularity = self.only_popularity.unwrap_or(false);
        match self.suggestion_type {
            Some(SuggestionType::Keywords) if required.is_empty() => {
                errors.push(FieldError::new("words", ADD_REQUIRED_KEYWORDS));
            }
            Some(SuggestionType::Competitors) if competitors.is_empty() => {
                errors.push(FieldError::new("competitors", ADD_COMPETITOR));
            }
            _ if only_popularity && required.is_empty() => {
                errors.push(FieldError::new("words", ADD_REQUIRED_KEYWORDS));
            }
            _ => {}
        }
        match (country, self.suggestion_type) {
            (Some(country), Some(suggestion_type)) if errors.is_empty() => Ok(Search {
                country,
                suggestion_type,
                words: required,
                excluded_words: excluded,
                min_popularity,
                competitors,
                without_description: self.without_description.unwrap_or(false),
                with_aggregation: self.with_aggregation.unwrap_or(true),
                without_apps: self.without_apps.unwrap_or(false),
                only_popularity,
                without_shuffle: self.without_shuffle.unwrap_or(false),
            }),
            _ => Err(errors),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn payload(v: Value) -> SearchPayload {
        serde_json::from_value(v).unwrap()
    }

    fn fields(p: &SearchPayload) -> Vec<String> {
        p.check()
            .unwrap_err()
            .into_iter()
            .map(|e| e.field)
            .collect()
    }

    #[test]
    fn a_full_payload_is_parsed_with_its_defaults() {
        let s = payload(json!({"country": "US", "suggestionType": "app",
            "words": ["Photo Editor!", "photo editor", ""], "excludedWords": ["Free\nCHEAP"],
            "competitors": ["123", 456, "123"]}))
        .check()
        .unwrap();
        assert_eq!(s.words, vec!["photo editor"]);
        assert_eq!(s.excluded_words, vec!["free", "cheap"]);
        assert_eq!(s.competitors, vec![123, 456]);
        assert_eq!(s.min_popularity, 1);
        assert!(s.with_aggregation && !s.without_description && !s.only_popularity);
        let round: Search = serde_json::from_value(serde_json::to_value(&s).unwrap()).unwrap();
        assert_eq!(round, s);
    }

    #[test]
    fn refusals_name_their_fields() {
        assert_eq!(
            fields(&payload(json!({}))),
            vec!["country", "suggestionType"]
        );
        assert_eq!(
            fields(&payload(json!({"country": "ZZ", "suggestionType": "app"}))),
            vec!["country"]
        );
        let e =
            payload(json!({"country": "US", "suggestionType": "keywords", "words": ["!!", " "]}))
                .check()
                .unwrap_err();
        assert_eq!(
            (e[0].field.as_str(), e[0].message.as_str()),
            ("words", ADD_REQUIRED_KEYWORDS)
        );
        let e = payload(json!({"country": "US", "suggestionType": "competitors"}))
            .check()
            .unwrap_err();
        assert_eq!(
            (e[0].field.as_str(), e[0].message.as_str()),
            ("competitors", ADD_COMPETITOR)
        );
        assert_eq!(
            fields(&payload(json!({"country": "US", "suggestionType": "app",
                "competitors": ["x"], "excludedWordsByPopularities": 101,
                "words": ["a".repeat(101)]}))),
            vec!["words.0", "excludedWordsByPopularities", "competitors.0"]
        );
        let many: Vec<String> = (0..201).map(|i| format!("k{i}")).collect();
        assert_eq!(
            fields(&payload(
                json!({"country": "US", "suggestionType": "app", "excludedWords": many})
            )),
            vec!["excludedWords"]
        );
    }

    #[test]
    fn the_second_form_wraps_the_first() {
        let body: SearchBody = serde_json::from_value(json!({"adamId": "42", "query": "t1",
            "data": {"country": "FR", "suggestionType": "app"}}))
        .unwrap();
        assert_eq!(body.adam_id, Some(42));
        assert_eq!(body.payload().check().unwrap().country, "FR");
        let first: SearchBody =
            serde_json::from_value(json!({"country": "US", "suggestionType": "app"})).unwrap();
        assert_eq!(first.payload().check().unwrap().country, "US");
    }
}
