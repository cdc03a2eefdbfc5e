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

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::Context as _;
use searchdeck_common::{
    Db, ids,
    jobs::SyncAccount,
    queue::{Queue, QueueSettings},
    rules::Rule,
    store,
};
use searchdeck_sandbox::{
    AGENCY_CAMPAIGNS, FaultConfig, Sandbox, SandboxConfig, WorldConfig, WorldSize,
};
use searchdeck_workers::{Handler, JobContext, JobRun, Runtime, sandbox_account};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::scratch::worker_config;

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

/// One `/v1` request as the sandbox answered it.
#[derive(Debug, Clone, Copy)]
struct Call {
    account: Option<i64>,
    at: Instant,
    status: u16,
}

/// The `/v1` requests answered while `on`.
#[derive(Default)]
struct Recorder {
    on: AtomicBool,
    calls: Mutex<Vec<Call>>,
}

impl Recorder {
    fn take(&self) -> Vec<Call> {
        std::mem::take(&mut *self.calls.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// The ad account of an `X-AP-Context: adAccountId=<id>` header.
fn context_account(headers: &axum::http::HeaderMap) -> Option<i64> {
    headers
        .get("x-ap-context")?
        .to_str()
        .ok()?
        .split(';')
        .find_map(|p| p.trim().strip_prefix("adAccountId="))?
        .parse()
        .ok()
}

/// Serves `sandbox` on a loopback port, recording its `/v1` requests into `recorder`;
/// answers the base URL.
async fn serve(sandbox: Arc<Sandbox>, recorder: Arc<Recorder>) -> anyhow::Result<String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let app = searchdeck_sandbox::app(sandbox).layer(axum::middleware::from_fn(
        move |req: axum::extract::Request, next: axum::middleware::Next| {
            let recorder = recorder.clone();
            async move {
                let account = context_account(req.headers());
                let api = req.uri().path().starts_with("/v1/");
                let response = next.run(req).await;
                if api && recorder.on.load(Ordering::Relaxed) {
                    let call = Call {
                        account,
                        at: Instant::now(),
                        status: response.status().as_u16(),
                    };
                    recorder
                        .calls
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(call);
                }
                response
            }
        },
    ));
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(base)
}

/// The benchmark's rule `n`: every ad group's default bid up by 1 %, hourly (attached to its
/// campaign by the caller).
fn rule(n: usize, account_id: &str, org_id: i64, created: i64) -> Rule {
    let mut rule: Rule = serde_json::from_value(json!({
        "name": format!("Bench rule {n}"),
        "accountId": account_id,
        "orgId": org_id.to_string(),
        "level": "ADGROUPS",
        "conditions": {"operator": "AND", "groups": [{"operator": "AND", "conditions": [
            {"type": "status", "values": ["ENABLED", "PAUSED"]}]}]},
        "window": {"type": "last", "days": 7},
        "frequency": {"type": "hourly"},
        "actions": [{"type": "changeBid", "by": "PERCENT", "value": "1"}]
    }))
    .expect("the benchmark's rule reads");
    rule.id = ids::new_id();
    rule.created_at = created;
    rule.updated_at = created;
    rule
}

/// The connection, its selected ad accounts (org id, org key) and the rules, stored.
struct Setup {
    orgs: Vec<(i64, i64)>,
    rules: usize,
}

async fn set_up(
    args: &ScheduledArgs,
    db: &Db,
    sandbox: &Sandbox,
    base: &str,
    config: &searchdeck_common::Config,
    setup_queue: Queue,
    say: &dyn Fn(&str),
) -> anyhow::Result<Setup> {
    let runtime = Runtime::new(config, db.clone(), setup_queue).await?;
    let key = sandbox_account::register_key(&reqwest::Client::new(), base).await?;
    let account_id = sandbox_account::connect(db, &runtime.secrets, base, &key).await?;
    // The agency world's added ad accounts (20 campaigns each), the first `--accounts`.
    let chosen: BTreeSet<i64> = {
        let world = sandbox.world.read();
        let mut counts: BTreeMap<i64, usize> = BTreeMap::new();
        for c in world.campaigns.values() {
            *counts.entry(c.ad_account_id).or_default() += 1;
        }
        counts
            .into_iter()
            .filter(|(_, n)| *n == AGENCY_CAMPAIGNS)
            .map(|(a, _)| a)
            .take(args.accounts)
            .collect()
    };
    anyhow::ensure!(
        chosen.len() == args.accounts,
        "the sandbox has {} ad accounts of {AGENCY_CAMPAIGNS} campaigns, not {}",
        chosen.len(),
        args.accounts
    );
    for org in store::accounts::orgs(&db.pool, &account_id).await? {
        let selected = chosen.contains(&org.org_id);
        store::accounts::select_org(&db.pool, &account_id, org.org_id, selected).await?;
    }
    let started = Instant::now();
    let run = JobRun {
        runtime: runtime.clone(),
        run_id: ids::new_id(),
        job_id: ids::new_id(),
        attempt: 1,
        worker: "bench".into(),
        task_id: None,
        cancel: CancellationToken::new(),
    };
    let job = SyncAccount {
        account_id: account_id.clone(),
    };
    Handler::run(&job, &JobContext::<SyncAccount>::new(run))
        .await
        .map_err(|e| anyhow::anyhow!("the entity sync failed: {e:?}"))?;
    say(&format!(
        "entities of {} ad accounts synced in {:.1} s",
        chosen.len(),
        started.elapsed().as_secs_f64()
    ));
    let now = ids::now_ms() / 1000;
    let created = now - 2 * 3600;
    let today = time::OffsetDateTime::now_utc().date();
    // As a finished sync records them: stored through Apple's today (a day in progress), so
    // complete through yesterday.
    let (from, through) = (
        (today - time::Duration::days(30)).to_string(),
        today.to_string(),
    );
    let workspace = store::accounts::by_id(&db.pool, &account_id)
        .await?
        .context("the stored connection")?
        .workspace_id;
    let mut orgs = Vec::new();
    let mut campaigns = Vec::new();
    for org in store::synced::orgs_of(&db.pool, &account_id).await? {
        if !chosen.contains(&org.org_id) {
            continue;
        }
        // The metrics count as synced now: the rules read no metric, and a run whose window
        // is complete sends nothing but its changes.
        store::synced::set_metrics_synced(&db.pool, org.org_key, &from, &through, now, "bench")
            .await?;
        campaigns.push(store::synced::campaign_ids(&db.pool, org.org_key).await?);
        orgs.push((org.org_id, org.org_key));
    }
    anyhow::ensure!(
        orgs.len() == args.accounts,
        "{} ad accounts synced",
        orgs.len()
    );
    let mut tx = db.pool.begin().await?;
    for n in 0..args.rules {
        let a = n % orgs.len();
        let of_account = &campaigns[a];
        anyhow::ensure!(
            !of_account.is_empty(),
            "ad account {} has no campaigns",
            orgs[a].0
        );
        let campaign = of_account[(n / orgs.len()) % of_account.len()];
        let rule = rule(n, &account_id, orgs[a].0, created);
        store::rules::insert(&mut *tx, &workspace, None, &rule, orgs[a].0).await?;
        store::rules::attach(&mut *tx, &rule.id, campaign, created).await?;
    }
    tx.commit().await?;
    if args.rules > orgs.len() * AGENCY_CAMPAIGNS {
        say("more rules than campaigns: some campaigns have several rules, whose changes race");
    }
    Ok(Setup {
        orgs,
        rules: args.rules,
    })
}

/// What the timed run measured.
#[derive(Debug)]
struct Measured {
    wall: Duration,
    first_call: Option<Duration>,
    calls: Vec<Call>,
    started: Instant,
    runs: Vec<(String, i64, i64, i64, i64, i64)>,
    /// Items not applied, by result and message.
    not_applied: Vec<(String, Option<String>, i64)>,
    provider: searchdeck_provider::MetricsSnapshot,
}

async fn timed_run(
    args: &ScheduledArgs,
    db: &Db,
    config: &searchdeck_common::Config,
    queue_url: &str,
    recorder: &Recorder,
    setup: &Setup,
) -> anyhow::Result<Measured> {
    let queue = Queue::connect_with(queue_url, QueueSettings::from_env()?).await?;
    let runtime = Runtime::new(config, db.clone(), queue.clone()).await?;
    let stop = CancellationToken::new();
    let ended = |s: CancellationToken| async move { s.cancelled().await };
    recorder
        .calls
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clear();
    recorder.on.store(true, Ordering::Relaxed);
    let started = Instant::now();
    let scheduler = tokio::spawn(searchdeck_scheduler::run_with(
        db.clone(),
        queue,
        Vec::new(),
        Duration::from_secs(15),
        ended(stop.clone()),
    ));
    let workers = tokio::spawn(searchdeck_workers::run_on(
        runtime.clone(),
        args.concurrency,
        ended(stop.clone()),
    ));
    let deadline = started + Duration::from_secs(args.timeout_seconds);
    let result = loop {
        let finished: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM rule_runs WHERE trigger = 'SCHEDULE' \
             AND status IN ('DONE', 'FAILED', 'SKIPPED')",
        )
        .fetch_one(&db.pool)
        .await?;
        if finished as usize >= setup.rules {
            break Ok(started.elapsed());
        }
        if Instant::now() > deadline {
            break Err(anyhow::anyhow!(
                "{finished} of {} runs ended after {} s",
                setup.rules,
                args.timeout_seconds
            ));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    recorder.on.store(false, Ordering::Relaxed);
    stop.cancel();
    for task in [scheduler, workers] {
        match tokio::time::timeout(Duration::from_secs(60), task).await {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(e))) => tracing::warn!(error = %format!("{e:#}"), "stopping"),
            Ok(Err(e)) => tracing::warn!(error = %e, "stopping"),
            Err(_) => tracing::warn!("a role did not stop within 60 s"),
        }
    }
    let wall = result?;
    let calls = recorder.take();
    let first_call = calls.iter().map(|c| c.at).min().map(|t| t - started);
    let runs: Vec<(String, i64, i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT status, COUNT(*), CAST(SUM(matched) AS BIGINT), CAST(SUM(applied) AS BIGINT), \
           CAST(SUM(refused) AS BIGINT), CAST(SUM(skipped) AS BIGINT) \
         FROM rule_runs WHERE trigger = 'SCHEDULE' GROUP BY status ORDER BY status",
    )
    .fetch_all(&db.pool)
    .await?;
    let not_applied = sqlx::query_as(
        "SELECT result, message, COUNT(*) FROM rule_run_items WHERE result <> 'APPLIED' \
         GROUP BY result, message ORDER BY result, message",
    )
    .fetch_all(&db.pool)
    .await?;
    Ok(Measured {
        not_applied,
        wall,
        first_call,
        calls,
        started,
        runs,
        provider: runtime.provider_metrics.snapshot(),
    })
}

/// The figures of one backend's run, as printed.
fn figures(backend: &str, args: &ScheduledArgs, setup: &Setup, m: &Measured) -> Value {
    let limit = f64::from(args.requests_per_second);
    let mut per_account: BTreeMap<i64, Vec<Instant>> = BTreeMap::new();
    for c in &m.calls {
        if let Some(a) = c.account {
            per_account.entry(a).or_default().push(c.at);
        }
    }
    let too_many = m.calls.iter().filter(|c| c.status == 429).count();
    // 429s in the first two seconds of their ad account's calls (before and right after the
    // limiter learnt the pace from `RateLimit-Limit`).
    let early_429 = m
        .calls
        .iter()
        .filter(|c| c.status == 429)
        .filter(|c| {
            c.account
                .and_then(|a| per_account.get(&a))
                .and_then(|t| t.iter().min())
                .is_some_and(|first| c.at - *first < Duration::from_secs(2))
        })
        .count();
    let mut uses = Vec::new();
    let (mut gaps, mut spans) = (0.0, 0.0);
    for times in per_account.values() {
        let (first, last) = (times.iter().min(), times.iter().max());
        if let (Some(first), Some(last)) = (first, last)
            && times.len() > 1
        {
            let span = (*last - *first).as_secs_f64();
            let n = (times.len() - 1) as f64;
            uses.push(n / (span * limit));
            gaps += n;
            spans += span * limit;
        }
    }
    uses.sort_by(f64::total_cmp);
    let median = uses.get(uses.len() / 2).copied().unwrap_or(0.0);
    let least = uses.first().copied().unwrap_or(0.0);
    let used = if spans > 0.0 { gaps / spans } else { 0.0 };
    let busiest = per_account.values().map(Vec::len).max().unwrap_or(0);
    let minimum = busiest as f64 / limit;
    let wall = m.wall.as_secs_f64();
    let runs: BTreeMap<&str, Value> = m
        .runs
        .iter()
        .map(|(status, n, matched, applied, refused, skipped)| {
            (
                status.as_str(),
                json!({"runs": n, "matched": matched, "applied": applied, "refused": refused,
                    "skipped": skipped}),
            )
        })
        .collect();
    let done = m
        .runs
        .iter()
        .find(|r| r.0 == "DONE")
        .map_or(0, |r| r.1 as usize);
    let last_call = m
        .calls
        .iter()
        .map(|c| c.at)
        .max()
        .map_or(0.0, |t| (t - m.started).as_secs_f64());
    json!({
        "backend": backend, "case": "scheduled_rules",
        "rules": setup.rules, "accounts": setup.orgs.len(),
        "requests_per_second": args.requests_per_second, "concurrency": args.concurrency,
        "done": done, "runs": runs,
        "not_applied": m.not_applied.iter()
            .map(|(r, msg, n)| json!({"result": r, "message": msg, "items": n}))
            .collect::<Vec<_>>(),
        "wall_s": (wall * 100.0).round() / 100.0,
        "first_call_s": m.first_call.map(|d| (d.as_secs_f64() * 100.0).round() / 100.0),
        "last_call_s": (last_call * 100.0).round() / 100.0,
        "calls": m.calls.len(), "calls_429": too_many, "calls_429_first_2s": early_429,
        "busiest_account_calls": busiest,
        "use_aggregate": (used * 1000.0).round() / 1000.0,
        "use_median": (median * 1000.0).round() / 1000.0,
        "use_least": (least * 1000.0).round() / 1000.0,
        "limiter_pace": searchdeck_provider::limiter::settings().safety,
        "minimum_s": (minimum * 100.0).round() / 100.0,
        "ours_over_minimum": if minimum > 0.0 { (wall / minimum * 100.0).round() / 100.0 } else { 0.0 },
        "client": {
            "calls": m.provider.calls, "requests": m.provider.requests,
            "token_exchanges": m.provider.token_exchanges,
            "responses_429": m.provider.rate_limited_responses, "retries": m.provider.retries,
            "limiter_wait_ms": m.provider.limiter_wait_ms, "failed": m.provider.failed(),
        },
    })
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

fn print(f: &Value, json_out: bool, say: &dyn Fn(&str)) {
    if json_out {
        println!("{f}");
        return;
    }
    say(&format!(
        "scheduled_rules: {} of {} runs DONE ({}) in {:.2} s (first call at {} s, last at {} s)",
        f["done"],
        f["rules"],
        f["runs"],
        f["wall_s"].as_f64().unwrap_or(0.0),
        f["first_call_s"],
        f["last_call_s"]
    ));
    say(&format!("  items not applied: {}", f["not_applied"]));
    say(&format!(
        "  calls {} ({} on the busiest ad account), 429s {} at the sandbox ({} in their ad account's first 2 s), {} seen by the client; client {}",
        f["calls"],
        f["busiest_account_calls"],
        f["calls_429"],
        f["calls_429_first_2s"],
        f["client"]["responses_429"],
        f["client"]
    ));
    say(&format!(
        "  limiter use of the allowed rate: aggregate {}, median {}, least {} (its pace: {} × the limit; target ≥ 0.9: {})",
        f["use_aggregate"],
        f["use_median"],
        f["use_least"],
        f["limiter_pace"],
        if f["use_aggregate"].as_f64().unwrap_or(0.0) >= 0.9 {
            "met"
        } else {
            "NOT met"
        }
    ));
    say(&format!(
        "  theoretical minimum at the limit {} s; ours / minimum {}× (0 × 429: {})",
        f["minimum_s"],
        f["ours_over_minimum"],
        if f["calls_429"].as_u64() == Some(0) {
            "met"
        } else {
            "NOT met"
        }
    ));
}
