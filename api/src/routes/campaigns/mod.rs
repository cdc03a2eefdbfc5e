//! The report area's routes besides the drill-down table (`asa/reports`): campaign and ad
//! group reads for pickers, filters and settings panels (`entities`), hiding campaigns and
//! counting their active keywords (`hidden`), a campaign row's additional info (`info`), the
//! provider's change history (`changes`), and totals per connection and per campaign group
//! with spend and impression forecasts (`totals`).
//!
//! Everything reads the synced tables (migration `20261123000000_synced_entities`) through
//! [`store::campaign_views`]. Scope (docs/product.md#7-account-query: "The account query uses
//! accountId and orgId"):
//! - routes addressed by the `accountId` query resolve the connection through
//!   [`InWorkspace<QueriedAccount>`](crate::access::QueriedAccount) (another
//!   workspace's account answers 404); `orgId` narrows to one campaign group and must be
//!   one of the account's (else 400 on `orgId`); without it every synced campaign group the
//!   connection uses is in scope;
//! - routes addressed by a campaign id in the path resolve it among the campaigns synced for
//!   the caller's workspace ([`Campaign`](crate::access::Campaign); another workspace's campaign answers 404), and the
//!   optional `accountId` / `orgId` query narrows it when two connections reach the same
//!   campaign group.

pub mod changes;
pub mod entities;
pub mod hidden;
pub mod info;
pub mod totals;

use std::collections::HashMap;

use rust_decimal::Decimal;
use searchdeck_common::store::{self, accounts::AccountRow, synced::SyncOrg};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{error::ApiError, state::AppState};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(entities::router())
        .merge(hidden::router())
        .merge(info::router())
        .merge(changes::router())
        .merge(totals::router())
}

/// Message of an `orgId` that is not a campaign group of the account.
pub const ORG_NOT_IN_ACCOUNT: &str = "This campaign group is not in the account";

/// The synced campaign groups a request reads: one connection's, narrowed by `orgId`.
#[derive(Debug)]
pub struct Scope {
    pub account: AccountRow,
    /// The synced campaign groups in scope, by org id.
    pub orgs: Vec<SyncOrg>,
    /// Display names of the account's campaign groups, by org id.
    pub names: HashMap<i64, String>,
}

impl Scope {
    /// The campaign groups of `account` in scope: the one named by `org_id` (which must be one
    /// of the account's, cached or synced), else every synced one the connection uses (all
    /// but those unselected in `account/addAccountIds`).
    pub async fn resolve(
        state: &AppState,
        account: AccountRow,
        org_id: Option<i64>,
    ) -> Result<Scope, ApiError> {
        let cached = store::accounts::orgs(&state.db.pool, &account.id).await?;
        let synced = store::synced::orgs_of(&state.db.pool, &account.id).await?;
        let names = cached
            .iter()
            .map(|o| (o.org_id, o.display_name.clone()))
            .collect();
        let orgs = match org_id {
            Some(id) => {
                let known =
                    cached.iter().any(|o| o.org_id == id) || synced.iter().any(|o| o.org_id == id);
                if !known {
                    return Err(ApiError::field("orgId", ORG_NOT_IN_ACCOUNT));
                }
                synced.into_iter().filter(|o| o.org_id == id).collect()
            }
            None => synced
                .into_iter()
                .filter(|o| !cached.iter().any(|c| c.org_id == o.org_id && !c.selected))
                .collect(),
        };
        Ok(Scope {
            account,
            orgs,
            names,
        })
    }

    /// The campaign group of `org_key`, if in scope.
    pub fn org(&self, org_key: i64) -> Option<&SyncOrg> {
        self.orgs.iter().find(|o| o.org_key == org_key)
    }
}

/// The Growth-only metrics (docs/product.md#6-growth-only-metrics) of an answer that the
/// workspace's plan locks: all of `metrics` unless the plan is Growth (or a trial of it, or
/// Agency), else none. The answer leaves them null and lists them in its `locked`.
pub async fn growth_locked(
    state: &AppState,
    workspace_id: &str,
    metrics: &[&str],
) -> Result<Vec<String>, ApiError> {
    let plan = state.engines.plan(&state.db, workspace_id).await?;
    Ok(if plan.has_growth() {
        Vec::new()
    } else {
        metrics.iter().map(|m| m.to_string()).collect()
    })
}

/// An amount of money as Apple Ads writes it (spec §3 `dailyBudgetAmount`, `cpaGoal`): a
/// decimal string in the campaign group's currency.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Money {
    /// Decimal amount, exact (no trailing zeros), e.g. `"12.5"`.
    pub amount: String,
    /// ISO currency code of the campaign group.
    pub currency: String,
}

impl Money {
    /// `micros` millionths of `currency`, exactly.
    pub fn from_micros(micros: i64, currency: Option<&str>) -> Money {
        Money {
            amount: Decimal::new(micros, 6).normalize().to_string(),
            currency: currency.unwrap_or_default().to_string(),
        }
    }
}

/// A date `YYYY-MM-DD` from field `field`, or 400 on that field.
pub fn parse_day(field: &str, raw: Option<&str>) -> Result<time::Date, ApiError> {
    let raw = raw.map(str::trim).filter(|s| !s.is_empty());
    let Some(raw) = raw else {
        return Err(ApiError::field(field, crate::domain::REQUIRED));
    };
    time::Date::parse(
        raw,
        time::macros::format_description!("[year]-[month]-[day]"),
    )
    .map_err(|_| ApiError::field(field, &format!("{field} must be a date YYYY-MM-DD")))
}

/// `day` as `YYYY-MM-DD`.
pub fn day_text(day: time::Date) -> String {
    format!(
        "{:04}-{:02}-{:02}",
        day.year(),
        u8::from(day.month()),
        day.day()
    )
}

/// A checked inclusive date range `startDate..=endDate`: both required, start not after
/// end, at most [`MAX_RANGE_DAYS`] days.
pub fn parse_range(
    start: Option<&str>,
    end: Option<&str>,
) -> Result<(time::Date, time::Date), ApiError> {
    let from = parse_day("startDate", start)?;
    let to = parse_day("endDate", end)?;
    if to < from {
        return Err(ApiError::field(
            "endDate",
            "endDate must not be before startDate",
        ));
    }
    if (to - from).whole_days() >= MAX_RANGE_DAYS {
        return Err(ApiError::field(
            "endDate",
            &format!("A date range spans at most {MAX_RANGE_DAYS} days"),
        ));
    }
    Ok((from, to))
}

/// Longest date range of a totals request: the two years of history a sync keeps, plus one.
pub const MAX_RANGE_DAYS: i64 = 731;

/// `servingStatus` of a synced entity: the provider's own when the synced body has one,
/// else RUNNING when its display status is, else NOT_RUNNING.
pub fn serving_status(body: &serde_json::Value, display_status: Option<&str>) -> String {
    body["servingStatus"]
        .as_str()
        .map(str::to_string)
        .unwrap_or_else(|| {
            if display_status == Some("RUNNING") {
                "RUNNING".into()
            } else {
                "NOT_RUNNING".into()
            }
        })
}

/// The synced JSON body of an entity (`null` when absent or unreadable).
pub fn body_of(body: Option<&str>) -> serde_json::Value {
    body.and_then(|b| serde_json::from_str(b).ok())
        .unwrap_or(serde_json::Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_is_exact_and_ranges_are_checked() {
        assert_eq!(Money::from_micros(12_500_000, Some("USD")).amount, "12.5");
        assert_eq!(Money::from_micros(1, Some("USD")).amount, "0.000001");
        assert_eq!(Money::from_micros(0, None).amount, "0");
        assert!(parse_range(Some("2026-11-01"), Some("2026-11-30")).is_ok());
        for (s, e) in [
            (None, Some("2026-11-01")),
            (Some("2026-11-02"), Some("2026-11-01")),
            (Some("2026-13-01"), Some("2026-11-01")),
            (Some("2020-01-01"), Some("2026-11-01")),
        ] {
            assert!(parse_range(s, e).is_err(), "{s:?} {e:?}");
        }
        assert_eq!(
            day_text(parse_day("d", Some("2026-02-03")).unwrap()),
            "2026-02-03"
        );
    }
}
