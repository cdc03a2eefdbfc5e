//! The collections themselves: the apps of the small world to collect for (a country each,
//! the same category's unowned apps as competitors), the App Store client with the
//! benchmark's latency before each call, and each app's collection through the real
//! sources — with the latency and again without it — scored against the sandbox's ground
//! truth.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use clap::Parser;
use serde_json::json;

use searchdeck_common::suggester::{SearchPayload, key};
use searchdeck_common::{ConfigArgs, Db, queue::Queue, store};
use searchdeck_provider::{ProviderError, appstore::StoreApp};
use searchdeck_sandbox::{FaultConfig, Sandbox, truth};
use searchdeck_workers::jobs::collect_keywords::{
    AppleAdsSource, OwnData, Quiet, Sources, StoreSource, collect,
};
use searchdeck_workers::{Runtime, sandbox_account};
use tokio_util::sync::CancellationToken;

use super::{Case, Run, SuggesterBenchArgs};

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

/// Collects for each case of `args` against the sandbox at `base` (the scratch database
/// in `dir`) and scores each collection.
pub(super) async fn run_with(
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
