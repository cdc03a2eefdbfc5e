//! The report part of `bench attribution`: the KEYWORDS report over the seeded group's last
//! 30 days (page of 50 by spend) with the Conversions and Cohort columns, beside the same
//! report with the plan's columns locked (nothing of attribution read: the baseline);
//! sorted by ROAS (every row's conversions read before the sort); CAMPAIGNS with them. Each
//! is checked against the facts (the page's tracked installs, the totals' revenue).

use std::time::Instant;

use time::Duration as Days;

use searchdeck_common::{
    Db,
    attribution::INSTALL_EVENT,
    report::{Cancel, Context, ReportBody, SortIn, catalog::ColumnAccess, run},
    store::report_facts::FactLevel,
};

use super::AttributionBenchArgs;
use crate::reports::{Seeded, percentile};

/// One timed report: its p50 and p95 (ms).
pub(super) struct Timed {
    pub(super) name: &'static str,
    pub(super) p50: f64,
    pub(super) p95: f64,
    /// The same report without attribution (the plan's lock), when it has a baseline.
    pub(super) baseline_p95: Option<f64>,
}

fn body(level: &str, seeded: &Seeded, sort: &str) -> ReportBody {
    ReportBody {
        level: Some(level.into()),
        start_date: Some((seeded.last - Days::days(29)).to_string()),
        end_date: Some(seeded.last.to_string()),
        sort: Some(SortIn {
            field: sort.into(),
            order: Some("desc".into()),
        }),
        page: Some(1),
        page_size: Some(50),
        ..ReportBody::default()
    }
}

async fn time(
    db: &Db,
    seeded: &Seeded,
    ctx: &Context,
    body: &ReportBody,
    iterations: usize,
) -> anyhow::Result<(f64, f64, serde_json::Value)> {
    let q = body
        .parse()
        .map_err(|e| anyhow::anyhow!("bench query invalid: {e:?}"))?;
    let mut samples = Vec::new();
    let mut last = serde_json::Value::Null;
    for i in 0..iterations + 2 {
        let started = Instant::now();
        let r = run(db, &seeded.engines.reports, ctx, &q, &Cancel::new())
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        if i >= 2 {
            samples.push(started.elapsed());
        }
        last = serde_json::json!({"items": r.items, "totals": r.totals});
    }
    Ok((
        percentile(&mut samples, 0.5),
        percentile(&mut samples, 0.95),
        last,
    ))
}

/// The facts' tracked installs of the seeded keywords over the report's range (the check).
async fn tracked_installs(db: &Db, seeded: &Seeded) -> anyhow::Result<i64> {
    let from = (seeded.last - Days::days(29)).to_string();
    let n: Option<i64> = sqlx::query_scalar(
        "SELECT CAST(SUM(events) AS BIGINT) FROM attribution_facts WHERE workspace_id = $1 \
         AND level = $4 AND event_name = $5 AND install_day >= $2 AND install_day <= $3",
    )
    .bind(&seeded.ctx.workspace_id)
    .bind(from)
    .bind(seeded.last.to_string())
    .bind(FactLevel::Keyword.code())
    .bind(INSTALL_EVENT)
    .fetch_one(&db.pool)
    .await?;
    Ok(n.unwrap_or(0))
}

/// Times the report cases on `db`.
pub(super) async fn bench_reports(
    db: &Db,
    seeded: &Seeded,
    args: &AttributionBenchArgs,
) -> anyhow::Result<Vec<Timed>> {
    let with = Context {
        columns: ColumnAccess::ALL,
        ..seeded.ctx.clone()
    };
    let without = Context {
        columns: ColumnAccess {
            growth: true,
            conversions: false,
        },
        ..seeded.ctx.clone()
    };
    let n = args.iterations;
    let mut out = Vec::new();
    let spend = body("KEYWORDS", seeded, "localSpend");
    let (b50, b95, plain) = time(db, seeded, &without, &spend, n).await?;
    let (p50, p95, answered) = time(db, seeded, &with, &spend, n).await?;
    anyhow::ensure!(
        plain["totals"]
            .get("trackedInstalls")
            .is_none_or(serde_json::Value::is_null),
        "the baseline read no attribution"
    );
    let want = tracked_installs(db, seeded).await?;
    anyhow::ensure!(
        answered["totals"]["trackedInstalls"].as_i64() == Some(want),
        "the KEYWORDS totals' tracked installs are {} where the facts hold {want}",
        answered["totals"]["trackedInstalls"]
    );
    let _ = (b50, plain);
    out.push(Timed {
        name: "keywords_30d_conversions",
        p50,
        p95,
        baseline_p95: Some(b95),
    });
    let roas = body("KEYWORDS", seeded, "roas");
    let (p50, p95, sorted) = time(db, seeded, &with, &roas, n).await?;
    let first = sorted["items"][0]["roas"].as_f64().unwrap_or(0.0);
    let second = sorted["items"][1]["roas"].as_f64().unwrap_or(0.0);
    anyhow::ensure!(
        first >= second && first > 0.0,
        "sorted by ROAS: {first} then {second}"
    );
    out.push(Timed {
        name: "keywords_30d_sort_roas",
        p50,
        p95,
        baseline_p95: Some(b95),
    });
    let campaigns = body("CAMPAIGNS", seeded, "localSpend");
    let (b50, b95, _) = time(db, seeded, &without, &campaigns, n).await?;
    let (p50, p95, answered) = time(db, seeded, &with, &campaigns, n).await?;
    let _ = b50;
    anyhow::ensure!(
        answered["totals"]["trackedInstalls"].as_i64().unwrap_or(0) >= want,
        "campaigns hold every keyword's installs"
    );
    out.push(Timed {
        name: "campaigns_30d_conversions",
        p50,
        p95,
        baseline_p95: Some(b95),
    });
    Ok(out)
}
