//! `searchdeck bench rules`: one automated rule over a large campaign group (issue 24's
//! benchmark, part 1). Seeds the `bench reports` campaign group (`--keywords`, default
//! 100,000, × `--days` days of metrics, default 60; `--keep` reuses a kept seed of the same
//! size) on SQLite and, with `--database-url`, on PostgreSQL, then times:
//!
//! - `rule_evaluate_30d`: a whole evaluation of a rule over every keyword of every campaign
//!   with a 30-day window (`searchdeck_common::rules::run::evaluate`: the report engine's
//!   read for rules, the conditions — spend above a value AND no installs, OR a CPA above
//!   5 × the CPT (a conversion rate under 20 %, about half of the seeded keywords) —, the
//!   minimum data, and the plan of a 10 % bid cut of the 1,000 largest spenders, the other
//!   matches listed as over the entity limit), exactly what `run-rule`, preview and
//!   backtest call;
//! - `entity_rows_30d`: the report engine's read alone (`report::entity_rows`), and of it
//!   `rule_attributes_30d`, the keywords' attributes (text, status, match type, bid) as the
//!   rule reads them (`store::report_facts::cache::rule_attributes`: cached while the group's
//!   entities are unchanged), beside `rule_attributes_uncached`, the same read from the
//!   database (`rule_entities`, what each evaluation paid before the cache); the rest of the
//!   read is the counters the report page reads too;
//! - `rule_conditions_30d`: the evaluation alone over the rows read (conditions, minData,
//!   the plan and its items: `rules::run::evaluate_rows`);
//! - `report_keywords_30d`: the report engine's own KEYWORDS page over the same 30 days
//!   (sorted by spend, page of 50), as `bench reports` times it,
//!
//! and prints p50/p95 of each and the ratio of the rule's p95 to the report's (`--json`: one
//! JSON object per case). The target: the rule at most 200 ms.
//!
//! Part 2 of the benchmark, 1,000 rules due in the same minute across 50 sandbox ad
//! accounts run by the scheduler and the workers within the provider's rate limits, is
//! [`scheduled`] (`--part scheduled`; both parts run by default).

pub mod scheduled;

use std::time::Instant;

use clap::Args;
use searchdeck_common::{
    Db,
    report::{Cancel, DateRange, EntityRead, Level, ReportBody, SortIn, entity_rows, run_staged},
    rules::{
        Rule,
        run::{self as rule_run, Subject},
    },
};
use serde_json::json;
use time::Duration as Days;

use crate::reports::{ReportsBenchArgs, Seeded, percentile, seed, seeded_before};

/// Which parts of `bench rules` run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Part {
    /// One rule over the large campaign group (part 1).
    Evaluate,
    /// Many rules across sandbox ad accounts within their rate limits (part 2, [`scheduled`]).
    Scheduled,
    /// Both, in that order.
    Both,
}

/// Options of `searchdeck bench rules`.
#[derive(Debug, Clone, Args)]
pub struct RulesBenchArgs {
    /// The parts to run.
    #[arg(long, value_enum, default_value = "both")]
    pub part: Part,
    /// The scheduled part's size and limit.
    #[command(flatten)]
    pub scheduled: scheduled::ScheduledArgs,
    /// Also run on PostgreSQL: a server URL (a database `searchdeck_bench_<pid>` is created
    /// on it and dropped afterwards).
    #[arg(long)]
    pub database_url: Option<String>,
    /// Keywords in the campaign group.
    #[arg(long, default_value_t = 100_000)]
    pub keywords: i64,
    /// Days of metrics per keyword (at least 30).
    #[arg(long, default_value_t = 60)]
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
    /// Keep the seeded databases under this name (as `bench reports --keep`; the seeds of
    /// both benchmarks are the same when `--keywords` and `--days` are).
    #[arg(long)]
    pub keep: Option<String>,
}

/// The benchmark's rule over `campaigns` of the seeded group.
fn rule(seeded: &Seeded, campaigns: &[i64]) -> Rule {
    serde_json::from_value(json!({
        "name": "Cut the bids of keywords that spend without installs",
        "accountId": seeded.ctx.account_id,
        "orgId": "1",
        "level": "KEYWORDS",
        "campaignIds": campaigns.iter().map(i64::to_string).collect::<Vec<_>>(),
        "conditions": {"operator": "OR", "groups": [
            {"operator": "AND", "conditions": [
                {"type": "metric", "metric": "localSpend", "operator": "GREATER_THAN", "value": "20"},
                {"type": "metric", "metric": "installs", "operator": "EQUALS", "value": "0"}]},
            {"operator": "AND", "conditions": [
                {"type": "compare", "metric": "avgCPA", "operator": "GREATER_THAN", "other": "avgCPT", "coefficient": "5"},
                {"type": "status", "values": ["ACTIVE"]}]}]},
        "window": {"type": "last", "days": 30},
        "frequency": {"type": "daily", "hour": 6},
        "actions": [{"type": "changeBid", "by": "PERCENT", "value": "-10"}],
        "guardrails": {"minBid": "0.10", "maxChangePercent": "50", "maxEntities": 1000,
            "minData": [{"metric": "taps", "value": "10"}]}
    }))
    .expect("the benchmark's rule reads")
}

/// p50 and p95 (ms) of `n` timed runs of `f` after two warm-ups, and the last result.
async fn timed<T, F, Fut>(n: usize, mut f: F) -> anyhow::Result<(f64, f64, T)>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<T>>,
{
    f().await?;
    f().await?;
    let mut samples = Vec::with_capacity(n);
    let mut last = None;
    for _ in 0..n.max(1) {
        let t = Instant::now();
        last = Some(f().await?);
        samples.push(t.elapsed());
    }
    let p50 = percentile(&mut samples, 0.5);
    let p95 = percentile(&mut samples, 0.95);
    Ok((p50, p95, last.expect("at least one run")))
}

async fn bench_backend(
    backend: &str,
    db: &Db,
    args: &RulesBenchArgs,
) -> anyhow::Result<Vec<serde_json::Value>> {
    let say = |m: &str| {
        if args.json {
            eprintln!("[{backend}] {m}");
        } else {
            println!("[{backend}] {m}");
        }
    };
    let seed_args = ReportsBenchArgs {
        database_url: None,
        keywords: args.keywords,
        days: args.days,
        iterations: args.iterations,
        naive_iterations: 0,
        no_sqlite: false,
        json: args.json,
        stages: false,
        keep: args.keep.clone(),
        write_rows: 0,
        write_iterations: 0,
    };
    let kept = match &args.keep {
        Some(_) => seeded_before(db, &seed_args).await?,
        None => None,
    };
    let seeded = match kept {
        Some(s) => s,
        None => seed(db, &seed_args, &say).await?,
    };
    if let searchdeck_common::db::Native::Postgres(pool) = &db.native {
        sqlx::query("ANALYZE").execute(pool).await?;
    }
    let org = seeded.ctx.org.clone().expect("seeded org");
    let campaigns = searchdeck_common::store::synced::campaign_ids(&db.pool, org.org_key).await?;
    let rule = rule(&seeded, &campaigns);
    let subject = Subject {
        workspace_id: seeded.ctx.workspace_id.clone(),
        rule,
        campaigns: campaigns.clone(),
        org: org.clone(),
        currency: "USD".into(),
        targets: Default::default(),
    };
    // "Today" is the day after the last seeded one: the window is the last 30 seeded days.
    let today = seeded.last + Days::days(1);
    let from = seeded.last - Days::days(29);
    let cancel = Cancel::new();
    let mut out = Vec::new();
    let (e50, e95, evaluated) = timed(args.iterations, || async {
        Ok(rule_run::evaluate(db, &seeded.engines.reports, &subject, today, &cancel).await?)
    })
    .await?;
    anyhow::ensure!(
        evaluated.window == (from, seeded.last),
        "the rule's window is {:?}",
        evaluated.window
    );
    let read = EntityRead {
        level: Level::Keywords,
        campaigns: campaigns.clone(),
        range: DateRange {
            from,
            to: seeded.last,
        },
        tags: false,
        popularity: false,
    };
    let (r50, r95, rows) = timed(args.iterations, || async {
        Ok(entity_rows(
            db,
            &seeded.engines.reports,
            &seeded.ctx.workspace_id,
            &org,
            &read,
            &cancel,
        )
        .await?)
    })
    .await?;
    // The read's attribute part alone — as the rule reads it (cached while the group's
    // entities are unchanged) and read afresh from the database (what every rule paid before
    // the cache) —, and the evaluation alone over the rows read.
    use searchdeck_common::store::{
        report_entities::{EntityKind, rule_entities},
        report_facts::cache::rule_attributes,
    };
    let mut sorted = campaigns.clone();
    sorted.sort_unstable();
    let (a50, a95, attrs) = timed(args.iterations, || async {
        Ok(rule_attributes(
            db,
            &seeded.engines.reports,
            EntityKind::Keyword,
            org.org_key,
        )
        .await?
        .map_or(0, |a| a.len()))
    })
    .await?;
    let (u50, u95, fresh) = timed(args.iterations, || async {
        Ok(rule_entities(db, EntityKind::Keyword, org.org_key, Some(&sorted)).await?)
    })
    .await?;
    anyhow::ensure!(
        fresh.len() == attrs,
        "{} attributes read, {attrs} cached",
        fresh.len()
    );
    let (c50, c95, conditions) = timed(args.iterations, || async {
        Ok(rule_run::evaluate_rows(
            &subject,
            (from, seeded.last),
            &rows,
            &mut Default::default(),
            &mut Default::default(),
        ))
    })
    .await?;
    anyhow::ensure!(
        conditions == evaluated,
        "the evaluation over the rows read differs from the whole one"
    );
    anyhow::ensure!(
        rows.len() as i64 == args.keywords,
        "{} rows read",
        rows.len()
    );
    let body = ReportBody {
        level: Some("KEYWORDS".into()),
        start_date: Some(from.to_string()),
        end_date: Some(seeded.last.to_string()),
        sort: Some(SortIn {
            field: "localSpend".into(),
            order: Some("desc".into()),
        }),
        page: Some(1),
        page_size: Some(50),
        ..ReportBody::default()
    };
    let query = body
        .parse()
        .map_err(|e| anyhow::anyhow!("the report query: {e:?}"))?;
    let (q50, q95, report) = timed(args.iterations, || async {
        Ok(
            run_staged(db, &seeded.engines.reports, &seeded.ctx, &query, &cancel)
                .await?
                .0,
        )
    })
    .await?;
    anyhow::ensure!(
        report.total as i64 == args.keywords,
        "the report has {} rows",
        report.total
    );
    let planned = evaluated
        .items
        .iter()
        .filter(|i| i.result == "PLANNED")
        .count();
    let rows_read = rows.len();
    for (name, p50, p95, extra) in [
        (
            "rule_evaluate_30d",
            e50,
            e95,
            json!({"matched": evaluated.matched, "planned": planned}),
        ),
        ("entity_rows_30d", r50, r95, json!({"rows": rows_read})),
        ("rule_attributes_30d", a50, a95, json!({"rows": attrs})),
        (
            "rule_attributes_uncached",
            u50,
            u95,
            json!({"rows": fresh.len()}),
        ),
        (
            "rule_conditions_30d",
            c50,
            c95,
            json!({"items": conditions.items.len()}),
        ),
        (
            "report_keywords_30d",
            q50,
            q95,
            json!({"total": report.total}),
        ),
    ] {
        let line = json!({
            "backend": backend, "case": name, "keywords": args.keywords,
            "p50_ms": (p50 * 10.0).round() / 10.0, "p95_ms": (p95 * 10.0).round() / 10.0,
            "detail": extra,
        });
        if args.json {
            println!("{line}");
        } else {
            say(&format!(
                "{name:<22} p50 {p50:>7.1} ms  p95 {p95:>7.1} ms  {extra}"
            ));
        }
        out.push(line);
    }
    let ratio = e95 / q95;
    if args.json {
        println!(
            "{}",
            json!({"backend": backend, "case": "ratio_rule_to_report_p95", "ratio": (ratio * 100.0).round() / 100.0})
        );
    } else {
        say(&format!(
            "rule / report p95: {ratio:.2}× (target: the rule ≤ 200 ms: {})",
            if e95 <= 200.0 { "met" } else { "NOT met" }
        ));
    }
    Ok(out)
}

/// Runs the benchmark: the parts `args.part` names, each on SQLite and (with
/// `--database-url`) PostgreSQL.
pub async fn run_bench(args: RulesBenchArgs) -> anyhow::Result<()> {
    let args = &args;
    let scratch = crate::scratch::Scratch {
        name: args
            .keep
            .clone()
            .unwrap_or_else(|| format!("rules_{}", std::process::id())),
        sqlite: !args.no_sqlite,
        postgres: args.database_url.as_deref(),
        keep: args.keep.is_some(),
        quiet: args.json,
    };
    // The scheduled part's databases are its own and never kept: its rules must be the only
    // ones scheduled.
    let own = crate::scratch::Scratch {
        name: format!("rules_scheduled_{}", std::process::id()),
        keep: false,
        ..scratch
    };
    if args.part != Part::Scheduled {
        anyhow::ensure!(
            args.days >= 30,
            "--days must be at least 30 (the rule's window)"
        );
        crate::scratch::each_backend(&scratch, |backend, db| async move {
            bench_backend(backend, &db, args).await
        })
        .await?;
    }
    if args.part != Part::Evaluate {
        crate::scratch::each_backend(&own, |backend, db| async move {
            scheduled::run(backend, &db, &args.scheduled, args.json).await
        })
        .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole benchmark at a tiny scale, on SQLite and on PostgreSQL when configured: the
    /// rule reads every keyword over its 30-day window and the report agrees on the count.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn runs_and_checks_itself_at_a_small_scale() {
        run_bench(RulesBenchArgs {
            part: Part::Evaluate,
            scheduled: Default::default(),
            database_url: searchdeck_common::test_support::backend_url("TEST_DATABASE_URL"),
            keywords: 300,
            days: 35,
            iterations: 1,
            no_sqlite: false,
            json: true,
            keep: None,
        })
        .await
        .unwrap();
    }

    /// The scheduled part at a small scale (12 rules over 3 ad accounts at 4 requests per
    /// second each), on SQLite and on PostgreSQL when configured: the scheduler enqueues
    /// every rule, the workers run each to `DONE` with every matched ad group raised at the
    /// sandbox. Its figures (429s, the limiter's use) are printed, not asserted: they are
    /// timings, which a shared test machine stretches.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn scheduled_rules_run_within_the_limits_at_a_small_scale() {
        run_bench(RulesBenchArgs {
            part: Part::Scheduled,
            scheduled: scheduled::ScheduledArgs {
                rules: 12,
                accounts: 3,
                requests_per_second: 4,
                concurrency: 16,
                timeout_seconds: 300,
            },
            database_url: searchdeck_common::test_support::backend_url("TEST_DATABASE_URL"),
            keywords: 0,
            days: 0,
            iterations: 1,
            no_sqlite: false,
            json: false,
            keep: None,
        })
        .await
        .unwrap();
    }
}
