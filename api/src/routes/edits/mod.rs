//! Quick edits through the provider (issue 10, docs/product.md#2-tables quick-edit columns,
//! docs/product.md#5-money editable money field, docs/product.md#6-roles-and-route-limits,
//! docs/product.md#7-the-calls-it-makes `asa/campaigns/update/{id}`, `asa/groups/updatesV2/{id}`,
//! `asa/keywords/update/{a}/{b}`): one entity's budget, bids, goal, Search Match or status.
//!
//! Every edit runs the same steps: the editor guard (readers get 403), the entity resolved in
//! the caller's workspace (another workspace's id answers 404), the input checked (money a
//! non-negative number with no more decimals than the campaign group's currency has; status
//! ENABLED or PAUSED), unchanged fields dropped, the change sent through the rate-limited
//! provider client, then — in one transaction — the synced row written from the provider's
//! answer (so `asa/reports` shows the new value at once) and one change record per changed
//! field. A refusal by the provider comes back as a 400 with its message on our field name,
//! and nothing is written.

pub mod bulk;
pub mod bulk_routes;
pub mod campaign;
pub mod delete;
pub mod group;
pub mod keyword;
pub use crate::money;
pub mod negatives;
mod quick;
pub mod rename;
mod selection;
pub mod statuses;

use searchdeck_provider::ProviderError;

use serde::Serialize;
use serde_json::{Map, Value, json};
use utoipa::{IntoResponses, ToSchema};
use utoipa_axum::router::OpenApiRouter;

pub use quick::{Field, Level, Target, apply, edit};

use crate::{
    domain::Fields,
    error::{ApiError, ErrorBody, FieldError},
    provider::provider_error,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(campaign::router())
        .merge(group::router())
        .merge(keyword::router())
        .merge(bulk_routes::router())
        .merge(rename::router())
        .merge(negatives::router())
        .merge(delete::router())
        .merge(statuses::router())
}

/// Message of a request that names no field to change.
pub const NOTHING_TO_CHANGE: &str = "Choose a value to change";
pub use crate::domain::STATUSES;

/// A user-settable status, spelt exactly as [`STATUSES`] ([`crate::domain::one_of`]);
/// ACTIVE means ENABLED. Else 400 on `field`.
pub fn parse_status(field: &str, raw: &str) -> Result<String, FieldError> {
    match crate::domain::one_of(field, raw, STATUSES)? {
        "ACTIVE" => Ok("ENABLED".to_string()),
        s => Ok(s.to_string()),
    }
}

/// 400 with every field error, if any.
pub fn check(errors: Vec<FieldError>) -> Result<(), ApiError> {
    Fields { errors }.finish()
}

/// A provider failure of an edit as the caller sees it: a refusal is a 400 with the
/// provider's message on our name of the field it names (`fields` maps the provider's
/// request fields to ours), an entity gone at the provider a 404 on `what`, the rate limit a
/// 429 with its wait; the rest as every provider call answers them.
pub fn refused(err: ProviderError, fields: &[(&str, &str)], what: &str) -> ApiError {
    match err {
        ProviderError::Permanent { status: 404, .. } => ApiError::not_found(what),
        ProviderError::Permanent { message, field, .. } => {
            let ours = field.map(|f| {
                fields
                    .iter()
                    .find(|(p, _)| *p == f)
                    .map_or(f.clone(), |(_, o)| o.to_string())
            });
            match ours {
                Some(field) => ApiError::validation(vec![FieldError::new(field, message)]),
                None => ApiError::bad_request(message),
            }
        }
        ProviderError::RateLimited { retry_after } => ApiError::too_many_requests(
            "Apple Ads is busy. Try again in a moment",
            retry_after.as_secs().max(1),
        ),
        other => provider_error(other),
    }
}

/// One field an edit changed, as the answer and the change record show it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Changed {
    /// The table's column name (`dailyBudget`, `defaultBidAmount`, `cpaGoal`,
    /// `automatedKeywordsOptIn`, `cptBid`, `status`).
    pub field: String,
    /// Money as an exact decimal in the campaign group's currency, statuses as the provider
    /// writes them, booleans `true` / `false`; null when unset.
    pub old_value: Option<String>,
    pub new_value: Option<String>,
}

/// The answer of a quick edit: the entity's editable values now and what changed.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Edited {
    /// CAMPAIGN, AD_GROUP or KEYWORD.
    pub level: String,
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub id: i64,
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub campaign_id: i64,
    #[serde(default, with = "searchdeck_common::ids::string_id::option")]
    #[schema(value_type = Option<String>)]
    pub ad_group_id: Option<i64>,
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub org_id: i64,
    pub account_id: String,
    /// The campaign group's currency, which every amount is in.
    pub currency: Option<String>,
    /// The editable fields' values after the edit (money as `{amount, currency}`).
    #[schema(value_type = Object)]
    pub values: Value,
    /// The fields that changed (empty when the request asked for the values already set:
    /// nothing is sent to Apple then).
    pub changes: Vec<Changed>,
}

/// The answers a quick edit gives when Apple Ads does not take the change for want of
/// capacity, as the OpenAPI document lists them (the other answers are the route's own).
#[derive(IntoResponses)]
pub enum ProviderBusy {
    /// Apple Ads rate limit
    #[response(status = 429)]
    RateLimited(ErrorBody),
    /// Apple Ads did not answer
    #[response(status = 502)]
    NoAnswer(ErrorBody),
}

/// The ad group `b` of a quick-edit path `{a}/{b}` (the campaign `a` is resolved by the
/// guard): an id that is not a number names no ad group, 404.
pub fn ad_group_in_path(path: &(String, String)) -> Result<i64, ApiError> {
    path.1
        .trim()
        .parse::<i64>()
        .map_err(|_| ApiError::not_found("Ad group"))
}

/// Puts the requested status into the provider's `request`, unless it is the one already
/// set (a synced keyword may say ACTIVE for ENABLED).
pub fn request_status(request: &mut Map<String, Value>, requested: Option<String>, current: &str) {
    if let Some(s) =
        requested.filter(|s| !(s == current || (s == "ENABLED" && current == "ACTIVE")))
    {
        request.insert("status".into(), json!(s));
    }
}

/// A text field of the provider's answer.
pub fn text(v: &Value) -> Option<String> {
    v.as_str().map(str::to_string)
}
