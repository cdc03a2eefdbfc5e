//! Part 2 of `searchdeck bench rules` (issue 24): `--rules` automated rules (default 1,000)
//! due in the same minute across `--accounts` sandbox ad accounts (default 50), enqueued by
//! the scheduler and run by a worker pool against the sandbox with Apple's kind of rate
//! limit: `--requests-per-second` per ad account, announced in `RateLimit-*` headers and
//! enforced with 429 + `Retry-After` past it (`sandbox/src/faults.rs`).
//!
//! Setup (not timed), on a scratch database per backend ([`crate::scratch::each_backend`]):
//! the sandbox's agency world (the small world plus 50 ad accounts of 20 campaigns × 3 ad
//! groups) served in-process over loopback without a limit; one key-pair connection with
//! `--accounts` of those ad accounts selected, their entities stored by the real
//! `sync-account` handler (run inline, its follow-up `sync-reports` sent to a throw-away
//! queue) and their metrics marked synced; then the rules, hourly, each raising the default
//! bid of every ad group of one campaign by 1 % (rule `i` on ad account `i mod accounts`),
//! created two hours ago so the current hour is due for every one of them.
//!
//! The timed run: the sandbox's limit is set, the limiter's shared state emptied (as a
//! fresh deployment's), and the real scheduler (`searchdeck_scheduler::run_with`, one tick
//! every 15 s) and a worker pool (`searchdeck_workers::run_on`, `--concurrency` jobs at
//! once, one `Runtime` and so one rate limiter) start together; it ends when every rule's
//! run has ended. Every `/v1` request is recorded at the sandbox (ad account, time, status).
//!
//! Figures: runs by outcome, calls and 429s (at the sandbox and as the client counted
//! them), the limiter's use of the allowed rate per ad account (calls after the first ÷
//! (L × the time from its first to its last call): 1.0 is every allowed slot used, the
//! limiter's own pace is 0.95 × L), and the run's wall time against the baseline of the
//! same run's calls: the theoretical minimum, the busiest ad account's calls at exactly L
//! per second (`ours / minimum`, ≥ 1). The targets: 0 × 429 and use ≥ 0.9.

mod figures;
mod recorder;
mod setup;
mod timed;

use std::sync::Arc;

use searchdeck_common::{Db, ids, queue::Queue};
use searchdeck_sandbox::{FaultConfig, Sandbox, SandboxConfig, WorldConfig, WorldSize};
use serde_json::Value;

use crate::scratch::worker_config;
use figures::{figures, print};
use recorder::{Recorder, serve};
use setup::set_up;
use timed::timed_run;

/// The scheduled part's options (flattened into `bench rules`).
#[derive(Debug, Clone, clap::Args)]
pub struct ScheduledArgs {
    /// Rules due in the same minute.
    #[arg(long, default_value_t = 1000)]
    pub rules: usize,
    /// Sandbox ad accounts the rules are spread over (at most 50).
    #[arg(long, default_value_t = 50)]
    pub accounts: usize,
    /// Requests per second the sandbox allows per ad account (its `RateLimit-Limit`).
    #[arg(long, default_value_t = 2)]
    pub requests_per_second: u32,
    /// Jobs the worker pool runs at once (most wait on the limiter: about three per ad
    /// account keep each one's next call ready).
    #[arg(long, default_value_t = 150)]
    pub concurrency: usize,
    /// Give up when the runs have not ended after this many seconds.
    #[arg(long, default_value_t = 1800)]
    pub timeout_seconds: u64,
}

impl Default for ScheduledArgs {
    fn default() -> Self {
        ScheduledArgs {
            rules: 1000,
            accounts: 50,
            requests_per_second: 2,
            concurrency: 150,
            timeout_seconds: 1800,
        }
    }
}
/// Runs the scheduled part on `db` (a migrated scratch database of `backend`) and prints
/// its figures (`json`: one JSON object); errs when a run did not end `DONE` with every
/// matched ad group applied.
pub async fn run(
    backend: &str,
    db: &Db,
    args: &ScheduledArgs,
    json_out: bool,
) -> anyhow::Result<Value> {
    let say = |m: &str| {
        if json_out {
            eprintln!("[{backend}] {m}");
        } else {
            println!("[{backend}] {m}");
        }
    };
    anyhow::ensure!(
        (1..=searchdeck_sandbox::AGENCY_ACCOUNTS).contains(&args.accounts),
        "--accounts must be 1 to {}",
        searchdeck_sandbox::AGENCY_ACCOUNTS
    );
    anyhow::ensure!(args.rules > 0 && args.requests_per_second > 0 && args.concurrency > 0);
    let sandbox = Sandbox::open(SandboxConfig {
        world: WorldConfig {
            seed: 42,
            size: WorldSize::Agency,
            today: None,
        },
        ..SandboxConfig::default()
    })?;
    let recorder = Arc::new(Recorder::default());
    let base = serve(sandbox.clone(), recorder.clone()).await?;
    let dir = tempfile_dir(backend)?;
    let url = db.pool.connect_options().database_url.to_string();
    let setup_queue_url = format!("sqlite://{}?mode=rwc", dir.join("setup-queue.db").display());
    let result = async {
        let setup_config = worker_config(&dir, &url, &setup_queue_url, &base)?;
        let setup_queue = Queue::connect(&setup_config).await?;
        let setup = set_up(args, db, &sandbox, &base, &setup_config, setup_queue, &say).await?;
        // Apple's kind of limit from now on, and a limiter that has learnt nothing yet (the
        // setup's unlimited pace is forgotten, as in a fresh deployment).
        sandbox.faults.set(FaultConfig {
            requests_per_second: args.requests_per_second,
            ..FaultConfig::default()
        });
        sqlx::query("DELETE FROM rate_limits")
            .execute(&db.pool)
            .await?;
        say(&format!(
            "{} rules over {} ad accounts, {} requests/s each; scheduler and {} workers start",
            setup.rules,
            setup.orgs.len(),
            args.requests_per_second,
            args.concurrency
        ));
        let config = worker_config(&dir, &url, &url, &base)?;
        let measured = timed_run(args, db, &config, &url, &recorder, &setup).await?;
        anyhow::Ok(figures(backend, args, &setup, &measured))
    }
    .await;
    std::fs::remove_dir_all(&dir).ok();
    let figures = result?;
    print(&figures, json_out, &say);
    let done = figures["done"].as_u64().unwrap_or(0) as usize;
    let runs = &figures["runs"]["DONE"];
    anyhow::ensure!(
        done == args.rules,
        "{done} of {} runs DONE: {}",
        args.rules,
        figures["runs"]
    );
    anyhow::ensure!(
        runs["refused"].as_i64() == Some(0)
            && figures["not_applied"]
                .as_array()
                .is_some_and(|a| a.iter().all(|i| i["result"] == "SKIPPED")),
        "Apple refused changes, or planned ones were not sent: {runs} {}",
        figures["not_applied"]
    );
    Ok(figures)
}

/// A fresh folder for the run's data dir (secrets) and the setup's queue.
fn tempfile_dir(backend: &str) -> anyhow::Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!(
        "searchdeck-bench-rules-scheduled-{backend}-{}-{}",
        std::process::id(),
        ids::new_id()
    ));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
