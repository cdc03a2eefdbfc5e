//! Report filters (docs/product.md#3-filter-and-filter-preset; docs/product.md#7-the-calls-it-makes
//! reports; validity docs/product.md#5-filters).
//!
//! The web app keeps a filter as `{type, condition, value, metric}` and sends it to the
//! report call as `{field, operator, values}`; both shapes are accepted. The conditions map
//! to operators as docs/product.md#7-report-filter-conditions says: `contains` → CONTAINS,
//! `not_contains` → DOES_NOT_CONTAINS, `=` → EQUALS, `!=` → DOES_NOT_CONTAINS, `>` → GREATER_THAN,
//! `<` → LESS_THAN, `><` → IN, `<>` → NOT_IN_RANGE, list filters → CONTAINS_ANY.
//!
//! Meaning per field: on text (name, appName, developerName) CONTAINS / DOES_NOT_CONTAINS
//! are case-insensitive substring tests, EQUALS a case-insensitive match, IN and
//! CONTAINS_ANY a match with any value. On lists (status, tag, country) CONTAINS_ANY and IN
//! keep rows having any of the values, DOES_NOT_CONTAINS rows having none. On a metric
//! EQUALS / DOES_NOT_CONTAINS are `=` / `!=`, GREATER_THAN and LESS_THAN strict, IN the
//! closed range `[min, max]` of two values and NOT_IN_RANGE outside it; a metric without a
//! value (a ratio with no denominator) matches no metric filter. Money compares in the
//! currency's units (`localSpend > 10`), ratios as fractions (`ttr > 0.05`).

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{FieldError, catalog::Metric};

/// A filter as sent: either `{field, operator, values}` or the web app's
/// `{type, condition, value, metric}`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FilterIn {
    /// name, status, tag, country, appName, developerName, popularity (KEYWORDS and
    /// SEARCHTERMS), or a metric name.
    pub field: Option<String>,
    /// CONTAINS, DOES_NOT_CONTAINS, EQUALS, GREATER_THAN, LESS_THAN, IN, NOT_IN_RANGE,
    /// CONTAINS_ANY.
    pub operator: Option<String>,
    #[schema(value_type = Option<Vec<Object>>)]
    pub values: Option<Vec<Value>>,
    /// The web app's filter type: name, status, metrics, tag, country, appName,
    /// developerName.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// The web app's condition: contains, not_contains, =, !=, >, <, ><, <>.
    pub condition: Option<String>,
    /// A text, a number, or a list.
    #[schema(value_type = Option<Object>)]
    pub value: Option<Value>,
    /// The metric of a `metrics` filter.
    pub metric: Option<String>,
}

/// The operators of the report call (docs/product.md#7-the-calls-it-makes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operator {
    Contains,
    DoesNotContain,
    Equals,
    GreaterThan,
    LessThan,
    In,
    NotInRange,
    ContainsAny,
}

impl Operator {
    pub fn parse(name: &str) -> Option<Operator> {
        Some(match name.trim() {
            "CONTAINS" => Operator::Contains,
            "DOES_NOT_CONTAINS" | "DOES_NOT_CONTAIN" => Operator::DoesNotContain,
            "EQUALS" => Operator::Equals,
            "GREATER_THAN" => Operator::GreaterThan,
            "LESS_THAN" => Operator::LessThan,
            "IN" => Operator::In,
            "NOT_IN_RANGE" => Operator::NotInRange,
            "CONTAINS_ANY" => Operator::ContainsAny,
            _ => return None,
        })
    }
}

/// The operator a web-app condition maps to (docs/product.md#7-report-filter-conditions). List
/// filters (a list value without a range condition) map to CONTAINS_ANY.
pub fn operator_of_condition(condition: &str, list_value: bool) -> Option<Operator> {
    Some(match condition.trim() {
        "contains" => Operator::Contains,
        "not_contains" => Operator::DoesNotContain,
        "=" => Operator::Equals,
        "!=" => Operator::DoesNotContain,
        ">" => Operator::GreaterThan,
        "<" => Operator::LessThan,
        "><" => Operator::In,
        "<>" => Operator::NotInRange,
        "" if list_value => Operator::ContainsAny,
        _ => return None,
    })
}

/// What a filter tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Name,
    Status,
    Tag,
    Country,
    AppName,
    DeveloperName,
    /// Apple's search popularity (1–100) of a keyword's or search term's text
    /// (`store::popularity`; KEYWORDS and SEARCHTERMS only): compared like a metric.
    Popularity,
    Metric(Metric),
    /// A Conversions or Cohort column (`roas`, `revenueD7`; docs/api/attribution.md):
    /// compared like a metric, on the levels that have them.
    Conversion(&'static str),
}

impl Field {
    fn parse(name: &str) -> Option<Field> {
        Some(match name.trim() {
            "name" => Field::Name,
            "status" => Field::Status,
            "tag" => Field::Tag,
            "country" => Field::Country,
            "appName" => Field::AppName,
            "developerName" => Field::DeveloperName,
            "popularity" => Field::Popularity,
            other => match conversion_column(other) {
                Some(column) => Field::Conversion(column),
                None => Field::Metric(Metric::parse(other)?),
            },
        })
    }
}

/// The Conversions or Cohort column named `name`.
pub fn conversion_column(name: &str) -> Option<&'static str> {
    use crate::attribution::conversions::{COHORT_COLUMNS, CONVERSION_COLUMNS};
    CONVERSION_COLUMNS
        .iter()
        .chain(&COHORT_COLUMNS)
        .copied()
        .find(|c| *c == name)
}

/// A valid filter.
#[derive(Debug, Clone, PartialEq)]
pub struct Filter {
    pub field: Field,
    pub op: Operator,
    /// Text values, lower-cased (text and list fields).
    pub texts: Vec<String>,
    /// Number values (metric fields).
    pub numbers: Vec<Decimal>,
}

fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn number_of(v: &Value) -> Option<Decimal> {
    match v {
        Value::Number(n) => n
            .to_string()
            .parse()
            .ok()
            .or_else(|| n.as_f64().and_then(|f| Decimal::try_from(f).ok())),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

impl Filter {
    /// Parses and validates filter `i`; errors name the field as `filters[i].<field>`.
    pub fn parse(i: usize, f: &FilterIn) -> Result<Filter, FieldError> {
        let at =
            |name: &str, message: &str| FieldError::new(format!("filters[{i}].{name}"), message);
        // The two shapes: the wire shape wins when it names a field.
        let (field_name, op, values, value_key) = if let Some(field) = &f.field {
            let op = match &f.operator {
                None => return Err(at("operator", "Please choose a condition")),
                Some(o) => Operator::parse(o).ok_or_else(|| at("operator", "Unknown operator"))?,
            };
            (
                field.clone(),
                op,
                f.values.clone().unwrap_or_default(),
                "values",
            )
        } else if let Some(kind) = &f.kind {
            let field = if kind == "metrics" {
                f.metric
                    .clone()
                    .ok_or_else(|| at("metric", "Please choose a metric"))?
            } else {
                kind.clone()
            };
            let values = match &f.value {
                Some(Value::Array(list)) => list.clone(),
                Some(Value::Null) | None => Vec::new(),
                Some(v) => vec![v.clone()],
            };
            let list = matches!(f.value, Some(Value::Array(_)));
            let op = match f.condition.as_deref() {
                None | Some("") if list => Operator::ContainsAny,
                None | Some("") => return Err(at("condition", "Please choose a condition")),
                Some(c) => operator_of_condition(c, list)
                    .ok_or_else(|| at("condition", "Unknown condition"))?,
            };
            (field, op, values, "value")
        } else {
            return Err(at("field", "Please choose a filter"));
        };
        let field_key = if f.field.is_some() {
            "field"
        } else if f.kind.as_deref() == Some("metrics") {
            "metric"
        } else {
            "type"
        };
        let field =
            Field::parse(&field_name).ok_or_else(|| at(field_key, "Unknown filter field"))?;
        // docs/product.md#5-filters: a value must be non-empty; a list non-empty with no empty
        // entries.
        if values.is_empty() {
            return Err(at(value_key, "Please complete this field to continue"));
        }
        let texts: Vec<String> = values.iter().filter_map(text_of).collect();
        if texts.len() != values.len() || texts.iter().any(String::is_empty) {
            return Err(at(value_key, "Please complete this field to continue"));
        }
        match field {
            Field::Metric(_) | Field::Popularity | Field::Conversion(_) => {
                let numbers: Vec<Decimal> = values.iter().filter_map(number_of).collect();
                if numbers.len() != values.len() {
                    return Err(at(value_key, "Must be a number"));
                }
                let op_key = if f.field.is_some() {
                    "operator"
                } else {
                    "condition"
                };
                match op {
                    Operator::In | Operator::NotInRange
                        if numbers.len() != 2 || numbers[0] > numbers[1] =>
                    {
                        return Err(at(
                            value_key,
                            "Give a range: a minimum and a maximum not below it",
                        ));
                    }
                    Operator::In | Operator::NotInRange => {}
                    Operator::Contains | Operator::ContainsAny => {
                        return Err(at(op_key, "This condition does not apply to a metric"));
                    }
                    _ if numbers.len() != 1 => return Err(at(value_key, "Give one number")),
                    _ => {}
                }
                Ok(Filter {
                    field,
                    op,
                    texts: Vec::new(),
                    numbers,
                })
            }
            _ => {
                if matches!(
                    op,
                    Operator::GreaterThan | Operator::LessThan | Operator::NotInRange
                ) {
                    let key = if f.field.is_some() {
                        "operator"
                    } else {
                        "condition"
                    };
                    return Err(at(key, "This condition applies to metrics only"));
                }
                Ok(Filter {
                    field,
                    op,
                    texts: texts.into_iter().map(|t| t.to_lowercase()).collect(),
                    numbers: Vec::new(),
                })
            }
        }
    }

    /// Whether a text field's value passes.
    pub fn matches_text(&self, value: Option<&str>) -> bool {
        let value = value.unwrap_or("").to_lowercase();
        match self.op {
            Operator::Contains => self.texts.iter().any(|t| value.contains(t.as_str())),
            Operator::DoesNotContain => !self.texts.iter().any(|t| value.contains(t.as_str())),
            _ => self.texts.contains(&value),
        }
    }

    /// Whether a list field's values (statuses, tag ids and names, countries) pass.
    pub fn matches_list<'a>(&self, values: impl Iterator<Item = &'a str> + Clone) -> bool {
        let has = |t: &str| values.clone().any(|v| v.eq_ignore_ascii_case(t));
        match self.op {
            Operator::Contains => self.texts.iter().any(|t| {
                values
                    .clone()
                    .any(|v| v.to_lowercase().contains(t.as_str()))
            }),
            Operator::DoesNotContain => !self.texts.iter().any(|t| has(t)),
            _ => self.texts.iter().any(|t| has(t)),
        }
    }

    /// Whether a metric's value passes (None never does).
    pub fn matches_number(&self, value: Option<Decimal>) -> bool {
        let Some(v) = value else {
            return false;
        };
        let n = &self.numbers;
        match self.op {
            Operator::Equals => v == n[0],
            Operator::DoesNotContain => v != n[0],
            Operator::GreaterThan => v > n[0],
            Operator::LessThan => v < n[0],
            Operator::In => v >= n[0] && v <= n[1],
            Operator::NotInRange => v < n[0] || v > n[1],
            Operator::Contains | Operator::ContainsAny => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn parse(v: Value) -> Result<Filter, FieldError> {
        Filter::parse(0, &serde_json::from_value(v).unwrap())
    }

    #[test]
    fn conditions_map_as_the_spec_says() {
        for (c, op) in [
            ("contains", Operator::Contains),
            ("not_contains", Operator::DoesNotContain),
            ("=", Operator::Equals),
            ("!=", Operator::DoesNotContain),
            (">", Operator::GreaterThan),
            ("<", Operator::LessThan),
            ("><", Operator::In),
            ("<>", Operator::NotInRange),
        ] {
            assert_eq!(operator_of_condition(c, false), Some(op), "{c}");
        }
        assert_eq!(operator_of_condition("", true), Some(Operator::ContainsAny));
        let f = parse(json!({"type": "status", "value": ["RUNNING", "PAUSED"]})).unwrap();
        assert_eq!(f.op, Operator::ContainsAny);
        let f =
            parse(json!({"type": "metrics", "metric": "taps", "condition": "><", "value": [1, 5]}))
                .unwrap();
        assert_eq!((f.op, f.numbers.len()), (Operator::In, 2));
    }

    #[test]
    fn invalid_filters_name_their_field() {
        let e = parse(json!({"field": "name", "operator": "CONTAINS", "values": []})).unwrap_err();
        assert_eq!(e.field, "filters[0].values");
        let e = parse(json!({"field": "status", "operator": "CONTAINS_ANY", "values": ["A", ""]}))
            .unwrap_err();
        assert_eq!(e.field, "filters[0].values");
        let e = parse(json!({"type": "name", "value": "x"})).unwrap_err();
        assert_eq!(e.field, "filters[0].condition");
        let e = parse(json!({"field": "taps", "operator": "GREATER_THAN", "values": ["many"]}))
            .unwrap_err();
        assert_eq!(e.field, "filters[0].values");
        let e = parse(json!({"field": "taps", "operator": "IN", "values": [5, 1]})).unwrap_err();
        assert_eq!(e.field, "filters[0].values");
        let e = parse(json!({"field": "nope", "operator": "EQUALS", "values": [1]})).unwrap_err();
        assert_eq!(e.field, "filters[0].field");
        let e = parse(json!({"field": "name", "operator": "GREATER_THAN", "values": ["a"]}))
            .unwrap_err();
        assert_eq!(e.field, "filters[0].operator");
    }

    #[test]
    fn matching() {
        let f = parse(json!({"field": "name", "operator": "CONTAINS", "values": ["Fit"]})).unwrap();
        assert!(f.matches_text(Some("best fitness app")));
        assert!(!f.matches_text(None));
        let f =
            parse(json!({"field": "taps", "operator": "NOT_IN_RANGE", "values": [2, 4]})).unwrap();
        assert!(f.matches_number(Some(Decimal::from(5))));
        assert!(!f.matches_number(Some(Decimal::from(4))));
        assert!(!f.matches_number(None));
        let f =
            parse(json!({"field": "country", "operator": "DOES_NOT_CONTAINS", "values": ["us"]}))
                .unwrap();
        assert!(f.matches_list(["GB", "DE"].into_iter()));
        assert!(!f.matches_list(["GB", "US"].into_iter()));
    }
}
