//! A report request checked against the reference: its dates and granularity (the
//! longest range each granularity allows), its id filters (each field once, `EQUALS` or
//! `IN`), the fields it asks for, its sorting, pagination and `groupBy` dimensions;
//! anything else answers the error Apple answers.

use serde_json::Value;
use time::{Date, macros::format_description};

use super::{
    Checked, DEFAULT_REPORT_PAGE, Entity, Granularity, MAX_REPORT_PAGE, METRICS, Pagination,
    ReportRequest,
};
use crate::api::error::ApiError;
use crate::api::query::SortOrder;
use crate::sim::dims::{Dim, REFERENCE_GROUP_BY};

fn parse_date(s: Option<&str>, field: &str) -> Result<Date, ApiError> {
    let s = s.ok_or_else(|| ApiError::required(field))?;
    Date::parse(s, format_description!("[year]-[month]-[day]")).map_err(|_| {
        ApiError::invalid(
            "INVALID_VALUE",
            field,
            format!("{field} must be YYYY-MM-DD"),
        )
    })
}

fn ids(value: Option<&Value>, field: &str) -> Result<Vec<i64>, ApiError> {
    let as_id = |v: &Value| {
        v.as_i64()
            .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
    };
    let list: Vec<Option<i64>> = match value {
        Some(Value::Array(a)) => a.iter().map(as_id).collect(),
        Some(v) => vec![as_id(v)],
        None => vec![],
    };
    if list.is_empty() || list.iter().any(Option::is_none) {
        return Err(ApiError::invalid(
            "INVALID_VALUE",
            field,
            format!("{field} filter needs one or more ids"),
        ));
    }
    Ok(list.into_iter().flatten().collect())
}

impl ReportRequest {
    /// Checks the request for a report on `entity` as of the simulated `today`.
    pub fn check(self, entity: Entity, today: Date) -> Result<Checked, ApiError> {
        let (id_fields, required) = entity.id_filters();
        let range = self
            .time_range
            .as_ref()
            .ok_or_else(|| ApiError::required("timeRange"))?;
        let start = parse_date(range.start.as_deref(), "timeRange.start")?;
        let end = parse_date(range.end.as_deref(), "timeRange.end")?;
        if end < start {
            return Err(ApiError::invalid(
                "INVALID_DATE_RANGE",
                "timeRange.end",
                "timeRange.end must not be before timeRange.start",
            ));
        }
        let tz = range.time_zone.as_deref();
        let utc = tz == Some("UTC");
        if let Some(tz) = tz.filter(|tz| !["UTC", "ORTZ"].contains(tz)) {
            return Err(ApiError::invalid(
                "INVALID_ENUM_VALUE",
                "timeRange.timeZone",
                format!("unknown timeZone {tz}; expected UTC or ORTZ"),
            ));
        }
        if entity == Entity::SearchTerm && tz == Some("UTC") {
            return Err(unsupported(
                "timeRange.timeZone",
                "UTC is not supported for search term reports; use ORTZ",
            ));
        }
        let granularity = granularity(range.granularity.as_deref(), entity)?;
        check_range(granularity, start, end, today)?;
        let group_by = group_by(self.group_by.as_deref(), entity, granularity)?;
        let mut filters = Vec::new();
        for (i, f) in self.filters.unwrap_or_default().iter().enumerate() {
            let field = f
                .field
                .clone()
                .ok_or_else(|| ApiError::required(&format!("filters[{i}].field")))?;
            if !id_fields.contains(&field.as_str()) {
                return Err(ApiError::invalid(
                    "INVALID_FIELD",
                    format!("filters[{i}].field"),
                    format!(
                        "cannot filter on {field}; expected one of {}",
                        id_fields.join(", ")
                    ),
                ));
            }
            match f.operator.as_deref() {
                Some("EQUALS" | "IN") => {}
                Some(op) => {
                    return Err(ApiError::invalid(
                        "UNSUPPORTED_OPERATOR",
                        format!("filters[{i}].operator"),
                        format!("operator {op} is not supported on {field}; use EQUALS or IN"),
                    ));
                }
                None => return Err(ApiError::required(&format!("filters[{i}].operator"))),
            }
            filters.push((
                field.clone(),
                ids(f.value.as_ref(), &format!("filters[{i}].value"))?,
            ));
        }
        if let Some(r) = required.filter(|r| !filters.iter().any(|(f, _)| f == r)) {
            return Err(ApiError::invalid(
                "MISSING_REQUIRED_FILTER",
                "filters",
                format!("a {r} filter is required"),
            ));
        }
        if let Some(fields) = &self.fields
            && let Some(bad) = fields.iter().find(|f| !METRICS.contains(&f.as_str()))
        {
            return Err(ApiError::invalid(
                "INVALID_FIELD",
                "fields",
                format!("unknown metric {bad}"),
            ));
        }
        let mut sorting = Vec::new();
        for (i, s) in self.sorting.unwrap_or_default().into_iter().enumerate() {
            let field = s
                .field
                .ok_or_else(|| ApiError::required(&format!("sorting[{i}].field")))?;
            if !METRICS.contains(&field.as_str()) && !SORT_FIELDS.contains(&field.as_str()) {
                return Err(ApiError::invalid(
                    "INVALID_FIELD",
                    format!("sorting[{i}].field"),
                    format!("cannot sort on {field}"),
                ));
            }
            sorting.push((field, s.order.unwrap_or(SortOrder::Asc)));
        }
        let (offset, page_size) = Pagination::checked(
            self.pagination.as_ref(),
            DEFAULT_REPORT_PAGE,
            MAX_REPORT_PAGE,
        )?;
        let rows = self
            .options
            .and_then(|o| o.include_rows)
            .unwrap_or_default();
        if let Some(bad) = rows
            .iter()
            .find(|r| !["GRAND_TOTAL", "EMPTY_METRICS"].contains(&r.as_str()))
        {
            return Err(ApiError::invalid(
                "INVALID_ENUM_VALUE",
                "options.includeRows",
                format!("unknown row kind {bad}; expected GRAND_TOTAL or EMPTY_METRICS"),
            ));
        }
        if entity == Entity::SearchTerm && !rows.is_empty() {
            return Err(unsupported(
                "options.includeRows",
                "includeRows is not supported for search term reports",
            ));
        }
        let grand_total = rows.iter().any(|r| r == "GRAND_TOTAL");
        let empty_rows = rows.iter().any(|r| r == "EMPTY_METRICS");
        Ok(Checked {
            start,
            end,
            granularity,
            ids: filters,
            fields: self.fields,
            sorting,
            offset: offset as u64,
            page_size: page_size as u64,
            grand_total,
            empty_rows,
            group_by,
            utc,
        })
    }
}

/// Fields besides metrics that report rows sort on (metadata and dimension values).
pub const SORT_FIELDS: &[&str] = &[
    "id",
    "name",
    "text",
    "searchTermText",
    "countryOrRegion",
    "deviceClass",
    "gender",
    "ageRange",
    "countryCode",
];

fn unsupported(field: &str, message: impl Into<String>) -> ApiError {
    ApiError::invalid("UNSUPPORTED_VALUE", field, message)
}

fn granularity(value: Option<&str>, entity: Entity) -> Result<Option<Granularity>, ApiError> {
    let field = "timeRange.granularity";
    Ok(match value {
        None => None,
        Some("HOURLY") if matches!(entity, Entity::SearchTerm | Entity::Ad) => {
            return Err(unsupported(
                field,
                "HOURLY granularity is not supported for search term and ad reports",
            ));
        }
        Some("HOURLY") => Some(Granularity::Hourly),
        Some("DAILY") => Some(Granularity::Daily),
        Some("WEEKLY") => Some(Granularity::Weekly),
        Some("MONTHLY") => Some(Granularity::Monthly),
        Some(other) => {
            return Err(ApiError::invalid(
                "INVALID_ENUM_VALUE",
                field,
                format!("unknown granularity {other}; expected HOURLY, DAILY, WEEKLY or MONTHLY"),
            ));
        }
    })
}

/// The reference's limits on the range for each granularity, relative to `today`.
fn check_range(
    g: Option<Granularity>,
    start: Date,
    end: Date,
    today: Date,
) -> Result<(), ApiError> {
    let ago = |d: Date| (today - d).whole_days();
    let bad = |message: &str| {
        Err(ApiError::invalid(
            "INVALID_DATE_RANGE",
            "timeRange",
            message,
        ))
    };
    match g {
        Some(Granularity::Hourly) if ago(start) > 7 => {
            bad("HOURLY granularity: start must be within the last 7 days")
        }
        Some(Granularity::Daily) if ago(start) > 90 => {
            bad("DAILY granularity: start must be within the last 90 days")
        }
        Some(Granularity::Weekly) if ago(start) > 365 || ago(end) < 14 => bad(
            "WEEKLY granularity: start within the last 365 days, end at least 14 days in the past",
        ),
        Some(Granularity::Monthly) if ago(end) < 90 => {
            bad("MONTHLY granularity: end must be at least 90 days in the past")
        }
        _ => Ok(()),
    }
}

fn group_by(
    values: Option<&[String]>,
    entity: Entity,
    g: Option<Granularity>,
) -> Result<Vec<Dim>, ApiError> {
    let mut dims = Vec::new();
    for (i, v) in values.unwrap_or_default().iter().enumerate() {
        let field = format!("groupBy[{i}]");
        if !REFERENCE_GROUP_BY.contains(&v.as_str()) {
            return Err(ApiError::invalid(
                "INVALID_ENUM_VALUE",
                field,
                format!(
                    "unknown groupBy {v}; expected one of {}",
                    REFERENCE_GROUP_BY.join(", ")
                ),
            ));
        }
        if !entity.allows(v) {
            return Err(unsupported(
                &field,
                format!("groupBy {v} is not supported for this report"),
            ));
        }
        if g == Some(Granularity::Hourly)
            && !["countryOrRegion", "deviceClass"].contains(&v.as_str())
        {
            return Err(unsupported(
                &field,
                format!("groupBy {v} is not supported with HOURLY granularity"),
            ));
        }
        let dim = Dim::parse(v).ok_or_else(|| {
            unsupported(
                &field,
                format!("the sandbox does not simulate groupBy {v} (no locations below countries)"),
            )
        })?;
        if !dims.contains(&dim) {
            dims.push(dim);
        }
    }
    Ok(dims)
}
