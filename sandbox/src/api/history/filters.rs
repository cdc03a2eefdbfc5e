//! The change-history query read: each filter checked against the fields and operators
//! the reference allows (an `eventTime` bound parsed in the ad account's zone unless it
//! carries its own), an event passed through the checked filters, and the rows' sort
//! order.

use std::cmp::Ordering;

use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::{AuditFilter, AuditQuery, Operator};
use crate::api::error::ApiError;
use crate::api::query::SortOrder;
use crate::world::World;
use crate::world::audit::AuditEvent;

/// Fields a filter may name besides `eventTime`.
pub(super) const FIELDS: &[&str] = &[
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
pub(super) const SORTS: &[&str] = &[
    "eventTime",
    "transactionId",
    "eventType",
    "entityType",
    "count",
];

/// One checked filter.
pub(super) enum Check {
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
pub(super) fn instant(
    v: &Value,
    field: &str,
    zone: Option<&str>,
) -> Result<OffsetDateTime, ApiError> {
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

pub(super) fn check(i: usize, f: &AuditFilter, zone: Option<&str>) -> Result<Check, ApiError> {
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

pub(super) fn passes(w: &World, e: &AuditEvent, checks: &[Check]) -> bool {
    checks.iter().all(|c| match c {
        Check::Among(field, vals) => field_of(w, e, field).is_some_and(|v| vals.contains(&v)),
        Check::Time(from, to) => from.is_none_or(|f| e.time >= f) && to.is_none_or(|t| e.time <= t),
    })
}

/// Checked `(field, descending)` sorts; newest first by default.
pub(super) fn sorts(q: &AuditQuery) -> Result<Vec<(&'static str, bool)>, ApiError> {
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
pub(super) type Row = (OffsetDateTime, usize, Value);

/// Orders two rows by the checked sorts.
pub(super) fn order(a: &Row, b: &Row, sorts: &[(&str, bool)]) -> Ordering {
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
