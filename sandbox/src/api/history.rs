//! Change history: `POST /change-history/query` (one row per actor — `userType` and
//! `modifiedBy` —, transaction, event type and entity type; an `eventTime` filter is
//! required, as Apple requires it; filters on the event fields with the reference's
//! operators, sorting, paging; `options.metadata` `latest` or `snapshot` fills each row's
//! `metas` with its entities and their `detailId`s, empty otherwise) and
//! `GET /change-history/{detailId}` (one entity's field changes, paged by `limit` /
//! `offset`; a transaction id is also accepted, for all of its entities).

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
    need_totals: Option<String>,
    time_zone: Option<String>,
    metadata: Option<String>,
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
    "eventType",
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
fn field_of(_: &World, e: &AuditEvent, field: &str) -> Option<String> {
    match field {
        "entityType" => Some(e.entity_type.to_string()),
        "eventType" => Some(e.event.to_string()),
        "entityId" => Some(e.entity_id.to_string()),
        "userId" => Some(e.modified_by.clone()),
        "userType" => Some(e.user_type.clone()),
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

/// A row with its event time and the position of its first event in the history (events
/// of the same instant keep the order they were made in).
type Row = (OffsetDateTime, usize, Value);

/// Orders two rows by the checked sorts.
fn order(a: &Row, b: &Row, sorts: &[(&str, bool)]) -> Ordering {
    for (f, desc) in sorts {
        let o = match *f {
            "eventTime" => (a.0, a.1).cmp(&(b.0, b.1)),
            "count" => a.2[f].as_i64().cmp(&b.2[f].as_i64()),
            _ => a.2[f].as_str().cmp(&b.2[f].as_str()),
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
    if !checks.iter().any(|c| matches!(c, Check::Time(..))) {
        return Err(ApiError::invalid(
            "INVALID_VALUE",
            "filters",
            "the change history needs an eventTime filter (BETWEEN, GREATER_THAN or LESS_THAN)",
        ));
    }
    let options = q.options.as_ref();
    let metadata = match options.and_then(|o| o.metadata.as_deref()) {
        None | Some("none") => None,
        Some(m @ ("latest" | "snapshot")) => Some(m),
        Some(other) => {
            return Err(ApiError::invalid(
                "INVALID_ENUM_VALUE",
                "options.metadata",
                format!("unknown metadata {other}; expected none, latest or snapshot"),
            ));
        }
    };
    let totals = match options.and_then(|o| o.need_totals.as_deref()) {
        None | Some("true") => true,
        Some("false") => false,
        Some(other) => {
            return Err(ApiError::invalid(
                "INVALID_VALUE",
                "options.needTotals",
                format!("needTotals is \"true\" or \"false\", not {other:?}"),
            ));
        }
    };
    let sorts = sorts(q)?;
    let p = q.pagination.as_ref().map(|p| QueryPagination {
        page_size: p.page_size,
        offset: p.offset,
        fetch_total_count: None,
    });
    let (offset, size) = page(p.as_ref())?;
    type Key<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str);
    let mut groups: BTreeMap<Key<'_>, (usize, Vec<&AuditEvent>)> = BTreeMap::new();
    // The entity's state as last recorded, for `latest`.
    let mut latest: BTreeMap<(&str, i64), &AuditEvent> = BTreeMap::new();
    for (seq, e) in w
        .audit
        .iter()
        .enumerate()
        .filter(|(_, e)| e.ad_account_id == account)
    {
        latest.insert((e.entity_type, e.entity_id), e);
        if passes(&w, e, &checks) {
            groups
                .entry((
                    e.txn.as_str(),
                    e.event,
                    e.entity_type,
                    e.user_type.as_str(),
                    e.modified_by.as_str(),
                ))
                .or_insert_with(|| (seq, Vec::new()))
                .1
                .push(e);
        }
    }
    let metas = |events: &[&AuditEvent]| -> Vec<Value> {
        let Some(kind) = metadata else {
            return vec![];
        };
        events
            .iter()
            .map(|e| {
                let meta = match kind {
                    "latest" => &latest[&(e.entity_type, e.entity_id)].meta,
                    _ => &e.meta,
                };
                json!({ e.entity_type: e.entity_id.to_string(), "detailId": e.detail_id, "meta": meta })
            })
            .collect()
    };
    let mut rows: Vec<Row> = groups
        .into_iter()
        .map(|((txn, event, kind, user_type, by), (seq, events))| (events[0].time, seq, json!({
            "transactionId": txn, "eventType": event, "eventTime": timestamp(events[0].time), "entityType": kind,
            "count": events.len(), "metas": metas(&events), "userType": user_type, "modifiedBy": by,
        })))
        .collect();
    rows.sort_by(|a, b| order(a, b, &sorts));
    let total = if totals { rows.len() } else { 0 };
    let page: Vec<Value> = rows
        .into_iter()
        .skip(offset as usize)
        .take(size as usize)
        .map(|(_, _, v)| v)
        .collect();
    Ok(Json(
        json!({ "result": page, "pagination": { "offset": offset, "pageSize": size, "totalCount": total }, "error": null }),
    ))
}

/// `limit` / `offset` of `GET /change-history/{detailId}`.
#[derive(Debug, Deserialize)]
pub struct DetailPage {
    limit: Option<String>,
    offset: Option<String>,
}

/// `GET /change-history/{detailId}`: the field changes of one event (by its detail id; a
/// transaction id also answers each of its events), `limit` (1–1000, default 1000) of them
/// from `offset`; `totalCount` counts the field changes.
async fn history_detail(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
    axum::extract::Query(p): axum::extract::Query<DetailPage>,
) -> Result<Json<Value>, ApiError> {
    let number =
        |v: &Option<String>, field: &str, min: i64, max: i64, default: i64| match v.as_deref() {
            None => Ok(default),
            Some(t) => t
                .trim()
                .parse::<i64>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| {
                    ApiError::invalid(
                        "INVALID_VALUE",
                        field,
                        format!("{field} must be a whole number from {min} to {max}"),
                    )
                }),
        };
    let limit = number(&p.limit, "limit", 1, 1000, 1000)? as usize;
    let offset = number(&p.offset, "offset", 0, i64::MAX, 0)? as usize;
    let w = s.world.read();
    let events: Vec<&AuditEvent> = w
        .audit
        .iter()
        .filter(|e| e.ad_account_id == ctx.0 && (e.txn == id || e.detail_id == id))
        .collect();
    if events.is_empty() {
        return Err(ApiError::not_found("change detail", id));
    }
    let total: usize = events.iter().map(|e| e.changes.len()).sum();
    // The field changes `offset..offset + limit`, counted across the events in order.
    let mut skip = offset;
    let mut left = limit;
    let mut details = Vec::new();
    for e in events {
        let n = e.changes.len();
        if skip >= n && n > 0 {
            skip -= n;
            continue;
        }
        let changes: Vec<Value> = e
            .changes
            .iter()
            .skip(skip)
            .take(left)
            .map(|(f, o, n)| json!({ "field": f, "oldValues": o, "newValues": n }))
            .collect();
        skip = 0;
        left -= changes.len();
        details.push(json!({
            "transactionId": e.txn, "detailId": e.detail_id, "eventType": e.event, "entityType": e.entity_type,
            "entityId": e.entity_id.to_string(), "eventTime": timestamp(e.time), "userType": e.user_type,
            "modifiedBy": e.modified_by, "entityMetaData": e.meta,
            "details": [{ "transactionId": e.txn, "changes": changes }],
        }));
        if left == 0 {
            break;
        }
    }
    Ok(Json(
        json!({ "result": details, "pagination": { "offset": offset, "pageSize": limit, "totalCount": total }, "error": null }),
    ))
}
