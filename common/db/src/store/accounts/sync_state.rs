//! How each connection's syncs went, as the appleDataIssues banner reads it: the last sync
//! that stored its metrics, the last one given up, and the newest day Apple delivered for
//! the selected campaign group furthest behind.

use super::*;

/// How a connection's syncs went: its last finished one and its last given up (unix ms).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncState {
    /// The last sync that stored the connection's metrics.
    pub last_synced_at: Option<i64>,
    /// The last sync given up (its attempts spent on provider errors, or refused).
    pub sync_failed_at: Option<i64>,
    /// Of its selected campaign groups with synced metrics, the one furthest behind: the
    /// newest day Apple served for it (`sync_orgs.metrics_through`, Apple's today when the
    /// sync read it) and the group's time zone.
    pub delivered_through: Option<(String, Option<String>)>,
}

/// Records that a sync of connection `account_id` was given up at `at_ms`.
pub async fn record_sync_failure(
    ex: impl Exec<'_>,
    account_id: &str,
    at_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE accounts SET sync_failed_at = $2 WHERE id = $1")
        .bind(account_id)
        .bind(at_ms)
        .execute(ex)
        .await?;
    Ok(())
}

/// The sync state of every connection of `workspace_id` (the appleDataIssues banner).
pub async fn sync_states(
    ex: impl Exec<'_>,
    workspace_id: &str,
) -> Result<Vec<SyncState>, sqlx::Error> {
    // One row per connection and selected, metrics-synced group (or one without a group).
    let rows = sqlx::query(
        "SELECT a.id, a.last_synced_at, a.sync_failed_at, o.metrics_through, o.time_zone \
         FROM accounts a \
         LEFT JOIN account_orgs g ON g.account_id = a.id AND g.selected = 1 \
         LEFT JOIN sync_orgs o ON o.account_id = a.id AND o.org_id = g.org_id \
           AND o.metrics_through IS NOT NULL \
         WHERE a.workspace_id = $1 ORDER BY a.id, o.metrics_through IS NULL, o.metrics_through",
    )
    .bind(workspace_id)
    .fetch_all(ex)
    .await?;
    let mut out: Vec<(String, SyncState)> = Vec::new();
    for r in &rows {
        let id: String = r.try_get("id")?;
        let through: Option<String> = r.try_get("metrics_through")?;
        if out.last().is_some_and(|(last, _)| *last == id) {
            // Ordered by day: the first row of a connection is its furthest behind.
            continue;
        }
        out.push((
            id,
            SyncState {
                last_synced_at: r.try_get("last_synced_at")?,
                sync_failed_at: r.try_get("sync_failed_at")?,
                delivered_through: through
                    .map(|d| Ok::<_, sqlx::Error>((d, r.try_get("time_zone")?)))
                    .transpose()?,
            },
        ));
    }
    Ok(out.into_iter().map(|(_, s)| s).collect())
}
