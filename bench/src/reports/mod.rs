//! `searchdeck bench reports`: the report engine at scale. Seeds one campaign group with
//! `--keywords` keywords (default 100,000) × `--days` days (default 365) of daily metrics on
//! SQLite (a fresh file) and, with `--database-url`, on PostgreSQL (a fresh database next to
//! the given one, dropped afterwards), builds the day blobs through the sync's `refresh`
//! (the oldest 90 days written last, as backfilled history, and the last 30 days restated,
//! each refresh timed), then times real report calls ([`searchdeck_common::report::run`]) against a naive `GROUP BY` over
//! the raw daily rows in the same run:
//!
//! - `keywords_30d`: KEYWORDS, last 30 days, sorted by localSpend desc, page of 50;
//! - `keywords_30d_taps_gt_10`: the same with the metric filter taps > 10;
//! - `keywords_90d_custom`: a custom 90-day range in the middle of the year;
//! - `campaigns_30d_graph`: CAMPAIGNS, last 30 days, with totals and the graph.
//!
//! Prints p50/p95 per query and backend and the ratio to the naive p95 (`--json`: one JSON
//! object per query), and the database size per million metric rows.
//!
//! `plan_standing`: the plan gate every report, campaigns, totals, fields and estimates
//! request of a free workspace passes (`plan::standing`, which reads last month's spend),
//! with the spend memo emptied before each call (the cost before the memo, a report over
//! last month: its p95 in `naive_p95_ms`) against the memo kept (`plan::spend`, "The memo").
//!
//! Then the sync's writes: `store_rows` stores `--write-rows` search-term rows over 10 days
//! (default 300,000) through `replace_days` as the sync does (`UNNEST` arrays on PostgreSQL,
//! multi-row `VALUES` on SQLite) into empty days, against a baseline in the same database
//! (PostgreSQL: the `VALUES` lists of bound parameters it used before; SQLite: one `INSERT`
//! a row; its p95 in `naive_p95_ms`). The rows go to a second campaign group and are
//! removed afterwards, so a kept database stays as seeded.

use std::time::Duration;

use clap::Args;

use searchdeck_common::Db;

mod plan;
mod queries;
mod seed;
mod writes;

use plan::bench_plan;
use queries::{cases, sizes, time_case};
pub(crate) use seed::{GROUPS_PER_CAMPAIGN, KEYWORDS_PER_GROUP, Seeded, mix, seed, seeded_before};
use writes::bench_writes;

/// Options of `searchdeck bench reports`.
#[derive(Debug, Clone, Args)]
pub struct ReportsBenchArgs {
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
    /// Timed runs per query (after two warm-ups).
    #[arg(long, default_value_t = 20)]
    pub iterations: usize,
    /// Timed runs of the naive GROUP BY per query.
    #[arg(long, default_value_t = 5)]
    pub naive_iterations: usize,
    /// Skip SQLite (PostgreSQL only).
    #[arg(long)]
    pub no_sqlite: bool,
    /// One JSON object per query instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also print each query's mean time per stage of the report (universe, sums, rows,
    /// filter and sort, totals, page entities, present, graph).
    #[arg(long)]
    pub stages: bool,
    /// Keep the seeded databases under this name (letters, digits, `_`): the SQLite file
    /// `<temp dir>/searchdeck-bench-reports-<name>/bench.db` and the PostgreSQL database
    /// `searchdeck_bench_<name>`. A later run with the same name, `--keywords` and `--days`
    /// reuses them instead of seeding again (seeding 365 days takes minutes). Drop them by
    /// hand when done.
    #[arg(long, value_parser = keep_name)]
    pub keep: Option<String>,
    /// Search-term rows stored per run by `store_rows` (0 skips it).
    #[arg(long, default_value_t = 300_000)]
    pub write_rows: i64,
    /// Timed runs of `store_rows` and of its baseline (after one warm-up each).
    #[arg(long, default_value_t = 3)]
    pub write_iterations: usize,
}

/// A `--keep` name: it becomes part of a file name and of a database name.
pub(crate) fn keep_name(s: &str) -> Result<String, String> {
    if !s.is_empty() && s.len() <= 40 && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        Ok(s.to_ascii_lowercase())
    } else {
        Err("letters, digits and _ only (at most 40)".into())
    }
}

/// The `bench reports` campaign group of `keywords` × `days` on `db`, seeded now or, with
/// `keep`, reused from a kept database (what `bench rules` and `bench attribution` run on).
pub(crate) async fn seeded_group(
    db: &Db,
    keywords: i64,
    days: i64,
    json: bool,
    keep: Option<String>,
    say: &dyn Fn(&str),
) -> anyhow::Result<Seeded> {
    let args = ReportsBenchArgs {
        database_url: None,
        keywords,
        days,
        iterations: 0,
        naive_iterations: 0,
        no_sqlite: false,
        json,
        stages: false,
        keep,
        write_rows: 0,
        write_iterations: 0,
    };
    if args.keep.is_some()
        && let Some(kept) = seeded_before(db, &args).await?
    {
        return Ok(kept);
    }
    seed(db, &args, say).await
}

pub(crate) fn percentile(samples: &mut [Duration], p: f64) -> f64 {
    samples.sort();
    let i = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples[i].as_secs_f64() * 1000.0
}

async fn bench_backend(backend: &str, db: &Db, args: &ReportsBenchArgs) -> anyhow::Result<()> {
    let say = |m: &str| {
        if !args.json {
            println!("[{backend}] {m}");
        } else {
            eprintln!("[{backend}] {m}");
        }
    };
    let kept = match &args.keep {
        Some(_) => seeded_before(db, args).await?,
        None => None,
    };
    let seeded = match kept {
        Some(s) => {
            say("reusing the kept database (not seeded again)");
            s
        }
        None => seed(db, args, &say).await?,
    };
    if let searchdeck_common::db::Native::Postgres(pool) = &db.native {
        sqlx::query("ANALYZE").execute(pool).await?;
    }
    let (raw_bytes, sums_bytes) = sizes(db).await?;
    let per_million = |b: i64| b as f64 / (seeded.raw_rows as f64 / 1e6) / 1e6;
    say(&format!(
        "{} raw metric rows; per million rows: raw {:.1} MB + day blobs {:.1} MB = {:.1} MB",
        seeded.raw_rows,
        per_million(raw_bytes),
        per_million(sums_bytes),
        per_million(raw_bytes + sums_bytes)
    ));
    for case in cases(seeded.last) {
        time_case(backend, db, &seeded, case, args, &say).await?;
    }
    bench_plan(backend, db, &seeded, args).await?;
    if args.write_rows > 0 {
        bench_writes(backend, db, &seeded.ctx.account_id, args).await?;
    }
    Ok(())
}

/// Runs the benchmark.
pub async fn run_bench(args: ReportsBenchArgs) -> anyhow::Result<()> {
    let scratch = crate::scratch::Scratch {
        name: args
            .keep
            .clone()
            .unwrap_or_else(|| format!("reports_{}", std::process::id())),
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
    /// every query's blobs agree with the naive sums and both writes store the same rows.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn runs_and_checks_itself_at_a_small_scale() {
        run_bench(ReportsBenchArgs {
            database_url: searchdeck_common::test_support::backend_url("TEST_DATABASE_URL"),
            keywords: 300,
            days: 120,
            iterations: 1,
            naive_iterations: 1,
            no_sqlite: false,
            json: true,
            stages: false,
            keep: None,
            write_rows: 3_000,
            write_iterations: 1,
        })
        .await
        .unwrap();
    }
}
