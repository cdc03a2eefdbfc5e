//! `searchdeck bench sync`: a connection's full first sync of the sandbox's large world —
//! one ad account of 100,000 keywords beside the small world's three — through the real
//! `sync-account` and `sync-reports` handlers, run by a worker pool on the worker runtime
//! (its one rate limiter and provider metrics), against the sandbox served over loopback
//! HTTP by a child process (`searchdeck sandbox`; in this process with
//! `--in-process-sandbox`), into a fresh SQLite database and, with `--database-url`, a fresh
//! PostgreSQL database.
//!
//! Per backend it prints the provider traffic (the runtime's `ProviderMetrics`: calls,
//! requests, retries, 429s, time waited on the limiter), wall minutes per phase (the entity
//! sync, then for each report level the fetching and storing of its days and the refresh of
//! its day blobs, added up over the campaign groups), rows stored per table, the database
//! size, the peak resident memory of this process (the sync's) and of the sandbox child,
//! both also per phase ([`memory`]), and the machine's load average meanwhile; `--json`
//! prints one JSON object instead.
//!
//! The phases come from the handlers' own tracing events (`job started` / `job done`,
//! `entities listed`, `metrics level synced`), which [`SyncPhases::layer`] records.

mod backend;
mod figures;
mod memory;
mod phases;

use std::sync::Arc;
use std::time::Instant;

use searchdeck_sandbox::{Sandbox, SandboxConfig, WorldConfig, WorldSize};
use serde_json::json;

use backend::bench_backend;
use figures::print;
pub use phases::SyncPhases;

/// Options of `searchdeck bench sync`.
#[derive(Debug, Clone, clap::Args)]
pub struct SyncBenchArgs {
    /// The sandbox's world: large (the small world's three ad accounts plus one of 100,000
    /// keywords), mid or small.
    #[arg(long, value_enum, default_value = "large")]
    pub world: WorldSize,
    /// Seed of the sandbox's world.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Requests per second the sandbox allows per ad account; 0, the sandbox's default, is
    /// no limit (it then advertises 1,000 in `RateLimit-Limit`, which the limiter paces to).
    #[arg(long, default_value_t = 0)]
    pub requests_per_second: u32,
    /// Also sync into PostgreSQL: a server URL (a database `searchdeck_bench_sync_<pid>` is
    /// created on it and dropped afterwards).
    #[arg(long)]
    pub database_url: Option<String>,
    /// Skip SQLite (PostgreSQL only).
    #[arg(long)]
    pub no_sqlite: bool,
    /// Jobs the worker pool runs at once.
    #[arg(long, default_value_t = 2)]
    pub concurrency: usize,
    /// Give up on a backend's sync after this many minutes.
    #[arg(long, default_value_t = 180)]
    pub timeout_minutes: u64,
    /// One JSON object instead of the tables.
    #[arg(long)]
    pub json: bool,
    /// Serve the sandbox in this process (as before) instead of a `searchdeck sandbox`
    /// child: the peak RSS is then the sync's and the sandbox's together.
    #[arg(long)]
    pub in_process_sandbox: bool,
}

/// Runs the benchmark; `recorder` must be the one whose [`SyncPhases::layer`] the process's
/// subscriber has.
pub async fn run(args: SyncBenchArgs, recorder: SyncPhases) -> anyhow::Result<()> {
    let built = Instant::now();
    if !args.in_process_sandbox {
        let child = memory::SandboxChild::start(&args).await?;
        eprintln!(
            "sandbox child {} (world {:?}) ready in {:.1} s at {}",
            child.pid,
            args.world,
            built.elapsed().as_secs_f64(),
            child.base
        );
        return run_against(&args, &recorder, &child.base, Some(child.pid), None).await;
    }
    let sandbox = Sandbox::open(SandboxConfig {
        world: WorldConfig {
            seed: args.seed,
            size: args.world,
            today: None,
        },
        faults: searchdeck_sandbox::FaultConfig {
            requests_per_second: args.requests_per_second,
            ..Default::default()
        },
        ..SandboxConfig::default()
    })?;
    // Served as `searchdeck serve` serves it: the recent days of every campaign computed
    // ahead on a low-priority thread.
    sandbox.warm_up();
    let keywords = sandbox.world.read().keywords.len();
    eprintln!(
        "sandbox world {:?} ready in {:.1} s: {keywords} keywords",
        args.world,
        built.elapsed().as_secs_f64()
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let app = searchdeck_sandbox::app(Arc::clone(&sandbox));
    tokio::spawn(async move { axum::serve(listener, app).await });
    run_against(&args, &recorder, &base, None, Some(keywords)).await
}

/// Syncs every backend asked for against the sandbox at `base` and prints the figures.
async fn run_against(
    args: &SyncBenchArgs,
    recorder: &SyncPhases,
    base: &str,
    sandbox_pid: Option<u32>,
    keywords: Option<usize>,
) -> anyhow::Result<()> {
    let mut results = Vec::new();
    if !args.no_sqlite {
        let dir =
            std::env::temp_dir().join(format!("searchdeck-bench-sync-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let url = format!("sqlite://{}?mode=rwc", dir.join("bench.db").display());
        let result = bench_backend("sqlite", &url, &dir, base, sandbox_pid, args, recorder).await;
        std::fs::remove_dir_all(&dir).ok();
        results.push(result?);
    }
    if let Some(server) = &args.database_url {
        let name = format!("searchdeck_bench_sync_{}", std::process::id());
        let admin = sqlx::PgPool::connect(server).await?;
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&admin)
            .await?;
        let url = match server.rsplit_once('/') {
            Some((host, _)) => format!("{host}/{name}"),
            None => anyhow::bail!("--database-url needs a database path"),
        };
        let dir =
            std::env::temp_dir().join(format!("searchdeck-bench-sync-pg-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let result = bench_backend("postgres", &url, &dir, base, sandbox_pid, args, recorder).await;
        std::fs::remove_dir_all(&dir).ok();
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
        )))
        .execute(&admin)
        .await?;
        results.push(result?);
    }
    if args.json {
        println!(
            "{}",
            json!({
                "world": format!("{:?}", args.world).to_lowercase(),
                "keywords": keywords,
                "sandbox": if sandbox_pid.is_some() { "child process" } else { "in-process" },
                "requestsPerSecond": args.requests_per_second,
                "backends": results,
            })
        );
    } else {
        for f in &results {
            print(f);
        }
    }
    if let Some(f) = results.iter().find(|f| f.incomplete.is_some()) {
        anyhow::bail!(
            "{}: {}",
            f.backend,
            f.incomplete.as_deref().unwrap_or_default()
        );
    }
    Ok(())
}
