//! Part 1 of `searchdeck bench rules` on one backend: the seeded campaign group's rule
//! evaluated over a 30-day window, and beside it the report engine's read for rules, the
//! keywords' attributes cached and read afresh, the conditions alone over the rows read and
//! the report engine's own keyword page, each timed (p50/p95) and checked against the others.

use std::time::Instant;

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

use super::RulesBenchArgs;
use crate::reports::{Seeded, percentile, seeded_group};

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

/// Times part 1 on `db` and prints (and answers) one line per case.
pub(super) async fn bench_backend(
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
    let seeded = seeded_group(
        db,
        args.keywords,
        args.days,
        args.json,
        args.keep.clone(),
        &say,
    )
    .await?;
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
        conversions: None,
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
