//! `AppsReportingRequest` parsing and checks: time range and granularity, filters on ids,
//! requested fields, sorting, pagination and `options.includeRows`.

use serde::Deserialize;
use serde_json::Value;
use time::{Date, macros::format_description};

use super::error::ApiError;
use super::query::SortOrder;
use crate::sim::dims::{Dim, REFERENCE_GROUP_BY};

/// Largest report page (`RequestPagination`: maximum 5000, default 100).
pub const MAX_REPORT_PAGE: i64 = 5000;
/// Report page size when none is given.
pub const DEFAULT_REPORT_PAGE: i64 = 100;

/// The report entities of `/reports/apps/{entity}/query`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entity {
    Campaign,
    AdGroup,
    Keyword,
    SearchTerm,
    Ad,
}

impl Entity {
    /// Id fields the report filters on, and the one it requires.
    pub fn id_filters(self) -> (&'static [&'static str], Option<&'static str>) {
        match self {
            Entity::Campaign => (&["campaignId"], None),
            Entity::AdGroup => (&["campaignId", "adGroupId"], Some("campaignId")),
            Entity::Keyword | Entity::SearchTerm => (
                &["campaignId", "adGroupId", "keywordId"],
                Some("campaignId"),
            ),
            Entity::Ad => (&["campaignId", "adGroupId", "adId"], Some("campaignId")),
        }
    }

    /// `groupBy` values the reference allows for this entity.
    fn allows(self, dim: &str) -> bool {
        match self {
            Entity::Campaign | Entity::AdGroup => true,
            Entity::Keyword | Entity::SearchTerm => {
                ["countryOrRegion", "deviceClass"].contains(&dim)
            }
            Entity::Ad => dim == "countryOrRegion",
        }
    }
}

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

impl Pagination {
    /// `(offset, pageSize)` of an optional pagination: pageSize defaults to `default` and
    /// must be 1 to `max`, offset defaults to 0 and must not be negative.
    pub fn checked(p: Option<&Self>, default: i64, max: i64) -> Result<(i64, i64), ApiError> {
        let size = p.and_then(|p| p.page_size).unwrap_or(default);
        let offset = p.and_then(|p| p.offset).unwrap_or(0);
        if !(1..=max).contains(&size) || offset < 0 {
            return Err(ApiError::invalid(
                "INVALID_PAGINATION",
                "pagination",
                format!("pageSize must be 1 to {max} and offset not negative"),
            ));
        }
        Ok((offset, size))
    }
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
    Hourly,
    Daily,
    Weekly,
    Monthly,
}

/// A checked report request.
#[derive(Debug, Clone)]
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
    pub empty_rows: bool,
    pub group_by: Vec<Dim>,
    /// `timeZone: UTC`: days are UTC days; otherwise (`ORTZ`, the default) the ad account's.
    pub utc: bool,
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
