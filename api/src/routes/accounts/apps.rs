//! The apps and places of an account's campaign groups (docs/product.md#7-the-calls-it-makes asa
//! other): `asa/apps` (the synced apps, or the provider's owned apps before the first sync),
//! `asa/findApp` (App Store app search through Apple Ads) and `asa/geo` (Apple Ads' geo search: GET
//! searches by text, POST looks places up by id).
//!
//! Every route is scoped by the `accountId` query parameter (an account of the caller's
//! workspace, else 404) and the optional `orgId` (one of that account's campaign groups;
//! without it, the account's first campaign group in use). Provider refusals answer 400
//! with Apple's message, an unreachable provider 502.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store::{self, accounts::AccountRow, accounts::OrgRow};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{InWorkspace, QueriedAccount},
    domain::REQUIRED,
    envelope::{self, Envelope, Items},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiQuery},
    provider::provider_error,
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(apps))
        .routes(route!(find_app))
        .routes(route!(geo_search))
        .routes(route!(geo_lookup))
}

/// Longest app or place search text.
pub const QUERY_MAX: usize = 100;
/// Most apps `asa/findApp` answers.
pub const FIND_LIMIT: u32 = 50;
/// Most places one `asa/geo` call answers or looks up.
pub const GEO_MAX: usize = 50;

/// The account scope of these routes.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct Scope {
    /// Account id (a connection of the caller's workspace).
    #[expect(
        dead_code,
        reason = "read by the InWorkspace guard; here for the OpenAPI parameters"
    )]
    account_id: Option<String>,
    /// Campaign group of the account; default: the account's first one in use.
    org_id: Option<i64>,
}

/// The campaign group `org_id` of `account` (an error when it is not one of its), or the
/// account's first one in use; `None` when the account has none.
async fn org_of(
    state: &AppState,
    account: &AccountRow,
    org_id: Option<i64>,
) -> ApiResult<Option<OrgRow>> {
    let orgs = store::accounts::orgs(&state.db.pool, &account.id).await?;
    match org_id {
        Some(id) => orgs
            .into_iter()
            .find(|o| o.org_id == id)
            .map(Some)
            .ok_or_else(|| ApiError::field("orgId", "This campaign group is not in the account")),
        None => Ok(orgs.into_iter().find(|o| o.selected)),
    }
}

/// Like [`org_of`], for calls that need a campaign group.
async fn required_org(
    state: &AppState,
    account: &AccountRow,
    org_id: Option<i64>,
) -> ApiResult<OrgRow> {
    org_of(state, account, org_id)
        .await?
        .ok_or_else(|| ApiError::field("orgId", REQUIRED))
}

/// A search text: trimmed, required, at most [`QUERY_MAX`] characters.
fn search_text(raw: Option<&str>) -> ApiResult<String> {
    let text = raw.unwrap_or_default().trim();
    if text.is_empty() {
        return Err(ApiError::field("query", REQUIRED));
    }
    if text.chars().count() > QUERY_MAX {
        return Err(ApiError::field(
            "query",
            &format!("Search text must be at most {QUERY_MAX} characters"),
        ));
    }
    Ok(text.to_string())
}

/// An App Store app of a campaign group.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppItem {
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub adam_id: i64,
    pub app_name: String,
    pub developer_name: Option<String>,
    /// Storefronts the app is sold in, when the provider said (search results).
    pub country_or_region_codes: Option<Vec<String>>,
    /// The campaign group the app belongs to (null for search results).
    #[serde(default, with = "searchdeck_common::ids::string_id::option")]
    #[schema(value_type = Option<String>)]
    pub org_id: Option<i64>,
}

/// The apps of the account's campaign group (`orgId`), or of all its campaign groups: the
/// synced ones; before the first sync, the campaign group's own apps asked from Apple Ads.
#[utoipa::path(get, path = "/api/asa/apps", tag = "accounts", params(Scope),
    responses((status = 200, description = "Apps", body = Envelope<Items<AppItem>>),
              (status = 400, description = "Unknown campaign group, or Apple Ads refused", body = ErrorBody),
              (status = 502, description = "Apple Ads could not be reached", body = ErrorBody)))]
pub async fn apps(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount>,
    ApiQuery(scope): ApiQuery<Scope>,
) -> ApiResult<impl IntoResponse> {
    let row = account.item.0;
    if let Some(id) = scope.org_id {
        org_of(&state, &row, Some(id)).await?;
    }
    let synced = store::catalog::apps(&state.db.pool, &row.id, scope.org_id).await?;
    if !synced.is_empty() {
        let items = synced
            .into_iter()
            .map(|a| AppItem {
                adam_id: a.adam_id,
                app_name: a.app_name,
                developer_name: a.developer_name,
                country_or_region_codes: None,
                org_id: Some(a.org_id),
            })
            .collect();
        return Ok(envelope::items(items));
    }
    // Nothing synced yet: ask Apple Ads for the apps each campaign group owns.
    let orgs: Vec<OrgRow> = match scope.org_id {
        Some(id) => org_of(&state, &row, Some(id)).await?.into_iter().collect(),
        None => store::accounts::orgs(&state.db.pool, &row.id)
            .await?
            .into_iter()
            .filter(|o| o.selected)
            .collect(),
    };
    let mut items = Vec::new();
    if !orgs.is_empty() {
        let client = state.provider.client_of(&row)?;
        for org in orgs {
            let found = client
                .search_apps(org.org_id, "", true, 1000)
                .await
                .map_err(provider_error)?;
            items.extend(found.into_iter().map(|a| AppItem {
                adam_id: a.adam_id,
                app_name: a.app_name,
                developer_name: Some(a.developer_name),
                country_or_region_codes: Some(a.country_or_region_codes),
                org_id: Some(org.org_id),
            }));
        }
    }
    Ok(envelope::items(items))
}

/// The body of `asa/findApp`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct FindApp {
    /// Text in the app's name.
    #[schema(required = true, nullable = false, min_length = 1, max_length = 100)]
    pub query: Option<String>,
}

/// App Store apps whose name contains `query` (Apple Ads app search, any owner), at most 50.
#[utoipa::path(post, path = "/api/asa/findApp", operation_id = "find_account_app", tag = "accounts", params(Scope), request_body = FindApp,
    responses((status = 200, description = "Apps found", body = Envelope<Items<AppItem>>),
              (status = 400, description = "Missing query, unknown campaign group, or Apple Ads refused", body = ErrorBody),
              (status = 502, description = "Apple Ads could not be reached", body = ErrorBody)))]
pub async fn find_app(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount>,
    ApiQuery(scope): ApiQuery<Scope>,
    ApiJson(body): ApiJson<FindApp>,
) -> ApiResult<impl IntoResponse> {
    let row = account.item.0;
    let text = search_text(body.query.as_deref())?;
    let org = required_org(&state, &row, scope.org_id).await?;
    let found = state
        .provider
        .client_of(&row)?
        .search_apps(org.org_id, &text, false, FIND_LIMIT)
        .await
        .map_err(provider_error)?;
    let items = found
        .into_iter()
        .map(|a| AppItem {
            adam_id: a.adam_id,
            app_name: a.app_name,
            developer_name: Some(a.developer_name),
            country_or_region_codes: Some(a.country_or_region_codes),
            org_id: None,
        })
        .collect();
    Ok(envelope::items(items))
}

/// The query of `GET asa/geo`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct GeoQuery {
    /// Text in the place's name (required).
    #[param(required = true, nullable = false, min_length = 1, max_length = 100)]
    pub query: Option<String>,
    /// Kind of place: Country, AdminArea, Locality or PostalCode (Apple Ads' names; Apple
    /// Ads refuses others with its message). Default: every kind.
    #[param(schema_with = crate::schemas::geo_entity)]
    pub entity: Option<String>,
    /// Only places in this country or region (a served code, see `country/allWithCodes`).
    #[param(schema_with = crate::schemas::country)]
    pub country_code: Option<String>,
}

/// A place as Apple Ads describes it (`SearchResponse`: id, legacyId, entity, displayName,
/// countryOrRegion, adminArea, locality).
#[derive(Debug, Serialize, ToSchema)]
#[schema(value_type = Object)]
pub struct Place(pub Value);

/// Places whose name contains `query` (Apple Ads geo search), for location targeting.
#[utoipa::path(get, path = "/api/asa/geo", tag = "accounts", params(Scope, GeoQuery),
    responses((status = 200, description = "Places", body = Envelope<Items<Place>>),
              (status = 400, description = "Missing query, unknown country or campaign group, or Apple Ads refused", body = ErrorBody),
              (status = 502, description = "Apple Ads could not be reached", body = ErrorBody)))]
pub async fn geo_search(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount>,
    ApiQuery(scope): ApiQuery<Scope>,
    ApiQuery(q): ApiQuery<GeoQuery>,
) -> ApiResult<impl IntoResponse> {
    let row = account.item.0;
    let text = search_text(q.query.as_deref())?;
    let country = match q
        .country_code
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        None => None,
        Some(code) => Some(
            searchdeck_common::countries::find(code)
                .ok_or_else(|| {
                    ApiError::field(
                        "countryCode",
                        "Apple Ads does not serve this country or region",
                    )
                })?
                .code
                .clone(),
        ),
    };
    let org = required_org(&state, &row, scope.org_id).await?;
    let entity = q.entity.as_deref().map(str::trim).filter(|e| !e.is_empty());
    let client = state.provider.client_of(&row)?;
    let found = client
        .search_geo(org.org_id, &text, entity, country.as_deref())
        .await
        .map_err(provider_error)?;
    Ok(envelope::items(
        found.into_iter().take(GEO_MAX).map(Place).collect(),
    ))
}

/// One place to look up: Apple Ads' numeric `id` or its pipe-delimited `legacyId`
/// (e.g. `US|CA|San Francisco`), and its kind.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GeoRef {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legacy_id: Option<String>,
    /// Country, AdminArea, Locality or PostalCode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity: Option<String>,
}

/// The body of `POST asa/geo`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GeoLookup {
    /// The places to look up (1 to 50), e.g. the saved locality targeting of an ad group.
    pub geo_request: Option<Vec<GeoRef>>,
}

/// Looks places up by id (Apple Ads `POST /search/geo`, App Store supply source): the
/// names and kinds of a targeting's stored place ids.
#[utoipa::path(post, path = "/api/asa/geo", tag = "accounts", params(Scope), request_body = GeoLookup,
    responses((status = 200, description = "The places found", body = Envelope<Items<Place>>),
              (status = 400, description = "Bad place references, unknown campaign group, or Apple Ads refused", body = ErrorBody),
              (status = 502, description = "Apple Ads could not be reached", body = ErrorBody)))]
pub async fn geo_lookup(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount>,
    ApiQuery(scope): ApiQuery<Scope>,
    ApiJson(body): ApiJson<GeoLookup>,
) -> ApiResult<impl IntoResponse> {
    let row = account.item.0;
    let refs = body.geo_request.unwrap_or_default();
    if refs.is_empty() {
        return Err(ApiError::field("geoRequest", REQUIRED));
    }
    if refs.len() > GEO_MAX {
        return Err(ApiError::field(
            "geoRequest",
            &format!("At most {GEO_MAX} places per request"),
        ));
    }
    for (i, r) in refs.iter().enumerate() {
        let given = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.trim().is_empty());
        if given(&r.id) == given(&r.legacy_id) {
            return Err(ApiError::field(
                &format!("geoRequest.{i}"),
                "Give either id or legacyId",
            ));
        }
        if !given(&r.entity) {
            return Err(ApiError::field(&format!("geoRequest.{i}.entity"), REQUIRED));
        }
    }
    let org = required_org(&state, &row, scope.org_id).await?;
    let request = json!({ "geoRequest": refs, "supplySource": "APPSTORE" });
    let found = state
        .provider
        .client_of(&row)?
        .geo_lookup(org.org_id, &request)
        .await
        .map_err(provider_error)?;
    Ok(envelope::items(found.into_iter().map(Place).collect()))
}
