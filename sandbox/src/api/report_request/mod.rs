//! `AppsReportingRequest` parsing and checks: time range and granularity, filters on ids,
//! requested fields, sorting, pagination and `options.includeRows`.

use serde::Deserialize;
use serde_json::Value;
use time::Date;

mod check;

use super::error::ApiError;
use super::query::SortOrder;
use crate::sim::dims::Dim;
pub use check::SORT_FIELDS;

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
