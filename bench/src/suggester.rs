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

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use clap::Parser;
use serde::Serialize;
use serde_json::json;

use searchdeck_common::suggester::{SearchPayload, key};
use searchdeck_common::{ConfigArgs, Db, queue::Queue, store};
use searchdeck_provider::{ProviderError, appstore::StoreApp};
use searchdeck_sandbox::{FaultConfig, Sandbox, SandboxConfig, WorldConfig, WorldSize, truth};
use searchdeck_workers::jobs::collect_keywords::{
    AppleAdsSource, OwnData, Quiet, Sources, StoreSource, collect,
};
use searchdeck_workers::{Runtime, sandbox_account};
use tokio_util::sync::CancellationToken;

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

/// The App Store client with the benchmark's latency before each call (the sandbox adds
/// latency to `/v1` only; the App Store stand-ins answer outside it), counting calls.
struct Delayed {
    inner: searchdeck_provider::AppStore,
    latency: Arc<AtomicU64>,
    calls: AtomicU64,
}

impl Delayed {
    async fn wait(&self) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        let ms = self.latency.load(Ordering::Relaxed);
        if ms > 0 {
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
    }
}

#[async_trait]
impl StoreSource for Delayed {
    async fn hints(&self, term: &str, country: &str) -> Result<Vec<String>, ProviderError> {
        self.wait().await;
        StoreSource::hints(&self.inner, term, country).await
    }

    async fn lookup(&self, ids: &[i64], country: &str) -> Result<Vec<StoreApp>, ProviderError> {
        self.wait().await;
        StoreSource::lookup(&self.inner, ids, country).await
    }

    async fn search(
        &self,
        term: &str,
        country: &str,
        limit: u32,
    ) -> Result<Vec<StoreApp>, ProviderError> {
        self.wait().await;
        StoreSource::search(&self.inner, term, country, limit).await
    }
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

/// The apps to collect for: the first `n` apps of the world's ad accounts, with a country
/// each (US, GB, DE, … in turn) and as competitors the unowned apps of the same category
/// plus one of another category.
fn cases(sandbox: &Sandbox, n: usize) -> Vec<(i64, i64, String, Vec<i64>)> {
    let w = sandbox.world.read();
    let countries = ["US", "GB", "DE", "JP", "FR", "CA"];
    let owned: Vec<_> = w.apps.values().filter(|a| a.owner.is_some()).collect();
    owned
        .iter()
        .take(n)
        .enumerate()
        .map(|(i, app)| {
            let country = countries[i % countries.len()].to_string();
            let sold = |id: i64| {
                searchdeck_sandbox::api::rules::storefronts(&w, id).contains(&country.as_str())
            };
            let mut rivals: Vec<i64> = w
                .apps
                .values()
                .filter(|a| a.owner.is_none() && a.category == app.category && sold(a.adam_id))
                .map(|a| a.adam_id)
                .collect();
            if let Some(other) = w
                .apps
                .values()
                .find(|a| a.owner.is_none() && a.category != app.category && sold(a.adam_id))
            {
                rivals.push(other.adam_id);
            }
            (app.adam_id, app.owner.unwrap_or_default(), country, rivals)
        })
        .collect()
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 1.0 } else { a as f64 / b as f64 }
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

async fn run_with(
    args: &SuggesterBenchArgs,
    sandbox: &Arc<Sandbox>,
    base: &str,
    dir: &std::path::Path,
) -> anyhow::Result<Vec<Case>> {
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        config: ConfigArgs,
    }
    let url = format!("sqlite://{}?mode=rwc", dir.join("bench.db").display());
    let cli = Cli::try_parse_from([
        "searchdeck",
        "--data-dir",
        &dir.display().to_string(),
        "--database-url",
        &url,
        "--queue-url",
        &url,
        "--provider-base-url",
        base,
    ])?;
    let mut config = cli.config.resolve()?;
    config.redis_url = None;
    let db = Db::connect(&config).await?;
    db.migrate().await?;
    let queue = Queue::connect(&config).await?;
    let runtime = Runtime::new(&config, db.clone(), queue).await?;
    let http = reqwest::Client::new();
    let sandbox_key = sandbox_account::register_key(&http, base).await?;
    let account_id = sandbox_account::connect(&db, &runtime.secrets, base, &sandbox_key).await?;
    let account = store::accounts::by_id(&db.pool, &account_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("the stored connection is gone"))?;
    let ads = runtime
        .provider_for(&account)
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let latency = Arc::new(AtomicU64::new(args.latency_ms));

    let mut out = Vec::new();
    for (adam_id, org_id, country, rivals) in cases(sandbox, args.apps.clamp(1, 6)) {
        let (name, category, rival_names, truth_terms) = {
            let w = sandbox.world.read();
            let a = &w.apps[&adam_id];
            let names = rivals.iter().map(|r| w.apps[r].name.clone()).collect();
            let terms = truth::relevant_terms(&w, adam_id, &rivals, &country);
            (a.name.clone(), a.category.to_string(), names, terms)
        };
        let payload: SearchPayload = serde_json::from_value(json!({
            "country": country,
            "suggestionType": "competitors",
            "competitors": rivals.iter().map(ToString::to_string).collect::<Vec<_>>(),
        }))?;
        let search = payload
            .check()
            .map_err(|e| anyhow::anyhow!("the benchmark's payload: {e:?}"))?;
        let one = |with_latency: bool| {
            let store = Arc::new(Delayed {
                inner: runtime.appstore.clone(),
                latency: latency.clone(),
                calls: AtomicU64::new(0),
            });
            let sources = Sources {
                store: store.clone(),
                ads: Arc::new(AppleAdsSource {
                    ads: ads.clone(),
                    org_id,
                }),
                own: Arc::new(OwnData::default()),
            };
            let ms = if with_latency { args.latency_ms } else { 0 };
            latency.store(ms, Ordering::Relaxed);
            sandbox.faults.set(FaultConfig {
                requests_per_second: args.requests_per_second,
                latency_ms: ms,
                ..Default::default()
            });
            let search = search.clone();
            let truth_terms = truth_terms.clone();
            let runtime = runtime.clone();
            let sandbox = Arc::clone(sandbox);
            async move {
                let before = runtime.provider_metrics.snapshot();
                let started = Instant::now();
                let done = collect(
                    adam_id,
                    &search,
                    &sources,
                    &Quiet,
                    &CancellationToken::new(),
                )
                .await
                .map_err(|e| anyhow::anyhow!("the collection failed: {e:?}"))?;
                let wall = started.elapsed();
                let after = runtime.provider_metrics.snapshot();
                let w = sandbox.world.read();
                let result: HashSet<String> = done.items.iter().map(|k| key(&k.name)).collect();
                let with_traffic = result
                    .iter()
                    .filter(|t| truth::traffic(&w, t).is_some())
                    .count();
                let wanted: HashSet<&str> = truth_terms.iter().map(|(t, _)| t.as_str()).collect();
                let found = truth_terms
                    .iter()
                    .filter(|(t, _)| result.contains(t))
                    .count();
                let relevant = result
                    .iter()
                    .filter(|t| wanted.contains(t.as_str()))
                    .count();
                let missed_top = truth_terms
                    .iter()
                    .filter(|(t, _)| !result.contains(t))
                    .take(10)
                    .cloned()
                    .collect();
                anyhow::Ok(Run {
                    latency_ms: ms,
                    wall_s: wall.as_secs_f64(),
                    calls: done.calls,
                    apple_ads_calls: after.calls - before.calls,
                    apple_ads_requests: after.requests - before.requests,
                    app_store_calls: store.calls.load(Ordering::Relaxed),
                    retries: after.retries - before.retries,
                    rate_limited_responses: after.rate_limited_responses
                        - before.rate_limited_responses,
                    limiter_wait_s: (after.limiter_wait_ms - before.limiter_wait_ms) as f64
                        / 1000.0,
                    result_size: result.len(),
                    truth_size: truth_terms.len(),
                    found,
                    recall: ratio(found, truth_terms.len()),
                    precision: ratio(with_traffic, result.len()),
                    relevant_share: ratio(relevant, result.len()),
                    missed_top,
                })
            }
        };
        let run = one(true).await?;
        let baseline = if args.no_baseline {
            None
        } else {
            Some(one(false).await?)
        };
        let latency_share = baseline
            .as_ref()
            .map(|b| 1.0 - b.wall_s / run.wall_s.max(1e-9));
        out.push(Case {
            adam_id,
            app: name,
            category,
            country,
            competitors: rival_names,
            run,
            baseline,
            latency_share,
        });
    }
    db.pool.close().await;
    Ok(out)
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
