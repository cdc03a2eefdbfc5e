//! The keyword suggester's apps and competitors (docs/api/suggester.md, "Apps and
//! competitors"): App Store app details (`suggester/adams/{id}`, `details`), the competitor
//! store of the workspace (`store::competitors`: save one or many, delete, read per app or
//! for many apps; `saved`), App Store app search (`suggester/competitors/findApp` and
//! `competitors/findApp`, one function) and competitor suggestions (`competitors/find`;
//! `search`).
//!
//! Apps are named by their App Store (adam) id, public, not a record of ours
//! ([`AppStoreId`](crate::access::AppStoreId)); what is saved belongs to the caller's
//! workspace, so another workspace's competitors never show, and deleting one answers 404
//! ([`CompetitorApp`](crate::access::CompetitorApp)). The App Store is read through
//! `provider.app_store` (Apple's iTunes lookup and search, or the sandbox's stand-ins): an
//! unreachable App Store answers 502. This module holds what the three share: the app as
//! the pickers show it, the storefront and id parsers and the App Store lookup.

mod details;
mod saved;
mod search;

use std::collections::HashMap;

use searchdeck_common::{countries, store::competitors::Competitor};
use searchdeck_provider::{ProviderError, appstore::StoreApp};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::NOT_AN_APP_STORE_ID,
    domain::REQUIRED,
    error::{ApiError, ApiResult},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(details::app_details))
        .routes(route!(saved::save_competitor))
        .routes(route!(saved::delete_competitor))
        .routes(route!(search::suggester_find_app))
        .routes(route!(saved::save_many))
        .routes(route!(saved::competitors_of))
        .routes(route!(saved::competitors_of_many))
        .routes(route!(search::find_app))
        .routes(route!(search::suggest_competitors))
}

/// Most competitors saved per app.
pub const MAX_COMPETITORS: usize = 10;
/// Most competitors one `competitors/many` call adds.
pub const MANY_MAX: usize = 20;
/// Most apps one `competitors/get/many` call reads.
pub const GET_MANY_MAX: usize = 50;
/// Most apps an App Store search answers.
pub const FIND_LIMIT: u32 = 25;
/// Longest App Store search text.
pub const QUERY_MAX: usize = 100;
/// Storefront when a lookup names none.
const DEFAULT_COUNTRY: &str = "US";

/// An App Store app as the pickers show it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PickerApp {
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub adam_id: i64,
    pub name: String,
    pub developer: Option<String>,
    /// Artwork URL.
    pub icon: Option<String>,
    /// Primary genre.
    pub genre: Option<String>,
}

impl From<&StoreApp> for PickerApp {
    fn from(a: &StoreApp) -> PickerApp {
        PickerApp {
            adam_id: a.track_id,
            name: a.track_name.clone(),
            developer: a.artist_name.clone(),
            icon: a.artwork_url100.clone(),
            genre: a.primary_genre_name.clone(),
        }
    }
}

impl From<Competitor> for PickerApp {
    fn from(c: Competitor) -> PickerApp {
        PickerApp {
            adam_id: c.competitor_id,
            name: c.name,
            developer: c.developer,
            icon: c.icon,
            genre: c.genre,
        }
    }
}

/// A storefront: an ISO code Apple Ads serves, upper-cased; `field` names it in errors.
fn storefront(raw: Option<&str>, field: &str) -> ApiResult<String> {
    let code = raw.map(str::trim).filter(|c| !c.is_empty());
    let Some(code) = code else {
        return Err(ApiError::field(field, REQUIRED));
    };
    countries::find(code)
        .map(|c| c.code.to_uppercase())
        .ok_or_else(|| ApiError::field(field, "Apple Ads does not serve this country or region"))
}

/// An App Store id from a body field (a string of digits or a JSON integer, as every id in
/// a body: `ids::string_id`). An id no app has is not an error here: the App Store lookup
/// answers 404 for it, a read finds nothing saved.
fn body_id(value: Option<&Value>, field: &str) -> ApiResult<i64> {
    let value = value
        .filter(|v| !v.is_null())
        .ok_or_else(|| ApiError::field(field, REQUIRED))?;
    searchdeck_common::ids::string_id::parse(value)
        .ok_or_else(|| ApiError::field(field, NOT_AN_APP_STORE_ID))
}

/// An App Store failure as the API answers it: a refusal 400 with its message, anything
/// else (unreachable, rate-limited, an answer that does not parse) 502.
fn app_store_error(e: ProviderError) -> ApiError {
    match e {
        ProviderError::Permanent { message, .. } => {
            ApiError::bad_request(format!("The App Store refused the request: {message}"))
        }
        other => {
            tracing::warn!(error = %other, "App Store call failed");
            ApiError::status(
                axum::http::StatusCode::BAD_GATEWAY,
                "The App Store could not be reached. Please try again later",
            )
        }
    }
}

/// Looks `ids` up in the App Store of `country`, by id.
async fn lookup(state: &AppState, ids: &[i64], country: &str) -> ApiResult<HashMap<i64, StoreApp>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let found = state
        .provider
        .app_store
        .lookup(ids, country)
        .await
        .map_err(app_store_error)?;
    Ok(found.into_iter().map(|a| (a.track_id, a)).collect())
}

/// 404 naming `field`: the App Store does not know that app.
fn unknown_app(field: &str) -> ApiError {
    let mut e = ApiError::field(field, "The App Store does not know this app");
    if let ApiError::Status { status, .. } = &mut e {
        *status = axum::http::StatusCode::NOT_FOUND;
    }
    e
}
