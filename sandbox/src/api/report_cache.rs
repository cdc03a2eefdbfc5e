//! Computed reports kept for their next pages: every row's totals, sorted, with the budget
//! caps met on the way, keyed by the request (without its pagination), the ad account and
//! the world's version and hour, so a write or a new simulated hour computes afresh.
//! Bounded by entry count and total rows.

use std::sync::Arc;

use parking_lot::Mutex;

use super::report_request::{Checked, Entity};
use super::report_rows::{Buckets, RowKey};
use crate::metrics::Totals;
use crate::sim::Caps;
use crate::world::{Id, World};

/// Reports kept at most.
const ENTRIES: usize = 6;
/// Rows kept at most, over all entries.
const ROWS: usize = 3_000_000;

/// One computed report.
pub struct Computed {
    /// Rows in the requested order with their totals (and buckets when one pass filled them).
    pub rows: Vec<(RowKey, Totals, Buckets)>,
    pub grand: Totals,
    /// Whether `rows` carry their time buckets.
    pub granular: bool,
    /// Budget caps of the campaign-days gone through.
    pub caps: Caps,
}

/// Recently computed reports, newest last.
#[derive(Default)]
pub struct ReportCache {
    entries: Mutex<Vec<(String, Arc<Computed>)>>,
}

impl ReportCache {
    /// The cache key of a report request.
    pub fn key(w: &World, account: Id, entity: Entity, c: &Checked) -> String {
        format!(
            "{}|{}|{account}|{entity:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{}|{:?}|{}",
            w.version(),
            w.now_hour(),
            c.start,
            c.end,
            c.granularity,
            c.ids,
            c.sorting,
            c.empty_rows,
            c.group_by,
            c.utc,
        )
    }

    /// The report computed under `key`, if kept.
    pub fn get(&self, key: &str) -> Option<Arc<Computed>> {
        let mut entries = self.entries.lock();
        let at = entries.iter().position(|(k, _)| k == key)?;
        let entry = entries.remove(at);
        let hit = entry.1.clone();
        entries.push(entry);
        Some(hit)
    }

    /// Keeps `computed` under `key`, dropping the oldest entries past the bounds.
    pub fn put(&self, key: String, computed: Arc<Computed>) {
        if computed.rows.len() > ROWS {
            return;
        }
        let mut entries = self.entries.lock();
        entries.retain(|(k, _)| *k != key);
        entries.push((key, computed));
        while entries.len() > ENTRIES
            || entries.iter().map(|(_, c)| c.rows.len()).sum::<usize>() > ROWS
        {
            entries.remove(0);
        }
    }
}
