//! The scratch databases a storage benchmark runs on: a migrated SQLite file in a temporary
//! folder, then (with a PostgreSQL server URL) a migrated database of its own on that
//! server, each dropped afterwards unless the run is asked to keep them (`--keep NAME`: the
//! next run with the same name reuses the PostgreSQL database and finds the seeded data).
//! [`worker_config`] is the configuration a benchmark's in-process worker runtime runs with.

use std::future::Future;

use clap::Parser;
use searchdeck_common::{Config, ConfigArgs, Db, db::Native};

/// The configuration of an in-process worker runtime (`searchdeck_workers::Runtime`): its
/// data dir (the generated secret key) `dir`, database `database_url`, queue `queue_url`
/// and provider (the sandbox) `provider_base`; no Redis, so the rate limiter's shared state
/// is the database's `rate_limits` table.
pub fn worker_config(
    dir: &std::path::Path,
    database_url: &str,
    queue_url: &str,
    provider_base: &str,
) -> anyhow::Result<Config> {
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        config: ConfigArgs,
    }
    let data_dir = dir.display().to_string();
    let cli = Cli::try_parse_from([
        "searchdeck",
        "--data-dir",
        &data_dir,
        "--database-url",
        database_url,
        "--queue-url",
        queue_url,
        "--provider-base-url",
        provider_base,
    ])?;
    let mut config = cli.config.resolve()?;
    config.redis_url = None;
    Ok(config)
}

/// Where a benchmark runs.
pub struct Scratch<'a> {
    /// Names the folder and the database (`searchdeck-bench-<name>`, `searchdeck_bench_<name>`).
    pub name: String,
    /// Whether to run on SQLite.
    pub sqlite: bool,
    /// A PostgreSQL URL whose server hosts the scratch database, if any.
    pub postgres: Option<&'a str>,
    /// Keep the databases (and say where, unless `quiet`).
    pub keep: bool,
    pub quiet: bool,
}

/// Runs `bench(backend, db)` on each scratch database of `s` in turn (`"sqlite"`, then
/// `"postgres"`), collecting what each answers; the first failure ends the run after its
/// database is cleaned up.
pub async fn each_backend<T, F, Fut>(s: &Scratch<'_>, mut bench: F) -> anyhow::Result<Vec<T>>
where
    F: FnMut(&'static str, Db) -> Fut,
    Fut: Future<Output = anyhow::Result<T>>,
{
    let mut out = Vec::new();
    if s.sqlite {
        let dir = std::env::temp_dir().join(format!("searchdeck-bench-{}", s.name));
        std::fs::create_dir_all(&dir)?;
        let url = format!("sqlite://{}?mode=rwc", dir.join("bench.db").display());
        let db = Db::connect_url(&url).await?;
        db.migrate().await?;
        let result = bench("sqlite", db.clone()).await;
        db.pool.close().await;
        if !s.keep {
            std::fs::remove_dir_all(&dir).ok();
        } else if !s.quiet {
            println!("[sqlite] kept {}", dir.display());
        }
        out.push(result?);
    }
    if let Some(base) = s.postgres {
        let name = format!("searchdeck_bench_{}", s.name);
        let admin = sqlx::PgPool::connect(base).await?;
        let exists: bool =
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
                .bind(&name)
                .fetch_one(&admin)
                .await?;
        if !exists {
            sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                .execute(&admin)
                .await?;
        }
        let url = match base.rsplit_once('/') {
            Some((server, _)) => format!("{server}/{name}"),
            None => anyhow::bail!("--database-url needs a database path"),
        };
        let result = async {
            let db = Db::connect_url(&url).await?;
            db.migrate().await?;
            let r = bench("postgres", db.clone()).await;
            db.pool.close().await;
            if let Native::Postgres(p) = &db.native {
                p.close().await;
            }
            r
        }
        .await;
        if !s.keep {
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
            )))
            .execute(&admin)
            .await?;
        } else if !s.quiet {
            println!("[postgres] kept database {name}");
        }
        out.push(result?);
    }
    Ok(out)
}
