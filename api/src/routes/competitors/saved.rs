//! The workspace's competitor store (`store::competitors`): saving one competitor of an app
//! or many at once (each looked up in the App Store first, its details kept), removing one,
//! and reading the competitors of one app or of many. An app has at most
//! [`MAX_COMPETITORS`] and is never its own competitor.

use std::collections::HashMap;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    ids::now_ms,
    store::{self, competitors::Competitor},
};
use searchdeck_provider::appstore::StoreApp;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{
    GET_MANY_MAX, MANY_MAX, MAX_COMPETITORS, PickerApp, body_id, lookup, storefront, unknown_app,
};
use crate::{
    access::{
        AdamIdParam, AppStoreId, CompetitorApp, EditRoles, Editor, InWorkspace, Member,
        parse_app_store_id,
    },
    domain::REQUIRED,
    envelope::{self, Empty, Envelope, Item, Items},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath},
    state::AppState,
};

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
