//! Report tags (docs/product.md#2-tables tag column and colours,
//! docs/product.md#7-the-calls-it-makes `reports/allTags`, `reports/tag/*`): a workspace's tags,
//! each for one table type (CAMPAIGNS, GROUPS, KEYWORDS or SEARCHTERMS) with a name unique per
//! workspace and type and one of the spec's ten colours, attached to synced entities of that type.
//!
//! An entity is named by `{accountId, orgId, id}`: an account of the caller's workspace, one
//! of its synced campaign groups, and the entity's Apple id (a search term's stable id; ids
//! may be sent as numbers or strings, since search-term ids exceed JavaScript's exact
//! integers). Any entity that is not the caller's answers 404 and nothing is written. Every
//! member reads tags; owners, admins and writers change them.
//!
//! The routes live by action group: creating tags (`create`), attaching and detaching
//! (`links`), renaming, recolouring and deleting one (`edit`); `entities` resolves the
//! entities a request names. This module holds the tag as answered, the list and the
//! checks of a tag's name, colour and type.

mod create;
mod edit;
mod entities;
mod links;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    Db,
    ids::rfc3339,
    store::{self, tags::TagRow},
};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{Member, WorkspaceResource},
    domain::REQUIRED,
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(all_tags))
        .routes(route!(create::create_many))
        .routes(route!(links::attach))
        .routes(route!(links::detach))
        .routes(route!(edit::update_one))
        .routes(route!(edit::delete_one))
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

type Json<T> = axum::Json<Envelope<Item<T>>>;

/// The stored tag `id` in the envelope.
async fn answer(state: &AppState, workspace_id: &str, id: &str) -> ApiResult<Json<TagItem>> {
    let row = store::tags::in_workspace(&state.db.pool, workspace_id, id)
        .await?
        .ok_or_else(|| ApiError::not_found("Tag"))?;
    Ok(envelope::item(TagItem::from(row)))
}

#[cfg(test)]
mod tests {
    use super::*;

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
