//! The activity log's filters (`GET accountsActions/all`'s query): the page, the tag, the
//! campaign name searched, the caller's days in their offset from UTC, unread only, one
//! connection or campaign group — each checked, every invalid one named at once.

use searchdeck_common::store::activity::notifications::{self, TAGS};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::error::{ApiError, ApiResult, FieldError};

/// The query of `GET /api/accountsActions/all`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Page size (1–200, default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
    /// Notifications to skip (≥ 0, default 0).
    #[param(minimum = 0)]
    pub skip: Option<i64>,
    /// `manual_change`, `quick_start`, `auto_rules`, `goal_optimization` or `team`; omitted
    /// for all.
    pub tag: Option<String>,
    /// Matched case-insensitively anywhere in the name of a campaign it touched (trimmed).
    #[serde(rename = "campaignName")]
    pub campaign_name: Option<String>,
    /// YYYY-MM-DD, the caller's day (with `toDate`).
    #[serde(rename = "fromDate")]
    pub from_date: Option<String>,
    /// YYYY-MM-DD, inclusive (with `fromDate`).
    #[serde(rename = "toDate")]
    pub to_date: Option<String>,
    /// The caller's offset from UTC in minutes (120 for UTC+2; −840…840, default 0).
    #[serde(rename = "GMT")]
    #[param(rename = "GMT", minimum = -840, maximum = 840)]
    pub gmt: Option<i64>,
    /// `true`: only those the caller has not read.
    #[serde(rename = "new")]
    #[param(rename = "new")]
    pub new_only: Option<bool>,
    /// One connection.
    #[serde(rename = "accountId")]
    pub account_id: Option<String>,
    /// One campaign group (Apple's id).
    #[serde(rename = "orgId")]
    #[param(pattern = "^[0-9]{1,19}$")]
    pub org_id: Option<String>,
}

/// A date of the query, `YYYY-MM-DD`.
fn date(field: &str, v: &str, errors: &mut Vec<FieldError>) -> Option<time::Date> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    match time::Date::parse(v.trim(), &format) {
        Ok(d) => Some(d),
        Err(_) => {
            errors.push(FieldError::new(field, "Must be a date YYYY-MM-DD"));
            None
        }
    }
}

/// The checked query: page, filter parts.
pub(super) struct Checked {
    pub(super) limit: i64,
    pub(super) skip: i64,
    pub(super) tag: Option<&'static str>,
    pub(super) search: Option<String>,
    pub(super) bounds: Option<(i64, i64)>,
    pub(super) unread: bool,
    pub(super) account_id: Option<String>,
    pub(super) org_id: Option<i64>,
}

pub(super) fn check(q: &ListQuery) -> ApiResult<Checked> {
    let mut errors = Vec::new();
    let limit = q.limit.unwrap_or(50);
    if !(1..=200).contains(&limit) {
        errors.push(FieldError::new("limit", "Between 1 and 200"));
    }
    let skip = q.skip.unwrap_or(0);
    if skip < 0 {
        errors.push(FieldError::new("skip", "Must be at least 0"));
    }
    let tag = match q.tag.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(t) => match TAGS.iter().find(|k| **k == t) {
            Some(k) => Some(*k),
            None => {
                errors.push(FieldError::new(
                    "tag",
                    "One of manual_change, quick_start, auto_rules, goal_optimization, team",
                ));
                None
            }
        },
    };
    let gmt = q.gmt.unwrap_or(0);
    if !(-840..=840).contains(&gmt) {
        errors.push(FieldError::new("GMT", "Between -840 and 840 minutes"));
    }
    let bounds = match (q.from_date.as_deref(), q.to_date.as_deref()) {
        (None, None) => None,
        (Some(from), Some(to)) => {
            let from = date("fromDate", from, &mut errors);
            let to = date("toDate", to, &mut errors);
            match (from, to) {
                (Some(f), Some(t)) if f > t => {
                    errors.push(FieldError::new("fromDate", "Must not be after toDate"));
                    None
                }
                (Some(f), Some(t)) => Some(notifications::day_bounds(f, t, gmt)),
                _ => None,
            }
        }
        (None, Some(_)) => {
            errors.push(FieldError::new("fromDate", "Give both dates or neither"));
            None
        }
        (Some(_), None) => {
            errors.push(FieldError::new("toDate", "Give both dates or neither"));
            None
        }
    };
    let org_id = match q.org_id.as_deref() {
        None => None,
        Some(o) => match o.trim().parse::<i64>() {
            Ok(id) if id > 0 => Some(id),
            _ => {
                errors.push(FieldError::new("orgId", "Must be a campaign group id"));
                None
            }
        },
    };
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    Ok(Checked {
        limit,
        skip,
        tag,
        search: q
            .campaign_name
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string),
        bounds,
        unread: q.new_only.unwrap_or(false),
        account_id: q.account_id.clone().filter(|a| !a.trim().is_empty()),
        org_id,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(q: ListQuery) -> Vec<String> {
        match check(&q) {
            Err(ApiError::Status { errors, .. }) => errors.into_iter().map(|e| e.field).collect(),
            _ => Vec::new(),
        }
    }

    fn dates(from: &str, to: &str) -> ListQuery {
        ListQuery {
            from_date: Some(from.into()),
            to_date: Some(to.into()),
            ..ListQuery::default()
        }
    }

    #[test]
    fn the_query_is_checked_field_by_field() {
        let tag = ListQuery {
            tag: Some("nope".into()),
            ..ListQuery::default()
        };
        assert_eq!(fields(tag), ["tag"]);
        let single = ListQuery {
            from_date: Some("2026-11-01".into()),
            ..ListQuery::default()
        };
        assert_eq!(fields(single), ["toDate"]);
        assert_eq!(fields(dates("2026-11-30", "2026-11-01")), ["fromDate"]);
        assert_eq!(fields(dates("2026-13-01", "2026-11-01")), ["fromDate"]);
        let gmt = ListQuery {
            gmt: Some(900),
            limit: Some(0),
            ..ListQuery::default()
        };
        assert_eq!(fields(gmt), ["limit", "GMT"]);
        let ok = ListQuery {
            gmt: Some(120),
            campaign_name: Some("  br  ".into()),
            ..dates("2026-11-27", "2026-11-27")
        };
        let ok = check(&ok).unwrap_or_else(|_| panic!("a valid query"));
        assert_eq!(
            ok.bounds,
            Some((1_795_737_600 - 7_200, 1_795_737_600 + 86_400 - 7_200))
        );
        assert_eq!(ok.search.as_deref(), Some("br"));
    }
}
