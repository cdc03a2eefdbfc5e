//! Schedule entries: when a periodic job fires ([`When`]: an interval or a cron
//! expression) and what it enqueues (a job kind and payload), built in or read from the
//! `schedules` table.

use std::{str::FromStr, time::Duration};

use chrono::{DateTime, Utc};
use searchdeck_common::{Db, queue::Job};
use sqlx::Row;

/// When an entry fires.
#[derive(Debug, Clone)]
pub enum When {
    /// Once per period of this length, periods aligned on the Unix epoch.
    Every(Duration),
    /// At each time of a cron expression (seconds first, UTC).
    Cron(Box<cron::Schedule>),
}

impl When {
    /// Start (Unix ms) of the period containing `now_ms`: the last firing time at or before
    /// it (`None` for a cron expression that never fired before `now_ms`).
    pub fn period_start(&self, now_ms: i64) -> Option<i64> {
        match self {
            When::Every(every) => Some(period_start(*every, now_ms)),
            When::Cron(schedule) => {
                // The iterator after `now` walks backwards to the last time before it.
                let after = DateTime::<Utc>::from_timestamp_millis(now_ms + 1)?;
                schedule
                    .after(&after)
                    .next_back()
                    .map(|t| t.timestamp_millis())
            }
        }
    }
}

/// Start (Unix ms) of the period of length `every` that contains `now_ms`.
pub fn period_start(every: Duration, now_ms: i64) -> i64 {
    let len = (every.as_millis() as i64).max(1);
    now_ms - now_ms.rem_euclid(len)
}

/// What an entry enqueues: the same payload every time, or one built for each period.
#[derive(Debug, Clone)]
pub enum Payload {
    Fixed(serde_json::Value),
    /// Built from the period's start (Unix ms).
    PerPeriod(fn(i64) -> serde_json::Value),
}

/// A periodic job: its key (in uniqueness keys and logs), when it fires and what it
/// enqueues.
#[derive(Debug, Clone)]
pub struct Entry {
    pub key: String,
    pub when: When,
    pub kind: String,
    pub payload: Payload,
    /// Periods starting before this (Unix ms) do not fire: a `schedules` row first fires at
    /// the first period boundary after it was created, since whatever creates it runs the
    /// work of the moment itself (connecting an account starts its first sync at once).
    pub since_ms: Option<i64>,
}

impl Entry {
    /// An entry enqueuing a job of type `J` once per `every`, its payload built by `job`
    /// from the period's start.
    pub fn every<J: Job>(key: &str, every: Duration, job: fn(i64) -> serde_json::Value) -> Entry {
        Entry {
            key: key.to_string(),
            when: When::Every(every),
            kind: J::KIND.to_string(),
            payload: Payload::PerPeriod(job),
            since_ms: None,
        }
    }

    /// The payload of the period starting at `start_ms`.
    pub fn payload_for(&self, start_ms: i64) -> serde_json::Value {
        match &self.payload {
            Payload::Fixed(value) => value.clone(),
            Payload::PerPeriod(build) => build(start_ms),
        }
    }
}

/// The enabled entries of the `schedules` table. A row whose cron expression or payload
/// does not parse is skipped with an error in the log; the others still fire.
pub async fn entries(db: &Db) -> anyhow::Result<Vec<Entry>> {
    let rows = sqlx::query(
        "SELECT key, cron, every_ms, kind, payload, created_at FROM schedules WHERE enabled = 1 \
         ORDER BY key",
    )
    .fetch_all(&db.pool)
    .await?;
    let mut entries = Vec::with_capacity(rows.len());
    for row in rows {
        let key: String = row.try_get("key")?;
        let cron: Option<String> = row.try_get("cron")?;
        let every_ms: Option<i64> = row.try_get("every_ms")?;
        let payload: String = row.try_get("payload")?;
        let when = match (cron, every_ms) {
            (Some(expr), _) => match cron::Schedule::from_str(&expr) {
                Ok(s) => When::Cron(Box::new(s)),
                Err(e) => {
                    tracing::error!(schedule = %key, error = %e, "invalid cron expression; entry skipped");
                    continue;
                }
            },
            (None, Some(ms)) if ms > 0 => When::Every(Duration::from_millis(ms as u64)),
            _ => {
                tracing::error!(schedule = %key, "entry has neither cron nor a positive interval; skipped");
                continue;
            }
        };
        let payload = match serde_json::from_str(&payload) {
            Ok(p) => p,
            Err(e) => {
                tracing::error!(schedule = %key, error = %e, "invalid payload; entry skipped");
                continue;
            }
        };
        entries.push(Entry {
            key: format!("schedule:{key}"),
            when,
            kind: row.try_get("kind")?,
            payload: Payload::Fixed(payload),
            since_ms: Some(row.try_get("created_at")?),
        });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_align_on_the_epoch() {
        let hour = Duration::from_secs(3600);
        assert_eq!(period_start(hour, 7_200_000), 7_200_000);
        assert_eq!(period_start(hour, 7_200_001), 7_200_000);
        assert_eq!(period_start(hour, 10_799_999), 7_200_000);
    }

    #[test]
    fn cron_periods_start_at_the_last_firing_time() {
        // Every day at 03:30:00 UTC.
        let when = When::Cron(Box::new(cron::Schedule::from_str("0 30 3 * * *").unwrap()));
        let day = 24 * 3600 * 1000;
        let fire = 10 * day + (3 * 3600 + 30 * 60) * 1000;
        assert_eq!(when.period_start(fire), Some(fire));
        assert_eq!(when.period_start(fire + 1), Some(fire));
        assert_eq!(when.period_start(fire + day - 1), Some(fire));
        assert_eq!(when.period_start(fire - 1), Some(fire - day));
    }
}
