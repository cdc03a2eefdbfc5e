//! `RecommendationQueryRequest`, the query body of keyword, phrase and category suggestions
//! and of recommendations: the required `promotedObjectId` / `promotedObjectType` filters
//! (an app, or a campaign where the reference says "campaign or app identifier"), the other
//! filters with the reference's operators over the answer's row fields, sorting and paging
//! (default 20, at most 1000), answered as `{result, pagination, error}`.

use serde::Deserialize;
use serde_json::{Value, json};

use super::error::ApiError;
use super::query::SortOrder;
use crate::world::{Id, World};

/// `RecommendationQueryRequest`, closed.
#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RecQuery {
    pagination: Option<RecPagination>,
    sorting: Option<Vec<RecSort>>,
    filters: Option<Vec<RecFilter>>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RecPagination {
    offset: Option<i64>,
    page_size: Option<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecSort {
    field: String,
    order: Option<SortOrder>,
}

/// `RecommendationFilterCondition`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RecFilter {
    field: String,
    operator: Op,
    value: Vec<String>,
    ignore_case: Option<bool>,
}

/// `RecommendationFilterOperator` (also the operators search-term popularity filters take).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Op {
    Equals,
    NotEquals,
    In,
    ContainsAny,
    ContainsAll,
    LessThan,
    LessThanOrEqualTo,
    GreaterThan,
    GreaterThanOrEqualTo,
    Between,
    StartsWith,
    EndsWith,
    Like,
}

impl Op {
    /// Parses a wire operator name.
    pub fn parse(s: &str, field: &str) -> Result<Op, ApiError> {
        serde_json::from_value(Value::String(s.to_string())).map_err(|_| {
            ApiError::invalid(
                "INVALID_ENUM_VALUE",
                field,
                format!("{s} is not a filter operator"),
            )
        })
    }
}

/// What `promotedObjectId` named: an app of the ad account, or one of its campaigns.
#[derive(Debug, Clone, Copy)]
pub struct Promoted {
    pub adam_id: i64,
    pub campaign: Option<Id>,
}

impl Promoted {
    /// Whether campaign `c` is (or promotes) what was named.
    pub fn covers(&self, c: &crate::world::Campaign) -> bool {
        self.campaign
            .map_or(self.adam_id == c.adam_id, |id| id == c.id)
    }
}

const PROMOTED: [&str; 2] = ["promotedObjectId", "promotedObjectType"];

fn missing(field: &str) -> ApiError {
    ApiError::invalid(
        "MISSING_REQUIRED_FILTER",
        "filters",
        format!("a {field} filter is required"),
    )
}

/// SQL `LIKE` with `%` and `_`; a pattern without wildcards matches as a substring.
fn like(text: &str, pattern: &str) -> bool {
    if !pattern.contains(['%', '_']) {
        return text.contains(pattern);
    }
    fn go(t: &[char], p: &[char]) -> bool {
        match p.split_first() {
            None => t.is_empty(),
            Some(('%', rest)) => (0..=t.len()).any(|i| go(&t[i..], rest)),
            Some(('_', rest)) => !t.is_empty() && go(&t[1..], rest),
            Some((c, rest)) => t.first() == Some(c) && go(&t[1..], rest),
        }
    }
    let t: Vec<char> = text.chars().collect();
    let p: Vec<char> = pattern.chars().collect();
    go(&t, &p)
}

/// Whether row value `v` passes `op` over `values`.
pub fn matches(v: &Value, op: Op, values: &[String], ignore_case: bool) -> bool {
    let fold = |s: &str| {
        if ignore_case {
            s.to_lowercase()
        } else {
            s.to_string()
        }
    };
    let items: Vec<String> = match v {
        Value::Array(a) => a.iter().map(|x| fold(&text(x))).collect(),
        Value::Null => vec![],
        other => vec![fold(&text(other))],
    };
    let values: Vec<String> = values.iter().map(|s| fold(s)).collect();
    let num = |s: &str| s.parse::<f64>().ok();
    let cmp = |x: &str, y: &str| match (num(x), num(y)) {
        (Some(a), Some(b)) => a.total_cmp(&b),
        _ => x.cmp(y),
    };
    let first = values.first().map(String::as_str).unwrap_or_default();
    let one = |f: &dyn Fn(&str) -> bool| items.iter().any(|x| f(x));
    match op {
        Op::Equals | Op::In => one(&|x| values.iter().any(|y| y == x)),
        Op::NotEquals => !one(&|x| values.iter().any(|y| y == x)),
        Op::ContainsAny => values
            .iter()
            .any(|y| items.iter().any(|x| x == y || x.contains(y.as_str()))),
        Op::ContainsAll => values
            .iter()
            .all(|y| items.iter().any(|x| x == y || x.contains(y.as_str()))),
        Op::LessThan => one(&|x| cmp(x, first).is_lt()),
        Op::LessThanOrEqualTo => one(&|x| cmp(x, first).is_le()),
        Op::GreaterThan => one(&|x| cmp(x, first).is_gt()),
        Op::GreaterThanOrEqualTo => one(&|x| cmp(x, first).is_ge()),
        Op::Between => {
            let last = values.get(1).map(String::as_str).unwrap_or(first);
            one(&|x| cmp(x, first).is_ge() && cmp(x, last).is_le())
        }
        Op::StartsWith => one(&|x| x.starts_with(first)),
        Op::EndsWith => one(&|x| x.ends_with(first)),
        Op::Like => one(&|x| like(x, first)),
    }
}

/// Sorts JSON rows by `(field, descending)` pairs: numbers as numbers, the rest as text.
pub fn sort_rows(rows: &mut [Value], sorts: &[(String, bool)]) {
    rows.sort_by(|a, b| {
        for (f, desc) in sorts {
            let o = match (a[f].as_f64(), b[f].as_f64()) {
                (Some(x), Some(y)) => x.total_cmp(&y),
                _ => text(&a[f]).cmp(&text(&b[f])),
            };
            let o = if *desc { o.reverse() } else { o };
            if o.is_ne() {
                return o;
            }
        }
        std::cmp::Ordering::Equal
    });
}

fn text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

impl RecQuery {
    /// The values of the EQUALS / IN filter on `field`, if any.
    pub fn values(&self, field: &str) -> Option<&[String]> {
        self.filters
            .iter()
            .flatten()
            .find(|f| f.field == field && matches!(f.operator, Op::Equals | Op::In))
            .map(|f| f.value.as_slice())
    }

    /// The apps or campaigns the required filters name, checked to be the ad account's.
    pub fn promoted(&self, w: &World, account: Id) -> Result<Vec<Promoted>, ApiError> {
        let kinds = self
            .values("promotedObjectType")
            .ok_or_else(|| missing("promotedObjectType"))?;
        if kinds.iter().any(|k| k != "APPSTORE_APP") {
            return Err(ApiError::invalid(
                "UNSUPPORTED_VALUE",
                "filters",
                "promotedObjectType must be APPSTORE_APP",
            ));
        }
        let ids = self
            .values("promotedObjectId")
            .filter(|v| !v.is_empty())
            .ok_or_else(|| missing("promotedObjectId"))?;
        ids.iter()
            .map(|id| {
                let n = id.parse::<i64>().ok();
                let app = n.filter(|a| w.apps.get(a).and_then(|x| x.owner) == Some(account));
                let campaign = n.and_then(|c| w.campaigns.get(&c)).filter(|c| c.ad_account_id == account);
                match (app, campaign) {
                    (Some(adam_id), _) => Ok(Promoted { adam_id, campaign: None }),
                    (None, Some(c)) => Ok(Promoted { adam_id: c.adam_id, campaign: Some(c.id) }),
                    _ => Err(ApiError::invalid(
                        "INVALID_VALUE",
                        "filters",
                        format!("{id} is neither an app promoted by this ad account nor one of its campaigns"),
                    )),
                }
            })
            .collect()
    }

    /// Refuses filters on other fields than the required ones and `allowed`.
    pub fn only(&self, allowed: &[&str]) -> Result<(), ApiError> {
        for (i, f) in self.filters.iter().flatten().enumerate() {
            let field = f.field.as_str();
            if !PROMOTED.contains(&field) && !allowed.contains(&field) {
                return Err(ApiError::invalid(
                    "INVALID_FIELD",
                    format!("filters[{i}].field"),
                    format!("{field} cannot filter this query"),
                ));
            }
        }
        Ok(())
    }

    /// Filters, sorts and pages `rows` (whose fields are `fields`), after the required
    /// filters; answers `{result, pagination, error}`.
    pub fn answer(
        &self,
        mut rows: Vec<Value>,
        fields: &[&str],
        default_sort: &[(&str, bool)],
    ) -> Result<Value, ApiError> {
        let p = self.pagination.as_ref();
        let size = p.and_then(|p| p.page_size).unwrap_or(20);
        let offset = p.and_then(|p| p.offset).unwrap_or(0);
        if !(1..=1000).contains(&size) || offset < 0 {
            return Err(ApiError::invalid(
                "INVALID_PAGINATION",
                "pagination",
                "pageSize must be 1 to 1000 and offset not negative",
            ));
        }
        let known = |f: &str, at: String| {
            if fields.contains(&f) {
                Ok(())
            } else {
                Err(ApiError::invalid(
                    "INVALID_FIELD",
                    at,
                    format!(
                        "{f} is not a field of these rows; use one of {}",
                        fields.join(", ")
                    ),
                ))
            }
        };
        for (i, f) in self.filters.iter().flatten().enumerate() {
            if PROMOTED.contains(&f.field.as_str()) {
                continue;
            }
            known(&f.field, format!("filters[{i}].field"))?;
            let ignore = f.ignore_case.unwrap_or(false);
            rows.retain(|r| matches(&r[&f.field], f.operator, &f.value, ignore));
        }
        let sorts: Vec<(String, bool)> = match self.sorting.as_deref() {
            Some(s) if !s.is_empty() => s
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    known(&s.field, format!("sorting[{i}].field"))?;
                    Ok((s.field.clone(), s.order == Some(SortOrder::Desc)))
                })
                .collect::<Result<_, ApiError>>()?,
            _ => default_sort
                .iter()
                .map(|(f, d)| ((*f).to_string(), *d))
                .collect(),
        };
        sort_rows(&mut rows, &sorts);
        let total = rows.len();
        let page: Vec<Value> = rows
            .into_iter()
            .skip(offset as usize)
            .take(size as usize)
            .collect();
        Ok(
            json!({ "result": page, "pagination": { "offset": offset, "pageSize": size, "totalCount": total }, "error": null }),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_match_as_the_reference_describes() {
        let v = |s: &str| vec![s.to_string()];
        assert!(matches(&json!("photo editor"), Op::Like, &v("edit"), false));
        assert!(matches(
            &json!("photo editor"),
            Op::Like,
            &v("photo%r"),
            false
        ));
        assert!(!matches(
            &json!("photo editor"),
            Op::Like,
            &v("%video%"),
            false
        ));
        assert!(matches(&json!("Photo"), Op::Equals, &v("photo"), true));
        assert!(!matches(&json!("Photo"), Op::Equals, &v("photo"), false));
        assert!(matches(&json!(40), Op::GreaterThan, &v("39"), false));
        assert!(!matches(&json!(40), Op::LessThan, &v("9"), false));
        let range = vec!["10".to_string(), "40".to_string()];
        assert!(matches(&json!(40), Op::Between, &range, false));
        assert!(!matches(&json!(41), Op::Between, &range, false));
        assert!(matches(
            &json!(["US", "GB"]),
            Op::ContainsAll,
            &range_of(&["US", "GB"]),
            false
        ));
        assert!(!matches(
            &json!(["US"]),
            Op::ContainsAll,
            &range_of(&["US", "GB"]),
            false
        ));
        assert!(matches(&json!("US"), Op::NotEquals, &v("GB"), false));
    }

    fn range_of(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }
}
