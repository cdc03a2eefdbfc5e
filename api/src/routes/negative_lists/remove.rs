//! Deleting a list (`DELETE list/{id}`), with the `apply-negative-lists` task that takes
//! away the negatives it made at its places unless `removeNegatives` is false.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{
    NegativeList,
    input::{place_ref, relay, start_apply},
};
use crate::{
    access::{EditRoles, InWorkspace},
    envelope::{self, Envelope},
    error::ApiResult,
    extract::ApiQuery,
    state::AppState,
};

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
