//! The report request: the body as sent ([`ReportBody`]) and its validated form
//! ([`Query`]). Every problem is reported with its field, never a 500.

use serde::{Deserialize, Serialize};
use time::{Date, macros::format_description};

use super::{FieldError, Filter, FilterIn, Level, Scope, filter::Field};

/// Default page size (docs/product.md#2-tables).
pub const DEFAULT_PAGE_SIZE: u32 = 50;
/// Largest page.
pub const MAX_PAGE_SIZE: u32 = 1000;
/// Longest range a report covers (two years of history are synced at most).
pub const MAX_RANGE_DAYS: i64 = 800;

/// Sort order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema, Default)]
#[serde(rename_all = "lowercase")]
pub enum SortOrder {
    Asc,
    #[default]
    Desc,
}

/// `{field, order}`: any column or metric of the level.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SortIn {
    pub field: String,
    /// `asc` or `desc` (the default); `ASC` and `DESC` are accepted too.
    #[serde(default)]
    pub order: Option<String>,
}

/// The body of `POST /api/asa/reports`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportBody {
    /// ACCOUNTS, ORGS, CAMPAIGNS, GROUPS, KEYWORDS, NEGATIVE, SEARCHTERMS or ADS.
    #[schema(value_type = super::Level, required = true)]
    pub level: Option<String>,
    /// First day, YYYY-MM-DD, in the campaign group's time zone.
    #[schema(value_type = crate::ids::Day, required = true)]
    pub start_date: Option<String>,
    /// Last day (inclusive), YYYY-MM-DD.
    #[schema(value_type = crate::ids::Day, required = true)]
    pub end_date: Option<String>,
    #[serde(default)]
    pub filters: Vec<FilterIn>,
    pub sort: Option<SortIn>,
    /// 1-based page (default 1).
    #[schema(minimum = 1, maximum = 1000000)]
    pub page: Option<i64>,
    /// Rows per page (default 50, at most 1000).
    #[schema(minimum = 1, maximum = 1000)]
    pub page_size: Option<i64>,
    /// Whether to answer one graph point per day.
    #[serde(default)]
    pub graph: bool,
    /// Narrows GROUPS, KEYWORDS, NEGATIVE, SEARCHTERMS and ADS to one campaign (an id as a
    /// string of digits; a JSON integer is accepted too).
    #[serde(default, with = "crate::ids::string_id::option")]
    #[schema(value_type = Option<crate::ids::AppleId>)]
    pub campaign_id: Option<i64>,
    /// Narrows KEYWORDS, NEGATIVE, SEARCHTERMS and ADS to one ad group (the ad-group views);
    /// a string of digits or a JSON integer.
    #[serde(default, with = "crate::ids::string_id::option")]
    #[schema(value_type = Option<crate::ids::AppleId>)]
    pub ad_group_id: Option<i64>,
    /// CAMPAIGNS: also list the campaigns hidden with `asa/campaigns/mark-hidden` (their
    /// rows say `hidden: true`). By default they are left out of the rows, `total`, `totals`
    /// and the graph. Other levels ignore it.
    #[serde(default)]
    pub include_hidden: bool,
    /// ACCOUNTS and ORGS: also answer the totals and the graph's money converted to this
    /// currency (ISO 4217) at the stored daily reference rates (`converted`). Other levels
    /// ignore it.
    #[serde(default)]
    pub reporting_currency: Option<String>,
}

/// An inclusive range of days.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateRange {
    pub from: Date,
    pub to: Date,
}

impl DateRange {
    /// Every day of the range.
    pub fn days(&self) -> impl Iterator<Item = Date> + use<> {
        let (mut d, to) = (Some(self.from), self.to);
        std::iter::from_fn(move || {
            let day = d.filter(|day| *day <= to)?;
            d = day.next_day();
            Some(day)
        })
    }
}

/// A validated report request.
#[derive(Debug, Clone)]
pub struct Query {
    pub level: Level,
    pub range: DateRange,
    pub filters: Vec<Filter>,
    /// The sort field (validated against the level by the engine) and whether descending.
    pub sort: Option<(String, bool)>,
    pub page: u32,
    pub page_size: u32,
    pub graph: bool,
    pub scope: Scope,
    /// Whether CAMPAIGNS lists hidden campaigns too.
    pub include_hidden: bool,
    /// The currency ACCOUNTS and ORGS money is also converted to (upper case).
    pub reporting_currency: Option<String>,
}

fn day(field: &str, value: Option<&str>, errors: &mut Vec<FieldError>) -> Option<Date> {
    let format = format_description!("[year]-[month]-[day]");
    match value.map(str::trim) {
        None | Some("") => {
            errors.push(FieldError::new(
                field,
                "Please complete this field to continue",
            ));
            None
        }
        Some(v) => match Date::parse(v, &format) {
            Ok(d) => Some(d),
            Err(_) => {
                errors.push(FieldError::new(field, "Must be a date as YYYY-MM-DD"));
                None
            }
        },
    }
}

impl ReportBody {
    /// The validated query, or every invalid field.
    pub fn parse(&self) -> Result<Query, Vec<FieldError>> {
        let mut errors = Vec::new();
        let level = match self.level.as_deref().map(str::trim) {
            None | Some("") => {
                errors.push(FieldError::new(
                    "level",
                    "Please complete this field to continue",
                ));
                None
            }
            Some(l) => Level::parse(l).or_else(|| {
                errors.push(FieldError::new("level", "Unknown level"));
                None
            }),
        };
        let from = day("startDate", self.start_date.as_deref(), &mut errors);
        let to = day("endDate", self.end_date.as_deref(), &mut errors);
        if let (Some(f), Some(t)) = (from, to) {
            if f > t {
                errors.push(FieldError::new(
                    "endDate",
                    "The end date is before the start date",
                ));
            } else if (t - f).whole_days() >= MAX_RANGE_DAYS {
                errors.push(FieldError::new(
                    "endDate",
                    "The range is longer than 800 days",
                ));
            }
        }
        let mut filters = Vec::new();
        for (i, f) in self.filters.iter().enumerate() {
            match Filter::parse(i, f) {
                Ok(f)
                    if f.field == Field::Popularity
                        && level.is_some_and(|l| !l.has_popularity()) =>
                {
                    let key = if self.filters[i].field.is_some() {
                        "field"
                    } else {
                        "metric"
                    };
                    errors.push(FieldError::new(
                        format!("filters[{i}].{key}"),
                        "This level has no popularity",
                    ));
                }
                Ok(f)
                    if matches!(f.field, Field::Conversion(_))
                        && level.is_some_and(|l| !l.has_conversions()) =>
                {
                    let key = if self.filters[i].field.is_some() {
                        "field"
                    } else {
                        "metric"
                    };
                    errors.push(FieldError::new(
                        format!("filters[{i}].{key}"),
                        "This level has no conversions",
                    ));
                }
                Ok(f) => filters.push(f),
                Err(e) => errors.push(e),
            }
        }
        let sort = match &self.sort {
            None => None,
            Some(s) if s.field.trim().is_empty() => {
                errors.push(FieldError::new(
                    "sort.field",
                    "Please complete this field to continue",
                ));
                None
            }
            Some(s) => {
                let desc = match s.order.as_deref().map(str::to_ascii_lowercase).as_deref() {
                    None | Some("desc") => true,
                    Some("asc") => false,
                    Some(_) => {
                        errors.push(FieldError::new("sort.order", "Must be asc or desc"));
                        true
                    }
                };
                Some((s.field.trim().to_string(), desc))
            }
        };
        let page = match self.page {
            None => 1,
            Some(p) if (1..=1_000_000).contains(&p) => p as u32,
            Some(_) => {
                errors.push(FieldError::new("page", "Must be 1 or more"));
                1
            }
        };
        let page_size = match self.page_size {
            None => DEFAULT_PAGE_SIZE,
            Some(p) if (1..=i64::from(MAX_PAGE_SIZE)).contains(&p) => p as u32,
            Some(_) => {
                errors.push(FieldError::new("pageSize", "Must be between 1 and 1000"));
                DEFAULT_PAGE_SIZE
            }
        };
        let reporting_currency = match self.reporting_currency.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(code) if crate::money::currency::of(code).is_some() => {
                Some(code.to_ascii_uppercase())
            }
            Some(_) => {
                errors.push(FieldError::new("reportingCurrency", "Unknown currency"));
                None
            }
        };
        if let Some(level) = level {
            let campaign_ok = !matches!(level, Level::Accounts | Level::Orgs);
            let group_ok = !matches!(
                level,
                Level::Accounts | Level::Orgs | Level::Campaigns | Level::Groups
            );
            if self.campaign_id.is_some() && !campaign_ok {
                errors.push(FieldError::new(
                    "campaignId",
                    "This level has no campaign scope",
                ));
            }
            if self.ad_group_id.is_some() && !group_ok {
                errors.push(FieldError::new(
                    "adGroupId",
                    "This level has no ad group scope",
                ));
            }
        }
        match (level, from, to, errors.is_empty()) {
            (Some(level), Some(from), Some(to), true) => Ok(Query {
                level,
                range: DateRange { from, to },
                filters,
                sort,
                page,
                page_size,
                graph: self.graph,
                scope: Scope {
                    campaign_id: self.campaign_id,
                    ad_group_id: self.ad_group_id,
                },
                include_hidden: self.include_hidden,
                reporting_currency,
            }),
            _ => Err(errors),
        }
    }
}

impl Query {
    /// A query for [`totals`](super::totals): every row of `level` in `scope` over `range`
    /// matching `filters` (no sort, no page, no graph), hidden campaigns included (totals
    /// per campaign group and account count every campaign's spend).
    pub fn totals(level: Level, range: DateRange, scope: Scope, filters: Vec<Filter>) -> Query {
        Query {
            level,
            range,
            filters,
            sort: None,
            page: 1,
            page_size: MAX_PAGE_SIZE,
            graph: false,
            scope,
            include_hidden: true,
            reporting_currency: None,
        }
    }
}
