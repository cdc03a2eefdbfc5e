//! An App Store app's details (`GET suggester/adams/{id}`): what the store page shows of it
//! (name, developer, icon, genre, description, rating), and with a connection of the
//! workspace the storefronts Apple Ads sells it in.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use super::{DEFAULT_COUNTRY, lookup, storefront};
use crate::{
    access::{AppStoreId, IdParam, Member},
    domain::REQUIRED,
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::ApiQuery,
    provider::provider_error,
    state::AppState,
};

/// An app's store details (`suggester/adams/{id}`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppDetails {
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub adam_id: i64,
    pub name: String,
    pub developer: Option<String>,
    pub icon: Option<String>,
    pub genre: Option<String>,
    pub description: Option<String>,
    /// The App Store subtitle: null, the public App Store endpoints do not give it.
    pub subtitle: Option<String>,
    /// Average user rating (0–5).
    pub rating: Option<f64>,
    pub rating_count: Option<u64>,
    /// The app's App Store page.
    pub url: Option<String>,
    /// Storefronts (ISO codes) the app is sold in: from Apple Ads' app details when the
    /// query names an `accountId`, else null.
    pub countries: Option<Vec<String>>,
}

/// The query of `suggester/adams/{id}`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct DetailsQuery {
    /// Storefront of the lookup (default US).
    #[param(schema_with = crate::schemas::country)]
    pub country: Option<String>,
    /// A connection of the caller's workspace: the storefronts the app is sold in are then
    /// read from Apple Ads.
    pub account_id: Option<String>,
    /// Campaign group of that connection (default: its first one in use).
    #[param(value_type = Option<i64>)]
    pub org_id: Option<String>,
}

/// The app's App Store details (name, developer, icon, genre, description, rating, page),
/// and with `accountId` the storefronts it is sold in. 404 when the App Store does not
/// know it in that storefront.
#[utoipa::path(get, path = "/api/suggester/adams/{id}", tag = "suggester",
    params(("id" = String, Path, description = "App Store app id (digits)"), DetailsQuery),
    responses((status = 200, description = "The app", body = Envelope<Item<AppDetails>>),
              (status = 400, description = "Not an App Store id, or an unknown country", body = ErrorBody),
              (status = 404, description = "No such app in that storefront (or no such account)", body = ErrorBody),
              (status = 502, description = "The App Store or Apple Ads could not be reached", body = ErrorBody)))]
pub async fn app_details(
    State(state): State<AppState>,
    user: Member,
    app: AppStoreId<IdParam>,
    ApiQuery(q): ApiQuery<DetailsQuery>,
) -> ApiResult<impl IntoResponse> {
    let country = match q.country.as_deref() {
        None => DEFAULT_COUNTRY.to_string(),
        Some(c) => storefront(Some(c), "country")?,
    };
    // The account first: an id of another workspace answers before any App Store call.
    let account = match q
        .account_id
        .as_deref()
        .map(str::trim)
        .filter(|a| !a.is_empty())
    {
        None => None,
        Some(id) => Some(
            store::accounts::in_workspace(&state.db.pool, &user.workspace_id, id)
                .await?
                .ok_or_else(|| ApiError::not_found("Account"))?,
        ),
    };
    let mut found = lookup(&state, &[app.id], &country).await?;
    let a = found
        .remove(&app.id)
        .ok_or_else(|| ApiError::not_found("App"))?;
    let countries = match account {
        None => None,
        Some(row) => {
            let orgs = store::accounts::orgs(&state.db.pool, &row.id).await?;
            let org = match q.org_id.as_deref() {
                Some(raw) => {
                    let id: i64 = raw.trim().parse().map_err(|_| {
                        ApiError::field("orgId", "orgId must be a campaign group id")
                    })?;
                    orgs.into_iter()
                        .find(|o| o.org_id == id)
                        .ok_or_else(|| ApiError::not_found("Campaign group"))?
                }
                None => orgs
                    .into_iter()
                    .find(|o| o.selected)
                    .ok_or_else(|| ApiError::field("orgId", REQUIRED))?,
            };
            let details = state
                .provider
                .client_of(&row)?
                .app_details(org.org_id, app.id)
                .await
                .map_err(provider_error)?;
            details["availableStorefronts"].as_array().map(|list| {
                list.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
        }
    };
    Ok(envelope::item(AppDetails {
        adam_id: a.track_id,
        name: a.track_name,
        developer: a.artist_name,
        icon: a.artwork_url100,
        genre: a.primary_genre_name,
        description: a.description,
        subtitle: None,
        rating: a.average_user_rating,
        rating_count: a.user_rating_count,
        url: a.track_view_url,
        countries,
    }))
}
