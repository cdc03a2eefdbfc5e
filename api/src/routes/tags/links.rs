//! Attaching a tag to entities of its type and detaching it (`PATCH` and `DELETE
//! reports/tag/many/{tagId}`), up to 10,000 entities a call.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store;
use serde::Deserialize;
use utoipa::ToSchema;

use super::{
    Json, Tag, TagItem, answer,
    entities::{EntityRef, gone, resolve},
};
use crate::{
    access::{EditRoles, InWorkspace},
    domain::REQUIRED,
    envelope::{Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::ApiJson,
    state::AppState,
};

/// The body of `PATCH` and `DELETE tag/many/{tagId}`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct TagItems {
    #[schema(required = true, nullable = false, min_items = 1, max_items = 10000)]
    /// Entities of the tag's type.
    pub items: Option<Vec<EntityRef>>,
}

/// Attaches the tag to entities of its type; entities already carrying it keep one link.
#[utoipa::path(patch, path = "/api/reports/tag/many/{tagId}", operation_id = "attach_tag", tag = "reports",
    params(("tagId" = String, Path, description = "Tag id")), request_body = TagItems,
    responses((status = 200, description = "The tag", body = Envelope<Item<TagItem>>),
              (status = 400, description = "Missing or malformed items", body = ErrorBody)))]
pub async fn attach(
    State(state): State<AppState>,
    tag: InWorkspace<Tag, EditRoles>,
    ApiJson(body): ApiJson<TagItems>,
) -> ApiResult<impl IntoResponse> {
    change_links(&state, tag, body, true).await
}

/// Detaches the tag from entities; entities not carrying it are left as they are.
#[utoipa::path(delete, path = "/api/reports/tag/many/{tagId}", operation_id = "detach_tag", tag = "reports",
    params(("tagId" = String, Path, description = "Tag id")), request_body = TagItems,
    responses((status = 200, description = "The tag", body = Envelope<Item<TagItem>>),
              (status = 400, description = "Missing or malformed items", body = ErrorBody)))]
pub async fn detach(
    State(state): State<AppState>,
    tag: InWorkspace<Tag, EditRoles>,
    ApiJson(body): ApiJson<TagItems>,
) -> ApiResult<impl IntoResponse> {
    change_links(&state, tag, body, false).await
}

async fn change_links(
    state: &AppState,
    tag: InWorkspace<Tag, EditRoles>,
    body: TagItems,
    attach: bool,
) -> ApiResult<Json<TagItem>> {
    let row = tag.item.0;
    let workspace = &tag.caller.workspace_id;
    let items = body.items.unwrap_or_default();
    if items.is_empty() {
        return Err(ApiError::field("items", REQUIRED));
    }
    let level = store::tags::level_of(&row.kind).ok_or_else(|| {
        ApiError::Internal(anyhow::anyhow!("tag {} has type {}", row.id, row.kind))
    })?;
    let entities = resolve(state, workspace, level, &items, "items").await?;
    let mut tx = state.db.begin_write().await?;
    for (key, entity) in entities {
        if attach {
            store::tags::link(&mut *tx, &row.id, key, level, entity)
                .await
                .map_err(|e| gone(e, level))?;
        } else {
            store::tags::unlink(&mut *tx, &row.id, key, level, entity).await?;
        }
    }
    tx.commit().await?;
    answer(state, workspace, &row.id).await
}
