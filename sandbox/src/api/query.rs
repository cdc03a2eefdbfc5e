//! The reference's `QueryRequest` (filters, sorting, pagination) applied to rendered
//! entities, answering `{result: [...], pagination: {offset, pageSize, totalCount}}`.

use std::cmp::Ordering;

use serde::Deserialize;
use serde_json::{Value, json};

use super::error::ApiError;

/// Largest page the API serves.
pub const MAX_PAGE_SIZE: u64 = 1000;
/// Page size when none is given.
pub const DEFAULT_PAGE_SIZE: u64 = 20;

#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct QueryRequest {
    pub filters: Option<Vec<QueryFilter>>,
    pub sorting: Option<Vec<QuerySort>>,
    pub pagination: Option<QueryPagination>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QueryFilter {
    pub field: Option<String>,
    pub operator: Option<Operator>,
    pub value: Option<Value>,
    pub ignore_case: Option<bool>,
}

/// `QueryFilterOperator`.
#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Operator {
    IsNotNull,
    Equals,
    StartsWith,
    In,
    NotContainsAny,
    NotEquals,
    LessThanOrEqualTo,
    Between,
    NotIn,
    LessThan,
    GreaterThanOrEqualTo,
    ContainsAll,
    NotContainsAll,
    Like,
    IsNull,
    GreaterThan,
    EndsWith,
    ContainsAny,
    NotLike,
}

#[derive(Debug, Deserialize)]
pub struct QuerySort {
    pub field: Option<String>,
    pub order: Option<SortOrder>,
}

#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    #[serde(rename = "ASC")]
    Asc,
    #[serde(rename = "DESC")]
    Desc,
}

#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct QueryPagination {
    pub page_size: Option<i64>,
    pub offset: Option<i64>,
    pub fetch_total_count: Option<bool>,
}

/// Checked `(offset, pageSize)`.
pub fn page(p: Option<&QueryPagination>) -> Result<(u64, u64), ApiError> {
    let size = p
        .and_then(|p| p.page_size)
        .unwrap_or(DEFAULT_PAGE_SIZE as i64);
    let offset = p.and_then(|p| p.offset).unwrap_or(0);
    if !(1..=MAX_PAGE_SIZE as i64).contains(&size) {
        return Err(ApiError::invalid(
            "INVALID_PAGINATION",
            "pagination.pageSize",
            format!("pageSize must be between 1 and {MAX_PAGE_SIZE}"),
        ));
    }
    if offset < 0 {
        return Err(ApiError::invalid(
            "INVALID_PAGINATION",
            "pagination.offset",
            "offset must not be negative",
        ));
    }
    Ok((offset as u64, size as u64))
}

/// Parent fields an entity query narrows through the world's index.
pub const INDEXED: &[&str] = &["campaignId", "adGroupId"];

/// The parent ids a query names with `EQUALS`/`IN` on an [`INDEXED`] field (each such filter
/// a set the entity's parent must be in), and whether every filter is one of those.
pub fn parent_filters(request: &QueryRequest) -> (Vec<Vec<i64>>, bool) {
    let mut sets = Vec::new();
    let mut all = true;
    for f in request.filters.as_deref().unwrap_or_default() {
        let indexed = f.field.as_deref().is_some_and(|x| INDEXED.contains(&x))
            && matches!(f.operator, Some(Operator::Equals | Operator::In));
        let ids: Option<Vec<i64>> = values(f.value.as_ref(), false)
            .iter()
            .map(|v| v.as_f64().map(|n| n as i64))
            .collect();
        match (indexed, ids) {
            (true, Some(ids)) if !ids.is_empty() => sets.push(ids),
            _ => all = false,
        }
    }
    (sets, all)
}

/// Answers `request` over entities already narrowed to `ids` (ascending) that satisfy
/// every filter, rendering only the page: valid when the query sorts by nothing but `id`.
/// `None` when the query needs every item rendered ([`run`]).
pub fn run_page(
    request: &QueryRequest,
    ids: &[i64],
    render: impl Fn(i64) -> Value,
    fields: &[&str],
) -> Result<Option<Value>, ApiError> {
    let sorts = checked_sorts(request, fields)?;
    let descending = match sorts {
        [] => false,
        [s] if s.field.as_deref() == Some("id") => s.order == Some(SortOrder::Desc),
        _ => return Ok(None),
    };
    let (offset, size) = page(request.pagination.as_ref())?;
    let picked: Vec<Value> = if descending {
        ids.iter()
            .rev()
            .skip(offset as usize)
            .take(size as usize)
            .map(|id| render(*id))
            .collect()
    } else {
        ids.iter()
            .skip(offset as usize)
            .take(size as usize)
            .map(|id| render(*id))
            .collect()
    };
    Ok(Some(
        json!({ "result": picked, "pagination": { "offset": offset, "pageSize": size, "totalCount": ids.len() } }),
    ))
}

/// Applies `request` to `items` whose allowed fields are `fields`.
pub fn run(request: &QueryRequest, items: Vec<Value>, fields: &[&str]) -> Result<Value, ApiError> {
    let filters = request.filters.as_deref().unwrap_or_default();
    for (i, f) in filters.iter().enumerate() {
        let field = f
            .field
            .as_deref()
            .ok_or_else(|| ApiError::required(&format!("filters[{i}].field")))?;
        check_field(field, fields, &format!("filters[{i}].field"))?;
        if f.operator.is_none() {
            return Err(ApiError::required(&format!("filters[{i}].operator")));
        }
    }
    let sorts = checked_sorts(request, fields)?;
    let (offset, size) = page(request.pagination.as_ref())?;
    let mut matched = Vec::new();
    for item in items {
        if filters
            .iter()
            .try_fold(true, |ok, f| Ok::<_, ApiError>(ok && matches(&item, f)?))?
        {
            matched.push(item);
        }
    }
    matched.sort_by(|a, b| compare_by(a, b, sorts));
    let total = matched.len();
    let result: Vec<Value> = matched
        .into_iter()
        .skip(offset as usize)
        .take(size as usize)
        .collect();
    Ok(
        json!({ "result": result, "pagination": { "offset": offset, "pageSize": size, "totalCount": total } }),
    )
}

/// The request's sorting, each field checked to be one of `fields`.
fn checked_sorts<'r>(
    request: &'r QueryRequest,
    fields: &[&str],
) -> Result<&'r [QuerySort], ApiError> {
    let sorts = request.sorting.as_deref().unwrap_or_default();
    for (i, s) in sorts.iter().enumerate() {
        check_field(
            s.field.as_deref().unwrap_or_default(),
            fields,
            &format!("sorting[{i}].field"),
        )?;
    }
    Ok(sorts)
}

fn check_field(field: &str, fields: &[&str], at: &str) -> Result<(), ApiError> {
    if fields.contains(&field) {
        Ok(())
    } else {
        Err(ApiError::invalid(
            "INVALID_FIELD",
            at,
            format!(
                "unknown field '{field}'; expected one of: {}",
                fields.join(", ")
            ),
        ))
    }
}

/// Sorts by the given fields, then by id for a stable order.
fn compare_by(a: &Value, b: &Value, sorts: &[QuerySort]) -> Ordering {
    for s in sorts {
        let field = s.field.as_deref().unwrap_or_default();
        let o = compare(&a[field], &b[field]);
        let o = if s.order == Some(SortOrder::Desc) {
            o.reverse()
        } else {
            o
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    compare(&a["id"], &b["id"])
}

fn compare(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x
            .as_f64()
            .partial_cmp(&y.as_f64())
            .unwrap_or(Ordering::Equal),
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) => Ordering::Less,
        (_, Value::Null) => Ordering::Greater,
        _ => a.to_string().cmp(&b.to_string()),
    }
}

/// A comparable form: Money objects by amount, numbers as numbers, the rest as text.
fn scalar(v: &Value, ignore_case: bool) -> Value {
    let v = match v {
        Value::Object(m) if m.contains_key("amount") => m["amount"].clone(),
        other => other.clone(),
    };
    match v {
        Value::String(s) if s.parse::<f64>().is_ok() && !s.is_empty() => {
            json!(s.parse::<f64>().unwrap_or_default())
        }
        Value::String(s) if ignore_case => Value::String(s.to_lowercase()),
        other => other,
    }
}

fn values(v: Option<&Value>, ignore_case: bool) -> Vec<Value> {
    match v {
        Some(Value::Array(a)) => a.iter().map(|x| scalar(x, ignore_case)).collect(),
        Some(x) => vec![scalar(x, ignore_case)],
        None => vec![],
    }
}

fn matches(item: &Value, f: &QueryFilter) -> Result<bool, ApiError> {
    let ic = f.ignore_case.unwrap_or(false);
    let field = f.field.as_deref().unwrap_or_default();
    let raw = &item[field];
    let own: Vec<Value> = match raw {
        Value::Array(a) => a.iter().map(|x| scalar(x, ic)).collect(),
        other => vec![scalar(other, ic)],
    };
    let v = own.first().cloned().unwrap_or(Value::Null);
    let wanted = values(f.value.as_ref(), ic);
    let first = || {
        wanted
            .first()
            .cloned()
            .ok_or_else(|| ApiError::required(&format!("value for {field}")))
    };
    let text = |x: &Value| {
        x.as_str()
            .map(str::to_string)
            .unwrap_or_else(|| x.to_string())
    };
    let eq = |a: &Value, b: &Value| compare(a, b) == Ordering::Equal;
    Ok(match f.operator.expect("checked") {
        Operator::IsNull => raw.is_null(),
        Operator::IsNotNull => !raw.is_null(),
        Operator::Equals => eq(&v, &first()?),
        Operator::NotEquals => !eq(&v, &first()?),
        Operator::In => wanted.iter().any(|w| eq(&v, w)),
        Operator::NotIn => !wanted.iter().any(|w| eq(&v, w)),
        Operator::LessThan => compare(&v, &first()?) == Ordering::Less,
        Operator::LessThanOrEqualTo => compare(&v, &first()?) != Ordering::Greater,
        Operator::GreaterThan => compare(&v, &first()?) == Ordering::Greater,
        Operator::GreaterThanOrEqualTo => compare(&v, &first()?) != Ordering::Less,
        Operator::Between => {
            let [lo, hi] = wanted.as_slice() else {
                return Err(ApiError::invalid(
                    "INVALID_VALUE",
                    field,
                    "BETWEEN needs two values",
                ));
            };
            compare(&v, lo) != Ordering::Less && compare(&v, hi) != Ordering::Greater
        }
        Operator::StartsWith => text(&v).starts_with(&text(&first()?)),
        Operator::EndsWith => text(&v).ends_with(&text(&first()?)),
        Operator::Like => text(&v).contains(&text(&first()?)),
        Operator::NotLike => !text(&v).contains(&text(&first()?)),
        Operator::ContainsAny => wanted.iter().any(|w| own.iter().any(|o| eq(o, w))),
        Operator::NotContainsAny => !wanted.iter().any(|w| own.iter().any(|o| eq(o, w))),
        Operator::ContainsAll => wanted.iter().all(|w| own.iter().any(|o| eq(o, w))),
        Operator::NotContainsAll => !wanted.iter().all(|w| own.iter().any(|o| eq(o, w))),
    })
}
