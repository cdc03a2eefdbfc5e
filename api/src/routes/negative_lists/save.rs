//! Creating a list (`POST list/add`) and changing one (`PUT list/{id}`): the name, terms
//! and places checked, saved with the `apply-negative-lists` task in one transaction, or
//! with `dryRun` the conflicts answered and nothing saved.

use std::collections::HashSet;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    ids::{new_id, now_ms},
    jobs::PlaceRef,
    store::{self, negative_lists::Place},
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    Conflict, ListItem, ListKeywordItem, NegativeList, PlaceItem, full,
    input::{
        checked_keywords, checked_name, conflicts, name_taken, place_ref, relay, resolved_places,
        start_apply,
    },
};
use crate::{
    access::{EditRoles, Editor, InWorkspace, WorkspaceResource},
    domain::REQUIRED,
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::ApiJson,
    state::AppState,
};

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
