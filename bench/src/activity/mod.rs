//! `searchdeck bench activity`: the activity log over a large history (issue 25's benchmark).
//! Seeds one workspace with `--changes` change records (default 1,000,000) over `--days` days
//! (default 400) across 50 campaign groups, grouped into notifications the way real use makes
//! them — quick edits (one change), changes made outside Searchdeck (one to five), rule runs
//! (up to 100), goal optimisations (up to 20), campaigns created (20 to 300) and bulk edits
//! (20 to 2,000) — with the member's read state (everything older than 30 days marked read,
//! a tenth of the rest read one by one), on SQLite and, with `--database-url`, PostgreSQL.
//! Then times, as `GET /api/accountsActions/all` runs them (the page, its total, the counts
//! per tag, the unread count, the page's grouped changes and campaign names):
//!
//! - `default_30d`: the first page (50) of the default view, the last 30 days;
//! - `search_30d`: the same with a campaign-name search;
//! - `type_auto_rules_30d`: the same filtered to automated rules,
//!
//! each `--iterations` times (after two warm-ups) with the migrations' indexes, then again
//! with the log's indexes dropped (the unindexed baseline, the indexes recreated after), and
//! prints p50/p95 of both and the ratio of their p95. The target: ≤ 50 ms p95.

use std::time::{Duration, Instant};

use clap::Args;
use searchdeck_common::{
    Db,
    store::activity::notifications::{self, Filter},
};
use serde_json::json;

use crate::reports::percentile;

mod rows;
mod seed;

use seed::seed;

/// Options of `searchdeck bench activity`.
#[derive(Debug, Clone, Args)]
pub struct ActivityBenchArgs {
    /// Also run on PostgreSQL: a server URL (a database `searchdeck_bench_<pid>` is created
    /// on it and dropped afterwards).
    #[arg(long)]
    pub database_url: Option<String>,
    /// Change records in the workspace.
    #[arg(long, default_value_t = 1_000_000)]
    pub changes: i64,
    /// Days of history.
    #[arg(long, default_value_t = 400)]
    pub days: i64,
    /// Timed runs per case (after two warm-ups).
    #[arg(long, default_value_t = 20)]
    pub iterations: usize,
    /// Skip SQLite (PostgreSQL only).
    #[arg(long)]
    pub no_sqlite: bool,
    /// One JSON object per case instead of the table.
    #[arg(long)]
    pub json: bool,
}
/// The log's indexes (the migrations' definitions): dropped for the unindexed baseline.
const INDEXES: &[(&str, &str)] = &[
    (
        "notifications_key",
        "CREATE UNIQUE INDEX notifications_key ON notifications (workspace_id, key)",
    ),
    (
        "notifications_time",
        "CREATE INDEX notifications_time ON notifications (workspace_id, created_at, id)",
    ),
    (
        "notifications_tag_time",
        "CREATE INDEX notifications_tag_time ON notifications (workspace_id, tag, created_at, id)",
    ),
    (
        "notifications_seq",
        "CREATE INDEX notifications_seq ON notifications (workspace_id, seq)",
    ),
    (
        "notification_reads_user",
        "CREATE INDEX notification_reads_user ON notification_reads (user_id, notification_id)",
    ),
    (
        "change_records_notification",
        "CREATE INDEX change_records_notification ON change_records (notification_id, field)",
    ),
];

async fn analyze(db: &Db) -> anyhow::Result<()> {
    sqlx::query("ANALYZE").execute(&db.pool).await?;
    Ok(())
}

/// One page of the log as the route reads it; returns (page size, total).
async fn page(db: &Db, f: &Filter<'_>) -> anyhow::Result<(usize, i64)> {
    let mut conn = db.pool.acquire().await?;
    let seq = notifications::read_seq(&mut *conn, f.workspace_id, f.user_id).await?;
    let page = notifications::list(&mut *conn, f, seq, 50, 0).await?;
    let total = notifications::total(&mut *conn, f, seq).await?;
    notifications::counts(&mut *conn, f).await?;
    notifications::unread(&mut *conn, f, seq).await?;
    let ids: Vec<String> = page.iter().map(|l| l.row.id.clone()).collect();
    notifications::groups(&mut *conn, &ids).await?;
    notifications::campaign_names(&mut *conn, &ids).await?;
    Ok((page.len(), total))
}

/// p50 and p95 (ms) of `n` timed runs of the page of `f` after two warm-ups, and its total.
async fn timed(db: &Db, f: &Filter<'_>, n: usize) -> anyhow::Result<(f64, f64, i64)> {
    page(db, f).await?;
    page(db, f).await?;
    let mut samples: Vec<Duration> = Vec::with_capacity(n);
    let mut total = 0;
    for _ in 0..n.max(1) {
        let t = Instant::now();
        let (size, all) = page(db, f).await?;
        samples.push(t.elapsed());
        anyhow::ensure!(size as i64 == all.min(50), "a page of {size} of {all}");
        total = all;
    }
    Ok((
        percentile(&mut samples, 0.5),
        percentile(&mut samples, 0.95),
        total,
    ))
}

async fn bench_backend(
    backend: &str,
    db: &Db,
    args: &ActivityBenchArgs,
) -> anyhow::Result<Vec<serde_json::Value>> {
    let say = |m: &str| {
        if args.json {
            eprintln!("[{backend}] {m}");
        } else {
            println!("[{backend}] {m}");
        }
    };
    let seeded = seed(db, args, &say).await?;
    let base = Filter {
        workspace_id: &seeded.workspace_id,
        user_id: &seeded.user_id,
        from: Some(seeded.now - 30 * 86_400),
        to: Some(seeded.now + 86_400),
        ..Filter::default()
    };
    let cases = [
        ("default_30d", base.clone()),
        (
            "search_30d",
            Filter {
                campaign_name: Some("g17 — brand"),
                ..base.clone()
            },
        ),
        (
            "type_auto_rules_30d",
            Filter {
                tag: Some(notifications::TAG_AUTO_RULES),
                ..base.clone()
            },
        ),
    ];
    let mut indexed = Vec::new();
    for (name, f) in &cases {
        indexed.push((*name, timed(db, f, args.iterations).await?));
    }
    for (name, _) in INDEXES {
        sqlx::query(sqlx::AssertSqlSafe(format!("DROP INDEX {name}")))
            .execute(&db.pool)
            .await?;
    }
    analyze(db).await?;
    let mut bare = Vec::new();
    for (name, f) in &cases {
        bare.push((*name, timed(db, f, args.iterations).await?));
    }
    for (_, create) in INDEXES {
        sqlx::query(sqlx::AssertSqlSafe(*create))
            .execute(&db.pool)
            .await?;
    }
    analyze(db).await?;
    let mut out = Vec::new();
    for ((name, (p50, p95, total)), (_, (b50, b95, b_total))) in indexed.into_iter().zip(bare) {
        anyhow::ensure!(total == b_total, "{name}: {total} vs {b_total} unindexed");
        let ratio = b95 / p95;
        let line = json!({
            "backend": backend, "case": name, "changes": args.changes,
            "notifications": seeded.notifications, "total": total,
            "p50_ms": (p50 * 10.0).round() / 10.0, "p95_ms": (p95 * 10.0).round() / 10.0,
            "unindexed_p50_ms": (b50 * 10.0).round() / 10.0,
            "unindexed_p95_ms": (b95 * 10.0).round() / 10.0,
            "unindexed_to_indexed_p95": (ratio * 10.0).round() / 10.0,
        });
        if args.json {
            println!("{line}");
        } else {
            say(&format!(
                "{name:<20} p50 {p50:>6.1} ms  p95 {p95:>6.1} ms  | unindexed p50 {b50:>7.1} ms  p95 {b95:>7.1} ms  ({ratio:.1}×)  total {total}  target ≤ 50 ms p95: {}",
                if p95 <= 50.0 { "met" } else { "NOT met" }
            ));
        }
        out.push(line);
    }
    Ok(out)
}

/// Runs the benchmark.
pub async fn run_bench(args: ActivityBenchArgs) -> anyhow::Result<()> {
    anyhow::ensure!(args.days >= 31, "--days must be more than the 30-day view");
    let scratch = crate::scratch::Scratch {
        name: format!("activity_{}", std::process::id()),
        sqlite: !args.no_sqlite,
        postgres: args.database_url.as_deref(),
        keep: false,
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

    /// The whole benchmark at a tiny scale, on SQLite and on PostgreSQL when configured: the
    /// pages read the same totals with and without the indexes.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn runs_and_checks_itself_at_a_small_scale() {
        run_bench(ActivityBenchArgs {
            database_url: searchdeck_common::test_support::backend_url("TEST_DATABASE_URL"),
            changes: 3_000,
            days: 60,
            iterations: 1,
            no_sqlite: false,
            json: true,
        })
        .await
        .unwrap();
    }
}
