//! Report tags (spec §2 tag column and colours, §7 `reports/allTags`, `reports/tag/*`): a
//! workspace's tags, each for one table type (CAMPAIGNS, GROUPS, KEYWORDS or SEARCHTERMS)
//! with a name unique per workspace and type and one of the spec's ten colours, attached to
//! synced entities of that type.
//!
//! An entity is named by `{accountId, orgId, id}`: an account of the caller's workspace, one
//! of its synced campaign groups, and the entity's Apple id (a search term's stable id; ids
//! may be sent as numbers or strings, since search-term ids exceed JavaScript's exact
//! integers). Any entity that is not the caller's answers 404 and nothing is written. Every
//! member reads tags; owners, admins and writers change them.

use std::collections::HashMap;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    Db,
    ids::{new_id, now_ms, rfc3339},
    store::{self, tags::TagRow},
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{EditRoles, Editor, InWorkspace, Member, WorkspaceResource},
    domain::REQUIRED,
    envelope::{self, Envelope, Item, Items},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::ApiJson,
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(all_tags))
        .routes(route!(create_many))
        .routes(route!(attach))
        .routes(route!(detach))
        .routes(route!(update_one))
        .routes(route!(delete_one))
}

/// Longest tag name.
pub const NAME_MAX: usize = 40;
/// Most tags one `PUT tag/many` creates.
pub const CREATE_MAX: usize = 50;
/// Most entities one call attaches or detaches.
pub const ITEMS_MAX: usize = 10_000;
/// Message of a taken tag name.
pub const NAME_TAKEN: &str = "A tag with this name already exists";

/// A tag of the caller's workspace, addressed by the `tagId` path parameter.
#[derive(Debug)]
pub struct Tag(pub TagRow);

impl WorkspaceResource for Tag {
    const NAME: &'static str = "Tag";
    const KIND: &'static str = "tag";
    const PARAM: &'static str = "tagId";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        Ok(store::tags::in_workspace(&db.pool, workspace_id, id)
            .await?
            .map(Tag))
    }
}

/// A tag as answered.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TagItem {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    /// One of Green, Purple, Yellow, Orange, Pink, Indigo, Magenta, Cyan, Blue, Red.
    pub color: String,
    /// CAMPAIGNS, GROUPS, KEYWORDS or SEARCHTERMS.
    #[serde(rename = "type")]
    pub kind: String,
    /// How many entities carry the tag.
    pub items: i64,
    pub created_at: String,
}

impl From<TagRow> for TagItem {
    fn from(t: TagRow) -> TagItem {
        TagItem {
            id: t.id,
            name: t.name,
            color: t.color,
            kind: t.kind,
            items: t.items,
            created_at: rfc3339(t.created_at),
        }
    }
}

/// The workspace's tags grouped by table type (every type present, possibly empty).
#[derive(Debug, Serialize, ToSchema)]
pub struct TagsByType {
    #[serde(rename = "CAMPAIGNS")]
    pub campaigns: Vec<TagItem>,
    #[serde(rename = "GROUPS")]
    pub groups: Vec<TagItem>,
    #[serde(rename = "KEYWORDS")]
    pub keywords: Vec<TagItem>,
    #[serde(rename = "SEARCHTERMS")]
    pub search_terms: Vec<TagItem>,
}

/// Every tag of the workspace, by type, each by name.
#[utoipa::path(get, path = "/api/reports/allTags", tag = "reports",
    responses((status = 200, description = "Tags by type", body = Envelope<TagsByType>)))]
pub async fn all_tags(State(state): State<AppState>, user: Member) -> ApiResult<impl IntoResponse> {
    let mut by_type = TagsByType {
        campaigns: Vec::new(),
        groups: Vec::new(),
        keywords: Vec::new(),
        search_terms: Vec::new(),
    };
    for row in store::tags::all(&state.db.pool, &user.workspace_id).await? {
        let list = match row.kind.as_str() {
            "CAMPAIGNS" => &mut by_type.campaigns,
            "GROUPS" => &mut by_type.groups,
            "KEYWORDS" => &mut by_type.keywords,
            _ => &mut by_type.search_terms,
        };
        list.push(row.into());
    }
    Ok(envelope::ok(by_type))
}

/// A synced entity: account, campaign group and Apple id (number or string).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntityRef {
    #[schema(required = true, nullable = false, min_length = 1)]
    pub account_id: Option<String>,
    /// The campaign group's id (a string of digits; a JSON integer is accepted too).
    #[schema(value_type = searchdeck_common::ids::AppleId, required = true)]
    pub org_id: Option<Value>,
    /// The entity's Apple id (campaign, ad group or keyword id, or the search term's id).
    #[schema(value_type = searchdeck_common::ids::AppleId, required = true)]
    pub id: Option<Value>,
}

/// An id sent as a JSON integer or a string of digits.
fn id_of(value: Option<&Value>) -> Option<i64> {
    searchdeck_common::ids::string_id::parse(value?)
}

/// The 404 name of entities of `level`.
fn entity_name(level: i64) -> &'static str {
    match level {
        1 => "Campaign",
        2 => "Ad group",
        3 => "Keyword",
        _ => "Search term",
    }
}

/// A link whose campaign group was removed (its connection deleted) between the check and
/// the write is a 404 like any unknown entity.
fn gone(err: sqlx::Error, level: i64) -> ApiError {
    match &err {
        sqlx::Error::Database(e) if e.is_foreign_key_violation() => {
            ApiError::not_found(entity_name(level))
        }
        _ => err.into(),
    }
}

/// The `(org_key, entity id)` of every item, all of the caller's workspace and of `level`;
/// the first one that is not answers 404 (a malformed one 400 with its field).
async fn resolve(
    state: &AppState,
    workspace_id: &str,
    level: i64,
    items: &[EntityRef],
    field: &str,
) -> ApiResult<Vec<(i64, i64)>> {
    if items.len() > ITEMS_MAX {
        return Err(ApiError::field(
            field,
            &format!("At most {ITEMS_MAX} items per request"),
        ));
    }
    let what = entity_name(level);
    let mut keys: HashMap<(String, i64), Option<i64>> = HashMap::new();
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let account = item
            .account_id
            .as_deref()
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .ok_or_else(|| ApiError::field(&format!("{field}.{i}.accountId"), REQUIRED))?;
        let org = id_of(item.org_id.as_ref()).ok_or_else(|| {
            ApiError::field(
                &format!("{field}.{i}.orgId"),
                "A campaign group id is required",
            )
        })?;
        let id = id_of(item.id.as_ref()).ok_or_else(|| {
            ApiError::field(&format!("{field}.{i}.id"), "An entity id is required")
        })?;
        let cache_key = (account.to_string(), org);
        let key = match keys.get(&cache_key) {
            Some(k) => *k,
            None => {
                let k = store::catalog::org_key(&state.db.pool, workspace_id, account, org).await?;
                keys.insert(cache_key, k);
                k
            }
        };
        let Some(key) = key else {
            return Err(ApiError::not_found(what));
        };
        out.push((key, id));
    }
    // One query per campaign group for all its ids.
    let mut by_key: HashMap<i64, Vec<i64>> = HashMap::new();
    for (key, id) in &out {
        by_key.entry(*key).or_default().push(*id);
    }
    for (key, ids) in by_key {
        let found = store::tags::existing(&state.db.pool, key, level, &ids).await?;
        if ids.iter().any(|id| !found.contains(id)) {
            return Err(ApiError::not_found(what));
        }
    }
    Ok(out)
}

/// A valid tag name: trimmed, required, at most [`NAME_MAX`] characters.
fn parse_name(raw: Option<&str>) -> Result<String, String> {
    let name = raw.unwrap_or_default().trim();
    if name.is_empty() {
        Err(REQUIRED.into())
    } else if name.chars().count() > NAME_MAX {
        Err(format!("Tag name must be at most {NAME_MAX} characters"))
    } else {
        Ok(name.to_string())
    }
}

/// One of the spec's ten colours (any case), as the spec spells it.
fn parse_color(raw: Option<&str>) -> Result<&'static str, String> {
    let raw = raw.unwrap_or_default().trim();
    if raw.is_empty() {
        return Err(REQUIRED.into());
    }
    store::tags::COLORS
        .iter()
        .find(|c| c.eq_ignore_ascii_case(raw))
        .copied()
        .ok_or_else(|| format!("Colour must be one of {}", store::tags::COLORS.join(", ")))
}

/// One of the four tag types.
fn parse_type(raw: Option<&str>) -> Result<(&'static str, i64), String> {
    let raw = raw.unwrap_or_default().trim();
    if raw.is_empty() {
        return Err(REQUIRED.into());
    }
    store::tags::TYPES
        .iter()
        .find(|t| t.0.eq_ignore_ascii_case(raw))
        .map(|t| (t.0, t.1))
        .ok_or_else(|| "Type must be one of CAMPAIGNS, GROUPS, KEYWORDS, SEARCHTERMS".to_string())
}

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

type Json<T> = axum::Json<Envelope<Item<T>>>;

/// The stored tag `id` in the envelope.
async fn answer(state: &AppState, workspace_id: &str, id: &str) -> ApiResult<Json<TagItem>> {
    let row = store::tags::in_workspace(&state.db.pool, workspace_id, id)
        .await?
        .ok_or_else(|| ApiError::not_found("Tag"))?;
    Ok(envelope::item(TagItem::from(row)))
}

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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn ids_are_numbers_or_digit_strings() {
        assert_eq!(id_of(Some(&json!(7))), Some(7));
        assert_eq!(
            id_of(Some(&json!(" 9007199254740993 "))),
            Some(9_007_199_254_740_993)
        );
        assert_eq!(id_of(Some(&json!("seven"))), None);
        assert_eq!(id_of(Some(&json!(1.5))), None);
        assert_eq!(id_of(Some(&json!(null))), None);
        assert_eq!(id_of(None), None);
    }

    #[test]
    fn names_colours_and_types_are_checked() {
        assert_eq!(parse_name(Some("  Brand ")), Ok("Brand".into()));
        assert_eq!(parse_name(Some(" ")), Err(REQUIRED.into()));
        assert!(parse_name(Some(&"é".repeat(NAME_MAX))).is_ok());
        assert!(parse_name(Some(&"é".repeat(NAME_MAX + 1))).is_err());
        assert_eq!(parse_color(Some("cYaN")), Ok("Cyan"));
        assert!(parse_color(Some("Teal")).is_err());
        assert_eq!(parse_color(None), Err(REQUIRED.into()));
        assert_eq!(parse_type(Some("searchterms")), Ok(("SEARCHTERMS", 4)));
        assert!(parse_type(Some("ADS")).is_err());
    }
}
