//! The shared half of the limiter: per-key GCRA state every process reserves slots from.
//!
//! Each key holds a theoretical arrival time (`tat`), a `paused_until` instant and the pace
//! (`interval`, microseconds between requests) learned from the provider. A reservation is
//! one atomic step on the store's own clock:
//!
//! ```text
//! base  = max(now, paused_until)
//! start = max(tat, base)              -- tat never moves backwards
//! slot  = max(start - tolerance, base)
//! tat   = start + interval
//! wait  = slot - now
//! ```
//!
//! The caller sleeps `wait` and sends. Because every process reserves from the same state
//! and the wait is relative to the store's clock, processes on hosts whose clocks differ
//! still share one pace. Three stores implement this step: [`MemoryStore`] (one process),
//! [`DbStore`] (a `rate_limits` row) and [`RedisStore`] (a hash and a Lua script).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use super::{RateLimitError, Reservation, db::DbStore, redis::RedisStore};

/// Where the shared per-key state lives.
#[derive(Debug, Clone)]
pub enum SharedStore {
    /// In this process only (single-process setups and tests).
    Memory(Arc<MemoryStore>),
    /// A `rate_limits` row per key in the application database (SQLite or PostgreSQL).
    Database(DbStore),
    /// A hash per key in Redis, updated by Lua scripts on Redis server time.
    Redis(RedisStore),
}

impl SharedStore {
    /// A fresh in-process store.
    pub fn memory() -> SharedStore {
        SharedStore::Memory(Arc::new(MemoryStore::default()))
    }

    /// Short name for logs and benchmark output.
    pub fn name(&self) -> &'static str {
        match self {
            SharedStore::Memory(_) => "memory",
            SharedStore::Database(db) => db.backend_name(),
            SharedStore::Redis(_) => "redis",
        }
    }

    /// Reserves the next slot for `key`. `default_interval_us` applies until a pace has been
    /// learned for the key; `tolerance_us` is the burst allowance.
    pub async fn reserve(
        &self,
        key: &str,
        default_interval_us: i64,
        tolerance_us: i64,
    ) -> Result<Reservation, RateLimitError> {
        match self {
            SharedStore::Memory(m) => Ok(m.reserve(key, default_interval_us, tolerance_us)),
            SharedStore::Database(d) => d.reserve(key, default_interval_us, tolerance_us).await,
            SharedStore::Redis(r) => r.reserve(key, default_interval_us, tolerance_us).await,
        }
    }

    /// Pauses `key` for every process until `duration` from now (an existing later pause
    /// stays).
    pub async fn pause(&self, key: &str, duration: Duration) -> Result<(), RateLimitError> {
        let us = micros(duration);
        match self {
            SharedStore::Memory(m) => {
                m.pause(key, us);
                Ok(())
            }
            SharedStore::Database(d) => d.pause(key, us).await,
            SharedStore::Redis(r) => r.pause(key, us).await,
        }
    }

    /// Sets the pace of `key` for every process.
    pub async fn set_interval(&self, key: &str, interval_us: i64) -> Result<(), RateLimitError> {
        match self {
            SharedStore::Memory(m) => {
                m.set_interval(key, interval_us);
                Ok(())
            }
            SharedStore::Database(d) => d.set_interval(key, interval_us).await,
            SharedStore::Redis(r) => r.set_interval(key, interval_us).await,
        }
    }
}

/// Saturating conversion of a duration to whole microseconds.
pub(crate) fn micros(d: Duration) -> i64 {
    i64::try_from(d.as_micros()).unwrap_or(i64::MAX / 4)
}

#[derive(Debug, Default, Clone, Copy)]
struct Row {
    tat: i64,
    paused_until: i64,
    interval: Option<i64>,
}

/// Per-key state in this process, on a monotonic clock.
#[derive(Debug)]
pub struct MemoryStore {
    epoch: Instant,
    rows: Mutex<HashMap<String, Row>>,
}

impl Default for MemoryStore {
    fn default() -> Self {
        MemoryStore {
            epoch: Instant::now(),
            rows: Mutex::new(HashMap::new()),
        }
    }
}

impl MemoryStore {
    fn now(&self) -> i64 {
        micros(self.epoch.elapsed())
    }

    fn rows(&self) -> std::sync::MutexGuard<'_, HashMap<String, Row>> {
        self.rows
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn reserve(&self, key: &str, default_interval: i64, tolerance: i64) -> Reservation {
        let now = self.now();
        let mut rows = self.rows();
        let row = rows.entry(key.to_string()).or_default();
        let interval = row.interval.unwrap_or(default_interval);
        let base = now.max(row.paused_until);
        let start = row.tat.max(base);
        let slot = (start - tolerance).max(base);
        row.tat = start + interval;
        Reservation::new(slot, slot - now, row.interval)
    }

    fn pause(&self, key: &str, duration: i64) {
        let until = self.now() + duration;
        let mut rows = self.rows();
        let row = rows.entry(key.to_string()).or_default();
        row.paused_until = row.paused_until.max(until);
    }

    fn set_interval(&self, key: &str, interval: i64) {
        self.rows().entry(key.to_string()).or_default().interval = Some(interval);
    }
}
