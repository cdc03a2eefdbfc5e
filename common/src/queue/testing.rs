//! Test support for the test-only job kind (cargo feature `test-jobs`): the tables its
//! handler writes, and readers for assertions.

use sqlx::Row;

use crate::Db;

/// One start of a test job, as its handler logged it.
#[derive(Debug, Clone, PartialEq)]
pub struct TestRun {
    pub run_id: String,
    pub key: String,
    pub started_ms: i64,
    /// Set when the run got to the end (its effect applied or found applied).
    pub finished_ms: Option<i64>,
    pub worker: String,
}

/// Creates the tables the test job writes: a log of every run, and the effect table
/// whose primary key makes the effect idempotent (`INSERT … ON CONFLICT DO NOTHING`).
pub async fn create_test_tables(db: &Db) -> anyhow::Result<()> {
    sqlx::query(
        "CREATE TABLE IF NOT EXISTS test_job_runs (run_id TEXT PRIMARY KEY NOT NULL, key TEXT NOT NULL, \
         started_ms BIGINT NOT NULL, finished_ms BIGINT, worker TEXT NOT NULL)",
    )
    .execute(&db.pool)
    .await?;
    sqlx::query(
        "CREATE TABLE IF NOT EXISTS test_job_effects (key TEXT PRIMARY KEY NOT NULL, done_ms BIGINT NOT NULL, worker TEXT NOT NULL)",
    )
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// Every run of the test job with this key, oldest first.
pub async fn runs(db: &Db, key: &str) -> anyhow::Result<Vec<TestRun>> {
    let rows = sqlx::query(
        "SELECT run_id, key, started_ms, finished_ms, worker FROM test_job_runs WHERE key = $1 ORDER BY started_ms, run_id",
    )
    .bind(key)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(TestRun {
                run_id: r.try_get("run_id")?,
                key: r.try_get("key")?,
                started_ms: r.try_get("started_ms")?,
                finished_ms: r.try_get("finished_ms")?,
                worker: r.try_get("worker")?,
            })
        })
        .collect()
}

/// How many effect rows exist for this key (0 or 1).
pub async fn effects(db: &Db, key: &str) -> anyhow::Result<i64> {
    Ok(
        sqlx::query_scalar("SELECT COUNT(*) FROM test_job_effects WHERE key = $1")
            .bind(key)
            .fetch_one(&db.pool)
            .await?,
    )
}
