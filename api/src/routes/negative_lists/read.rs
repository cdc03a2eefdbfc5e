//! Reading lists: the workspace's lists by name without their terms and places
//! (`GET list/all/negative`), and one list with them (`GET list/{id}`).

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store;

use super::{ListItem, NegativeList, full, list_item};
use crate::{
    access::{InWorkspace, Member},
    envelope::{self, Envelope, Item, Items},
    error::ApiResult,
    state::AppState,
};

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
