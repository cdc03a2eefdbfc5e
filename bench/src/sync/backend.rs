//! One backend's sync, measured: a fresh database migrated, a connection to the sandbox's
//! registered key, the sync queued and run by a worker pool on the worker runtime until the
//! connection is synced (or fails, or times out), then the recorded phases, the memory
//! sampled meanwhile and the rows stored.

use std::{
    collections::BTreeMap,
    path::Path,
    time::{Duration, Instant},
};

use clap::Parser;
use searchdeck_common::{Backend, ConfigArgs, Db, queue::Queue, store::synced::metrics::Level};
use searchdeck_workers::{Runtime, sandbox_account};

use super::SyncBenchArgs;
use super::figures::Figures;
use super::memory;
use super::phases::{SyncPhases, minutes, phases};

/// A level's name as the handlers' events give it (`keywords`, `searchterms`, …).
fn level_name(code: i64) -> String {
    Level::ALL
        .into_iter()
        .find(|l| l.code() == code)
        .map(|l| searchdeck_workers::jobs::sync::reports::path(l).to_string())
        .unwrap_or_else(|| format!("level {code}"))
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

/// Syncs one fresh database at `url` (SQLite files live in `dir`) and measures it.
pub(super) async fn bench_backend(
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
