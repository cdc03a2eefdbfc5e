//! Benchmarks (docs/api/benchmarks.md): the targets a workspace sets per app and storefront —
//! cost per install, cost per event of a named MMP event, ROAS per cohort window — in table
//! `benchmarks` (migration `20261211000000_benchmarks.sql`); the workspace's apps they are set
//! for (the apps its synced campaign groups and campaigns advertise); and the App Store genre
//! of an app as last looked up (`app_genres`), which picks the reference figures shown.

use sqlx::Row;

use super::Exec;

/// A target's kind: the three tables of the benchmarks screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Cost per install.
    Installs,
    /// Cost per event of a named MMP event.
    Events,
    /// ROAS of a cohort window.
    Revenues,
}

impl Kind {
    /// The stored name (`installs`, `events`, `revenues`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Installs => "installs",
            Kind::Events => "events",
            Kind::Revenues => "revenues",
        }
    }
}

/// One stored target. `country` is `""` for the "all countries" row, `event_name` `""` but
/// for [`Kind::Events`], `cohort` `""` but for [`Kind::Revenues`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub adam_id: i64,
    pub event_name: String,
    pub cohort: String,
    pub country: String,
    /// Micros of the money amount (of `currency`), or of the ROAS ratio.
    pub value_micros: i64,
    pub currency: Option<String>,
    /// Unix ms.
    pub updated_at: i64,
}

/// An app of the workspace: one its synced campaign groups list, or one of its synced
/// campaigns advertises.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspaceApp {
    pub adam_id: i64,
    /// The synced name, when a campaign group lists the app.
    pub app_name: Option<String>,
    pub developer_name: Option<String>,
    /// The currency of the first campaign group (by sync order) that has the app.
    pub currency: Option<String>,
}

/// The apps of the connections of `workspace_id`, by app id.
pub async fn apps(ex: impl Exec<'_>, workspace_id: &str) -> Result<Vec<WorkspaceApp>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT x.adam_id, x.org_key, o.currency, a.app_name, a.developer_name FROM ( \
           SELECT adam_id, org_key FROM asa_apps \
           UNION SELECT adam_id, org_key FROM asa_campaigns WHERE adam_id IS NOT NULL AND deleted = 0 \
         ) x JOIN sync_orgs o ON o.org_key = x.org_key \
           JOIN accounts c ON c.id = o.account_id \
           LEFT JOIN asa_apps a ON a.org_key = x.org_key AND a.adam_id = x.adam_id \
         WHERE c.workspace_id = $1 \
         ORDER BY x.adam_id, x.org_key",
    )
    .bind(workspace_id)
    .fetch_all(ex)
    .await?;
    let mut apps: Vec<WorkspaceApp> = Vec::new();
    for r in &rows {
        let adam_id: i64 = r.try_get("adam_id")?;
        let name: Option<String> = r.try_get("app_name")?;
        let developer: Option<String> = r.try_get("developer_name")?;
        let currency: Option<String> = r.try_get("currency")?;
        match apps.last_mut() {
            Some(last) if last.adam_id == adam_id => {
                last.app_name = last.app_name.take().or(name);
                last.developer_name = last.developer_name.take().or(developer);
                last.currency = last.currency.take().or(currency);
            }
            _ => apps.push(WorkspaceApp {
                adam_id,
                app_name: name,
                developer_name: developer,
                currency,
            }),
        }
    }
    Ok(apps)
}

/// The targets of `kind` for app `adam_id` of `workspace_id` (of event `event_name` only,
/// when given), by event, cohort and country ("all countries" first).
pub async fn targets(
    ex: impl Exec<'_>,
    workspace_id: &str,
    kind: Kind,
    adam_id: i64,
    event_name: Option<&str>,
) -> Result<Vec<Target>, sqlx::Error> {
    sqlx::query(
        "SELECT adam_id, event_name, cohort, country, value_micros, currency, updated_at \
         FROM benchmarks WHERE workspace_id = $1 AND kind = $2 AND adam_id = $3 \
           AND ($4 IS NULL OR event_name = $4) \
         ORDER BY event_name, cohort, country",
    )
    .bind(workspace_id)
    .bind(kind.name())
    .bind(adam_id)
    .bind(event_name)
    .fetch_all(ex)
    .await?
    .iter()
    .map(|r| {
        Ok(Target {
            adam_id: r.try_get("adam_id")?,
            event_name: r.try_get("event_name")?,
            cohort: r.try_get("cohort")?,
            country: r.try_get("country")?,
            value_micros: r.try_get("value_micros")?,
            currency: r.try_get("currency")?,
            updated_at: r.try_get("updated_at")?,
        })
    })
    .collect()
}

/// Sets `target` of `kind` (replacing the one of the same app, event, cohort and country).
pub async fn put(
    ex: impl Exec<'_>,
    workspace_id: &str,
    kind: Kind,
    target: &Target,
    user_id: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO benchmarks (workspace_id, kind, adam_id, event_name, cohort, country, \
           value_micros, currency, updated_at, updated_by) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
         ON CONFLICT (workspace_id, kind, adam_id, event_name, cohort, country) DO UPDATE SET \
           value_micros = excluded.value_micros, currency = excluded.currency, \
           updated_at = excluded.updated_at, updated_by = excluded.updated_by",
    )
    .bind(workspace_id)
    .bind(kind.name())
    .bind(target.adam_id)
    .bind(&target.event_name)
    .bind(&target.cohort)
    .bind(&target.country)
    .bind(target.value_micros)
    .bind(&target.currency)
    .bind(target.updated_at)
    .bind(user_id)
    .execute(ex)
    .await?;
    Ok(())
}

/// Clears the target of `kind` named by `key`'s app, event, cohort and country (its value
/// is not read); nothing when there is none.
pub async fn remove(
    ex: impl Exec<'_>,
    workspace_id: &str,
    kind: Kind,
    key: &Target,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "DELETE FROM benchmarks WHERE workspace_id = $1 AND kind = $2 AND adam_id = $3 \
           AND event_name = $4 AND cohort = $5 AND country = $6",
    )
    .bind(workspace_id)
    .bind(kind.name())
    .bind(key.adam_id)
    .bind(&key.event_name)
    .bind(&key.cohort)
    .bind(&key.country)
    .execute(ex)
    .await?;
    Ok(())
}

/// How many targets of each kind each app of `workspace_id` has: (app, kind name, count).
pub async fn counts(
    ex: impl Exec<'_>,
    workspace_id: &str,
) -> Result<Vec<(i64, String, i64)>, sqlx::Error> {
    sqlx::query(
        "SELECT adam_id, kind, COUNT(*) AS n FROM benchmarks WHERE workspace_id = $1 \
         GROUP BY adam_id, kind ORDER BY adam_id, kind",
    )
    .bind(workspace_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(|r| Ok((r.try_get("adam_id")?, r.try_get("kind")?, r.try_get("n")?)))
    .collect()
}

/// The genre of `adam_id` as last looked up and when (unix ms); `None` when never.
pub async fn genre(
    ex: impl Exec<'_>,
    adam_id: i64,
) -> Result<Option<(Option<String>, i64)>, sqlx::Error> {
    sqlx::query("SELECT genre, checked_at FROM app_genres WHERE adam_id = $1")
        .bind(adam_id)
        .fetch_optional(ex)
        .await?
        .map(|r| Ok((r.try_get("genre")?, r.try_get("checked_at")?)))
        .transpose()
}

/// Records the genre the App Store gave `adam_id` (`None`: it did not know the app) at
/// `now` (unix ms).
pub async fn set_genre(
    ex: impl Exec<'_>,
    adam_id: i64,
    genre: Option<&str>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO app_genres (adam_id, genre, checked_at) VALUES ($1, $2, $3) \
         ON CONFLICT (adam_id) DO UPDATE SET genre = excluded.genre, checked_at = excluded.checked_at",
    )
    .bind(adam_id)
    .bind(genre)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}
