//! The keyword suggester's apps and competitors (docs/api/suggester.md, "Apps and
//! competitors"): App Store app details (`suggester/adams/{id}`), App Store app search
//! (`suggester/competitors/findApp` and `competitors/findApp`, one function), the competitor
//! store of the workspace (`store::competitors`: save one or many, delete, read per app or
//! for many apps) and competitor suggestions (`competitors/find`).
//!
//! Apps are named by their App Store (adam) id, public, not a record of ours
//! ([`AppStoreId`]); what is saved belongs to the caller's workspace, so another
//! workspace's competitors never show, and deleting one answers 404 ([`CompetitorApp`]).
//! The App Store is read through `provider.app_store` (Apple's iTunes lookup and search, or
//! the sandbox's stand-ins): an unreachable App Store answers 502.

use std::collections::{HashMap, HashSet};

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    countries,
    ids::now_ms,
    store::{self, competitors::Competitor},
};
use searchdeck_provider::{ProviderError, appstore::StoreApp};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{
        AdamIdParam, AppStoreId, CompetitorApp, EditRoles, Editor, IdParam, InWorkspace, Member,
        NOT_AN_APP_STORE_ID, parse_app_store_id,
    },
    domain::REQUIRED,
    envelope::{self, Empty, Envelope, Item, Items},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiPath, ApiQuery},
    provider::provider_error,
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(app_details))
        .routes(route!(save_competitor))
        .routes(route!(delete_competitor))
        .routes(route!(suggester_find_app))
        .routes(route!(save_many))
        .routes(route!(competitors_of))
        .routes(route!(competitors_of_many))
        .routes(route!(find_app))
        .routes(route!(suggest_competitors))
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

/// The body of `suggester/competitors`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SaveCompetitor {
    /// The app (App Store id).
    #[schema(value_type = searchdeck_common::ids::AppleId, required = true)]
    pub adam_id: Option<Value>,
    /// The competitor (App Store id), looked up in the App Store.
    #[schema(value_type = searchdeck_common::ids::AppleId, required = true)]
    pub competitor_id: Option<Value>,
    /// Storefront of the lookup.
    #[schema(schema_with = crate::schemas::country, required = true)]
    pub country: Option<String>,
}

/// Refuses saving `adding` more competitors to an app that has `have`.
fn check_room(have: usize, adding: usize, field: &str) -> ApiResult<()> {
    if have + adding > MAX_COMPETITORS {
        return Err(ApiError::field(
            field,
            &format!("An app has at most {MAX_COMPETITORS} competitors"),
        ));
    }
    Ok(())
}

/// Saves one competitor of an app (looked up in the App Store, its details kept); saving
/// a saved one again refreshes its details.
#[utoipa::path(post, path = "/api/suggester/competitors", tag = "suggester", request_body = SaveCompetitor,
    responses((status = 200, description = "The competitor saved", body = Envelope<Item<PickerApp>>),
              (status = 400, description = "Invalid ids or country, the app itself, or already 10 competitors", body = ErrorBody),
              (status = 404, description = "The App Store does not know the competitor (`competitorId`)", body = ErrorBody),
              (status = 502, description = "The App Store could not be reached", body = ErrorBody)))]
pub async fn save_competitor(
    State(state): State<AppState>,
    user: Editor,
    ApiJson(body): ApiJson<SaveCompetitor>,
) -> ApiResult<impl IntoResponse> {
    let adam_id = body_id(body.adam_id.as_ref(), "adamId")?;
    let competitor_id = body_id(body.competitor_id.as_ref(), "competitorId")?;
    let country = storefront(body.country.as_deref(), "country")?;
    if competitor_id == adam_id {
        return Err(ApiError::field(
            "competitorId",
            "An app cannot be its own competitor",
        ));
    }
    let saved = store::competitors::of_app(&state.db.pool, &user.workspace_id, adam_id).await?;
    if !saved.iter().any(|c| c.competitor_id == competitor_id) {
        check_room(saved.len(), 1, "competitorId")?;
    }
    let found = lookup(&state, &[competitor_id], &country).await?;
    let app = found
        .get(&competitor_id)
        .ok_or_else(|| unknown_app("competitorId"))?;
    let c = competitor(adam_id, app);
    store::competitors::save(&state.db.pool, &user.workspace_id, &c, now_ms()).await?;
    Ok(envelope::item(PickerApp::from(c)))
}

/// 404 naming `field`: the App Store does not know that app.
fn unknown_app(field: &str) -> ApiError {
    let mut e = ApiError::field(field, "The App Store does not know this app");
    if let ApiError::Status { status, .. } = &mut e {
        *status = axum::http::StatusCode::NOT_FOUND;
    }
    e
}

fn competitor(adam_id: i64, app: &StoreApp) -> Competitor {
    Competitor {
        adam_id,
        competitor_id: app.track_id,
        name: app.track_name.clone(),
        developer: app.artist_name.clone(),
        icon: app.artwork_url100.clone(),
        genre: app.primary_genre_name.clone(),
    }
}

/// The path of `suggester/competitors/{a}/{b}`.
#[derive(Debug, Deserialize)]
pub struct CompetitorPath {
    #[expect(dead_code, reason = "resolved by the InWorkspace guard")]
    a: String,
    b: String,
}

/// Removes competitor `b` of app `a` from the workspace's store; 404 when it is not saved
/// there (another workspace's saved competitor included).
#[utoipa::path(delete, path = "/api/suggester/competitors/{a}/{b}", tag = "suggester",
    params(("a" = String, Path, description = "The app (App Store id) with saved competitors"),
           ("b" = String, Path, description = "The competitor (App Store id)")),
    responses((status = 200, description = "Removed", body = Envelope<Empty>)))]
pub async fn delete_competitor(
    State(state): State<AppState>,
    app: InWorkspace<CompetitorApp, EditRoles>,
    ApiPath(path): ApiPath<CompetitorPath>,
) -> ApiResult<impl IntoResponse> {
    let Some(competitor_id) = parse_app_store_id(&path.b) else {
        return Err(ApiError::not_found("Competitor"));
    };
    let removed = store::competitors::remove(
        &state.db.pool,
        &app.caller.workspace_id,
        app.item.adam_id,
        competitor_id,
    )
    .await?;
    if !removed {
        return Err(ApiError::not_found("Competitor"));
    }
    Ok(envelope::done())
}

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

/// The body of `suggester/competitors/many`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SaveMany {
    /// The app (App Store id).
    #[schema(value_type = searchdeck_common::ids::AppleId, required = true)]
    pub adam_id: Option<Value>,
    /// The competitors to add (App Store ids, 1 to 20).
    #[schema(value_type = Vec<searchdeck_common::ids::AppleId>, required = true, min_items = 1, max_items = 20)]
    pub competitor_ids: Option<Vec<Value>>,
    /// Storefront of the lookups.
    #[schema(schema_with = crate::schemas::country, required = true)]
    pub country: Option<String>,
}

/// Adds competitors to an app (each looked up in the App Store; saved ones refreshed) and
/// answers the app's competitors after it. All or nothing: an unknown id saves none.
#[utoipa::path(post, path = "/api/suggester/competitors/many", tag = "suggester", request_body = SaveMany,
    responses((status = 200, description = "The app's competitors", body = Envelope<Items<PickerApp>>),
              (status = 400, description = "Invalid ids or country, the app itself, or more than 10 competitors", body = ErrorBody),
              (status = 404, description = "The App Store does not know a competitor (`competitorIds.<i>`)", body = ErrorBody),
              (status = 502, description = "The App Store could not be reached", body = ErrorBody)))]
pub async fn save_many(
    State(state): State<AppState>,
    user: Editor,
    ApiJson(body): ApiJson<SaveMany>,
) -> ApiResult<impl IntoResponse> {
    let adam_id = body_id(body.adam_id.as_ref(), "adamId")?;
    let raw = body.competitor_ids.unwrap_or_default();
    if raw.is_empty() {
        return Err(ApiError::field("competitorIds", REQUIRED));
    }
    if raw.len() > MANY_MAX {
        return Err(ApiError::field(
            "competitorIds",
            &format!("At most {MANY_MAX} competitors per request"),
        ));
    }
    let mut ids: Vec<i64> = Vec::with_capacity(raw.len());
    for (i, v) in raw.iter().enumerate() {
        let field = format!("competitorIds.{i}");
        let id = body_id(Some(v), &field)?;
        if id == adam_id {
            return Err(ApiError::field(
                &field,
                "An app cannot be its own competitor",
            ));
        }
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let country = storefront(body.country.as_deref(), "country")?;
    let saved = store::competitors::of_app(&state.db.pool, &user.workspace_id, adam_id).await?;
    let new = ids
        .iter()
        .filter(|id| !saved.iter().any(|c| c.competitor_id == **id))
        .count();
    check_room(saved.len(), new, "competitorIds")?;
    let found = lookup(&state, &ids, &country).await?;
    if let Some(i) = raw
        .iter()
        .position(|v| body_id(Some(v), "").is_ok_and(|id| !found.contains_key(&id)))
    {
        return Err(unknown_app(&format!("competitorIds.{i}")));
    }
    let now = now_ms();
    let mut tx = state.db.begin_write().await?;
    for id in &ids {
        store::competitors::save(
            &mut *tx,
            &user.workspace_id,
            &competitor(adam_id, &found[id]),
            now,
        )
        .await?;
    }
    tx.commit().await?;
    let items = store::competitors::of_app(&state.db.pool, &user.workspace_id, adam_id).await?;
    Ok(envelope::items(
        items.into_iter().map(PickerApp::from).collect(),
    ))
}

/// The competitors saved for app `adamId` in the caller's workspace, in the order saved
/// (empty when none).
#[utoipa::path(get, path = "/api/competitors/get/{adamId}", tag = "suggester",
    params(("adamId" = String, Path, description = "App Store app id (digits)")),
    responses((status = 200, description = "The app's competitors", body = Envelope<Items<PickerApp>>)))]
pub async fn competitors_of(
    State(state): State<AppState>,
    user: Member,
    app: AppStoreId<AdamIdParam>,
) -> ApiResult<impl IntoResponse> {
    let items = store::competitors::of_app(&state.db.pool, &user.workspace_id, app.id).await?;
    Ok(envelope::items(
        items.into_iter().map(PickerApp::from).collect(),
    ))
}

/// The body of `competitors/get/many`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GetMany {
    /// Apps (App Store ids, 1 to 50).
    #[schema(value_type = Vec<searchdeck_common::ids::AppleId>, required = true, min_items = 1, max_items = 50)]
    pub adam_ids: Option<Vec<Value>>,
}

/// One app's competitors.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppCompetitors {
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub adam_id: i64,
    pub competitors: Vec<PickerApp>,
}

/// The saved competitors of each app, in the order the apps were sent (each once).
#[utoipa::path(post, path = "/api/competitors/get/many", tag = "suggester", request_body = GetMany,
    responses((status = 200, description = "Competitors per app", body = Envelope<Items<AppCompetitors>>),
              (status = 400, description = "No apps, more than 50, or an invalid id", body = ErrorBody)))]
pub async fn competitors_of_many(
    State(state): State<AppState>,
    user: Member,
    ApiJson(body): ApiJson<GetMany>,
) -> ApiResult<impl IntoResponse> {
    let raw = body.adam_ids.unwrap_or_default();
    if raw.is_empty() {
        return Err(ApiError::field("adamIds", REQUIRED));
    }
    if raw.len() > GET_MANY_MAX {
        return Err(ApiError::field(
            "adamIds",
            &format!("At most {GET_MANY_MAX} apps per request"),
        ));
    }
    let mut ids = Vec::with_capacity(raw.len());
    for (i, v) in raw.iter().enumerate() {
        let id = body_id(Some(v), &format!("adamIds.{i}"))?;
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let mut by_app: HashMap<i64, Vec<PickerApp>> = HashMap::new();
    for c in store::competitors::of_apps(&state.db.pool, &user.workspace_id, &ids).await? {
        by_app
            .entry(c.adam_id)
            .or_default()
            .push(PickerApp::from(c));
    }
    let items = ids
        .into_iter()
        .map(|adam_id| AppCompetitors {
            adam_id,
            competitors: by_app.remove(&adam_id).unwrap_or_default(),
        })
        .collect();
    Ok(envelope::items(items))
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

/// The app's top terms: the words of its name (normalised as keyword lists, spec §5) of at
/// least 3 characters, first ones first, at most [`FIND_TERMS`].
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
