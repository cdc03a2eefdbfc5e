//! Change history: `POST /change-history/query` (one row per transaction, event type and
//! entity type; filters on the event fields with the reference's operators, `eventTime`
//! ranges, sorting) and `GET /change-history/{detailId}`.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::query::{QueryPagination, SortOrder, page};
use super::render::timestamp;
use crate::state::Sandbox;
use crate::world::World;
use crate::world::audit::AuditEvent;

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route("/change-history/query", post(history))
        .route("/change-history/{detail_id}", get(history_detail))
}

/// `AuditQuery`, closed.
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct AuditQuery {
    filters: Option<Vec<AuditFilter>>,
    sorting: Option<Vec<AuditSorting>>,
    pagination: Option<AuditPagination>,
    /// `timeZone` (`UTC`, the default, or `ORTZ`: dates and date-times without an offset
    /// in the filters are the ad account's local time); `needTotals` and `metadata` are
    /// accepted. Times are answered in UTC.
    options: Option<AuditOptions>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AuditPagination {
    offset: Option<i64>,
    page_size: Option<i64>,
    #[serde(rename = "totalCount")]
    _total_count: Option<IgnoredAny>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AuditOptions {
    #[serde(rename = "needTotals")]
    _need_totals: Option<IgnoredAny>,
    time_zone: Option<String>,
    #[serde(rename = "metadata")]
    _metadata: Option<IgnoredAny>,
}

/// `AuditOperator`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Operator {
    Equals,
    In,
    LessThan,
    LessThanOrEqualTo,
    GreaterThan,
    GreaterThanOrEqualTo,
    Between,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AuditFilter {
    field: Option<String>,
    operator: Option<Operator>,
    value: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AuditSorting {
    field: Option<String>,
    order: Option<SortOrder>,
}

/// Fields a filter may name besides `eventTime`.
const FIELDS: &[&str] = &[
    "entityType",
    "entityId",
    "userId",
    "userType",
    "txnId",
    "adAccountId",
    "campaignId",
    "adGroupId",
];

/// Row fields the answer sorts on.
const SORTS: &[&str] = &[
    "eventTime",
    "transactionId",
    "eventType",
    "entityType",
    "count",
];

/// One checked filter.
enum Check {
    /// A non-time field among these values.
    Among(&'static str, Vec<String>),
    /// `eventTime` within `[from, to]` (either bound open).
    Time(Option<OffsetDateTime>, Option<OffsetDateTime>),
}

fn values(v: Option<&Value>) -> Vec<&Value> {
    match v {
        Some(Value::Array(a)) => a.iter().collect(),
        Some(Value::Null) | None => vec![],
        Some(v) => vec![v],
    }
}

fn text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// A date-time (RFC 3339), or a date-time without offset or a date (its midnight) in
/// `zone` (`None`: UTC; else the ad account's time zone, for `ORTZ`).
fn instant(v: &Value, field: &str, zone: Option<&str>) -> Result<OffsetDateTime, ApiError> {
    let s = text(v);
    let local = |t: time::PrimitiveDateTime| {
        let hours = zone.map_or(0, |tz| crate::world::zone::offset_hours(tz, t.date()));
        t.assume_utc() - time::Duration::hours(hours)
    };
    OffsetDateTime::parse(&s, &Rfc3339)
        .ok()
        .or_else(|| {
            let naive = s.replacen(' ', "T", 1);
            time::PrimitiveDateTime::parse(
                naive.get(..19)?,
                time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]"),
            )
            .ok()
            .map(local)
        })
        .or_else(|| {
            time::Date::parse(
                &s,
                time::macros::format_description!("[year]-[month]-[day]"),
            )
            .ok()
            .map(|d| local(d.midnight()))
        })
        .ok_or_else(|| {
            ApiError::invalid(
                "INVALID_VALUE",
                field,
                format!("{field}: {s:?} is not a date-time"),
            )
        })
}

fn check(i: usize, f: &AuditFilter, zone: Option<&str>) -> Result<Check, ApiError> {
    let at = format!("filters[{i}]");
    let field = f
        .field
        .as_deref()
        .ok_or_else(|| ApiError::required(&format!("{at}.field")))?;
    let op = f.operator.unwrap_or(Operator::Equals);
    let vals = values(f.value.as_ref());
    if vals.is_empty() {
        return Err(ApiError::required(&format!("{at}.value")));
    }
    if field == "eventTime" {
        let value_field = format!("{at}.value");
        let t: Vec<OffsetDateTime> = vals
            .iter()
            .map(|v| instant(v, &value_field, zone))
            .collect::<Result<_, _>>()?;
        let exclusive = time::Duration::nanoseconds(1);
        return Ok(match (op, t.as_slice()) {
            (Operator::Equals, [x]) => Check::Time(Some(*x), Some(*x)),
            (Operator::GreaterThan, [x]) => Check::Time(Some(*x + exclusive), None),
            (Operator::GreaterThanOrEqualTo, [x]) => Check::Time(Some(*x), None),
            (Operator::LessThan, [x]) => Check::Time(None, Some(*x - exclusive)),
            (Operator::LessThanOrEqualTo, [x]) => Check::Time(None, Some(*x)),
            (Operator::Between, [a, b]) if a <= b => Check::Time(Some(*a), Some(*b)),
            (Operator::In, _) => {
                return Err(ApiError::invalid(
                    "INVALID_OPERATOR",
                    format!("{at}.operator"),
                    "eventTime takes EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL_TO, GREATER_THAN, GREATER_THAN_OR_EQUAL_TO or BETWEEN",
                ));
            }
            _ => {
                return Err(ApiError::invalid(
                    "INVALID_VALUE",
                    value_field,
                    "BETWEEN takes two ordered date-times; the other operators one",
                ));
            }
        });
    }
    let Some(field) = FIELDS.iter().find(|x| **x == field) else {
        return Err(ApiError::invalid(
            "INVALID_FIELD",
            format!("{at}.field"),
            format!(
                "{field} is not a change-history field; use eventTime or one of {}",
                FIELDS.join(", ")
            ),
        ));
    };
    if !matches!(op, Operator::Equals | Operator::In) {
        return Err(ApiError::invalid(
            "INVALID_OPERATOR",
            format!("{at}.operator"),
            format!("{field} takes EQUALS or IN; range operators are for eventTime"),
        ));
    }
    Ok(Check::Among(field, vals.into_iter().map(text).collect()))
}

/// The value of filter field `field` on event `e`.
fn field_of(w: &World, e: &AuditEvent, field: &str) -> Option<String> {
    match field {
        "entityType" => Some(e.entity_type.to_string()),
        "entityId" => Some(e.entity_id.to_string()),
        "userId" => Some(w.user_id.to_string()),
        "userType" => Some("CUSTOMER_API".into()),
        "txnId" => Some(e.txn.clone()),
        "adAccountId" => Some(e.ad_account_id.to_string()),
        "campaignId" => e.campaign_id.map(|v| v.to_string()),
        "adGroupId" => e.ad_group_id.map(|v| v.to_string()),
        _ => None,
    }
}

fn passes(w: &World, e: &AuditEvent, checks: &[Check]) -> bool {
    checks.iter().all(|c| match c {
        Check::Among(field, vals) => field_of(w, e, field).is_some_and(|v| vals.contains(&v)),
        Check::Time(from, to) => from.is_none_or(|f| e.time >= f) && to.is_none_or(|t| e.time <= t),
    })
}

/// Checked `(field, descending)` sorts; newest first by default.
fn sorts(q: &AuditQuery) -> Result<Vec<(&'static str, bool)>, ApiError> {
    let Some(list) = q.sorting.as_ref().filter(|s| !s.is_empty()) else {
        return Ok(vec![("eventTime", true)]);
    };
    list.iter()
        .enumerate()
        .map(|(i, s)| {
            let name = s.field.as_deref().unwrap_or_default();
            let field = SORTS.iter().find(|x| **x == name).ok_or_else(|| {
                ApiError::invalid(
                    "INVALID_FIELD",
                    format!("sorting[{i}].field"),
                    format!("change history sorts on {}", SORTS.join(", ")),
                )
            })?;
            Ok((*field, s.order == Some(SortOrder::Desc)))
        })
        .collect()
}

/// Orders two rows (with their event times) by the checked sorts.
fn order(
    a: &(OffsetDateTime, Value),
    b: &(OffsetDateTime, Value),
    sorts: &[(&str, bool)],
) -> Ordering {
    for (f, desc) in sorts {
        let o = match *f {
            "eventTime" => a.0.cmp(&b.0),
            "count" => a.1[f].as_i64().cmp(&b.1[f].as_i64()),
            _ => a.1[f].as_str().cmp(&b.1[f].as_str()),
        };
        let o = if *desc { o.reverse() } else { o };
        if o.is_ne() {
            return o;
        }
    }
    Ordering::Equal
}

/// `POST /change-history/query`: one row per (transaction, event type, entity type).
async fn history(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(q): Body<AuditQuery>,
) -> Result<Json<Value>, ApiError> {
    // The whole change history is scanned: off the async threads.
    super::crud::off_thread(move || history_rows(&s, ctx.0, &q)).await
}

fn history_rows(
    s: &Sandbox,
    account: crate::world::Id,
    q: &AuditQuery,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    let zone = match q.options.as_ref().and_then(|o| o.time_zone.as_deref()) {
        None | Some("UTC") => None,
        Some("ORTZ") => Some(w.accounts.get(&account).map_or("UTC", |a| a.timezone)),
        Some(other) => {
            return Err(ApiError::invalid(
                "INVALID_ENUM_VALUE",
                "options.timeZone",
                format!("unknown timeZone {other}; expected UTC or ORTZ"),
            ));
        }
    };
    let checks: Vec<Check> = q
        .filters
        .iter()
        .flatten()
        .enumerate()
        .map(|(i, f)| check(i, f, zone))
        .collect::<Result<_, _>>()?;
    let sorts = sorts(q)?;
    let p = q.pagination.as_ref().map(|p| QueryPagination {
        page_size: p.page_size,
        offset: p.offset,
        fetch_total_count: None,
    });
    let (offset, size) = page(p.as_ref())?;
    let mut groups: BTreeMap<(&str, &str, &str), Vec<&AuditEvent>> = BTreeMap::new();
    for e in w.audit.iter().filter(|e| e.ad_account_id == account) {
        if passes(&w, e, &checks) {
            groups
                .entry((e.txn.as_str(), e.event, e.entity_type))
                .or_default()
                .push(e);
        }
    }
    let mut rows: Vec<(OffsetDateTime, Value)> = groups
        .into_iter()
        .map(|((txn, event, kind), events)| (events[0].time, json!({
            "transactionId": txn, "eventType": event, "eventTime": timestamp(events[0].time), "entityType": kind,
            "count": events.len(), "metas": events.iter().map(|e| json!({ "entityId": e.entity_id, "meta": e.meta })).collect::<Vec<_>>(),
            "userType": "CUSTOMER_API", "modifiedBy": "api",
        })))
        .collect();
    // Ties keep the newest transaction first.
    rows.reverse();
    rows.sort_by(|a, b| order(a, b, &sorts));
    let total = rows.len();
    let page: Vec<Value> = rows
        .into_iter()
        .skip(offset as usize)
        .take(size as usize)
        .map(|(_, v)| v)
        .collect();
    Ok(Json(
        json!({ "result": page, "pagination": { "offset": offset, "pageSize": size, "totalCount": total }, "error": null }),
    ))
}

/// `GET /change-history/{detailId}`: the field changes of a transaction (by its id) or of
/// one event (by its detail id).
async fn history_detail(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    let details: Vec<Value> = w
        .audit
        .iter()
        .filter(|e| e.ad_account_id == ctx.0 && (e.txn == id || e.detail_id == id))
        .map(|e| json!({
            "transactionId": e.txn, "detailId": e.detail_id, "eventType": e.event, "entityType": e.entity_type,
            "entityId": e.entity_id.to_string(), "eventTime": timestamp(e.time), "userType": "CUSTOMER_API", "modifiedBy": "api",
            "entityMetaData": e.meta,
            "details": [{ "transactionId": e.txn, "changes": e.changes.iter().map(|(f, o, n)| json!({ "field": f, "oldValues": o, "newValues": n })).collect::<Vec<_>>() }],
        }))
        .collect();
    if details.is_empty() {
        return Err(ApiError::not_found("change detail", id));
    }
    let n = details.len();
    Ok(Json(
        json!({ "result": details, "pagination": { "offset": 0, "pageSize": n, "totalCount": n }, "error": null }),
    ))
}
