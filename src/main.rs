//! The `searchdeck` binary: one executable, each role a subcommand.
//!
//! `serve` runs everything in one process on the embedded defaults (API, workers,
//! scheduler and the Apple Ads sandbox); the other subcommands run one role each, for
//! process managers (see the Procfile).

mod members;
mod plans;

use std::future::Future;

use clap::{Parser, Subcommand};
use searchdeck_api::state::AppState;
use searchdeck_common::{Config, ConfigArgs, Db, queue::Queue};
use tokio_util::sync::CancellationToken;
use tracing_subscriber::{
    EnvFilter, Layer, Registry, fmt, layer::SubscriberExt, util::SubscriberInitExt,
};

#[derive(Parser)]
#[command(
    name = "searchdeck",
    version,
    about = "Searchdeck: manage Apple Ads campaigns, keywords and rules"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    config: ConfigArgs,
    /// Options of the Apple Ads sandbox (used by `serve` and `sandbox`).
    #[command(flatten, next_help_heading = "Sandbox")]
    sandbox: searchdeck_sandbox::SandboxArgs,
}

#[derive(Subcommand)]
enum Command {
    /// API, workers, scheduler and sandbox in one process (migrates first).
    Serve,
    /// The HTTP API and the web app only.
    Api,
    /// A worker process: runs queued jobs.
    Worker,
    /// The scheduler: enqueues periodic jobs.
    Scheduler,
    /// The Apple Ads sandbox only.
    Sandbox,
    /// Apply database migrations and exit.
    Migrate,
    /// Workspace members, for the operator (`members list`, `members set-role`).
    #[command(subcommand)]
    Members(members::MembersCommand),
    /// Workspace plans, for the operator until billing exists (`plans set`).
    #[command(subcommand)]
    Plans(plans::PlansCommand),
    /// Print the API's OpenAPI document (what `/api/openapi.json` serves) and exit; the web
    /// app's client is generated from it (`frontend/src/api/openapi.json`).
    Openapi,
    /// Benchmarks (`bench ratelimit`: N processes sharing one rate-limited ad account;
    /// `bench sandbox`: reports, queries and latency over the large sandbox world;
    /// `bench auth`: a sign-up and login burst against a `serve` child; `bench reports`: the
    /// report engine over 100,000 keywords × 365 days; `bench sync`: a first sync of the
    /// large sandbox world through the sync jobs; `bench suggester`: the keyword suggester's
    /// collection against the sandbox, with recall against its ground truth; `bench rules`:
    /// one automated rule over 100,000 keywords, and 1,000 scheduled rules across 50 sandbox
    /// ad accounts within their rate limits).
    /// Built only with `--features bench` (the `searchdeck-bench` crate, `bench/`).
    #[cfg(feature = "bench")]
    #[command(subcommand)]
    Bench(BenchCommand),
}

#[cfg(feature = "bench")]
#[derive(Subcommand)]
enum BenchCommand {
    #[command(flatten)]
    Provider(searchdeck_bench::ratelimit::BenchCommand),
    /// The sandbox at scale: report and entity query pages of the 100,000-keyword ad
    /// account, `/v1/me` latency during account-wide reports, peak memory.
    Sandbox(searchdeck_bench::sandbox::SandboxBenchArgs),
    /// 200 concurrent sign-ups and 200 logins over 2 s against `searchdeck serve`; prints
    /// 5xx, peak server memory, `/health` p50/p95 and throughput.
    Auth(searchdeck_bench::auth::AuthBenchArgs),
    /// The report engine at scale: 100,000 keywords × 365 days on SQLite (and PostgreSQL
    /// with `--database-url`); p50/p95 of real report calls against a naive GROUP BY, and
    /// the database size per million metric rows.
    Reports(searchdeck_bench::reports::ReportsBenchArgs),
    /// A first sync of the sandbox's large world (100,000 keywords plus the small world)
    /// through the `sync-account` and `sync-reports` jobs on a worker pool, into fresh
    /// SQLite (and PostgreSQL with `--database-url`): provider requests, minutes per phase,
    /// rows per table, database size and peak memory.
    Sync(searchdeck_bench::sync::SyncBenchArgs),
    /// The keyword suggester's collection for a few sandbox apps and countries, with 100 ms
    /// latency per provider call and the sandbox's rate limit on: wall time, provider calls,
    /// limiter wait, result size, recall and precision against the sandbox's ground truth.
    Suggester(searchdeck_bench::suggester::SuggesterBenchArgs),
    /// Campaign creation (3 campaigns × 4 ad groups × 100 keywords plus discovery) against
    /// the sandbox with 100 ms latency: wall time, Apple calls against the minimum, and the
    /// extra calls of a run whose worker is SIGKILLed mid keywords.
    Create(searchdeck_bench::create::CreateBenchArgs),
    /// One automated rule over 100,000 keywords with a 30-day window (evaluation p50/p95 on
    /// SQLite and PostgreSQL), the report engine's keyword query timed beside it; then 1,000
    /// rules due in the same minute across 50 sandbox ad accounts, run by the scheduler and
    /// workers within the sandbox's per-ad-account rate limit (`--part` picks one).
    Rules(searchdeck_bench::rules::RulesBenchArgs),
    /// The activity log over 1,000,000 change records (issue 25).
    Activity(searchdeck_bench::activity::ActivityBenchArgs),
    /// Revenue and attribution (issue 44): the KEYWORDS report over 100,000 keywords × 365
    /// days with the Conversions and Cohort columns beside it without them, and postbacks
    /// ingested exactly once under replays (events per second beside a bare insert).
    Attribution(searchdeck_bench::attribution::AttributionBenchArgs),
}

/// Logs to stdout (stderr for benchmarks, whose figures go to stdout), filtered by
/// `RUST_LOG`, plus `extra` (a benchmark's recorder, with its own filter).
fn init_tracing(extra: Option<Box<dyn Layer<Registry> + Send + Sync>>, to_stderr: bool) {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let json = std::env::var("SEARCHDECK_LOG_FORMAT").is_ok_and(|f| f == "json");
    let layer = fmt::layer().with_target(false);
    let layer = match (json, to_stderr) {
        (true, false) => layer.json().boxed(),
        (true, true) => layer.json().with_writer(std::io::stderr).boxed(),
        (false, false) => layer.boxed(),
        (false, true) => layer.with_writer(std::io::stderr).boxed(),
    };
    tracing_subscriber::registry()
        .with(extra)
        .with(layer.with_filter(filter))
        .init();
}

/// Cancels `token` on Ctrl-C or SIGTERM.
fn cancel_on_signals(token: CancellationToken) {
    tokio::spawn(async move {
        let ctrl_c = tokio::signal::ctrl_c();
        #[cfg(unix)]
        let term = async {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut s) => {
                    s.recv().await;
                }
                Err(_) => std::future::pending::<()>().await,
            }
        };
        #[cfg(not(unix))]
        let term = std::future::pending::<()>();
        tokio::select! {
            _ = ctrl_c => {},
            _ = term => {},
        }
        tracing::info!("shutting down");
        token.cancel();
    });
}

fn stopped(token: &CancellationToken) -> impl Future<Output = ()> + Send + 'static {
    let token = token.clone();
    async move { token.cancelled().await }
}

async fn open_db(config: &Config, migrate: bool) -> anyhow::Result<Db> {
    let db = Db::connect(config).await?;
    if migrate {
        db.migrate().await?;
    }
    Ok(db)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    if matches!(cli.command, Command::Openapi) {
        // Needs no configuration, database or data directory.
        print!("{}", searchdeck_api::openapi_text());
        return Ok(());
    }
    #[cfg(feature = "bench")]
    let sync_phases = searchdeck_bench::sync::SyncPhases::default();
    #[cfg(feature = "bench")]
    let (extra, to_stderr) = match &cli.command {
        Command::Bench(BenchCommand::Sync(_)) => (Some(sync_phases.layer().boxed()), true),
        Command::Bench(BenchCommand::Suggester(_)) => (None, true),
        Command::Bench(BenchCommand::Create(_)) => (None, true),
        _ => (None, false),
    };
    #[cfg(not(feature = "bench"))]
    let (extra, to_stderr) = (None, false);
    init_tracing(extra, to_stderr);
    let config = match cli.config.resolve() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("searchdeck: {e}");
            std::process::exit(2);
        }
    };
    let sandbox_args = cli.sandbox.clone();
    let sandbox = match cli.sandbox.into_config() {
        Ok(s) => s.with_default_dir(config.data_dir.join("sandbox"), &sandbox_args),
        Err(e) => {
            eprintln!("searchdeck: invalid sandbox option: {e}");
            std::process::exit(2);
        }
    };
    let shutdown = CancellationToken::new();
    cancel_on_signals(shutdown.clone());

    match cli.command {
        Command::Migrate => {
            open_db(&config, true).await?;
            tracing::info!(
                backend = config.database_backend.name(),
                "migrations applied"
            );
        }
        Command::Members(command) => {
            let db = open_db(&config, false).await?;
            members::run(&db, command).await?;
        }
        Command::Plans(command) => {
            let db = open_db(&config, false).await?;
            plans::run(&db, command).await?;
        }
        Command::Openapi => unreachable!("printed before the configuration is read"),
        Command::Api => {
            let db = open_db(&config, false).await?;
            let queue = Queue::connect(&config).await?;
            let state = AppState::new(db, config.clone(), queue).await?;
            searchdeck_api::serve(state, config.bind, stopped(&shutdown)).await?;
        }
        Command::Worker => {
            let db = open_db(&config, false).await?;
            searchdeck_workers::run(&config, db, stopped(&shutdown)).await?;
        }
        Command::Scheduler => {
            let db = open_db(&config, false).await?;
            let queue = Queue::connect(&config).await?;
            searchdeck_scheduler::run(db, queue, stopped(&shutdown)).await?;
        }
        Command::Sandbox => {
            searchdeck_sandbox::serve_with(config.sandbox_bind, sandbox, stopped(&shutdown))
                .await?;
        }
        Command::Serve => {
            let db = open_db(&config, true).await?;
            let queue = Queue::connect(&config).await?;
            let state = AppState::new(db.clone(), config.clone(), queue.clone()).await?;
            tracing::info!(
                database = config.database_backend.name(),
                queue = config.queue_backend.name(),
                data_dir = %config.data_dir.display(),
                "serving Searchdeck on http://{}",
                config.bind
            );
            let api = searchdeck_api::serve(state, config.bind, stopped(&shutdown));
            let sandbox =
                searchdeck_sandbox::serve_with(config.sandbox_bind, sandbox, stopped(&shutdown));
            let workers = searchdeck_workers::run_with(
                &config,
                db.clone(),
                queue.clone(),
                stopped(&shutdown),
            );
            let scheduler = searchdeck_scheduler::run(db, queue, stopped(&shutdown));
            let result = tokio::try_join!(api, sandbox, workers, scheduler);
            shutdown.cancel();
            result?;
        }
        #[cfg(feature = "bench")]
        Command::Bench(BenchCommand::Provider(bench)) => {
            searchdeck_bench::ratelimit::run(bench, &config).await?
        }
        #[cfg(feature = "bench")]
        Command::Bench(BenchCommand::Sandbox(args)) => searchdeck_bench::sandbox::run(args).await?,
        #[cfg(feature = "bench")]
        Command::Bench(BenchCommand::Auth(args)) => searchdeck_bench::auth::run(args).await?,
        #[cfg(feature = "bench")]
        Command::Bench(BenchCommand::Reports(args)) => {
            searchdeck_bench::reports::run_bench(args).await?
        }
        #[cfg(feature = "bench")]
        Command::Bench(BenchCommand::Sync(args)) => {
            searchdeck_bench::sync::run(args, sync_phases).await?
        }
        #[cfg(feature = "bench")]
        Command::Bench(BenchCommand::Suggester(args)) => {
            searchdeck_bench::suggester::run(args).await?
        }
        #[cfg(feature = "bench")]
        Command::Bench(BenchCommand::Create(args)) => searchdeck_bench::create::run(args).await?,
        #[cfg(feature = "bench")]
        Command::Bench(BenchCommand::Rules(args)) => {
            searchdeck_bench::rules::run_bench(args).await?
        }
        #[cfg(feature = "bench")]
        Command::Bench(BenchCommand::Activity(args)) => {
            searchdeck_bench::activity::run_bench(args).await?
        }
        #[cfg(feature = "bench")]
        Command::Bench(BenchCommand::Attribution(args)) => {
            searchdeck_bench::attribution::run_bench(args).await?
        }
    }
    Ok(())
}
