//! Storage by area: every SQL statement over the application's data lives in one of these
//! modules. The job queue's own bookkeeping (`job_runs`, the outbox) and the email spool keep
//! theirs beside the code that owns those tables (`workers::runner`, `queue::outbox`, `email`).
//!
//! A store function runs one statement (or one read-then-decode) and takes any executor over
//! the `Any` pool — `&db.pool`, `&mut *tx` or `&mut *conn` — so handlers compose several
//! of them in one transaction:
//!
//! ```ignore
//! let mut tx = db.begin_write().await?;
//! store::users::set_password(&mut *tx, user_id, &hash, now).await?;
//! store::sessions::delete_others(&mut *tx, user_id, Some(session_id)).await?;
//! tx.commit().await?;
//! ```
//!
//! Stores that need the native drivers (dates, `UNNEST` bulk writes) run the same SQL text
//! on whichever native pool [`crate::db::Native`] holds: see [`report_facts`].

pub mod accounts;
pub mod activity;
pub mod alerts;
pub mod app_store_connect;
pub mod attribution;
pub mod benchmarks;
pub mod campaign_views;
pub mod catalog;
pub mod competitors;
pub mod connects;
pub mod creation;
pub mod fx_rates;
pub mod negative_lists;
pub mod optimizations;
pub mod options;
pub mod popularity;
pub mod presets;
pub mod product_ads;
pub mod purchases;
pub mod recovery;
pub mod report_entities;
pub mod report_facts;
pub mod rule_runs;
pub mod rules;
pub mod sessions;
pub mod slack;
pub mod suggester;
pub mod synced;
pub mod tags;
pub mod tasks;
pub mod team;
pub mod users;
pub mod workspaces;

/// Any executor over the application database: a pool, a connection or a transaction.
pub trait Exec<'c>: sqlx::Executor<'c, Database = sqlx::Any> {}

impl<'c, T: sqlx::Executor<'c, Database = sqlx::Any>> Exec<'c> for T {}

/// A flag column as both backends store it: an integer, 0 or 1 (SQLite has no boolean type).
/// Row structs read it with `#[sqlx(try_from = "Flag")] field: bool`.
#[derive(Debug, Clone, Copy, sqlx::Type)]
#[sqlx(transparent)]
pub struct Flag(i64);

impl From<Flag> for bool {
    fn from(flag: Flag) -> bool {
        flag.0 != 0
    }
}

/// Checks that the database answers (health checks).
pub async fn ping(ex: impl Exec<'_>) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT 1").execute(ex).await?;
    Ok(())
}

/// `n` bind placeholders from `$from`: `$from, $from+1, …` (an `IN (…)` list of binds).
pub(crate) fn placeholders(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs `$body` with `$pool` bound to the database's native pool, whichever backend it is
/// (the body is compiled once per pool type, so it may use backend-generic sqlx calls).
macro_rules! on_native {
    ($db:expr, $pool:ident => $body:expr) => {
        match &$db.native {
            Native::Sqlite($pool) => $body,
            Native::Postgres($pool) => $body,
        }
    };
}
pub(crate) use on_native;

/// A fresh non-zero stamp or version (random, so writers in different processes never need
/// to agree on a counter).
pub fn new_stamp() -> i64 {
    (rand::random::<u64>() >> 1) as i64 | 1
}
