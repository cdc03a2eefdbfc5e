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

mod memory;

use std::{
    collections::BTreeMap,
    path::Path,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use clap::Parser;
use searchdeck_common::{Backend, ConfigArgs, Db, queue::Queue, store::synced::metrics::Level};
use searchdeck_provider::MetricsSnapshot;
use searchdeck_sandbox::{Sandbox, SandboxConfig, WorldConfig, WorldSize};
use serde::Serialize;
use serde_json::json;
use tracing::{Subscriber, field::Visit};
use tracing_subscriber::{Layer, filter::Targets, layer::Context as LayerContext};

use searchdeck_workers::{Runtime, sandbox_account};

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

/// One recorded event of the sync handlers.
#[derive(Debug, Clone)]
struct Recorded {
    at: Instant,
    message: String,
    fields: BTreeMap<String, String>,
}

/// The sync handlers' tracing events, recorded with their time: add [`SyncPhases::layer`]
/// to the process's subscriber and hand the same value to [`run`].
#[derive(Debug, Clone, Default)]
pub struct SyncPhases {
    events: Arc<Mutex<Vec<Recorded>>>,
}

struct Capture(SyncPhases);

#[derive(Default)]
struct Fields(BTreeMap<String, String>);

impl Visit for Fields {
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.insert(field.name().to_string(), value.to_string());
    }

    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0
            .insert(field.name().to_string(), format!("{value:?}"));
    }
}

impl<S: Subscriber> Layer<S> for Capture {
    fn on_event(&self, event: &tracing::Event<'_>, _ctx: LayerContext<'_, S>) {
        let mut fields = Fields::default();
        event.record(&mut fields);
        let message = fields.0.remove("message").unwrap_or_default();
        if let Ok(mut events) = self.0.events.lock() {
            events.push(Recorded {
                at: Instant::now(),
                message,
                fields: fields.0,
            });
        }
    }
}

impl SyncPhases {
    /// A layer recording the events of this crate and of the provider client (one per
    /// provider call, with its duration) at info level and above.
    pub fn layer<S>(&self) -> impl Layer<S> + Send + Sync + 'static
    where
        S: Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    {
        Capture(self.clone()).with_filter(
            Targets::new()
                .with_target(env!("CARGO_CRATE_NAME"), tracing::Level::INFO)
                .with_target("searchdeck_provider", tracing::Level::INFO),
        )
    }

    fn take(&self) -> Vec<Recorded> {
        self.events
            .lock()
            .map(|mut e| std::mem::take(&mut *e))
            .unwrap_or_default()
    }
}

/// Wall time of the sync, by phase, in minutes.
#[derive(Debug, Default, Serialize)]
struct Minutes {
    total: f64,
    /// `sync-account`: every entity of every campaign group.
    entities: f64,
    /// From `sync-account`'s end to `sync-reports`' start (the queue's hand-over).
    handover: f64,
    /// `sync-reports` as a whole.
    reports: f64,
    /// Per entity kind listed, over every campaign group.
    entity_kinds: BTreeMap<String, f64>,
    /// Per report level: fetching and storing its days.
    report_levels: BTreeMap<String, f64>,
    /// Per report level: refreshing its day blobs.
    blob_refresh: BTreeMap<String, f64>,
    /// Time inside provider calls (the sandbox's work, the transfer and the parsing of the
    /// answer into JSON), per report level and `entities` for the rest; the remainder of a
    /// phase is ours (turning rows into records, storing them).
    provider_calls: BTreeMap<String, f64>,
}

/// Rows and requests per report level.
#[derive(Debug, Default, Serialize)]
struct LevelCounts {
    requests: u64,
    rows: u64,
}

/// What one backend's sync measured.
#[derive(Debug, Serialize)]
struct Figures {
    backend: String,
    /// Why the sync did not complete (the figures are then those of the part done).
    incomplete: Option<String>,
    provider: MetricsSnapshot,
    minutes: Minutes,
    levels: BTreeMap<String, LevelCounts>,
    /// Rows per table (entities by kind, search terms, day blobs).
    rows: BTreeMap<String, i64>,
    /// `asa_day_metrics` rows per level.
    metric_rows: BTreeMap<String, i64>,
    db_bytes: i64,
    /// This process: the sync's (and the sandbox's with `--in-process-sandbox`).
    rss_before_mib: Option<f64>,
    peak_rss_mib: Option<f64>,
    /// The sandbox child's, when it runs apart.
    sandbox_rss_before_mib: Option<f64>,
    sandbox_peak_rss_mib: Option<f64>,
    /// Highest RSS sampled (once a second) per phase: `entities`, `<level>` (fetching and
    /// storing its days), `<level> refresh` (its day blobs).
    peak_rss_by_phase: BTreeMap<String, memory::PhasePeak>,
    load_avg_mean: f64,
    load_avg_max: f64,
    /// Jobs rescheduled after an error or a rate limit.
    job_retries: u64,
}

/// A level's name as the handlers' events give it (`keywords`, `searchterms`, …).
fn level_name(code: i64) -> String {
    Level::ALL
        .into_iter()
        .find(|l| l.code() == code)
        .map(|l| searchdeck_workers::jobs::sync::reports::path(l).to_string())
        .unwrap_or_else(|| format!("level {code}"))
}

fn minutes(d: Duration) -> f64 {
    d.as_secs_f64() / 60.0
}

fn ms_field(e: &Recorded, name: &str) -> u64 {
    e.fields
        .get(name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_default()
}

/// Counts rows per table, per metrics level, and measures the database.
async fn stored(
    db: &Db,
    dir: &Path,
) -> anyhow::Result<(BTreeMap<String, i64>, BTreeMap<String, i64>, i64)> {
    let mut rows = BTreeMap::new();
    for table in [
        "asa_campaigns",
        "asa_ad_groups",
        "asa_keywords",
        "asa_negative_keywords",
        "asa_ads",
        "asa_creatives",
        "asa_product_pages",
        "asa_apps",
        "asa_search_terms",
        "asa_day_metrics",
        "asa_day_blobs",
    ] {
        let count = format!("SELECT COUNT(*) FROM {table}");
        match sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(count))
            .fetch_one(&db.pool)
            .await
        {
            Ok(n) => {
                rows.insert(table.to_string(), n);
            }
            // A table a later migration renamed or dropped is left out.
            Err(e) => eprintln!("not counted: {table}: {e}"),
        }
    }
    let by_level: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT CAST(level AS BIGINT), COUNT(*) FROM asa_day_metrics GROUP BY level ORDER BY 1",
    )
    .fetch_all(&db.pool)
    .await?;
    let metric_rows = by_level
        .into_iter()
        .map(|(level, n)| (level_name(level), n))
        .collect();
    let bytes = if db.backend == Backend::Postgres {
        sqlx::query_scalar("SELECT pg_database_size(current_database())")
            .fetch_one(&db.pool)
            .await?
    } else {
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&db.pool)
            .await?;
        let mut total = 0i64;
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let name = entry.file_name();
            if name.to_string_lossy().starts_with("bench.db") {
                total += entry.metadata()?.len() as i64;
            }
        }
        total
    };
    Ok((rows, metric_rows, bytes))
}

/// Phases, per-level counts and job retries from the recorded events.
/// `finished`: when the sync was seen done (the total when the events lack its end).
/// Also returns the window of each phase, for its memory peak.
type Phases = (
    Minutes,
    BTreeMap<String, LevelCounts>,
    u64,
    Vec<(String, Instant, Instant)>,
);

fn phases(events: &[Recorded], started: Instant, finished: Instant) -> Phases {
    let mut m = Minutes::default();
    let mut windows = Vec::new();
    let mut levels: BTreeMap<String, LevelCounts> = BTreeMap::new();
    let mut retries = 0;
    let (mut account_start, mut account_done, mut reports_start, mut reports_done) =
        (None, None, None, None);
    for e in events {
        let kind = e.fields.get("job.kind").map(String::as_str);
        match (e.message.as_str(), kind) {
            ("job started", Some("sync-account")) => {
                account_start.get_or_insert(e.at);
            }
            ("job done", Some("sync-account")) => account_done = Some(e.at),
            ("job started", Some("sync-reports")) => {
                reports_start.get_or_insert(e.at);
            }
            ("job done", Some("sync-reports")) => reports_done = Some(e.at),
            ("entities listed", _) => {
                let kind = e.fields.get("kind").cloned().unwrap_or_default();
                *m.entity_kinds.entry(kind).or_default() += ms_field(e, "ms") as f64 / 60_000.0;
            }
            ("metrics level synced", _) => {
                let level = e.fields.get("level").cloned().unwrap_or_default();
                let (all, refresh) = (ms_field(e, "ms"), ms_field(e, "refresh_ms"));
                let ago = |ms: u64| e.at.checked_sub(Duration::from_millis(ms)).unwrap_or(e.at);
                windows.push((level.clone(), ago(all), ago(refresh)));
                windows.push((format!("{level} refresh"), ago(refresh), e.at));
                *m.report_levels.entry(level.clone()).or_default() +=
                    all.saturating_sub(refresh) as f64 / 60_000.0;
                *m.blob_refresh.entry(level.clone()).or_default() += refresh as f64 / 60_000.0;
                let counts = levels.entry(level).or_default();
                counts.requests += ms_field(e, "requests");
                counts.rows += ms_field(e, "rows");
            }
            ("provider call" | "provider call failed", _) => {
                let path = e.fields.get("path").map(String::as_str).unwrap_or_default();
                let level = path
                    .trim_matches('"')
                    .strip_prefix("/reports/apps/")
                    .and_then(|p| p.strip_suffix("/query"))
                    .unwrap_or("entities");
                *m.provider_calls.entry(level.to_string()).or_default() +=
                    ms_field(e, "duration_ms") as f64 / 60_000.0;
            }
            (msg, _)
                if msg.starts_with("job failed; retrying")
                    || msg.starts_with("job rate limited") =>
            {
                retries += 1;
            }
            _ => {}
        }
    }
    let span = |a: Option<Instant>, b: Option<Instant>| match (a, b) {
        (Some(a), Some(b)) => minutes(b.saturating_duration_since(a)),
        _ => 0.0,
    };
    m.entities = span(account_start, account_done);
    m.handover = span(account_done, reports_start);
    m.reports = span(reports_start, reports_done);
    m.total = span(Some(started), reports_done.or(Some(finished)));
    if let (Some(a), Some(b)) = (account_start, account_done) {
        windows.push(("entities".to_string(), a, b));
    }
    (m, levels, retries, windows)
}

/// Syncs one fresh database at `url` (SQLite files live in `dir`) and measures it.
async fn bench_backend(
    backend: &str,
    url: &str,
    dir: &Path,
    sandbox: &str,
    sandbox_pid: Option<u32>,
    args: &SyncBenchArgs,
    recorder: &SyncPhases,
) -> anyhow::Result<Figures> {
    let say = |m: &str| eprintln!("[{backend}] {m}");
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        config: ConfigArgs,
    }
    let concurrency = args.concurrency.to_string();
    let cli = Cli::try_parse_from([
        "searchdeck",
        "--data-dir",
        &dir.display().to_string(),
        "--database-url",
        url,
        "--queue-url",
        url,
        "--provider-base-url",
        sandbox,
        "--worker-concurrency",
        &concurrency,
    ])?;
    let mut config = cli.config.resolve()?;
    // The limiter keeps its state in the benchmarked database, as a deployment without Redis.
    config.redis_url = None;
    let db = Db::connect(&config).await?;
    db.migrate().await?;
    let queue = Queue::connect(&config).await?;
    let runtime = Runtime::new(&config, db.clone(), queue.clone()).await?;
    let http = reqwest::Client::new();
    let key = sandbox_account::register_key(&http, sandbox).await?;
    let account = sandbox_account::connect(&db, &runtime.secrets, sandbox, &key).await?;

    // Counters of this sync only: peak memory, recorded events, the load average.
    memory::reset_peak(None);
    recorder.take();
    let rss_before = memory::status_mib(None, "VmRSS:");
    let sandbox_rss_before = sandbox_pid.and_then(|pid| {
        memory::reset_peak(Some(pid));
        memory::status_mib(Some(pid), "VmRSS:")
    });
    let sampler = memory::Sampler::start(sandbox_pid);
    let started = Instant::now();
    let task_id = sandbox_account::queue_sync(&db, &queue, &account).await?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let worker = tokio::spawn(searchdeck_workers::run_on(
        runtime.clone(),
        args.concurrency,
        async move {
            let _ = stopped.await;
        },
    ));
    say(&format!("syncing connection {account} (task {task_id})"));
    let deadline = started + Duration::from_secs(args.timeout_minutes * 60);
    let mut last_message = String::new();
    let outcome = loop {
        tokio::time::sleep(Duration::from_secs(1)).await;
        if sandbox_account::synced(&db, &account).await? {
            break Ok(Instant::now());
        }
        let failed: Option<(String, Option<String>)> = sqlx::query_as(
            "SELECT message, error FROM tasks WHERE error IS NOT NULL ORDER BY created_at LIMIT 1",
        )
        .fetch_optional(&db.pool)
        .await?;
        if let Some((message, error)) = failed {
            break Err(anyhow::anyhow!(
                "the sync failed: {message}: {}",
                error.unwrap_or_default()
            ));
        }
        let message: Option<String> = sqlx::query_scalar(
            "SELECT message FROM tasks WHERE finish = 0 ORDER BY created_at DESC LIMIT 1",
        )
        .fetch_optional(&db.pool)
        .await?;
        if let Some(message) = message
            && message != last_message
        {
            say(&format!("{:.1} min: {message}", minutes(started.elapsed())));
            last_message = message;
        }
        if Instant::now() > deadline {
            break Err(anyhow::anyhow!(
                "the sync did not finish within {} minutes",
                args.timeout_minutes
            ));
        }
    };
    // Let `sync-reports` record its end before the pool stops.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let _ = stop.send(());
    worker.await??;
    let samples = sampler.stop();
    let (finished, incomplete) = match outcome {
        Ok(at) => (at, None),
        Err(e) => (Instant::now(), Some(format!("{e:#}"))),
    };
    let events = recorder.take();
    let peak_rss = memory::status_mib(None, "VmHWM:");
    let sandbox_peak_rss = sandbox_pid.and_then(|pid| memory::status_mib(Some(pid), "VmHWM:"));
    let provider = runtime.provider_metrics.snapshot();
    let (wall, levels, job_retries, windows) = phases(&events, started, finished);
    let peak_rss_by_phase = memory::phase_peaks(&samples, &windows);
    say("counting rows");
    let (rows, metric_rows, db_bytes) = stored(&db, dir).await?;
    let loads: Vec<f64> = samples.iter().map(|s| s.load).collect();
    let load_avg_mean = loads.iter().sum::<f64>() / loads.len().max(1) as f64;
    let load_avg_max = loads.iter().copied().fold(0.0, f64::max);
    db.pool.close().await;
    Ok(Figures {
        backend: backend.to_string(),
        incomplete,
        provider,
        minutes: wall,
        levels,
        rows,
        metric_rows,
        db_bytes,
        rss_before_mib: rss_before,
        peak_rss_mib: peak_rss,
        sandbox_rss_before_mib: sandbox_rss_before,
        sandbox_peak_rss_mib: sandbox_peak_rss,
        peak_rss_by_phase,
        load_avg_mean,
        load_avg_max,
        job_retries,
    })
}

fn print(f: &Figures) {
    let p = &f.provider;
    println!("== {} ==", f.backend);
    if let Some(why) = &f.incomplete {
        println!("INCOMPLETE: {why}; the figures below are those of the part done");
    }
    println!(
        "provider: {} calls, {} requests ({} token exchanges), {} retries, {} × 429, {} failed; limiter wait {:.1} s",
        p.calls,
        p.requests,
        p.token_exchanges,
        p.retries,
        p.rate_limited_responses,
        p.failed(),
        p.limiter_wait_ms as f64 / 1000.0
    );
    let m = &f.minutes;
    println!(
        "wall minutes: total {:.2} = entities {:.2} + hand-over {:.2} + reports {:.2}",
        m.total, m.entities, m.handover, m.reports
    );
    println!(
        "  in provider calls (the sandbox's work, transfer, JSON parsing): {}",
        m.provider_calls
            .iter()
            .map(|(k, v)| format!("{k} {v:.2}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for (kind, min) in &m.entity_kinds {
        println!("  entities {kind:<18} {min:>7.2} min");
    }
    for (level, min) in &m.report_levels {
        let refresh = m.blob_refresh.get(level).copied().unwrap_or_default();
        let counts = f.levels.get(level);
        println!(
            "  report {level:<12} fetch+store {min:>7.2} min, blob refresh {refresh:>6.2} min, {} requests, {} rows",
            counts.map_or(0, |c| c.requests),
            counts.map_or(0, |c| c.rows)
        );
    }
    println!("rows:");
    for (table, n) in &f.rows {
        println!("  {table:<24} {n:>12}");
    }
    for (level, n) in &f.metric_rows {
        println!("  asa_day_metrics {level:<8} {n:>12}");
    }
    let whose = if f.sandbox_peak_rss_mib.is_some() {
        "the sync's"
    } else {
        "the sync's and the in-process sandbox's"
    };
    println!(
        "database: {:.1} MB; RSS before the sync {:.0} MiB, peak {:.0} MiB (this process: {whose}); load average mean {:.2}, max {:.2}; {} job retries",
        f.db_bytes as f64 / 1e6,
        f.rss_before_mib.unwrap_or_default(),
        f.peak_rss_mib.unwrap_or_default(),
        f.load_avg_mean,
        f.load_avg_max,
        f.job_retries
    );
    if let Some(peak) = f.sandbox_peak_rss_mib {
        println!(
            "sandbox child: RSS before the sync {:.0} MiB, peak {peak:.0} MiB",
            f.sandbox_rss_before_mib.unwrap_or_default()
        );
    }
    println!("peak RSS sampled per phase (MiB, sync / sandbox child):");
    for (phase, p) in &f.peak_rss_by_phase {
        println!("  {phase:<22} {:>7.0} / {:>7.0}", p.ours_mib, p.sandbox_mib);
    }
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
