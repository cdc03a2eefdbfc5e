//! Creating tags (`PUT reports/tag/many`): up to 50 at once, each attached to its optional
//! entities, all of them or none.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    Db,
    ids::{new_id, now_ms},
    store,
};
use serde::Deserialize;
use utoipa::ToSchema;

use super::{
    CREATE_MAX, ITEMS_MAX, NAME_TAKEN, TagItem,
    entities::{EntityRef, gone, resolve},
    parse_color, parse_name, parse_type,
};
use crate::{
    access::Editor,
    domain::REQUIRED,
    envelope::{self, Envelope, Items},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::ApiJson,
    state::AppState,
};

/// A tag to create.
#[derive(Debug, Deserialize, ToSchema)]
pub struct NewTagBody {
    #[schema(required = true, nullable = false, min_length = 1, max_length = 40)]
    pub name: Option<String>,
    #[schema(schema_with = crate::schemas::tag_color, required = true)]
    pub color: Option<String>,
    /// CAMPAIGNS, GROUPS, KEYWORDS or SEARCHTERMS.
    #[serde(rename = "type")]
    #[schema(schema_with = crate::schemas::tag_type, required = true)]
    pub kind: Option<String>,
    /// Entities of that type to attach the new tag to at once.
    pub items: Option<Vec<EntityRef>>,
}

/// The body of `PUT tag/many`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateTags {
    /// The tags to create (1 to 50).
    #[schema(required = true, nullable = false, min_items = 1, max_items = 50)]
    pub tags: Option<Vec<NewTagBody>>,
}

/// Creates tags (and attaches each to its optional items): all of them or, on any error,
/// none. A name taken in the workspace and type (or twice in the request) is a field error.
#[utoipa::path(put, path = "/api/reports/tag/many", tag = "reports", request_body = CreateTags,
    responses((status = 200, description = "The created tags", body = Envelope<Items<TagItem>>),
              (status = 400, description = "Invalid or taken names, colours or types", body = ErrorBody),
              (status = 404, description = "An item is not an entity of the workspace", body = ErrorBody)))]
pub async fn create_many(
    State(state): State<AppState>,
    user: Editor,
    ApiJson(body): ApiJson<CreateTags>,
) -> ApiResult<impl IntoResponse> {
    let tags = body.tags.unwrap_or_default();
    if tags.is_empty() {
        return Err(ApiError::field("tags", REQUIRED));
    }
    if tags.len() > CREATE_MAX {
        return Err(ApiError::field(
            "tags",
            &format!("At most {CREATE_MAX} tags per request"),
        ));
    }
    let mut errors = Vec::new();
    let mut valid = Vec::new();
    for (i, t) in tags.iter().enumerate() {
        let name = parse_name(t.name.as_deref())
            .map_err(|m| errors.push(FieldError::new(format!("tags.{i}.name"), m)))
            .ok();
        let color = parse_color(t.color.as_deref())
            .map_err(|m| errors.push(FieldError::new(format!("tags.{i}.color"), m)))
            .ok();
        let kind = parse_type(t.kind.as_deref())
            .map_err(|m| errors.push(FieldError::new(format!("tags.{i}.type"), m)))
            .ok();
        if let (Some(name), Some(color), Some(kind)) = (name, color, kind) {
            let twice = valid
                .iter()
                .any(|(_, n, _, k): &(usize, String, &str, (&str, i64))| {
                    *n == name && k.0 == kind.0
                });
            if twice
                || store::tags::name_taken(&state.db.pool, &user.workspace_id, kind.0, &name, None)
                    .await?
            {
                errors.push(FieldError::new(format!("tags.{i}.name"), NAME_TAKEN));
            } else {
                valid.push((i, name, color, kind));
            }
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let total: usize = tags
        .iter()
        .map(|t| t.items.as_ref().map_or(0, Vec::len))
        .sum();
    if total > ITEMS_MAX {
        return Err(ApiError::field(
            "tags",
            &format!("At most {ITEMS_MAX} items per request"),
        ));
    }
    let mut links = Vec::new();
    for (i, _, _, (_, level)) in &valid {
        let items = tags[*i].items.clone().unwrap_or_default();
        links.push(
            resolve(
                &state,
                &user.workspace_id,
                *level,
                &items,
                &format!("tags.{i}.items"),
            )
            .await?,
        );
    }
    let now = now_ms();
    let mut tx = state.db.begin_write().await?;
    let mut ids = Vec::new();
    for ((i, name, color, (kind, level)), entities) in valid.iter().zip(links) {
        let id = new_id();
        let created = store::tags::create(
            &mut *tx,
            store::tags::NewTag {
                id: &id,
                workspace_id: &user.workspace_id,
                kind,
                name,
                color,
                now,
            },
        )
        .await;
        match created {
            Err(e) if Db::is_unique_violation(&e) => {
                return Err(ApiError::field(&format!("tags.{i}.name"), NAME_TAKEN));
            }
            other => other?,
        }
        for (key, entity) in entities {
            store::tags::link(&mut *tx, &id, key, *level, entity)
                .await
                .map_err(|e| gone(e, *level))?;
        }
        ids.push(id);
    }
    tx.commit().await?;
    let mut items = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some(row) =
            store::tags::in_workspace(&state.db.pool, &user.workspace_id, &id).await?
        {
            items.push(TagItem::from(row));
        }
    }
    Ok(envelope::items(items))
}
