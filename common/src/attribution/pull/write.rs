//! A pull's rows written: the workspace's synced keywords read once (to match keyword
//! texts), then each install day the report answered rows for replaces that provider's
//! facts of the day and records the names it saw, one transaction per day. A day without
//! a row is left as it was: reporting APIs compute a day within a day or two, and an empty
//! answer for it says "not yet", not "nothing".

use std::collections::BTreeMap;

use searchdeck_model::attribution::INSTALL_EVENT;

use super::{Keywords, PulledRow, by_day, facts_of_day};
use crate::{
    Db,
    attribution::ingest::counts_of_name,
    store::attribution::{
        names::{self, EventName},
        pulled,
    },
};

/// What a pull wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Written {
    /// Install days replaced.
    pub days: usize,
    /// Installs over those days.
    pub installs: i64,
}

/// Replaces `provider`'s facts of every install day `rows` have, at `now_ms`.
pub async fn write(
    db: &Db,
    workspace_id: &str,
    provider: &str,
    rows: Vec<PulledRow>,
    now_ms: i64,
) -> Result<Written, sqlx::Error> {
    let keywords = Keywords::new(&pulled::keyword_texts(&db.pool, workspace_id).await?);
    let mut written = Written::default();
    for (day, rows) in by_day(rows) {
        let facts = facts_of_day(&rows, &keywords);
        let installs: i64 = rows.iter().map(|r| r.installs).sum();
        // The names seen that day, and whether any of their events carried revenue.
        let mut seen: BTreeMap<(i64, String), bool> = BTreeMap::new();
        for row in &rows {
            if row.installs != 0 {
                seen.entry((row.adam_id, INSTALL_EVENT.to_string()))
                    .or_default();
            }
            for e in &row.events {
                *seen.entry((row.adam_id, e.name.clone())).or_default() |= e.revenue_micros != 0;
            }
        }
        let borrowed: Vec<_> = facts.iter().map(|f| f.as_fact(provider, &day)).collect();
        let mut tx = db.begin_write().await?;
        pulled::replace_day(
            &mut tx,
            workspace_id,
            provider,
            &day,
            &borrowed,
            installs,
            now_ms,
        )
        .await?;
        for ((adam_id, name), revenue) in seen {
            let counts = counts_of_name(&name, revenue);
            names::seen(
                &mut *tx,
                workspace_id,
                &EventName {
                    provider: provider.to_string(),
                    adam_id,
                    event_name: name,
                    counts,
                    // A re-pull reads the same events again: the names' counts are the
                    // postbacks', a pull only makes its names known.
                    events: 0,
                    first_seen_at: now_ms,
                    last_seen_at: now_ms,
                },
            )
            .await?;
        }
        tx.commit().await?;
        written.days += 1;
        written.installs += installs;
    }
    Ok(written)
}
