//! `AppsReportingRequest` parsing and checks: time range and granularity, filters on ids,
//! requested fields, sorting, pagination and `options.includeRows`.

use serde::Deserialize;
use serde_json::Value;
use time::{Date, macros::format_description};

use super::error::ApiError;
use super::query::{MAX_PAGE_SIZE, SortOrder};

/// Metric names of `AppsMetrics` (besides `date`).
pub const METRICS: &[&str] = &[
    "localSpend",
    "impressions",
    "taps",
    "ttr",
    "cpt",
    "cpm",
    "tapInstalls",
    "tapInstallCPI",
    "totalNewDownloads",
    "totalRedownloads",
    "viewInstalls",
    "totalInstalls",
    "tapNewDownloads",
    "tapRedownloads",
    "viewNewDownloads",
    "viewRedownloads",
    "totalAvgCPI",
    "totalInstallRate",
    "tapInstallRate",
    "tapPreOrdersPlaced",
    "viewPreOrdersPlaced",
    "totalPreOrdersPlaced",
];

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportRequest {
    pub pagination: Option<Pagination>,
    pub sorting: Option<Vec<Sort>>,
    pub filters: Option<Vec<Filter>>,
    pub fields: Option<Vec<String>>,
    pub group_by: Option<Vec<String>>,
    pub time_range: Option<TimeRange>,
    pub options: Option<Options>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pagination {
    pub offset: Option<i64>,
    pub page_size: Option<i64>,
}

#[derive(Debug, Deserialize)]
pub struct Sort {
    pub field: Option<String>,
    pub order: Option<SortOrder>,
}

#[derive(Debug, Deserialize)]
pub struct Filter {
    pub field: Option<String>,
    pub operator: Option<String>,
    pub value: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TimeRange {
    pub start: Option<String>,
    pub end: Option<String>,
    pub time_zone: Option<String>,
    pub granularity: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Options {
    pub include_rows: Option<Vec<String>>,
}

/// Time buckets of `granularMetrics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Granularity {
    Daily,
    Weekly,
    Monthly,
}

/// A checked report request.
#[derive(Debug)]
pub struct Checked {
    pub start: Date,
    pub end: Date,
    pub granularity: Option<Granularity>,
    /// Id filters: field → allowed ids.
    pub ids: Vec<(String, Vec<i64>)>,
    pub fields: Option<Vec<String>>,
    pub sorting: Vec<(String, SortOrder)>,
    pub offset: u64,
    pub page_size: u64,
    pub grand_total: bool,
}

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
    /// Checks the request for a report whose filterable id fields are `id_fields`, of
    /// which `required` (if any) must be present.
    pub fn check(self, id_fields: &[&str], required: Option<&str>) -> Result<Checked, ApiError> {
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
        if let Some(tz) = range
            .time_zone
            .as_deref()
            .filter(|tz| !["UTC", "ORTZ"].contains(tz))
        {
            return Err(ApiError::invalid(
                "INVALID_ENUM_VALUE",
                "timeRange.timeZone",
                format!("unknown timeZone {tz}; expected UTC or ORTZ"),
            ));
        }
        let granularity = match range.granularity.as_deref() {
            None => None,
            Some("DAILY") => Some(Granularity::Daily),
            Some("WEEKLY") => Some(Granularity::Weekly),
            Some("MONTHLY") => Some(Granularity::Monthly),
            Some("HOURLY") => {
                return Err(ApiError::invalid(
                    "UNSUPPORTED_VALUE",
                    "timeRange.granularity",
                    "the sandbox keeps daily metrics; HOURLY is not simulated",
                ));
            }
            Some(other) => {
                return Err(ApiError::invalid(
                    "INVALID_ENUM_VALUE",
                    "timeRange.granularity",
                    format!(
                        "unknown granularity {other}; expected HOURLY, DAILY, WEEKLY or MONTHLY"
                    ),
                ));
            }
        };
        if granularity == Some(Granularity::Daily) && (end - start).whole_days() >= 90 {
            return Err(ApiError::invalid(
                "INVALID_DATE_RANGE",
                "timeRange",
                "DAILY granularity covers at most 90 days",
            ));
        }
        if let Some(g) = self.group_by.as_ref().filter(|g| !g.is_empty()) {
            return Err(ApiError::invalid(
                "UNSUPPORTED_VALUE",
                "groupBy",
                format!("groupBy {g:?} is not simulated by the sandbox yet"),
            ));
        }
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
            if !METRICS.contains(&field.as_str())
                && !["id", "name", "text"].contains(&field.as_str())
            {
                return Err(ApiError::invalid(
                    "INVALID_FIELD",
                    format!("sorting[{i}].field"),
                    format!("cannot sort on {field}"),
                ));
            }
            sorting.push((field, s.order.unwrap_or(SortOrder::Asc)));
        }
        let page_size = self
            .pagination
            .as_ref()
            .and_then(|p| p.page_size)
            .unwrap_or(20);
        let offset = self.pagination.as_ref().and_then(|p| p.offset).unwrap_or(0);
        if !(1..=MAX_PAGE_SIZE as i64).contains(&page_size) || offset < 0 {
            return Err(ApiError::invalid(
                "INVALID_PAGINATION",
                "pagination",
                format!("pageSize must be 1 to {MAX_PAGE_SIZE} and offset not negative"),
            ));
        }
        let grand_total = match self.options.and_then(|o| o.include_rows) {
            None => false,
            Some(rows) => match rows.iter().find(|r| r.as_str() != "GRAND_TOTAL") {
                Some(bad) => {
                    return Err(ApiError::invalid(
                        "INVALID_ENUM_VALUE",
                        "options.includeRows",
                        format!("unknown row kind {bad}; expected GRAND_TOTAL"),
                    ));
                }
                None => !rows.is_empty(),
            },
        };
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
        })
    }
}
