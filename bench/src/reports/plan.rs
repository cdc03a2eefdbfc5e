//! `plan_standing`: the plan gate of a free workspace (`plan::standing`, which reads last
//! month's spend) timed with the spend memo emptied before each call and with it kept, both
//! answering the same.

use std::time::{Duration, Instant};

use time::Duration as Days;

use searchdeck_common::{Db, Engines, ids::now_ms, plan, store};

use super::seed::Seeded;
use super::{ReportsBenchArgs, percentile};

/// Times `plan::standing` of the seeded free workspace with the spend memo emptied before
/// each call and kept (module docs, `plan_standing`), and checks both answer the same.
pub(super) async fn bench_plan(
    backend: &str,
    db: &Db,
    seeded: &Seeded,
    args: &ReportsBenchArgs,
) -> anyhow::Result<()> {
    let org = seeded.ctx.org.as_ref().expect("seeded org");
    // The connection's campaign group as the ORGS report lists it (a kept database seeded
    // before this step has only the synced group).
    let listed = store::accounts::OrgRow {
        org_id: org.org_id,
        display_name: "Bench".into(),
        currency: Some("USD".into()),
        time_zone: Some("UTC".into()),
        permission: "ADMIN".into(),
        selected: true,
    };
    store::accounts::upsert_org(&db.pool, &seeded.ctx.account_id, &listed, now_ms()).await?;
    // Ten days after the last seeded day: last month lies within the seeded days.
    let now = (seeded.last + Days::days(10))
        .midnight()
        .assume_utc()
        .unix_timestamp()
        * 1000;
    let workspace = seeded.ctx.workspace_id.as_str();
    let mut answers = Vec::new();
    let runs = args.iterations + 2;
    let mut uncached = time_standing(
        db,
        &seeded.engines,
        workspace,
        now,
        true,
        runs,
        &mut answers,
    )
    .await?;
    let mut memoised = time_standing(
        db,
        &seeded.engines,
        workspace,
        now,
        false,
        runs,
        &mut answers,
    )
    .await?;
    anyhow::ensure!(
        answers.windows(2).all(|w| w[0] == w[1]),
        "plan_standing: the memo answered otherwise than the reports: {answers:?}"
    );
    let (p50, p95) = (
        percentile(&mut memoised, 0.5),
        percentile(&mut memoised, 0.95),
    );
    let (uncached_p50, uncached_p95) = (
        percentile(&mut uncached, 0.5),
        percentile(&mut uncached, 0.95),
    );
    if args.json {
        println!(
            "{}",
            serde_json::json!({"backend": backend, "query": "plan_standing", "p50_ms": (p50 * 1000.0).round() / 1000.0, "p95_ms": (p95 * 1000.0).round() / 1000.0, "naive_p95_ms": (uncached_p95 * 1000.0).round() / 1000.0})
        );
    } else {
        println!(
            "[{backend}] {:<24} spend ${}  memoised p50 {:>7.3} ms  p95 {:>7.3} ms  without the memo p50 {:>7.1} ms  p95 {:>7.1} ms  ({:.1}x faster)",
            "plan_standing",
            answers.first().map(|a| a.1.as_str()).unwrap_or_default(),
            p50,
            p95,
            uncached_p50,
            uncached_p95,
            uncached_p95 / p95
        );
    }
    Ok(())
}

/// `runs` timed calls of `plan::standing` (the first two not kept), the memo emptied
/// before each when `clear`; each answer's plan and spend pushed to `answers`.
async fn time_standing(
    db: &Db,
    engines: &Engines,
    workspace: &str,
    now: i64,
    clear: bool,
    runs: usize,
    answers: &mut Vec<(plan::Plan, String)>,
) -> anyhow::Result<Vec<Duration>> {
    let mut samples = Vec::new();
    for i in 0..runs {
        if clear {
            engines.spend.clear();
        }
        let started = Instant::now();
        let standing = engines
            .standing(db, workspace, now)
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        if i >= 2 {
            samples.push(started.elapsed());
        }
        answers.push((standing.plan, standing.spend_usd.to_string()));
    }
    Ok(samples)
}
