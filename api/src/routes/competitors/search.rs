//! Searching the App Store: apps matching a text in a storefront (both `findApp` routes, one
//! function) and suggested competitors of an app (`competitors/find`), ranked by how often
//! App Store search returns them for the app's genre and the words of its name.

use std::collections::{HashMap, HashSet};

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::{
    FIND_LIMIT, PickerApp, QUERY_MAX, app_store_error, body_id, lookup, storefront, unknown_app,
};
use crate::{
    access::Member,
    domain::REQUIRED,
    envelope::{self, Envelope, Items},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::ApiJson,
    state::AppState,
};

/// The body of the App Store app searches.
#[derive(Debug, Deserialize, ToSchema)]
pub struct AppStoreSearch {
    /// Text to search the App Store for (an app name or a term; not only spaces).
    #[schema(required = true, nullable = false, min_length = 1, max_length = 100)]
    pub query: Option<String>,
    /// Storefront searched.
    #[schema(schema_with = crate::schemas::country, required = true)]
    pub country: Option<String>,
}

/// The App Store apps matching `body` (both findApp routes).
async fn search_apps(state: &AppState, body: AppStoreSearch) -> ApiResult<Vec<PickerApp>> {
    let text = body.query.as_deref().unwrap_or_default().trim().to_string();
    let mut errors = Vec::new();
    if text.is_empty() {
        errors.push(FieldError::new("query", REQUIRED));
    } else if text.chars().count() > QUERY_MAX {
        errors.push(FieldError::new(
            "query",
            format!("Search text must be at most {QUERY_MAX} characters"),
        ));
    }
    let country = match storefront(body.country.as_deref(), "country") {
        Ok(c) => Some(c),
        Err(ApiError::Status { errors: e, .. }) => {
            errors.extend(e);
            None
        }
        Err(e) => return Err(e),
    };
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let found = state
        .provider
        .app_store
        .search(&text, &country.unwrap_or_default(), FIND_LIMIT)
        .await
        .map_err(app_store_error)?;
    Ok(found.iter().map(PickerApp::from).collect())
}

/// App Store apps matching `query` in `country`, best first, at most 25 (the suggester's
/// competitor search).
#[utoipa::path(post, path = "/api/suggester/competitors/findApp", tag = "suggester", request_body = AppStoreSearch,
    responses((status = 200, description = "Apps found", body = Envelope<Items<PickerApp>>),
              (status = 400, description = "Missing query or unknown country", body = ErrorBody),
              (status = 502, description = "The App Store could not be reached", body = ErrorBody)))]
pub async fn suggester_find_app(
    State(state): State<AppState>,
    _user: Member,
    ApiJson(body): ApiJson<AppStoreSearch>,
) -> ApiResult<impl IntoResponse> {
    Ok(envelope::items(search_apps(&state, body).await?))
}

/// As `suggester/competitors/findApp` (Settings' competitor search).
#[utoipa::path(post, path = "/api/competitors/findApp", operation_id = "find_store_app", tag = "suggester", request_body = AppStoreSearch,
    responses((status = 200, description = "Apps found", body = Envelope<Items<PickerApp>>),
              (status = 400, description = "Missing query or unknown country", body = ErrorBody),
              (status = 502, description = "The App Store could not be reached", body = ErrorBody)))]
pub async fn find_app(
    State(state): State<AppState>,
    _user: Member,
    ApiJson(body): ApiJson<AppStoreSearch>,
) -> ApiResult<impl IntoResponse> {
    Ok(envelope::items(search_apps(&state, body).await?))
}

/// The body of `competitors/find`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FindCompetitors {
    /// The app (App Store id).
    #[schema(value_type = searchdeck_common::ids::AppleId, required = true)]
    pub adam_id: Option<Value>,
    /// Storefront searched.
    #[schema(schema_with = crate::schemas::country, required = true)]
    pub country: Option<String>,
}

/// Searches made per suggestion: the app's genre and its top terms.
const FIND_TERMS: usize = 3;

/// The app's top terms: the words of its name (normalised as keyword lists,
/// docs/product.md#5-keyword-lists) of at least 3 characters, first ones first, at most
/// [`FIND_TERMS`].
fn top_terms(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // Words of the name: any punctuation or symbol separates them ("Snap-Photo" is two).
    for word in name
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
    {
        if word.chars().count() >= 3 && !out.contains(&word) {
            out.push(word);
        }
        if out.len() == FIND_TERMS {
            break;
        }
    }
    out
}

/// Suggested competitors of an app: the apps App Store search returns for the app's genre
/// and for its top terms (the longer words of its name), most frequent across those
/// searches first (then by best position), the app itself and its saved competitors left
/// out; at most 25. 404 when the App Store does not know the app.
#[utoipa::path(post, path = "/api/competitors/find", tag = "suggester", request_body = FindCompetitors,
    responses((status = 200, description = "Suggested competitors", body = Envelope<Items<PickerApp>>),
              (status = 400, description = "Invalid id or country", body = ErrorBody),
              (status = 404, description = "The App Store does not know the app (`adamId`)", body = ErrorBody),
              (status = 502, description = "The App Store could not be reached", body = ErrorBody)))]
pub async fn suggest_competitors(
    State(state): State<AppState>,
    user: Member,
    ApiJson(body): ApiJson<FindCompetitors>,
) -> ApiResult<impl IntoResponse> {
    let adam_id = body_id(body.adam_id.as_ref(), "adamId")?;
    let country = storefront(body.country.as_deref(), "country")?;
    let mut found = lookup(&state, &[adam_id], &country).await?;
    let app = found
        .remove(&adam_id)
        .ok_or_else(|| unknown_app("adamId"))?;
    let mut searches: Vec<String> = app.primary_genre_name.iter().cloned().collect();
    searches.extend(top_terms(&app.track_name));
    let saved: HashSet<i64> =
        store::competitors::of_app(&state.db.pool, &user.workspace_id, adam_id)
            .await?
            .into_iter()
            .map(|c| c.competitor_id)
            .collect();
    // Per app: (times found, best position, first seen, the app).
    let mut seen: HashMap<i64, (usize, usize, usize, PickerApp)> = HashMap::new();
    for term in &searches {
        let results = state
            .provider
            .app_store
            .search(term, &country, FIND_LIMIT)
            .await
            .map_err(app_store_error)?;
        for (pos, a) in results.iter().enumerate() {
            if a.track_id == adam_id || saved.contains(&a.track_id) {
                continue;
            }
            let order = seen.len();
            let e = seen
                .entry(a.track_id)
                .or_insert_with(|| (0, pos, order, PickerApp::from(a)));
            e.0 += 1;
            e.1 = e.1.min(pos);
        }
    }
    let mut ranked: Vec<(usize, usize, usize, PickerApp)> = seen.into_values().collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    Ok(envelope::items(
        ranked
            .into_iter()
            .take(FIND_LIMIT as usize)
            .map(|(_, _, _, a)| a)
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_terms_are_the_longer_words_of_the_name() {
        assert_eq!(
            top_terms("Snap-Photo Editor: AI & Filters"),
            ["snap", "photo", "editor"]
        );
        assert_eq!(top_terms("Go to Go"), Vec::<String>::new());
    }
}
