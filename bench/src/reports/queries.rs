//! The timed report queries (module docs of `bench reports`): each case's report through
//! the engine ([`run_staged`], with its stages summed when asked) against the naive
//! `GROUP BY` over the raw daily rows, after checking that the day blobs and the raw rows
//! agree; and the bytes the metric tables take.

use std::time::{Duration, Instant};

use time::{Date, Duration as Days};

use searchdeck_common::{
    Db,
    report::{Cancel, FilterIn, ReportBody, SortIn, run_staged},
    store::{
        report_entities::SyncOrg,
        report_facts::{self, FactLevel, Scope},
    },
};

use super::seed::Seeded;
use super::{ReportsBenchArgs, percentile};

/// One timed query.
pub(super) struct Case {
    name: &'static str,
    body: ReportBody,
    naive_level: FactLevel,
    from: Date,
    to: Date,
}

pub(super) fn cases(last: Date) -> Vec<Case> {
    let day = |d: Date| d.to_string();
    let d30 = last - Days::days(29);
    let (c_from, c_to) = (last - Days::days(200), last - Days::days(111));
    let spend = Some(SortIn {
        field: "localSpend".into(),
        order: Some("desc".into()),
    });
    let keywords = |from: Date, filters: Vec<FilterIn>| ReportBody {
        level: Some("KEYWORDS".into()),
        start_date: Some(day(from)),
        end_date: Some(day(last.min(if from == c_from { c_to } else { last }))),
        filters,
        sort: spend.clone(),
        page: Some(1),
        page_size: Some(50),
        ..ReportBody::default()
    };
    let taps = FilterIn {
        field: Some("taps".into()),
        operator: Some("GREATER_THAN".into()),
        values: Some(vec![serde_json::json!(10)]),
        ..Default::default()
    };
    vec![
        Case {
            name: "keywords_30d",
            body: keywords(d30, Vec::new()),
            naive_level: FactLevel::Keyword,
            from: d30,
            to: last,
        },
        Case {
            name: "keywords_30d_taps_gt_10",
            body: keywords(d30, vec![taps]),
            naive_level: FactLevel::Keyword,
            from: d30,
            to: last,
        },
        Case {
            name: "keywords_90d_custom",
            body: keywords(c_from, Vec::new()),
            naive_level: FactLevel::Keyword,
            from: c_from,
            to: c_to,
        },
        Case {
            name: "campaigns_30d_graph",
            body: ReportBody {
                level: Some("CAMPAIGNS".into()),
                start_date: Some(day(d30)),
                end_date: Some(day(last)),
                graph: true,
                sort: spend.clone(),
                ..ReportBody::default()
            },
            naive_level: FactLevel::Campaign,
            from: d30,
            to: last,
        },
    ]
}

/// Bytes the metric tables take: (raw daily rows, day blobs).
pub(super) async fn sizes(db: &Db) -> anyhow::Result<(i64, i64)> {
    match &db.native {
        searchdeck_common::db::Native::Sqlite(pool) => {
            let size = |t: &'static str| async move {
                let q = format!(
                    "SELECT SUM(pgsize) FROM dbstat WHERE name = '{t}' OR name LIKE 'sqlite_autoindex_{t}%'"
                );
                sqlx::query_scalar::<_, Option<i64>>(sqlx::AssertSqlSafe(q))
                    .fetch_one(pool)
                    .await
            };
            match (size("asa_day_metrics").await, size("asa_day_blobs").await) {
                (Ok(a), Ok(b)) => Ok((a.unwrap_or(0), b.unwrap_or(0))),
                // Without the dbstat table: the whole file, split evenly.
                _ => {
                    let pages: i64 = sqlx::query_scalar("PRAGMA page_count")
                        .fetch_one(pool)
                        .await?;
                    let size: i64 = sqlx::query_scalar("PRAGMA page_size")
                        .fetch_one(pool)
                        .await?;
                    Ok((pages * size / 2, pages * size / 2))
                }
            }
        }
        searchdeck_common::db::Native::Postgres(pool) => {
            let a: i64 = sqlx::query_scalar("SELECT pg_total_relation_size('asa_day_metrics')")
                .fetch_one(pool)
                .await?;
            let b: i64 = sqlx::query_scalar("SELECT pg_total_relation_size('asa_day_blobs')")
                .fetch_one(pool)
                .await?;
            Ok((a, b))
        }
    }
}

/// Times `case` (`--iterations` runs after two warm-ups, `--naive-iterations` of the
/// naive sums) and prints its line.
pub(super) async fn time_case(
    backend: &str,
    db: &Db,
    seeded: &Seeded,
    case: Case,
    args: &ReportsBenchArgs,
    say: &dyn Fn(&str),
) -> anyhow::Result<()> {
    let org: &SyncOrg = seeded.ctx.org.as_ref().expect("seeded org");
    let q = case
        .body
        .parse()
        .map_err(|e| anyhow::anyhow!("bench query invalid: {e:?}"))?;
    let (from, to, scope) = (case.from, case.to, Scope::default());
    let fast = report_facts::range(
        db,
        &report_facts::Snapshot::new(),
        org.org_key,
        case.naive_level,
        from,
        to,
        scope,
    )
    .await?;
    let naive =
        report_facts::range_naive(db, org.org_key, case.naive_level, from, to, scope).await?;
    anyhow::ensure!(
        fast == naive,
        "{}: the day blobs disagree with the raw rows",
        case.name
    );
    let mut samples = Vec::new();
    let mut total = 0;
    let mut stage_sums: Vec<(&'static str, Duration)> = Vec::new();
    for i in 0..args.iterations + 2 {
        let started = Instant::now();
        let (r, stages) = run_staged(db, &seeded.engines.reports, &seeded.ctx, &q, &Cancel::new())
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        if i >= 2 {
            samples.push(started.elapsed());
            for (name, took) in stages.marks {
                match stage_sums.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, d)) => *d += took,
                    None => stage_sums.push((name, took)),
                }
            }
        }
        total = r.total;
    }
    if args.stages {
        let runs = samples.len().max(1) as f64;
        let line = stage_sums
            .iter()
            .map(|(n, d)| format!("{n} {:.1}", d.as_secs_f64() * 1000.0 / runs))
            .collect::<Vec<_>>()
            .join(", ");
        say(&format!("{} stages (mean ms): {line}", case.name));
    }
    let mut naive = Vec::new();
    for _ in 0..args.naive_iterations.max(1) {
        let started = Instant::now();
        let mut rows = report_facts::range_naive(
            db,
            org.org_key,
            case.naive_level,
            case.from,
            case.to,
            Scope::default(),
        )
        .await?;
        rows.sort_by_key(|r| std::cmp::Reverse(r.counters.spend_micros()));
        naive.push(started.elapsed());
    }
    let (p50, p95) = (
        percentile(&mut samples, 0.5),
        percentile(&mut samples, 0.95),
    );
    let naive_p95 = percentile(&mut naive, 0.95);
    if args.json {
        println!(
            "{}",
            serde_json::json!({"backend": backend, "query": case.name, "p50_ms": (p50 * 10.0).round() / 10.0, "p95_ms": (p95 * 10.0).round() / 10.0, "naive_p95_ms": (naive_p95 * 10.0).round() / 10.0})
        );
    } else {
        println!(
            "[{backend}] {:<24} rows {:>6}  p50 {:>7.1} ms  p95 {:>7.1} ms  naive GROUP BY p95 {:>7.1} ms  ({:.1}x faster)",
            case.name,
            total,
            p50,
            p95,
            naive_p95,
            naive_p95 / p95
        );
    }
    Ok(())
}
