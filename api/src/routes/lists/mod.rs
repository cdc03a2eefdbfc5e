//! Negative keyword lists (spec §7 `list/*`, docs/api/creation.md "Negative keyword
//! lists"): named lists of negative keywords of a workspace, applied to campaigns or ad
//! groups as real negatives at Apple. Apple has no shared lists; these are ours
//! (`store::negative_lists`). Saving a list with places, editing one or deleting one starts
//! the `apply-negative-lists` job over every place concerned, in the transaction that saves;
//! `dryRun` instead answers the terms that would block a keyword a place bids on, and saves
//! nothing. Every member reads the lists; owners, admins and writers change them.

use std::collections::HashSet;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    Db,
    ids::{new_id, now_ms, rfc3339, string_id},
    jobs::PlaceRef,
    store::{
        self,
        negative_lists::{ListKeyword, ListRow, Place},
    },
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{EditRoles, Editor, InWorkspace, Member, WorkspaceResource},
    domain::REQUIRED,
    envelope::{self, Envelope, Item, Items},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiQuery},
    route,
    state::AppState,
};

mod input;

use input::{
    checked_keywords, checked_name, conflicts, name_taken, place_ref, relay, resolved_places,
    start_apply,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(all_lists))
        .routes(route!(one))
        .routes(route!(update))
        .routes(route!(remove))
        .routes(route!(add))
}

/// Longest list name.
pub const NAME_MAX: usize = 100;
/// Most terms a list holds.
pub const KEYWORDS_MAX: usize = 5_000;
/// Most places a list is applied to.
pub const PLACES_MAX: usize = 500;
/// Longest keyword text Apple Ads accepts.
pub const TEXT_MAX: usize = crate::domain::KEYWORD_TEXT_MAX;
/// Message of a taken list name.
pub const NAME_TAKEN: &str = "A list with this name already exists";

/// A negative keyword list of the caller's workspace, addressed by the `id` path parameter.
#[derive(Debug)]
pub struct NegativeList(pub ListRow);

impl WorkspaceResource for NegativeList {
    const NAME: &'static str = "List";
    const KIND: &'static str = "negative-list";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        Ok(
            store::negative_lists::in_workspace(&db.pool, workspace_id, id)
                .await?
                .map(NegativeList),
        )
    }
}

/// A term of a list.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListKeywordItem {
    /// The text (on input, several lines are several terms; cleaned as spec §5 says).
    pub text: String,
    /// EXACT (default) or BROAD.
    pub match_type: Option<String>,
}

/// A place a list is applied to: a campaign of the workspace, or an ad group of it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlaceItem {
    #[schema(value_type = String)]
    pub campaign_id: Option<Value>,
    /// Null for the campaign level.
    #[schema(value_type = Option<String>)]
    pub ad_group_id: Option<Value>,
    #[serde(default)]
    pub campaign_name: Option<String>,
    #[serde(default)]
    pub ad_group_name: Option<String>,
    /// The campaign group (needed only when several connections reach the campaign).
    #[schema(value_type = Option<String>)]
    pub org_id: Option<Value>,
    pub account_id: Option<String>,
}

/// A list as answered.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListItem {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    /// The terms (absent in the listing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keywords: Option<Vec<ListKeywordItem>>,
    /// The places (absent in the listing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub places: Option<Vec<AppliedPlace>>,
    pub keywords_count: i64,
    /// How many places (campaigns and ad groups) the list is applied to, in the listing too
    /// (where `places` is absent).
    pub places_count: i64,
    pub created_at: String,
    pub updated_at: String,
    /// The last apply job's task.
    pub task_id: Option<String>,
}

/// A place a list is applied to, as answered: the ids Apple gave, the names as synced (not
/// our input, so not held to the request bodies' text rules).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppliedPlace {
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub campaign_id: String,
    /// Null for the campaign level.
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub ad_group_id: Option<String>,
    pub campaign_name: String,
    pub ad_group_name: Option<String>,
    /// The campaign group.
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub org_id: String,
    /// The connection that reaches the campaign.
    pub account_id: String,
}

fn place_item(p: Place) -> AppliedPlace {
    AppliedPlace {
        campaign_id: p.campaign_id.to_string(),
        ad_group_id: p.ad_group_id.map(|id| id.to_string()),
        campaign_name: p.campaign_name,
        ad_group_name: p.ad_group_name,
        org_id: p.org_id.to_string(),
        account_id: p.account_id,
    }
}

fn list_item(
    row: ListRow,
    keywords: Option<Vec<ListKeyword>>,
    places: Option<Vec<Place>>,
) -> ListItem {
    ListItem {
        id: row.id,
        name: row.name,
        keywords: keywords.map(|k| {
            k.into_iter()
                .map(|k| ListKeywordItem {
                    text: k.text,
                    match_type: Some(k.match_type),
                })
                .collect()
        }),
        places: places.map(|p| p.into_iter().map(place_item).collect()),
        keywords_count: row.keywords_count,
        places_count: row.places_count,
        created_at: rfc3339(row.created_at),
        updated_at: rfc3339(row.updated_at),
        task_id: row.task_id,
    }
}

async fn full(state: &AppState, row: ListRow) -> ApiResult<ListItem> {
    let keywords = store::negative_lists::keywords(&state.db.pool, &row.id).await?;
    let places = store::negative_lists::places(&state.db.pool, &row.id).await?;
    Ok(list_item(row, Some(keywords), Some(places)))
}

/// The workspace's lists by name, without their terms and places.
#[utoipa::path(get, path = "/api/list/all/negative", tag = "lists",
    responses((status = 200, description = "The lists", body = Envelope<Items<ListItem>>)))]
pub async fn all_lists(
    State(state): State<AppState>,
    user: Member,
) -> ApiResult<impl IntoResponse> {
    let rows = store::negative_lists::all(&state.db.pool, &user.workspace_id).await?;
    Ok(envelope::items(
        rows.into_iter().map(|r| list_item(r, None, None)).collect(),
    ))
}

/// One list with its terms and places.
#[utoipa::path(get, path = "/api/list/{id}", operation_id = "one_negative_list", tag = "lists",
    params(("id" = String, Path, description = "List id")),
    responses((status = 200, description = "The list", body = Envelope<Item<ListItem>>)))]
pub async fn one(
    State(state): State<AppState>,
    list: InWorkspace<NegativeList>,
) -> ApiResult<impl IntoResponse> {
    Ok(envelope::item(full(&state, list.item.0).await?))
}

/// The body of `list/add` and `PUT list/{id}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListBody {
    /// 1–100 characters, unique in the workspace (required to add).
    pub name: Option<String>,
    /// 1–5,000 terms (required to add).
    pub keywords: Option<Vec<ListKeywordItem>>,
    /// 0–500 places.
    pub places: Option<Vec<PlaceItem>>,
    /// Answer the conflicts only; save nothing.
    #[serde(default)]
    pub dry_run: Option<bool>,
}

/// A term of the list that would block a keyword a place bids on.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Conflict {
    pub text: String,
    pub match_type: String,
    #[schema(value_type = String)]
    #[serde(with = "string_id")]
    pub campaign_id: i64,
    #[schema(value_type = Option<String>)]
    #[serde(with = "string_id::option")]
    pub ad_group_id: Option<i64>,
    pub keyword: ConflictKeyword,
}

/// The keyword a conflict blocks.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConflictKeyword {
    #[schema(value_type = String)]
    #[serde(with = "string_id")]
    pub keyword_id: i64,
    #[schema(value_type = String)]
    #[serde(with = "string_id")]
    pub ad_group_id: i64,
    pub text: String,
    pub match_type: String,
}

/// The answer of a `dryRun`.
#[derive(Debug, Serialize, ToSchema)]
pub struct DryRun {
    pub conflicts: Vec<Conflict>,
}

/// What `list/add` and `PUT list/{id}` answer: the saved list, or with `dryRun` the
/// conflicts.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum Saved {
    Item(Item<ListItem>),
    DryRun(DryRun),
}

/// Creates a list. With places, the `apply-negative-lists` job is queued in the same
/// transaction and the answer carries its `taskId`; with `dryRun`, nothing is saved and
/// the answer is the conflicts with the keywords the places bid on.
#[utoipa::path(post, path = "/api/list/add", tag = "lists",
    request_body = ListBody,
    responses((status = 200, description = "The list (or, with dryRun, the conflicts)", body = Envelope<Saved>),
              (status = 400, description = "Invalid list (field errors)", body = ErrorBody),
              (status = 404, description = "A place is not a campaign or ad group of the workspace", body = ErrorBody)))]
pub async fn add(
    State(state): State<AppState>,
    caller: Editor,
    ApiJson(body): ApiJson<ListBody>,
) -> ApiResult<axum::response::Response> {
    let mut errors = Vec::new();
    let name = match body.name.as_deref() {
        Some(n) => checked_name(n, &mut errors),
        None => {
            errors.push(FieldError::new("name", REQUIRED));
            None
        }
    };
    let terms = checked_keywords(body.keywords.as_deref().unwrap_or_default(), &mut errors);
    crate::domain::Fields { errors }.finish()?;
    let places = resolved_places(
        &state,
        &caller.workspace_id,
        body.places.as_deref().unwrap_or_default(),
    )
    .await?;
    if body.dry_run == Some(true) {
        let conflicts = conflicts(&state, &terms, &places).await?;
        return Ok(envelope::ok(Saved::DryRun(DryRun { conflicts })).into_response());
    }
    let name = name.unwrap_or_default();
    let id = new_id();
    let now = now_ms();
    let mut tx = state.db.begin_write().await?;
    store::negative_lists::create(&mut *tx, &id, &caller.workspace_id, &name, now)
        .await
        .map_err(name_taken)?;
    store::negative_lists::insert_keywords(&mut tx, &id, &terms).await?;
    let rows: Vec<Place> = places.iter().map(|(p, _)| p.clone()).collect();
    store::negative_lists::insert_places(&mut tx, &id, &rows).await?;
    let task_id = if rows.is_empty() {
        None
    } else {
        let task = start_apply(
            &mut tx,
            &caller,
            Some(&id),
            rows.iter().map(place_ref).collect(),
        )
        .await?;
        store::negative_lists::set_task(&mut *tx, &id, Some(&task), now).await?;
        Some(task)
    };
    tx.commit().await?;
    if task_id.is_some() {
        relay(&state).await;
    }
    let row = store::negative_lists::in_workspace(&state.db.pool, &caller.workspace_id, &id)
        .await?
        .ok_or_else(|| ApiError::not_found(NegativeList::NAME))?;
    tracing::info!(list.id = %id, places = rows.len(), "negative keyword list created");
    Ok(envelope::ok(Saved::Item(Item {
        item: full(&state, row).await?,
    }))
    .into_response())
}

/// Changes a list: name, terms, places (each optional). When its terms or places change and
/// it has (or had) places, `apply-negative-lists` is queued over the old and new places
/// (terms added are created, terms and places removed take away the negatives the list
/// made there that no other list holds); `dryRun` answers the conflicts of the new terms at
/// the new places and saves nothing.
#[utoipa::path(put, path = "/api/list/{id}", operation_id = "update_negative_list", tag = "lists",
    params(("id" = String, Path, description = "List id")),
    request_body = ListBody,
    responses((status = 200, description = "The list (or, with dryRun, the conflicts)", body = Envelope<Saved>),
              (status = 400, description = "Invalid list (field errors)", body = ErrorBody)))]
pub async fn update(
    State(state): State<AppState>,
    list: InWorkspace<NegativeList, EditRoles>,
    ApiJson(body): ApiJson<ListBody>,
) -> ApiResult<axum::response::Response> {
    let caller = list.caller;
    let row = list.item.0;
    let mut errors = Vec::new();
    let name = body
        .name
        .as_deref()
        .and_then(|n| checked_name(n, &mut errors));
    let terms = body
        .keywords
        .as_deref()
        .map(|k| checked_keywords(k, &mut errors));
    crate::domain::Fields { errors }.finish()?;
    let old_terms = store::negative_lists::keywords(&state.db.pool, &row.id).await?;
    let old_places = store::negative_lists::places(&state.db.pool, &row.id).await?;
    let places = match body.places.as_deref() {
        Some(p) => Some(resolved_places(&state, &caller.workspace_id, p).await?),
        None => None,
    };
    if body.dry_run == Some(true) {
        let terms = terms.as_ref().unwrap_or(&old_terms);
        let places = match &places {
            Some(p) => p.clone(),
            None => {
                let mut with_keys = Vec::new();
                for p in &old_places {
                    if let Some(o) =
                        store::synced::org_of(&state.db.pool, &p.account_id, p.org_id).await?
                    {
                        with_keys.push((p.clone(), o.org_key));
                    }
                }
                with_keys
            }
        };
        let conflicts = conflicts(&state, terms, &places).await?;
        return Ok(envelope::ok(Saved::DryRun(DryRun { conflicts })).into_response());
    }
    let now = now_ms();
    let new_places: Option<Vec<Place>> = places.map(|p| p.into_iter().map(|(p, _)| p).collect());
    let terms_changed = terms.as_ref().is_some_and(|t| {
        t.iter().collect::<HashSet<_>>() != old_terms.iter().collect::<HashSet<_>>()
    });
    let places_changed = new_places.as_ref().is_some_and(|p| {
        p.iter().map(Place::key).collect::<HashSet<_>>()
            != old_places.iter().map(Place::key).collect::<HashSet<_>>()
    });
    let mut tx = state.db.begin_write().await?;
    match &name {
        Some(n) => store::negative_lists::rename(&mut *tx, &row.id, n, now)
            .await
            .map_err(name_taken)?,
        None => {
            store::negative_lists::set_task(&mut *tx, &row.id, row.task_id.as_deref(), now).await?
        }
    }
    if let Some(terms) = &terms {
        store::negative_lists::clear_keywords(&mut *tx, &row.id).await?;
        store::negative_lists::insert_keywords(&mut tx, &row.id, terms).await?;
    }
    if let Some(places) = &new_places {
        store::negative_lists::clear_places(&mut *tx, &row.id).await?;
        store::negative_lists::insert_places(&mut tx, &row.id, places).await?;
    }
    // Every place whose lists changed: the old ones (terms or the place removed) and the new.
    let mut concerned: Vec<PlaceRef> = Vec::new();
    if terms_changed || places_changed {
        let mut seen = HashSet::new();
        for p in old_places.iter().chain(new_places.iter().flatten()) {
            let r = place_ref(p);
            if seen.insert(r.clone()) {
                concerned.push(r);
            }
        }
    }
    let started = !concerned.is_empty();
    if started {
        let task = start_apply(&mut tx, &caller, Some(&row.id), concerned).await?;
        store::negative_lists::set_task(&mut *tx, &row.id, Some(&task), now).await?;
    }
    tx.commit().await?;
    if started {
        relay(&state).await;
    }
    let row = store::negative_lists::in_workspace(&state.db.pool, &caller.workspace_id, &row.id)
        .await?
        .ok_or_else(|| ApiError::not_found(NegativeList::NAME))?;
    Ok(envelope::ok(Saved::Item(Item {
        item: full(&state, row).await?,
    }))
    .into_response())
}

/// The query of `DELETE list/{id}`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct RemoveQuery {
    /// Whether the negatives the list made at its places are deleted at Apple (default true).
    pub remove_negatives: Option<bool>,
}

/// What `DELETE list/{id}` answers: the task removing the negatives, when there is one.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Removed {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
}

/// Deletes a list. With `removeNegatives` (the default) and places, the
/// `apply-negative-lists` job is queued over its places in the same transaction: the
/// negatives it made there go, unless another list at that place holds them.
#[utoipa::path(delete, path = "/api/list/{id}", operation_id = "remove_negative_list", tag = "lists",
    params(("id" = String, Path, description = "List id"), RemoveQuery),
    responses((status = 200, description = "Deleted", body = Envelope<Removed>)))]
pub async fn remove(
    State(state): State<AppState>,
    list: InWorkspace<NegativeList, EditRoles>,
    ApiQuery(query): ApiQuery<RemoveQuery>,
) -> ApiResult<impl IntoResponse> {
    let caller = list.caller;
    let row = list.item.0;
    let places = store::negative_lists::places(&state.db.pool, &row.id).await?;
    let mut tx = state.db.begin_write().await?;
    store::negative_lists::delete(&mut *tx, &caller.workspace_id, &row.id).await?;
    let task_id = if query.remove_negatives != Some(false) && !places.is_empty() {
        Some(
            start_apply(
                &mut tx,
                &caller,
                None,
                places.iter().map(place_ref).collect(),
            )
            .await?,
        )
    } else {
        None
    };
    tx.commit().await?;
    if task_id.is_some() {
        relay(&state).await;
    }
    tracing::info!(list.id = %row.id, "negative keyword list deleted");
    Ok(envelope::ok(Removed { task_id }))
}
