//! The seeded campaign group: one account with `--keywords` keywords in ad groups of 100
//! and campaigns of ten ad groups, and `--days` days of deterministic daily counters per
//! keyword and campaign, written as the sync writes them (the newest days first, the oldest
//! 90 later as backfilled history, the last 30 restated) with each day-blob refresh timed.
//! A `--keep` database seeded before is reused when it holds the same group.

use std::time::Instant;

use anyhow::Context as _;
use time::{Date, Duration as Days};

use searchdeck_common::{
    Db, Engines,
    ids::{new_id, now_ms},
    plan::Plan,
    report::Context,
    store::{
        self,
        report_facts::{self, Counters, DayRow, FactLevel},
    },
};

use super::ReportsBenchArgs;

pub(crate) const KEYWORDS_PER_GROUP: i64 = 100;
pub(crate) const GROUPS_PER_CAMPAIGN: i64 = 10;

/// A deterministic pseudo-random number from a few integers.
pub(crate) fn mix(a: i64, b: i64, c: i64) -> u64 {
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
pub(super) fn last_day() -> Date {
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

/// Seeds a fresh database (module docs), reporting progress through `say`.
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
