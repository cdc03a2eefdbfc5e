//! `searchdeck bench attribution`: revenue and attribution at scale (issue 44). On the
//! `bench reports` campaign group (`--keywords` × `--days` of Apple's metrics, seeded the
//! same way; `--keep` reuses a kept database) it adds the attributed conversions
//! ([`facts`]: `--install-share` percent of the keywords with tracked installs each day, a
//! third of them with a purchase), then times on SQLite and, with `--database-url`,
//! PostgreSQL:
//!
//! - [`reports`]: the KEYWORDS report of the last 30 days with the Conversions and Cohort
//!   columns, p50/p95 beside the same report with them locked (nothing of attribution read);
//!   the same sorted by ROAS; CAMPAIGNS with them;
//! - [`ingest`]: Adjust callbacks through the adapter and the ingest, each sent twice and
//!   then replayed, `--concurrency` at a time: postbacks and stored events per second,
//!   exactly once checked, beside the events stored alone (the baseline).
//!
//! Targets (issue 44): ingest ≥ 5,000 events/s on each backend (one process); the KEYWORDS
//! report with the columns p95 ≤ 100 ms. Figures: docs/benchmarks.md "Attribution".

mod facts;
mod ingest;
mod reports;

use clap::Args;
use searchdeck_common::Db;

use crate::reports::{keep_name, seeded_group};

/// Options of `searchdeck bench attribution`.
#[derive(Debug, Clone, Args)]
pub struct AttributionBenchArgs {
    /// Also run on PostgreSQL: a server URL (a database `searchdeck_bench_<pid>` is created
    /// on it and dropped afterwards).
    #[arg(long)]
    pub database_url: Option<String>,
    /// Keywords in the campaign group.
    #[arg(long, default_value_t = 100_000)]
    pub keywords: i64,
    /// Days of metrics per keyword.
    #[arg(long, default_value_t = 365)]
    pub days: i64,
    /// Percent of the keywords with attributed installs on a day.
    #[arg(long, default_value_t = 3)]
    pub install_share: i64,
    /// Timed runs per report (after two warm-ups).
    #[arg(long, default_value_t = 20)]
    pub iterations: usize,
    /// Distinct events the ingest part sends (each twice, then replayed).
    #[arg(long, default_value_t = 20_000)]
    pub events: usize,
    /// Postbacks in flight at once.
    #[arg(long, default_value_t = 16)]
    pub concurrency: usize,
    /// Skip SQLite (PostgreSQL only).
    #[arg(long)]
    pub no_sqlite: bool,
    /// One JSON object per figure instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Keep the seeded databases under this name and reuse them (as `bench reports --keep`;
    /// the same name as a `bench reports` run reuses its seeded metrics).
    #[arg(long, value_parser = keep_name)]
    pub keep: Option<String>,
}

async fn bench_backend(backend: &str, db: &Db, args: &AttributionBenchArgs) -> anyhow::Result<()> {
    let say = |m: &str| {
        if args.json {
            eprintln!("[{backend}] {m}");
        } else {
            println!("[{backend}] {m}");
        }
    };
    let seeded = seeded_group(
        db,
        args.keywords,
        args.days,
        args.json,
        args.keep.clone(),
        &say,
    )
    .await?;
    let started = std::time::Instant::now();
    let rows = facts::seed_facts(db, &seeded, args.keywords, args.days, args.install_share).await?;
    if rows > 0 {
        say(&format!(
            "{rows} keyword facts of attributed conversions written in {:.1} s",
            started.elapsed().as_secs_f64()
        ));
    }
    if let searchdeck_common::db::Native::Postgres(pool) = &db.native {
        sqlx::query("ANALYZE").execute(pool).await?;
    }
    for t in reports::bench_reports(db, &seeded, args).await? {
        let ratio = t.baseline_p95.map(|b| t.p95 / b);
        if args.json {
            println!(
                "{}",
                serde_json::json!({"backend": backend, "query": t.name, "p50_ms": round(t.p50), "p95_ms": round(t.p95), "baseline_p95_ms": t.baseline_p95.map(round), "ratio": ratio.map(round)})
            );
        } else {
            println!(
                "[{backend}] {:<28} p50 {:>7.1} ms  p95 {:>7.1} ms  without attribution p95 {:>7.1} ms  ({:.2}x)",
                t.name,
                t.p50,
                t.p95,
                t.baseline_p95.unwrap_or(f64::NAN),
                ratio.unwrap_or(f64::NAN)
            );
        }
    }
    let m = ingest::bench_ingest(db, &seeded, args).await?;
    if args.json {
        println!(
            "{}",
            serde_json::json!({"backend": backend, "query": "ingest", "postbacks_per_s": m.postbacks_per_s.round(), "stored_per_s": m.stored_per_s.round(), "replays_per_s": m.replays_per_s.round(), "baseline_per_s": m.baseline_per_s.round()})
        );
    } else {
        println!(
            "[{backend}] ingest ({} events sent twice, then replayed; {} at a time): {:.0} postbacks/s ({:.0} events stored/s), replays {:.0}/s; the events stored alone {:.0}/s ({:.2}x ours)",
            args.events,
            args.concurrency,
            m.postbacks_per_s,
            m.stored_per_s,
            m.replays_per_s,
            m.baseline_per_s,
            m.baseline_per_s / m.postbacks_per_s
        );
    }
    Ok(())
}

fn round(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

/// Runs the benchmark.
pub async fn run_bench(args: AttributionBenchArgs) -> anyhow::Result<()> {
    let scratch = crate::scratch::Scratch {
        name: args
            .keep
            .clone()
            .unwrap_or_else(|| format!("attribution_{}", std::process::id())),
        sqlite: !args.no_sqlite,
        postgres: args.database_url.as_deref(),
        keep: args.keep.is_some(),
        quiet: args.json,
    };
    let args = &args;
    crate::scratch::each_backend(&scratch, |backend, db| async move {
        bench_backend(backend, &db, args).await
    })
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole benchmark at a tiny scale, on SQLite and on PostgreSQL when configured:
    /// the reports agree with the facts, every event is stored exactly once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn runs_and_checks_itself_at_a_small_scale() {
        run_bench(AttributionBenchArgs {
            database_url: searchdeck_common::test_support::backend_url("TEST_DATABASE_URL"),
            // Over the report's 2,000 rows: the page's conversions and the totals apart.
            keywords: 3_000,
            days: 60,
            install_share: 5,
            iterations: 1,
            events: 400,
            concurrency: 8,
            no_sqlite: false,
            json: true,
            keep: None,
        })
        .await
        .unwrap();
    }
}
