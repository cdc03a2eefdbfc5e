//! The keyword suggester's competitor store (`competitors`): per workspace and app (an App
//! Store adam id), the App Store apps saved as its competitors, with the details the pickers
//! show. The suggester's competitor picker and Settings read the same rows
//! (docs/api/suggester.md, "Apps and competitors"). Every function is scoped by the
//! workspace: another workspace's saved competitors are simply not there.

use sqlx::Row;

use super::Exec;

/// A saved competitor of one app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Competitor {
    /// The app it competes with.
    pub adam_id: i64,
    /// The competitor's adam id.
    pub competitor_id: i64,
    pub name: String,
    pub developer: Option<String>,
    /// Artwork URL.
    pub icon: Option<String>,
    /// Primary genre.
    pub genre: Option<String>,
}

fn decode(r: &sqlx::any::AnyRow) -> Result<Competitor, sqlx::Error> {
    Ok(Competitor {
        adam_id: r.try_get("adam_id")?,
        competitor_id: r.try_get("competitor_id")?,
        name: r.try_get("name")?,
        developer: r.try_get("developer")?,
        icon: r.try_get("icon")?,
        genre: r.try_get("genre")?,
    })
}

const COLUMNS: &str = "adam_id, competitor_id, name, developer, icon, genre";

/// Saves `c` for its app in `workspace_id`; saving it again refreshes its details (and
/// keeps its place in the list). Returns whether it was new.
pub async fn save(
    ex: impl Exec<'_>,
    workspace_id: &str,
    c: &Competitor,
    now: i64,
) -> Result<bool, sqlx::Error> {
    // `created_at` is kept on a re-save: a new row's is `now`, so it tells which it was.
    let created: i64 = sqlx::query_scalar(
        "INSERT INTO competitors (workspace_id, adam_id, competitor_id, name, developer, icon, genre, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
         ON CONFLICT (workspace_id, adam_id, competitor_id) DO UPDATE SET name = excluded.name, \
         developer = excluded.developer, icon = excluded.icon, genre = excluded.genre \
         RETURNING created_at",
    )
    .bind(workspace_id)
    .bind(c.adam_id)
    .bind(c.competitor_id)
    .bind(&c.name)
    .bind(&c.developer)
    .bind(&c.icon)
    .bind(&c.genre)
    .bind(now)
    .fetch_one(ex)
    .await?;
    Ok(created == now)
}

/// The competitors of app `adam_id` in `workspace_id`, in the order they were saved.
pub async fn of_app(
    ex: impl Exec<'_>,
    workspace_id: &str,
    adam_id: i64,
) -> Result<Vec<Competitor>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM competitors WHERE workspace_id = $1 AND adam_id = $2 \
         ORDER BY created_at, competitor_id"
    )))
    .bind(workspace_id)
    .bind(adam_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(decode)
    .collect()
}

/// The competitors of every app of `adam_ids` in `workspace_id`, by app then save order.
pub async fn of_apps(
    ex: impl Exec<'_>,
    workspace_id: &str,
    adam_ids: &[i64],
) -> Result<Vec<Competitor>, sqlx::Error> {
    if adam_ids.is_empty() {
        return Ok(Vec::new());
    }
    // Ids are integers: inlined, no bind limit to mind.
    let list = adam_ids
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM competitors WHERE workspace_id = $1 AND adam_id IN ({list}) \
         ORDER BY adam_id, created_at, competitor_id"
    )))
    .bind(workspace_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(decode)
    .collect()
}

/// How many competitors app `adam_id` has in `workspace_id`.
pub async fn count(
    ex: impl Exec<'_>,
    workspace_id: &str,
    adam_id: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM competitors WHERE workspace_id = $1 AND adam_id = $2")
        .bind(workspace_id)
        .bind(adam_id)
        .fetch_one(ex)
        .await
}

/// Whether app `adam_id` has any competitor saved in `workspace_id` (the app is then a
/// resource of the workspace's store, see the API's `SavedApp`).
pub async fn has_app(
    ex: impl Exec<'_>,
    workspace_id: &str,
    adam_id: i64,
) -> Result<bool, sqlx::Error> {
    let found: Option<i64> = sqlx::query_scalar(
        "SELECT competitor_id FROM competitors WHERE workspace_id = $1 AND adam_id = $2 LIMIT 1",
    )
    .bind(workspace_id)
    .bind(adam_id)
    .fetch_optional(ex)
    .await?;
    Ok(found.is_some())
}

/// Removes competitor `competitor_id` of app `adam_id` in `workspace_id`; whether it was
/// saved.
pub async fn remove(
    ex: impl Exec<'_>,
    workspace_id: &str,
    adam_id: i64,
    competitor_id: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "DELETE FROM competitors WHERE workspace_id = $1 AND adam_id = $2 AND competitor_id = $3",
    )
    .bind(workspace_id)
    .bind(adam_id)
    .bind(competitor_id)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() > 0)
}
