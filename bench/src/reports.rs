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

use std::time::{Duration, Instant};

use anyhow::Context as _;
use clap::Args;
use time::{Date, Duration as Days};

use searchdeck_common::{
    Db,
    ids::{new_id, now_ms},
    plan,
    store::{
        self,
        report_entities::SyncOrg,
        report_facts::{self, Counters, DayRow, FactLevel, Scope},
    },
};
use searchdeck_common::{
    Engines,
    plan::Plan,
    report::{Cancel, Context, ReportBody, SortIn, run_staged},
};

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
fn keep_name(s: &str) -> Result<String, String> {
    if !s.is_empty() && s.len() <= 40 && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        Ok(s.to_ascii_lowercase())
    } else {
        Err("letters, digits and _ only (at most 40)".into())
    }
}

const KEYWORDS_PER_GROUP: i64 = 100;
const GROUPS_PER_CAMPAIGN: i64 = 10;

/// A deterministic pseudo-random number from a few integers.
fn mix(a: i64, b: i64, c: i64) -> u64 {
    let mut x = (a as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (b as u64).rotate_left(21)
        ^ (c as u64).rotate_left(42);
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x
}

/// Keyword `k`'s counters on day index `d`.
fn keyword_day(k: i64, d: i64) -> Counters {
    let r = mix(k, d, 7);
    let impressions = (r % 400) as i64 + (k % 50);
    let taps = impressions * ((r >> 12) % 9) as i64 / 100;
    let tap_installs = taps * ((r >> 20) % 6) as i64 / 10;
    let view_installs = ((r >> 28) % 3) as i64;
    Counters([
        impressions,
        taps,
        tap_installs,
        view_installs,
        tap_installs / 2,
        tap_installs - tap_installs / 2,
        view_installs / 2,
        view_installs - view_installs / 2,
        0,
        0,
        taps * (500_000 + ((r >> 36) % 2_000_000) as i64),
    ])
}

/// Days the benchmark writes after the others, as history backfilled before them.
const BACKFILL_DAYS: i64 = 90;

/// Every keyword's and campaign's raw rows of day index `d` (`salt` varies the figures, as a
/// restatement does).
fn day_rows(
    org_key: i64,
    keywords: i64,
    campaigns: i64,
    first: Date,
    d: i64,
    salt: i64,
) -> Vec<DayRow> {
    let day = first + Days::days(d);
    let mut rows = Vec::with_capacity(keywords as usize);
    let mut campaign_sums: Vec<Counters> = vec![Counters::default(); campaigns as usize];
    for k in 0..keywords {
        let g = k / KEYWORDS_PER_GROUP;
        let c = g / GROUPS_PER_CAMPAIGN;
        let counters = keyword_day(k, d + salt * 1_000);
        campaign_sums[c as usize].add(&counters);
        rows.push(DayRow {
            org_key,
            level: FactLevel::Keyword,
            day,
            entity_id: 10_000_000 + k,
            campaign_id: 1_000 + c,
            ad_group_id: 100_000 + g,
            counters,
        });
    }
    rows.extend(
        campaign_sums
            .into_iter()
            .enumerate()
            .map(|(c, counters)| DayRow {
                org_key,
                level: FactLevel::Campaign,
                day,
                entity_id: 1_000 + c as i64,
                campaign_id: 1_000 + c as i64,
                ad_group_id: 0,
                counters,
            }),
    );
    rows
}

/// A seeded campaign group (shared with `bench rules`).
pub(crate) struct Seeded {
    pub(crate) ctx: Context,
    /// The engines' caches the benchmark's reads go through (one process's).
    pub(crate) engines: Engines,
    pub(crate) last: Date,
    pub(crate) raw_rows: i64,
}

/// The last seeded day (the first is `--days` before it).
fn last_day() -> Date {
    Date::from_calendar_date(2026, time::Month::November, 20).expect("a valid date")
}

/// The campaign group a kept database was seeded with, when it holds one (`--keep`). Errs
/// when it was seeded with other `--keywords` / `--days` or its blobs are incomplete.
pub(crate) async fn seeded_before(
    db: &Db,
    args: &ReportsBenchArgs,
) -> anyhow::Result<Option<Seeded>> {
    let account: Option<(String, String)> =
        sqlx::query_as("SELECT id, workspace_id FROM accounts WHERE client_id = 'bench' LIMIT 1")
            .fetch_optional(&db.pool)
            .await?;
    let Some((account_id, workspace_id)) = account else {
        return Ok(None);
    };
    let org = store::report_entities::sync_org_of(&db.pool, &account_id, 1)
        .await?
        .context("the kept database has the bench account but not its campaign group")?;
    let keywords: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM asa_keywords WHERE org_key = $1")
        .bind(org.org_key)
        .fetch_one(&db.pool)
        .await?;
    let raw_rows: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM asa_day_metrics WHERE org_key = $1")
            .bind(org.org_key)
            .fetch_one(&db.pool)
            .await?;
    let last = last_day();
    let first = last - Days::days(args.days - 1);
    let bounds = report_facts::sums_bounds(db, org.org_key, FactLevel::Keyword).await?;
    anyhow::ensure!(
        keywords == args.keywords && bounds == Some((first, last)),
        "the kept database holds {keywords} keywords with day blobs over {bounds:?}, not \
         {} keywords over {first}..{last}: drop it or choose another --keep name",
        args.keywords
    );
    Ok(Some(Seeded {
        ctx: Context {
            workspace_id,
            account_id,
            org: Some(org),
            columns: Plan::ProFree.columns(),
        },
        engines: Engines::default(),
        last,
        raw_rows,
    }))
}

pub(crate) async fn seed(
    db: &Db,
    args: &ReportsBenchArgs,
    say: &dyn Fn(&str),
) -> anyhow::Result<Seeded> {
    let now = now_ms();
    let (user_id, workspace_id, account_id) = (new_id(), new_id(), new_id());
    store::users::insert(
        &db.pool,
        store::users::NewUser {
            id: &user_id,
            email: &format!("{user_id}@bench.invalid"),
            password_hash: "-",
            full_name: "Bench",
            source: "bench",
            now,
        },
    )
    .await?;
    store::workspaces::insert(&db.pool, &workspace_id, "Bench", now).await?;
    store::workspaces::add_member(&db.pool, &workspace_id, &user_id, "owner", now).await?;
    let account_id = store::accounts::upsert(
        &db.pool,
        store::accounts::NewAccount {
            name: "Bench",
            ..store::accounts::NewAccount::without_credentials(
                &account_id,
                &workspace_id,
                &user_id,
                "bench",
                now,
            )
        },
    )
    .await?;
    let org_key =
        store::synced::ensure_org(&db.pool, &account_id, 1, Some("USD"), Some("UTC")).await?;
    let groups = (args.keywords + KEYWORDS_PER_GROUP - 1) / KEYWORDS_PER_GROUP;
    let campaigns = (groups + GROUPS_PER_CAMPAIGN - 1) / GROUPS_PER_CAMPAIGN;
    say(&format!(
        "seeding {campaigns} campaigns, {groups} ad groups, {} keywords",
        args.keywords
    ));
    let mut tx = db.pool.begin().await?;
    for c in 0..campaigns {
        sqlx::query("INSERT INTO asa_campaigns (org_key, id, name, status, display_status, synced_at) VALUES ($1, $2, $3, 'ENABLED', 'RUNNING', $4)")
            .bind(org_key).bind(1_000 + c).bind(format!("Campaign {c}")).bind(now).execute(&mut *tx).await?;
    }
    for g in 0..groups {
        sqlx::query("INSERT INTO asa_ad_groups (org_key, id, campaign_id, name, status, synced_at) VALUES ($1, $2, $3, $4, 'ENABLED', $5)")
            .bind(org_key).bind(100_000 + g).bind(1_000 + g / GROUPS_PER_CAMPAIGN).bind(format!("Group {g}")).bind(now).execute(&mut *tx).await?;
    }
    for k in 0..args.keywords {
        let g = k / KEYWORDS_PER_GROUP;
        sqlx::query("INSERT INTO asa_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, bid_micros, synced_at) VALUES ($1, $2, $3, $4, $5, 'EXACT', 'ACTIVE', 1000000, $6)")
            .bind(org_key).bind(10_000_000 + k).bind(1_000 + g / GROUPS_PER_CAMPAIGN).bind(100_000 + g).bind(format!("keyword {k}")).bind(now).execute(&mut *tx).await?;
    }
    store::synced::entities_changed(&mut *tx, org_key).await?;
    tx.commit().await?;
    let last = last_day();
    let first = last - Days::days(args.days - 1);
    let started = Instant::now();
    let mut raw_rows = 0;
    // The newest days first; the oldest BACKFILL_DAYS later, as history fetched backwards.
    let backfill = if args.days > BACKFILL_DAYS + 30 {
        BACKFILL_DAYS
    } else {
        0
    };
    let write_days = |days: std::ops::Range<i64>, salt: i64| async move {
        let mut written = 0;
        for d in days {
            written += report_facts::insert_days(
                db,
                &day_rows(org_key, args.keywords, campaigns, first, d, salt),
            )
            .await? as i64;
            if d % 30 == 29 {
                say(&format!(
                    "  day {} of {} written ({:.0} s)",
                    d + 1,
                    args.days,
                    started.elapsed().as_secs_f64()
                ));
            }
        }
        anyhow::Ok(written)
    };
    raw_rows += write_days(backfill..args.days, 0).await?;
    say(&format!(
        "raw rows written in {:.0} s; building the day blobs",
        started.elapsed().as_secs_f64()
    ));
    let mut refresh_costs = Vec::new();
    let refresh = |from: Date| async move {
        let t = Instant::now();
        report_facts::refresh(db, org_key, FactLevel::Campaign, from).await?;
        let done = report_facts::refresh(db, org_key, FactLevel::Keyword, from).await?;
        anyhow::Ok((t.elapsed(), done.blobs))
    };
    let (took, blobs) = refresh(first).await?;
    refresh_costs.push((format!("build {} days", args.days - backfill), took, blobs));
    if backfill > 0 {
        raw_rows += write_days(0..backfill, 0).await?;
        let (took, blobs) = refresh(last - Days::days(29)).await?;
        refresh_costs.push((format!("backfill {backfill} older days"), took, blobs));
    }
    // Apple restates the trailing 30 days: rewrite them with other figures and back.
    for salt in [1, 0] {
        write_days(args.days - 30..args.days, salt).await?;
        let (took, blobs) = refresh(last - Days::days(29)).await?;
        if salt == 0 {
            refresh_costs.push(("restate the last 30 days".into(), took, blobs));
        }
    }
    for (what, took, blobs) in &refresh_costs {
        say(&format!(
            "refresh, {what}: {:.2} s ({blobs} blobs written, both levels)",
            took.as_secs_f64()
        ));
    }
    let org = store::report_entities::sync_org_of(&db.pool, &account_id, 1)
        .await?
        .context("the seeded org")?;
    Ok(Seeded {
        ctx: Context {
            workspace_id,
            account_id,
            org: Some(org),
            columns: Plan::ProFree.columns(),
        },
        engines: Engines::default(),
        last,
        raw_rows,
    })
}

pub(crate) fn percentile(samples: &mut [Duration], p: f64) -> f64 {
    samples.sort();
    let i = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples[i].as_secs_f64() * 1000.0
}

/// One timed query.
struct Case {
    name: &'static str,
    body: ReportBody,
    naive_level: FactLevel,
    from: Date,
    to: Date,
}

fn cases(last: Date) -> Vec<Case> {
    let day = |d: Date| d.to_string();
    let d30 = last - Days::days(29);
    let (c_from, c_to) = (last - Days::days(200), last - Days::days(111));
    let spend = Some(SortIn {
        field: "localSpend".into(),
        order: Some("desc".into()),
    });
    let keywords = |from: Date, filters: Vec<searchdeck_common::report::FilterIn>| ReportBody {
        level: Some("KEYWORDS".into()),
        start_date: Some(day(from)),
        end_date: Some(day(last.min(if from == c_from { c_to } else { last }))),
        filters,
        sort: spend.clone(),
        page: Some(1),
        page_size: Some(50),
        ..ReportBody::default()
    };
    let taps = searchdeck_common::report::FilterIn {
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
async fn sizes(db: &Db) -> anyhow::Result<(i64, i64)> {
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
    let org: &SyncOrg = seeded.ctx.org.as_ref().expect("seeded org");
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
            let (r, stages) =
                run_staged(db, &seeded.engines.reports, &seeded.ctx, &q, &Cancel::new())
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
    }
    bench_plan(backend, db, &seeded, args).await?;
    if args.write_rows > 0 {
        bench_writes(backend, db, &seeded.ctx.account_id, args).await?;
    }
    Ok(())
}

/// Times `plan::standing` of the seeded free workspace with the spend memo emptied before
/// each call and kept (module docs, `plan_standing`), and checks both answer the same.
async fn bench_plan(
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

/// Times `replace_days` against its baseline (module docs, `store_rows`) and checks both
/// store the same rows.
async fn bench_writes(
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
