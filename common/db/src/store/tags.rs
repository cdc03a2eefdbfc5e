//! Report tags (docs/product.md#2-tables tag column, docs/product.md#7-the-calls-it-makes
//! `reports/*Tag*`): tags of a workspace, each for one table type with a name and one of the spec's
//! ten colours, and the synced entities that carry them (`tags`, `tag_links` of migration
//! `20261123000000_synced_entities.sql`).
//!
//! A tagged entity is `(org_key, level, entity_id)`: the synced campaign group's key, the
//! level of the tag's type (1 campaign, 2 ad group, 3 keyword, 4 search term, as in
//! `asa_day_metrics`) and the entity's provider id (the search term's stable hash).

use sqlx::Row;

use super::Exec;

/// The table types a tag can be for, with their entity level and synced table.
pub const TYPES: &[(&str, i64, &str)] = &[
    ("CAMPAIGNS", 1, "asa_campaigns"),
    ("GROUPS", 2, "asa_ad_groups"),
    ("KEYWORDS", 3, "asa_keywords"),
    ("SEARCHTERMS", 4, "asa_search_terms"),
];

/// The entity level of tag type `kind`, if it is one.
pub fn level_of(kind: &str) -> Option<i64> {
    TYPES.iter().find(|t| t.0 == kind).map(|t| t.1)
}

/// The spec's tag colours (docs/product.md#2-other-ui).
pub const COLORS: &[&str] = &[
    "Green", "Purple", "Yellow", "Orange", "Pink", "Indigo", "Magenta", "Cyan", "Blue", "Red",
];

/// A stored tag with how many entities carry it.
#[derive(Debug, Clone, PartialEq)]
pub struct TagRow {
    pub id: String,
    pub workspace_id: String,
    pub kind: String,
    pub name: String,
    pub color: String,
    pub created_at: i64,
    /// Entities carrying the tag.
    pub items: i64,
}

/// A tag to create.
#[derive(Debug, Clone)]
pub struct NewTag<'a> {
    pub id: &'a str,
    pub workspace_id: &'a str,
    pub kind: &'a str,
    pub name: &'a str,
    pub color: &'a str,
    pub now: i64,
}

const SELECT: &str = "SELECT t.id, t.workspace_id, t.type, t.name, t.color, t.created_at, \
       (SELECT COUNT(*) FROM tag_links l WHERE l.tag_id = t.id) AS items FROM tags t";

fn tag(r: &sqlx::any::AnyRow) -> Result<TagRow, sqlx::Error> {
    Ok(TagRow {
        id: r.try_get("id")?,
        workspace_id: r.try_get("workspace_id")?,
        kind: r.try_get("type")?,
        name: r.try_get("name")?,
        color: r.try_get("color")?,
        created_at: r.try_get("created_at")?,
        items: r.try_get("items")?,
    })
}

/// Creates a tag; a name taken in the workspace and type fails with a unique violation.
pub async fn create(ex: impl Exec<'_>, t: NewTag<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO tags (id, workspace_id, type, name, color, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(t.id)
    .bind(t.workspace_id)
    .bind(t.kind)
    .bind(t.name)
    .bind(t.color)
    .bind(t.now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Tag `id` of `workspace_id`, if any.
pub async fn in_workspace(
    ex: impl Exec<'_>,
    workspace_id: &str,
    id: &str,
) -> Result<Option<TagRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "{SELECT} WHERE t.workspace_id = $1 AND t.id = $2"
    )))
    .bind(workspace_id)
    .bind(id)
    .fetch_optional(ex)
    .await?
    .map(|r| tag(&r))
    .transpose()
}

/// Every tag of `workspace_id`, by type, name and id.
pub async fn all(ex: impl Exec<'_>, workspace_id: &str) -> Result<Vec<TagRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "{SELECT} WHERE t.workspace_id = $1 ORDER BY t.type, t.name, t.id"
    )))
    .bind(workspace_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(tag)
    .collect()
}

/// Whether `name` is taken by a tag of `kind` in `workspace_id` other than `except_id`.
pub async fn name_taken(
    ex: impl Exec<'_>,
    workspace_id: &str,
    kind: &str,
    name: &str,
    except_id: Option<&str>,
) -> Result<bool, sqlx::Error> {
    let found: Option<String> = sqlx::query_scalar(
        "SELECT id FROM tags WHERE workspace_id = $1 AND type = $2 AND name = $3 \
           AND ($4 IS NULL OR id <> $4) LIMIT 1",
    )
    .bind(workspace_id)
    .bind(kind)
    .bind(name)
    .bind(except_id)
    .fetch_optional(ex)
    .await?;
    Ok(found.is_some())
}

/// Renames and recolours tag `id`.
pub async fn update(
    ex: impl Exec<'_>,
    id: &str,
    name: &str,
    color: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE tags SET name = $2, color = $3 WHERE id = $1")
        .bind(id)
        .bind(name)
        .bind(color)
        .execute(ex)
        .await?;
    Ok(())
}

/// Deletes tag `id` and every link to it.
pub async fn delete(ex: impl Exec<'_>, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM tags WHERE id = $1")
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
}

/// Whether the synced entity `entity_id` of `level` exists in campaign group `org_key`
/// (deleted entities included: their past metrics still show in the tables).
pub async fn entity_exists(
    ex: impl Exec<'_>,
    org_key: i64,
    level: i64,
    entity_id: i64,
) -> Result<bool, sqlx::Error> {
    Ok(existing(ex, org_key, level, &[entity_id])
        .await?
        .contains(&entity_id))
}

/// Which of the synced entities `ids` of `level` exist in campaign group `org_key` (deleted
/// ones included), in one query: the ids are integers, inlined.
pub async fn existing(
    ex: impl Exec<'_>,
    org_key: i64,
    level: i64,
    ids: &[i64],
) -> Result<std::collections::HashSet<i64>, sqlx::Error> {
    let Some((_, _, table)) = TYPES.iter().find(|t| t.1 == level) else {
        return Ok(Default::default());
    };
    if ids.is_empty() {
        return Ok(Default::default());
    }
    let list = ids
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let found: Vec<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT id FROM {table} WHERE org_key = $1 AND id IN ({list})"
    )))
    .bind(org_key)
    .fetch_all(ex)
    .await?;
    Ok(found.into_iter().collect())
}

/// Attaches tag `tag_id` to an entity; attaching twice keeps one link.
pub async fn link(
    ex: impl Exec<'_>,
    tag_id: &str,
    org_key: i64,
    level: i64,
    entity_id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO tag_links (tag_id, org_key, level, entity_id) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (tag_id, org_key, level, entity_id) DO NOTHING",
    )
    .bind(tag_id)
    .bind(org_key)
    .bind(level)
    .bind(entity_id)
    .execute(ex)
    .await?;
    Ok(())
}

/// Detaches tag `tag_id` from an entity; an entity without the tag is left as it is.
pub async fn unlink(
    ex: impl Exec<'_>,
    tag_id: &str,
    org_key: i64,
    level: i64,
    entity_id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "DELETE FROM tag_links WHERE tag_id = $1 AND org_key = $2 AND level = $3 \
           AND entity_id = $4",
    )
    .bind(tag_id)
    .bind(org_key)
    .bind(level)
    .bind(entity_id)
    .execute(ex)
    .await?;
    Ok(())
}

/// The entities carrying tag `tag_id` as `(org_key, level, entity_id)`, in that order.
pub async fn links(ex: impl Exec<'_>, tag_id: &str) -> Result<Vec<(i64, i64, i64)>, sqlx::Error> {
    sqlx::query(
        "SELECT org_key, CAST(level AS BIGINT), entity_id FROM tag_links WHERE tag_id = $1 \
         ORDER BY org_key, level, entity_id",
    )
    .bind(tag_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)))
    .collect()
}
