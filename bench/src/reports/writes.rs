//! `store_rows`: the sync's writes of search-term rows through `replace_days` (`UNNEST`
//! arrays on PostgreSQL, multi-row `VALUES` on SQLite) into empty days, timed against the
//! baseline writes in the same database and checked to store the same rows. The rows go
//! to a second campaign group and are removed afterwards.

use std::time::{Duration, Instant};

use time::Duration as Days;

use searchdeck_common::{Db, store};

use super::seed::{last_day, mix};
use super::{ReportsBenchArgs, percentile};

/// Times `replace_days` against its baseline (module docs, `store_rows`) and checks both
/// store the same rows.
pub(super) async fn bench_writes(
    backend: &str,
    db: &Db,
    account_id: &str,
    args: &ReportsBenchArgs,
) -> anyhow::Result<()> {
    use store::synced::metrics::{self, Level, Writes};
    const DAYS: i64 = 10;
    let org_key =
        store::synced::ensure_org(&db.pool, account_id, 2, Some("USD"), Some("UTC")).await?;
    let first = last_day() - Days::days(DAYS - 1);
    let (from, to) = (first.to_string(), last_day().to_string());
    let per_day = (args.write_rows / DAYS).max(1);
    let rows: Vec<metrics::DayRow> = (0..DAYS * per_day)
        .map(|i| {
            let (d, e) = (i / per_day, i % per_day);
            let seed = mix(e, d, 7);
            metrics::DayRow {
                day: (first + Days::days(d)).to_string(),
                entity_id: 50_000_000 + e,
                campaign_id: 1_000 + e % 40,
                ad_group_id: 100_000 + e % 1_000,
                impressions: (seed % 5_000) as i64,
                taps: (seed % 300) as i64,
                tap_installs: (seed % 40) as i64,
                spend_micros: (seed % 900_000_000) as i64,
                ..Default::default()
            }
        })
        .collect();
    let baseline = if db.backend == searchdeck_common::Backend::Postgres {
        Writes::Values
    } else {
        Writes::RowByRow
    };
    // What a run stored: (rows, spend).
    const STORED: &str = "SELECT CAST(COUNT(*) AS BIGINT), \
        CAST(COALESCE(SUM(spend_micros), 0) AS BIGINT) FROM asa_day_metrics WHERE org_key = $1";
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(), Vec::new()];
    let mut results = Vec::new();
    for i in 0..args.write_iterations.max(1) + 1 {
        for (w, writes) in [Writes::Bulk, baseline].into_iter().enumerate() {
            // Into empty days, as a first sync and the backfill store most rows: the last
            // run's rows are deleted (and vacuumed away on PostgreSQL) outside the timing.
            metrics::replace_days(&db.pool, org_key, Level::SearchTerm, &from, &to, &[]).await?;
            if let searchdeck_common::db::Native::Postgres(pool) = &db.native {
                sqlx::query("VACUUM asa_day_metrics").execute(pool).await?;
            }
            let started = Instant::now();
            metrics::replace_days_with(
                &db.pool,
                org_key,
                Level::SearchTerm,
                &from,
                &to,
                &rows,
                writes,
            )
            .await?;
            if i > 0 {
                times[w].push(started.elapsed());
            }
            let stored: (i64, i64) = sqlx::query_as(STORED)
                .bind(org_key)
                .fetch_one(&db.pool)
                .await?;
            results.push(stored);
        }
    }
    metrics::replace_days(&db.pool, org_key, Level::SearchTerm, &from, &to, &[]).await?;
    anyhow::ensure!(
        results.windows(2).all(|w| w[0] == w[1]) && results[0].0 == rows.len() as i64,
        "store_rows: the writes stored different rows: {results:?}"
    );
    let (p50, p95) = (
        percentile(&mut times[0], 0.5),
        percentile(&mut times[0], 0.95),
    );
    let base_p95 = percentile(&mut times[1], 0.95);
    if args.json {
        println!(
            "{}",
            serde_json::json!({"backend": backend, "query": "store_rows", "rows": rows.len(), "p50_ms": p50.round(), "p95_ms": p95.round(), "naive_p95_ms": base_p95.round()})
        );
    } else {
        let how = match baseline {
            Writes::Values => "VALUES lists",
            _ => "one INSERT a row",
        };
        println!(
            "[{backend}] {:<24} rows {:>6}  p50 {:>7.0} ms  p95 {:>7.0} ms  {how} p95 {:>7.0} ms  ({:.1}x faster)",
            "store_rows",
            rows.len(),
            p50,
            p95,
            base_p95,
            base_p95 / p95
        );
    }
    Ok(())
}
