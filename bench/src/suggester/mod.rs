//! `searchdeck bench suggester`: the keyword suggester's collection (issue 22,
//! "Performance") end to end against the sandbox, served in-process over loopback with
//! its per-ad-account rate limit on and latency added to every provider call. For a few
//! apps of the small world and a country each, it runs the collector's [`collect`] over
//! the real sources (the App Store client, and Apple Ads through the runtime's shared rate
//! limiter for a stored sandbox connection), then scores the result against the sandbox's
//! ground truth ([`searchdeck_sandbox::truth`], docs/sandbox.md): recall (share of the
//! app's relevant terms with traffic the result holds; target ≥ 0.9) and precision (share
//! of the result with traffic), with wall time (target ≤ 60 s), provider calls, limiter
//! wait and result size. Each collection is run again without the added latency, as the
//! baseline of the same run: the latency's share of the wall time is the comparable figure.

use std::sync::Arc;

use serde::Serialize;
use serde_json::json;

use searchdeck_sandbox::{FaultConfig, Sandbox, SandboxConfig, WorldConfig, WorldSize, truth};

mod collect;

use collect::run_with;

/// Options of `searchdeck bench suggester`.
#[derive(Debug, Clone, clap::Args)]
pub struct SuggesterBenchArgs {
    /// Seed of the sandbox's (small) world.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Latency added to every provider call (Apple Ads by the sandbox, App Store calls by
    /// the benchmark), in milliseconds.
    #[arg(long, default_value_t = 100)]
    pub latency_ms: u64,
    /// Requests per second the sandbox allows per ad account.
    #[arg(long, default_value_t = 10)]
    pub requests_per_second: u32,
    /// How many of the world's apps to collect for (one country each), 1–6.
    #[arg(long, default_value_t = 3)]
    pub apps: usize,
    /// Skip the baseline runs without the added latency.
    #[arg(long)]
    pub no_baseline: bool,
    /// Print the figures as one JSON object.
    #[arg(long)]
    pub json: bool,
}
/// One collection's figures.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    pub latency_ms: u64,
    pub wall_s: f64,
    /// Provider calls the collector made (App Store and Apple Ads).
    pub calls: u64,
    /// Of them, Apple Ads calls (through the rate limiter) and HTTP requests they took.
    pub apple_ads_calls: u64,
    pub apple_ads_requests: u64,
    pub app_store_calls: u64,
    pub retries: u64,
    pub rate_limited_responses: u64,
    pub limiter_wait_s: f64,
    pub result_size: usize,
    /// Relevant terms with traffic (the ground truth) and how many the result holds.
    pub truth_size: usize,
    pub found: usize,
    pub recall: f64,
    /// Share of the result with traffic.
    pub precision: f64,
    /// Share of the result that is in the ground truth (relevant and with traffic).
    pub relevant_share: f64,
    /// The most popular relevant terms the result misses (up to 10).
    pub missed_top: Vec<(String, u8)>,
}

/// One app and country: the run with latency and its baseline.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Case {
    pub adam_id: i64,
    pub app: String,
    pub category: String,
    pub country: String,
    pub competitors: Vec<String>,
    pub run: Run,
    pub baseline: Option<Run>,
    /// The added latency's share of the wall time: 1 − baseline / run.
    pub latency_share: Option<f64>,
}
/// Runs the benchmark and prints its figures.
pub async fn run(args: SuggesterBenchArgs) -> anyhow::Result<()> {
    let sandbox = Sandbox::open(SandboxConfig {
        world: WorldConfig {
            seed: args.seed,
            size: WorldSize::Small,
            today: None,
        },
        faults: FaultConfig {
            requests_per_second: args.requests_per_second,
            latency_ms: args.latency_ms,
            ..Default::default()
        },
        ..SandboxConfig::default()
    })?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let app = searchdeck_sandbox::app(Arc::clone(&sandbox));
    tokio::spawn(async move { axum::serve(listener, app).await });

    // A runtime as the worker's, over a scratch SQLite database: the stored connection and
    // the shared rate limiter (kept in that database, as a deployment without Redis).
    let dir =
        std::env::temp_dir().join(format!("searchdeck-bench-suggester-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let result = run_with(&args, &sandbox, &base, &dir).await;
    std::fs::remove_dir_all(&dir).ok();
    let cases = result?;
    if args.json {
        println!(
            "{}",
            json!({
                "world": "small",
                "seed": args.seed,
                "latencyMs": args.latency_ms,
                "requestsPerSecond": args.requests_per_second,
                "minPopularity": truth::MIN_POPULARITY,
                "loadAverage": load_average(),
                "cases": cases,
            })
        );
    } else {
        for c in &cases {
            print(c);
        }
        println!("load average {}", load_average().unwrap_or_default());
    }
    Ok(())
}

/// `/proc/loadavg`'s first three figures.
fn load_average() -> Option<String> {
    let s = std::fs::read_to_string("/proc/loadavg").ok()?;
    Some(s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
}
fn print_run(label: &str, r: &Run) {
    println!(
        "  {label}: {:.1} s; {} provider calls ({} Apple Ads in {} requests, {} App Store), {} retries, {} × 429, limiter wait {:.1} s; result {} keywords; recall {:.3} ({} of {}), precision {:.3}, relevant share {:.3}",
        r.wall_s,
        r.calls,
        r.apple_ads_calls,
        r.apple_ads_requests,
        r.app_store_calls,
        r.retries,
        r.rate_limited_responses,
        r.limiter_wait_s,
        r.result_size,
        r.recall,
        r.found,
        r.truth_size,
        r.precision,
        r.relevant_share
    );
}

fn print(c: &Case) {
    println!(
        "{} ({}, {}) in {}, competitors {}:",
        c.app,
        c.adam_id,
        c.category,
        c.country,
        c.competitors.join(", ")
    );
    print_run(&format!("{} ms latency", c.run.latency_ms), &c.run);
    if let Some(b) = &c.baseline {
        print_run("baseline, no added latency", b);
    }
    if let Some(s) = c.latency_share {
        println!(
            "  the added latency's share of the wall time: {:.0} %",
            s * 100.0
        );
    }
    if !c.run.missed_top.is_empty() {
        let missed: Vec<String> = c
            .run
            .missed_top
            .iter()
            .map(|(t, p)| format!("{t} ({p})"))
            .collect();
        println!(
            "  most popular relevant terms missed: {}",
            missed.join(", ")
        );
    }
}
