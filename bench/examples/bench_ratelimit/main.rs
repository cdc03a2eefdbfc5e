//! Rate-limit benchmark: N processes share one ad account limited to L requests/s.
//!
//! ```text
//! cargo run -p searchdeck-bench --example bench_ratelimit -- \
//!     --processes 3 --limit 10 --seconds 60 --backend redis|sqlite|postgres|memory|all
//! ```
//!
//! The parent starts a local server enforcing L requests per sliding second (429 +
//! `Retry-After` past it), prepares a fresh shared store, and re-spawns itself once per
//! process (`child …`); each child runs a [`searchdeck_common::ratelimit::RateLimiter`] with
//! `--concurrency` callers. It prints achieved/L and the 429 count. `memory` (and
//! `--in-process`) runs the instances as tasks of one process instead.

mod harness;
mod stores;

use clap::{Parser, Subcommand};
use harness::{BenchOptions, Runner, bench_shared, run_worker};
use stores::BenchBackend;

#[derive(Parser)]
#[command(about = "Shared rate-limiter benchmark")]
struct Cli {
    #[command(subcommand)]
    child: Option<Child>,
    /// Limiter instances (separate processes unless --in-process).
    #[arg(long, default_value_t = 3)]
    processes: usize,
    /// Requests per second the server allows.
    #[arg(long, default_value_t = 10)]
    limit: u32,
    /// Length of the run.
    #[arg(long, default_value_t = 60.0)]
    seconds: f64,
    /// memory, sqlite, postgres, redis, or all of them in turn.
    #[arg(long, default_value = "all")]
    backend: String,
    /// Concurrent callers per instance.
    #[arg(long, default_value_t = 4)]
    concurrency: usize,
    /// Database or Redis URL (defaults: TEST_DATABASE_URL / TEST_REDIS_URL, then local).
    #[arg(long)]
    store_url: Option<String>,
    /// Run the instances as tasks of this process.
    #[arg(long)]
    in_process: bool,
}

#[derive(Subcommand)]
enum Child {
    /// One instance (spawned by the parent).
    Child {
        #[arg(long)]
        server: String,
        #[arg(long)]
        backend: BenchBackend,
        #[arg(long)]
        store_url: String,
        #[arg(long)]
        prefix: String,
        #[arg(long)]
        start_ms: u64,
        #[arg(long)]
        seconds: f64,
        #[arg(long)]
        concurrency: usize,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    if let Some(Child::Child {
        server,
        backend,
        store_url,
        prefix,
        start_ms,
        seconds,
        concurrency,
    }) = cli.child
    {
        let store = stores::open(backend, &store_url, &prefix).await?;
        let report = run_worker(store, server, start_ms, seconds, concurrency).await;
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    anyhow::ensure!(
        cli.processes >= 1 && cli.limit >= 1 && cli.seconds > 0.0,
        "nothing to run"
    );
    let backends: Vec<BenchBackend> = match cli.backend.as_str() {
        "all" => vec![
            BenchBackend::Memory,
            BenchBackend::Sqlite,
            BenchBackend::Postgres,
            BenchBackend::Redis,
        ],
        one => vec![one.parse().map_err(anyhow::Error::msg)?],
    };
    let mut failed = false;
    for backend in backends {
        let runner = if cli.in_process || backend == BenchBackend::Memory {
            Runner::InProcess
        } else {
            Runner::Processes(std::env::current_exe()?)
        };
        let options = BenchOptions {
            backend,
            processes: cli.processes,
            limit: cli.limit,
            seconds: cli.seconds,
            concurrency: cli.concurrency,
            store_url: cli.store_url.clone(),
        };
        let mode = if runner == Runner::InProcess {
            "tasks"
        } else {
            "processes"
        };
        let outcome = bench_shared(options, runner).await?;
        let target = outcome.achieved_ratio() >= 0.90 && outcome.rejected_share() <= 0.01;
        failed |= !target;
        println!(
            "{outcome} [{mode}] target (>= 0.90, <= 1% 429s): {}",
            if target { "met" } else { "MISSED" }
        );
    }
    if failed {
        std::process::exit(1);
    }
    Ok(())
}
