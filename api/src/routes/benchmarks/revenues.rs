//! ROAS targets (`benchmarks/revenues`): per app, storefront and cohort window, the return
//! the workspace wants — revenue ÷ spend, as the report's cohort columns `roasD0` …
//! `roasD30` (`COHORT_ROAS` of the report engine) compute it: revenue of the first N days
//! after the install over the spend of the same install days. A ratio (1.2 = 120 %), no
//! currency.

use axum::{extract::State, response::IntoResponse};
use rust_decimal::Decimal;
use searchdeck_common::{
    attribution::conversions::{COHORT_DAYS, COHORT_ROAS},
    ids::{now_ms, string_id},
    store::{
        self,
        benchmarks::{Kind, Target},
    },
};
use serde::{Deserialize, Serialize};
use std::str::FromStr;
use utoipa::ToSchema;

use super::{Benchmarks, Checker, answer, check_len, country_out, decimal, write};
use crate::{
    access::{AppStoreId, Editor, Member},
    envelope::{self, Envelope, Items},
    error::{ApiResult, ErrorBody},
    extract::ApiJson,
    state::AppState,
};

/// Highest ROAS target (revenue 1000 times the spend).
pub const ROAS_MAX: i64 = 1000;
/// Most decimals of a ROAS target.
pub const ROAS_DECIMALS: u32 = 4;

/// A ROAS target.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoasTarget {
    #[serde(with = "string_id")]
    #[schema(value_type = String)]
    pub adam_id: i64,
    /// The cohort column it is for: `roasD0`, `roasD1`, `roasD3`, `roasD7`, `roasD14` or
    /// `roasD30`.
    #[schema(pattern = "^roasD(0|1|3|7|14|30)$")]
    pub cohort: String,
    /// Days after the install the cohort sums.
    pub days: i64,
    /// Storefront (ISO code); null: all countries.
    pub country: Option<String>,
    /// Exact decimal ratio: revenue ÷ spend (1.2 = 120 %).
    pub roas: String,
    /// Unix ms of the last change.
    pub updated_at: i64,
}

impl From<Target> for RoasTarget {
    fn from(t: Target) -> RoasTarget {
        let days = COHORT_ROAS
            .iter()
            .position(|c| *c == t.cohort)
            .map_or(0, |i| COHORT_DAYS[i]);
        RoasTarget {
            adam_id: t.adam_id,
            cohort: t.cohort,
            days,
            country: country_out(t.country),
            roas: decimal(t.value_micros),
            updated_at: t.updated_at,
        }
    }
}

/// The app's ROAS targets (no published ROAS figures with a sample size were found:
/// `reference` is empty).
#[utoipa::path(get, path = "/api/benchmarks/revenues/getAll/{adamId}", operation_id = "get_roas_benchmarks", tag = "benchmarks",
    params(("adamId" = String, Path, description = "App Store app id (digits)")),
    responses((status = 200, description = "The targets", body = Envelope<Benchmarks<RoasTarget>>)))]
pub async fn get_all(
    State(state): State<AppState>,
    user: Member,
    app: AppStoreId,
) -> ApiResult<impl IntoResponse> {
    let items = store::benchmarks::targets(
        &state.db.pool,
        &user.workspace_id,
        Kind::Revenues,
        app.id,
        None,
    )
    .await?
    .into_iter()
    .map(RoasTarget::from)
    .collect();
    let result = answer(&state, &user.workspace_id, app.id, items, &[]).await?;
    Ok(envelope::ok(result))
}

/// One ROAS target to set or clear.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetRoas {
    /// An app of the workspace's campaign groups.
    #[schema(pattern = "^[1-9][0-9]{0,17}$")]
    pub adam_id: String,
    /// `roasD0`, `roasD1`, `roasD3`, `roasD7`, `roasD14` or `roasD30`.
    #[schema(pattern = "^roasD(0|1|3|7|14|30)$")]
    pub cohort: String,
    /// Storefront (ISO code); absent or null: all countries.
    #[serde(default)]
    #[schema(pattern = "^[A-Za-z]{2}$")]
    pub country: Option<String>,
    /// Exact decimal ratio, 0 to 1000, at most 4 decimals (1.2 = 120 %); null clears the
    /// target.
    #[serde(default)]
    pub roas: Option<String>,
}

/// `PATCH benchmarks/revenues/many`'s body.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetRoases {
    /// 1 to 1000 targets.
    pub items: Vec<SetRoas>,
}

/// Micros of a ROAS ratio as sent, or the message saying why not.
fn roas_micros(text: &str) -> Result<i64, &'static str> {
    const MESSAGE: &str = "ROAS must be a number from 0 to 1000 with at most 4 decimals";
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(MESSAGE);
    }
    let value = Decimal::from_str(text).map_err(|_| MESSAGE)?;
    if value.scale() > ROAS_DECIMALS || value > Decimal::from(ROAS_MAX) {
        return Err(MESSAGE);
    }
    searchdeck_common::money::micros(value).ok_or(MESSAGE)
}

/// Sets or clears ROAS targets, all or none: one bad item answers 400 naming
/// `items.N.field` and stores nothing. Answers the stored targets of the apps named.
#[utoipa::path(patch, path = "/api/benchmarks/revenues/many", operation_id = "set_roas_benchmarks", tag = "benchmarks", request_body = SetRoases,
    responses((status = 200, description = "The targets of the apps named", body = Envelope<Items<RoasTarget>>),
              (status = 400, description = "A bad item (nothing stored)", body = ErrorBody)))]
pub async fn set_many(
    State(state): State<AppState>,
    caller: Editor,
    ApiJson(body): ApiJson<SetRoases>,
) -> ApiResult<impl IntoResponse> {
    check_len(&body.items)?;
    let ws = &caller.workspace_id;
    let mut check = Checker::of(&state, ws).await?;
    let now = now_ms();
    let (mut rows, mut seen) = (Vec::new(), Vec::new());
    for (i, item) in body.items.iter().enumerate() {
        let app = check.app(i, &item.adam_id);
        let country = check.country(i, item.country.as_deref());
        let cohort = COHORT_ROAS.iter().find(|c| **c == item.cohort.trim());
        if cohort.is_none() {
            check.fail(
                format!("items.{i}.cohort"),
                "Must be one of roasD0, roasD1, roasD3, roasD7, roasD14, roasD30",
            );
        }
        let value = match item.roas.as_deref().map(roas_micros) {
            None => Some(None),
            Some(Ok(m)) => Some(Some(m)),
            Some(Err(message)) => {
                check.fail(format!("items.{i}.roas"), message);
                None
            }
        };
        let (Some((adam_id, _)), Some(country), Some(cohort), Some(value)) =
            (app, country, cohort, value)
        else {
            continue;
        };
        check.once(i, &mut seen, format!("{adam_id}/{cohort}/{country}"));
        let target = Target {
            adam_id,
            event_name: String::new(),
            cohort: (*cohort).to_string(),
            country,
            value_micros: value.unwrap_or(0),
            currency: None,
            updated_at: now,
        };
        rows.push((target, value.is_some()));
    }
    check.finish()?;
    let stored = write(&state, ws, &caller.user_id, Kind::Revenues, &rows, None).await?;
    Ok(envelope::items(
        stored.into_iter().map(RoasTarget::from).collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roas_is_an_exact_ratio_within_bounds() {
        assert_eq!(roas_micros("1.2"), Ok(1_200_000));
        assert_eq!(roas_micros(" 0 "), Ok(0));
        assert_eq!(roas_micros("1000"), Ok(1_000_000_000));
        for bad in ["", "-1", "1e3", "1000.0001", "0.12345", "abc", "1,2"] {
            assert!(roas_micros(bad).is_err(), "{bad}");
        }
    }
}
