//! One tag changed (`PATCH reports/tag/one/{tagId}`: a new name, a new colour, or both) or
//! deleted (`DELETE reports/tag/one/{tagId}`, which leaves every entity that carried it).

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{Db, store};
use serde::Deserialize;
use utoipa::ToSchema;

use super::{NAME_TAKEN, Tag, TagItem, answer, parse_color, parse_name};
use crate::{
    access::{EditRoles, InWorkspace},
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::ApiJson,
    state::AppState,
};

/// The body of `PATCH tag/one/{tagId}`: a new name, a new colour, or both.
#[derive(Debug, Deserialize, ToSchema)]
pub struct TagChange {
    /// The new name; absent or null keeps it.
    #[schema(min_length = 1, max_length = 40)]
    pub name: Option<String>,
    /// The new colour; absent or null keeps it.
    #[schema(schema_with = crate::schemas::tag_color_or_null)]
    pub color: Option<String>,
}

/// Renames or recolours a tag (its type and links stay); a field absent or null is kept.
#[utoipa::path(patch, path = "/api/reports/tag/one/{tagId}", tag = "reports",
    params(("tagId" = String, Path, description = "Tag id")), request_body = TagChange,
    responses((status = 200, description = "The tag", body = Envelope<Item<TagItem>>),
              (status = 400, description = "Invalid or taken name, invalid colour", body = ErrorBody)))]
pub async fn update_one(
    State(state): State<AppState>,
    tag: InWorkspace<Tag, EditRoles>,
    ApiJson(body): ApiJson<TagChange>,
) -> ApiResult<impl IntoResponse> {
    let row = tag.item.0;
    let workspace = &tag.caller.workspace_id;
    let mut errors = Vec::new();
    let name = match body.name.as_deref() {
        None => Some(row.name.clone()),
        Some(raw) => parse_name(Some(raw))
            .map_err(|m| errors.push(FieldError::new("name", m)))
            .ok(),
    };
    let color = match body.color.as_deref() {
        None => Some(row.color.as_str()),
        Some(raw) => parse_color(Some(raw))
            .map_err(|m| errors.push(FieldError::new("color", m)))
            .ok(),
    };
    if let Some(name) = &name
        && store::tags::name_taken(&state.db.pool, workspace, &row.kind, name, Some(&row.id))
            .await?
    {
        errors.push(FieldError::new("name", NAME_TAKEN));
    }
    let (Some(name), Some(color), true) = (name, color, errors.is_empty()) else {
        return Err(ApiError::validation(errors));
    };
    match store::tags::update(&state.db.pool, &row.id, &name, color).await {
        Err(e) if Db::is_unique_violation(&e) => return Err(ApiError::field("name", NAME_TAKEN)),
        other => other?,
    }
    answer(&state, workspace, &row.id).await
}

/// Deletes a tag; it leaves every entity that carried it.
#[utoipa::path(delete, path = "/api/reports/tag/one/{tagId}", tag = "reports",
    params(("tagId" = String, Path, description = "Tag id")),
    responses((status = 200, description = "Deleted", body = Envelope<envelope::Empty>)))]
pub async fn delete_one(
    State(state): State<AppState>,
    tag: InWorkspace<Tag, EditRoles>,
) -> ApiResult<impl IntoResponse> {
    store::tags::delete(&state.db.pool, &tag.item.0.id).await?;
    Ok(envelope::done())
}
