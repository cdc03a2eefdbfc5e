//! `searchdeck bench sandbox`: the sandbox at scale, in-process over loopback HTTP. Over
//! the large world's 100,000-keyword ad account it times a baseline (one campaign's 90 days
//! simulated on one thread: the machine's yardstick for this run), the first and second
//! page of a 90-day DAILY keyword report with nothing computed ahead, then the first page
//! of each report kind (campaigns, ad groups, keywords, search terms, ads) over the kept
//! settled days, an entity query page for one ad group and for the whole account, and
//! `/v1/me` alone and while two account-wide reports run; then prints the peak resident
//! memory. Report figures are also given as multiples of the baseline. Targets: report pages ≤ 2 s, entity query
//! pages ≤ 200 ms, `/v1/me` unaffected by reports, memory < 1 GB.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use time::Duration as Days;

use searchdeck_sandbox::{Sandbox, SandboxConfig, WorldConfig, WorldSize};

/// Options of `searchdeck bench sandbox`.
#[derive(Debug, Clone, clap::Args)]
pub struct SandboxBenchArgs {
    /// Seed of the large world.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Rows per report and entity query page.
    #[arg(long, default_value_t = 1000)]
    pub page_size: u64,
    /// `/v1/me` calls measured alone.
    #[arg(long, default_value_t = 200)]
    pub me_calls: usize,
}

struct Bench {
    http: reqwest::Client,
    base: String,
    token: String,
    account: i64,
}

impl Bench {
    async fn post(&self, path: &str, body: &Value) -> anyhow::Result<(Duration, Value)> {
        let started = Instant::now();
        let response = self
            .http
            .post(format!("{}/v1{path}", self.base))
            .bearer_auth(&self.token)
            .header("X-AP-Context", format!("adAccountId={}", self.account))
            .json(body)
            .send()
            .await?;
        let status = response.status();
        let bytes = response.bytes().await?;
        let elapsed = started.elapsed();
        anyhow::ensure!(
            status.is_success(),
            "{path}: {status} {}",
            String::from_utf8_lossy(&bytes)
        );
        // Only the pagination is read: the rows stay bytes.
        #[derive(serde::Deserialize)]
        struct Paged {
            pagination: Option<Value>,
        }
        let paged: Paged = serde_json::from_slice(&bytes)?;
        Ok((elapsed, json!({ "pagination": paged.pagination })))
    }

    async fn me(&self) -> anyhow::Result<Duration> {
        let started = Instant::now();
        let response = self
            .http
            .get(format!("{}/v1/me", self.base))
            .bearer_auth(&self.token)
            .send()
            .await?;
        anyhow::ensure!(response.status().is_success(), "/me: {}", response.status());
        response.bytes().await?;
        Ok(started.elapsed())
    }
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort_unstable();
    let at = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples.get(at).copied().unwrap_or_default()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Peak resident memory of this process in MiB (Linux `VmHWM`).
pub fn peak_rss_mib() -> Option<f64> {
    status_mib("VmHWM:")
}

/// A memory figure of `/proc/self/status` in MiB.
fn status_mib(field: &str) -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Runs the benchmark and prints its figures.
pub async fn run(args: SandboxBenchArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let sandbox = Sandbox::open(SandboxConfig {
        world: WorldConfig {
            seed: args.seed,
            size: WorldSize::Large,
            today: None,
        },
        ..SandboxConfig::default()
    })?;
    println!(
        "large world ready in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    let w = sandbox.world.read();
    let account = *w.accounts.keys().last().expect("an ad account");
    let campaigns: Vec<i64> = w.index.children("Campaign", account).to_vec();
    let group = w.index.children("AdGroup", campaigns[0])[0];
    let keywords = w.index.children("Keyword", account).len();
    let today = w.today;
    drop(w);
    let (token, _) = sandbox.auth.issue_token("bench");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let app = searchdeck_sandbox::app(Arc::clone(&sandbox));
    tokio::spawn(async move { axum::serve(listener, app).await });
    let b = Bench {
        http: reqwest::Client::new(),
        base,
        token,
        account,
    };
    println!(
        "ad account {account}: {} campaigns, {keywords} keywords",
        campaigns.len()
    );

    // The yardstick of this run on this machine: one campaign's 90 days simulated on one
    // thread with nothing kept. Report figures are also given as multiples of it.
    let baseline = {
        let w = sandbox.world.read();
        let started = Instant::now();
        let mut sim = searchdeck_sandbox::sim::Simulation::uncached(&w);
        let mut bidder_days = 0usize;
        for back in 0..=90 {
            bidder_days += sim
                .campaign_units(campaigns[0], today - Days::days(back))
                .len();
        }
        let took = started.elapsed();
        println!(
            "baseline: one campaign's 90 days simulated on one thread ({bidder_days} bidder-days): {:.0} ms",
            ms(took)
        );
        took
    };
    let vs = |d: Duration| ms(d) / ms(baseline).max(0.001);

    let range = json!({ "start": (today - Days::days(90)).to_string(), "end": today.to_string(), "granularity": "DAILY" });
    let scope = json!([{ "field": "campaignId", "operator": "IN", "value": campaigns }]);
    let report = |offset: u64, sorting: Value| {
        json!({ "timeRange": range, "filters": scope, "sorting": sorting,
                "pagination": { "offset": offset, "pageSize": args.page_size } })
    };
    let (first, body) = b
        .post("/reports/apps/keywords/query", &report(0, json!([])))
        .await?;
    let rows = body["pagination"]["totalCount"]
        .as_u64()
        .unwrap_or_default();
    let (second, _) = b
        .post(
            "/reports/apps/keywords/query",
            &report(args.page_size, json!([])),
        )
        .await?;
    println!(
        "90-day DAILY keyword report, {rows} rows, pages of {}, nothing computed ahead: first page {:.0} ms ({:.1}× baseline), second page {:.0} ms ({:.2}×)",
        args.page_size,
        ms(first),
        vs(first),
        ms(second),
        vs(second)
    );
    let by_spend = json!([{ "field": "localSpend", "order": "DESC" }]);
    let (sorted, _) = b
        .post("/reports/apps/keywords/query", &report(0, by_spend))
        .await?;
    println!(
        "  the same sorted by localSpend DESC (its rows kept, sorted again): first page {:.0} ms ({:.1}×)",
        ms(sorted),
        vs(sorted)
    );
    // Every kind over a window ending yesterday, so that none is read from a kept report:
    // each is added up from the kept days (and the days still restated).
    let ending_yesterday = || {
        let range = json!({ "start": (today - Days::days(90)).to_string(),
                            "end": (today - Days::days(1)).to_string(), "granularity": "DAILY" });
        json!({ "timeRange": range, "filters": scope, "pagination": { "offset": 0, "pageSize": args.page_size } })
    };
    for kind in ["campaigns", "adgroups", "keywords", "searchterms", "ads"] {
        let (took, body) = b
            .post(&format!("/reports/apps/{kind}/query"), &ending_yesterday())
            .await?;
        println!(
            "90-day DAILY {kind} report ending yesterday, {} rows: first page {:.0} ms ({:.1}× baseline)",
            body["pagination"]["totalCount"],
            ms(took),
            vs(took)
        );
    }
    // Search terms and ads again over the window ending today: their settled weeks were
    // kept by the reports above (as a started sandbox computes them ahead), so only the
    // days not settled are split again.
    for kind in ["searchterms", "ads"] {
        let path = format!("/reports/apps/{kind}/query");
        let (took, body) = b.post(&path, &report(0, json!([]))).await?;
        let (next, _) = b.post(&path, &report(args.page_size, json!([]))).await?;
        println!(
            "90-day DAILY {kind} report ending today over kept weeks, {} rows: first page {:.0} ms ({:.1}× baseline), second page {:.0} ms ({:.2}×)",
            body["pagination"]["totalCount"],
            ms(took),
            vs(took),
            ms(next),
            vs(next)
        );
    }
    if let Some(cache) = sandbox.world.read().days.as_ref() {
        eprintln!("{cache:?}");
    }
    eprintln!(
        "rss {:?} MiB, peak {:?} MiB, kept days and weeks {:.0} MiB",
        status_mib("VmRSS:"),
        peak_rss_mib(),
        sandbox.world.read().days.as_ref().map_or(0, |d| d.bytes()) as f64 / 1048576.0
    );

    let page = json!({ "pageSize": args.page_size });
    let one_group = json!({ "filters": [{ "field": "adGroupId", "operator": "EQUALS", "value": [group] }], "pagination": page });
    let (group_query, _) = b.post("/keywords/query", &one_group).await?;
    let (account_query, _) = b
        .post("/keywords/query", &json!({ "pagination": page }))
        .await?;
    println!(
        "keyword query page: one ad group {:.1} ms, whole account {:.1} ms",
        ms(group_query),
        ms(account_query)
    );

    let mut alone = Vec::new();
    for _ in 0..args.me_calls {
        alone.push(b.me().await?);
    }
    let b = Arc::new(b);
    let heavy: Vec<_> = ["impressions", "localSpend"]
        .into_iter()
        .enumerate()
        .map(|(i, field)| {
            let b = Arc::clone(&b);
            // Windows no report before used, so both are added up anew.
            let range = json!({ "start": (today - Days::days(60 + i as i64)).to_string(),
                                "end": today.to_string(), "granularity": "DAILY" });
            let body = json!({ "timeRange": range, "filters": scope,
                               "sorting": [{ "field": field, "order": "DESC" }],
                               "pagination": { "offset": 0, "pageSize": args.page_size } });
            tokio::spawn(async move { b.post("/reports/apps/keywords/query", &body).await })
        })
        .collect();
    let mut during = Vec::new();
    while heavy.iter().any(|h| !h.is_finished()) {
        during.push(b.me().await?);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let mut reports_took = Vec::new();
    for h in heavy {
        reports_took.push(ms(h.await??.0));
    }
    let (p50, p95) = (percentile(&mut alone, 0.5), percentile(&mut alone, 0.95));
    let (d50, d95) = (percentile(&mut during, 0.5), percentile(&mut during, 0.95));
    println!(
        "/v1/me alone: p50 {:.2} ms, p95 {:.2} ms; during two account-wide reports ({:.0} ms, {:.0} ms; {} calls): p50 {:.2} ms, p95 {:.2} ms; p95 ratio {:.2}",
        ms(p50),
        ms(p95),
        reports_took[0],
        reports_took[1],
        during.len(),
        ms(d50),
        ms(d95),
        ms(d95) / ms(p95).max(0.001)
    );
    match peak_rss_mib() {
        Some(mib) => println!("peak RSS {mib:.0} MiB"),
        None => println!("peak RSS unknown (no /proc/self/status)"),
    }
    Ok(())
}
