//! The v1 API under `/v1`: routes, the shared request/response helpers and wire DTOs.

pub mod accounts;
pub mod adgroups;
pub mod ads;
pub mod apps;
pub mod appstore;
pub mod appstore_connect;
pub mod bulk;
pub mod campaigns;
pub mod creatives;
pub mod crud;
pub mod entity;
pub mod error;
pub mod eurofxref;
pub mod extract;
pub mod fields;
pub mod history;
pub mod insights;
pub mod keywords;
pub mod mmp;
pub mod negatives;
pub mod popularity;
pub mod query;
pub mod rec_query;
pub mod recommendations;
pub mod render;
pub mod report_cache;
pub mod report_meta;
pub mod report_request;
pub mod report_rows;
pub mod reports;
pub mod rules;
pub mod search;
pub mod suggestions;
pub mod vocabulary;
pub mod writable;

use std::sync::Arc;

use axum::Router;
use axum::routing::get;
use serde::Deserialize;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::state::Sandbox;
use crate::world::money::parse_amount;
use crate::world::{AdGroup, Campaign};
use error::ApiError;

/// Routes of `/v1` (without the prefix).
pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route("/me", get(accounts::me))
        .route("/acls", get(accounts::acls))
        .route("/ad-accounts/{id}", get(accounts::get_ad_account))
        .merge(crud::routes::<Campaign, _, _>(
            campaigns::create,
            campaigns::update,
        ))
        .merge(crud::routes::<AdGroup, _, _>(
            adgroups::create,
            adgroups::update,
        ))
        .merge(ads::router())
        .merge(creatives::router())
        .merge(keywords::router())
        .merge(negatives::router())
        .merge(reports::router())
        .merge(insights::router())
        .merge(popularity::router())
        .merge(search::router())
        .merge(history::router())
        .merge(suggestions::router())
        .merge(recommendations::router())
        .merge(apps::router())
}

/// `{"result": value}`.
pub fn ok(value: Value) -> axum::Json<Value> {
    axum::Json(json!({ "result": value }))
}

/// The wire `Money` in requests.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoneyIn {
    pub amount: String,
    pub currency: Option<String>,
}

impl MoneyIn {
    /// Micros, checked to be positive and in the account's currency.
    pub fn micros(&self, field: &str, currency: &str) -> Result<i64, ApiError> {
        if let Some(c) = &self.currency
            && c != currency
        {
            return Err(ApiError::invalid(
                "INVALID_CURRENCY",
                field,
                format!("{field}: currency must be {currency}, the ad account's currency"),
            ));
        }
        match parse_amount(&self.amount) {
            Some(v) if v > 0 => Ok(v),
            _ => Err(ApiError::invalid(
                "INVALID_VALUE",
                field,
                format!(
                    "{field}: amount must be a positive decimal, got {:?}",
                    self.amount
                ),
            )),
        }
    }
}

/// Micros of an optional amount, checked as [`MoneyIn::micros`].
pub fn micros_opt(
    money: Option<&MoneyIn>,
    field: &str,
    currency: &str,
) -> Result<Option<i64>, ApiError> {
    money.map(|m| m.micros(field, currency)).transpose()
}

/// `{"value": Money}` wrappers (daily budget, CPA cap).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueIn {
    pub value: Option<MoneyIn>,
}

/// `TargetingData` in requests.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IncludeExclude {
    pub include: Option<Vec<String>>,
    pub exclude: Option<Vec<String>>,
}

impl IncludeExclude {
    /// Whether it lists any value.
    pub fn is_set(&self) -> bool {
        self.include.as_ref().is_some_and(|v| !v.is_empty())
            || self.exclude.as_ref().is_some_and(|v| !v.is_empty())
    }
}

/// Refuses targeting dimension `field` when it carries values the sandbox does not simulate.
pub fn unsupported_targeting(t: Option<&IncludeExclude>, field: &str) -> Result<(), ApiError> {
    if t.is_some_and(IncludeExclude::is_set) {
        return Err(ApiError::invalid(
            "UNSUPPORTED_VALUE",
            field,
            format!("{field} targeting is not simulated"),
        ));
    }
    Ok(())
}

/// Parses an optional RFC 3339 timestamp.
pub fn parse_time(s: Option<&str>, field: &str) -> Result<Option<OffsetDateTime>, ApiError> {
    s.map(|s| {
        OffsetDateTime::parse(s, &Rfc3339).map_err(|_| {
            ApiError::invalid(
                "INVALID_VALUE",
                field,
                format!("{field} must be an RFC 3339 date-time"),
            )
        })
    })
    .transpose()
}

/// Checks a name is not blank.
pub fn non_blank(s: &str, field: &str) -> Result<(), ApiError> {
    if s.trim().is_empty() {
        Err(ApiError::invalid(
            "INVALID_VALUE",
            field,
            format!("{field} must not be blank"),
        ))
    } else {
        Ok(())
    }
}

/// Parses an id path segment.
pub fn parse_id(s: &str, kind: &str) -> Result<i64, ApiError> {
    s.parse().map_err(|_| ApiError::not_found(kind, s))
}
