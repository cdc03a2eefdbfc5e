//! The event names seen per provider and app, and what each counts as in the reports: a
//! trial, a purchase (a paying user), revenue. The ingest records each name with defaults
//! read from it ([`seen`]); the user changes them ([`set`]).

use sqlx::Row;

use crate::store::Exec;

/// What an event name counts as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    pub trial: bool,
    pub purchase: bool,
    pub revenue: bool,
}

/// An event name as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventName {
    pub provider: String,
    /// 0: the provider did not name the app.
    pub adam_id: i64,
    pub event_name: String,
    pub counts: Counts,
    pub events: i64,
    /// Unix ms.
    pub first_seen_at: i64,
    pub last_seen_at: i64,
}

/// Records `seen.events` more of its name at `seen.last_seen_at`; a name seen for the first
/// time is stored with `seen.counts` as what it counts as.
pub async fn seen(
    ex: impl Exec<'_>,
    workspace_id: &str,
    seen: &EventName,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO attribution_event_names (workspace_id, provider, adam_id, event_name, \
           is_trial, is_purchase, is_revenue, events, first_seen_at, last_seen_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) \
         ON CONFLICT (workspace_id, provider, adam_id, event_name) DO UPDATE SET \
           events = attribution_event_names.events + excluded.events, \
           last_seen_at = excluded.last_seen_at",
    )
    .bind(workspace_id)
    .bind(&seen.provider)
    .bind(seen.adam_id)
    .bind(&seen.event_name)
    .bind(i64::from(seen.counts.trial))
    .bind(i64::from(seen.counts.purchase))
    .bind(i64::from(seen.counts.revenue))
    .bind(seen.events)
    .bind(seen.last_seen_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// Every event name of the workspace, by provider, app and name.
pub async fn all(ex: impl Exec<'_>, workspace_id: &str) -> Result<Vec<EventName>, sqlx::Error> {
    sqlx::query(
        "SELECT provider, adam_id, event_name, is_trial, is_purchase, is_revenue, events, \
           first_seen_at, last_seen_at \
         FROM attribution_event_names WHERE workspace_id = $1 \
         ORDER BY provider, adam_id, event_name",
    )
    .bind(workspace_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(|r| {
        Ok(EventName {
            provider: r.try_get("provider")?,
            adam_id: r.try_get("adam_id")?,
            event_name: r.try_get("event_name")?,
            counts: Counts {
                trial: r.try_get::<i64, _>("is_trial")? != 0,
                purchase: r.try_get::<i64, _>("is_purchase")? != 0,
                revenue: r.try_get::<i64, _>("is_revenue")? != 0,
            },
            events: r.try_get("events")?,
            first_seen_at: r.try_get("first_seen_at")?,
            last_seen_at: r.try_get("last_seen_at")?,
        })
    })
    .collect()
}

/// Sets what `event_name` of `provider` and app counts as; returns whether the name exists.
pub async fn set(
    ex: impl Exec<'_>,
    workspace_id: &str,
    provider: &str,
    adam_id: i64,
    event_name: &str,
    counts: Counts,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE attribution_event_names SET is_trial = $5, is_purchase = $6, is_revenue = $7 \
         WHERE workspace_id = $1 AND provider = $2 AND adam_id = $3 AND event_name = $4",
    )
    .bind(workspace_id)
    .bind(provider)
    .bind(adam_id)
    .bind(event_name)
    .bind(i64::from(counts.trial))
    .bind(i64::from(counts.purchase))
    .bind(i64::from(counts.revenue))
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}
