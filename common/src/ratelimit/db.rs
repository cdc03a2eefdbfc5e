//! Rate-limit state in the application database: one `rate_limits` row per key.
//!
//! Every step is a single `INSERT … ON CONFLICT (key) DO UPDATE … RETURNING` statement, so it
//! is atomic on both engines: PostgreSQL takes the row lock for the update, SQLite holds its
//! write lock for the whole statement. Times come from the database's own clock
//! (`clock_timestamp()` on PostgreSQL; `julianday('now')` on SQLite, whose file is shared only by processes on one host), in microseconds.
//!
//! On PostgreSQL the statements run on a small pool of their own (a reservation never waits
//! behind the jobs' work for one of the application pool's connections) whose sessions
//! commit without waiting for the WAL flush (`synchronous_commit = off`): a reservation's
//! answer then comes back right after the store read its clock, instead of a disk flush
//! later, so the caller sends at its slot. The state is soft — a crash that loses its last
//! updates only forgets a pace the next answer teaches again, and the tolerance of the
//! pace covers a slot or two.

use std::time::{Duration, Instant};

use sqlx::{AnyPool, AssertSqlSafe, Executor, Row, any::AnyPoolOptions};

use super::{RateLimitError, Reservation};
use crate::{Backend, Db};

/// Connections of the limiter's own pool on PostgreSQL (a reservation takes well under a
/// millisecond there; a few connections serve thousands a second).
const POSTGRES_CONNECTIONS: u32 = 4;

/// A [`super::SharedStore`] over the `rate_limits` table.
#[derive(Debug, Clone)]
pub struct DbStore {
    backend: Backend,
    /// Where the statements run: the application pool on SQLite (one writer at a time
    /// anyway), a pool of its own on PostgreSQL (see the module's documentation).
    pool: AnyPool,
    reserve_sql: String,
    pause_sql: String,
    interval_sql: String,
}

impl DbStore {
    /// A store on `db`; its migrations must have been applied.
    pub fn new(db: Db) -> DbStore {
        let (now, max) = match db.backend {
            Backend::Postgres => (
                "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000)::BIGINT",
                "GREATEST",
            ),
            _ => (
                "(CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER) * 1000)",
                "MAX",
            ),
        };
        // $1 key, $2 default interval, $3 tolerance. The clock is read once into
        // `excluded.slot_us`, so the slots granted stay exactly one interval apart. On
        // PostgreSQL that read precedes a wait for the row lock: a slot granted after such a
        // wait may already be past, which the caller sees as lateness (its round trip spans
        // the wait) and answers by reserving again.
        let reserve_sql = format!(
            "INSERT INTO rate_limits (key, tat_us, slot_us, paused_until_us, interval_us, updated_at) \
             SELECT $1, t.n + $2, t.n, 0, CAST(NULL AS BIGINT), t.n / 1000 \
             FROM (SELECT {now} AS n) AS t WHERE true \
             ON CONFLICT (key) DO UPDATE SET \
               slot_us = {max}({max}(rate_limits.tat_us, excluded.slot_us, rate_limits.paused_until_us) - $3, \
                               excluded.slot_us, rate_limits.paused_until_us), \
               tat_us = {max}(rate_limits.tat_us, excluded.slot_us, rate_limits.paused_until_us) \
                        + COALESCE(rate_limits.interval_us, $2), \
               updated_at = excluded.updated_at \
             RETURNING slot_us, slot_us - {now} AS wait_us, interval_us"
        );
        // $1 key, $2 pause duration.
        let pause_sql = format!(
            "INSERT INTO rate_limits (key, tat_us, slot_us, paused_until_us, interval_us, updated_at) \
             VALUES ($1, 0, 0, {now} + $2, NULL, {now} / 1000) \
             ON CONFLICT (key) DO UPDATE SET \
               paused_until_us = {max}(rate_limits.paused_until_us, {now} + $2), \
               updated_at = {now} / 1000"
        );
        // $1 key, $2 interval.
        let interval_sql = format!(
            "INSERT INTO rate_limits (key, tat_us, slot_us, paused_until_us, interval_us, updated_at) \
             VALUES ($1, 0, 0, 0, $2, {now} / 1000) \
             ON CONFLICT (key) DO UPDATE SET interval_us = $2, updated_at = {now} / 1000"
        );
        let pool = match db.backend {
            Backend::Postgres => AnyPoolOptions::new()
                .max_connections(POSTGRES_CONNECTIONS)
                .acquire_timeout(Duration::from_secs(10))
                .after_connect(|conn, _| {
                    Box::pin(async move {
                        conn.execute("SET synchronous_commit = off").await?;
                        Ok(())
                    })
                })
                .connect_lazy_with((*db.pool.connect_options()).clone()),
            _ => db.pool.clone(),
        };
        DbStore {
            backend: db.backend,
            pool,
            reserve_sql,
            pause_sql,
            interval_sql,
        }
    }

    /// `sqlite` or `postgres`.
    pub fn backend_name(&self) -> &'static str {
        self.backend.name()
    }

    pub(crate) async fn reserve(
        &self,
        key: &str,
        default_interval_us: i64,
        tolerance_us: i64,
    ) -> Result<Reservation, RateLimitError> {
        // The round trip is timed from the statement's sending, not from waiting for a
        // connection: only the former can hold the store's clock reading.
        let mut conn = self.pool.acquire().await?;
        let sent = Instant::now();
        let row = sqlx::query(AssertSqlSafe(self.reserve_sql.clone()))
            .bind(key)
            .bind(default_interval_us)
            .bind(tolerance_us)
            .fetch_one(&mut *conn)
            .await?;
        let round_trip = sent.elapsed();
        Ok(
            Reservation::new(row.try_get(0)?, row.try_get(1)?, row.try_get(2)?)
                .answered_after(round_trip),
        )
    }

    pub(crate) async fn pause(&self, key: &str, duration_us: i64) -> Result<(), RateLimitError> {
        sqlx::query(AssertSqlSafe(self.pause_sql.clone()))
            .bind(key)
            .bind(duration_us)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub(crate) async fn set_interval(
        &self,
        key: &str,
        interval_us: i64,
    ) -> Result<(), RateLimitError> {
        sqlx::query(AssertSqlSafe(self.interval_sql.clone()))
            .bind(key)
            .bind(interval_us)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
