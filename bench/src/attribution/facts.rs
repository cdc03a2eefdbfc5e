//! The attributed conversions of the seeded campaign group (`bench reports`' world): on each
//! day, `--install-share` percent of the keywords get one to three tracked installs (Adjust,
//! app 900), a third of those a purchase 0–30 days later with revenue, written straight into
//! the facts at the keyword and campaign levels as the ingest sums them (not timed). A
//! `--keep` database that holds them already is left as it is.

use time::{Date, Duration as Days};

use searchdeck_common::{Db, attribution::INSTALL_EVENT, store::report_facts::FactLevel};

use crate::reports::{GROUPS_PER_CAMPAIGN, KEYWORDS_PER_GROUP, Seeded, mix};

/// Rows per multi-row `INSERT` (8 binds each, under both backends' limits).
const BATCH: usize = 1_000;

/// One fact row: (level, entity, install day, event name, age, events, revenue micros).
type Row = (i64, i64, String, &'static str, i64, i64, i64);

/// The campaign of keyword index `k` (the seed's layout).
fn campaign_of(k: i64) -> i64 {
    1_000 + k / KEYWORDS_PER_GROUP / GROUPS_PER_CAMPAIGN
}

/// The facts of day index `d` (the first seeded day `first` + `d`) at the keyword level,
/// and their sums per campaign.
fn day_rows(keywords: i64, share: i64, first: Date, d: i64) -> Vec<Row> {
    let day = (first + Days::days(d)).to_string();
    let mut keyword_rows = Vec::new();
    let mut campaigns: std::collections::BTreeMap<(i64, &'static str, i64), (i64, i64)> =
        Default::default();
    for k in 0..keywords {
        let m = mix(k, d, 44);
        if (m % 100) as i64 >= share {
            continue;
        }
        let installs = 1 + (m >> 8) as i64 % 3;
        let mut add = |event: &'static str, age: i64, events: i64, revenue: i64| {
            keyword_rows.push((
                FactLevel::Keyword.code(),
                10_000_000 + k,
                day.clone(),
                event,
                age,
                events,
                revenue,
            ));
            let c = campaigns.entry((campaign_of(k), event, age)).or_default();
            c.0 += events;
            c.1 += revenue;
        };
        add(INSTALL_EVENT, 0, installs, 0);
        if (m >> 16).is_multiple_of(3) {
            let age = ((m >> 24) % 31) as i64;
            let revenue = 990_000 + ((m >> 32) % 50) as i64 * 1_000_000;
            add("purchase", age, 1, revenue);
        }
    }
    let mut rows = keyword_rows;
    rows.extend(
        campaigns
            .into_iter()
            .map(|((c, event, age), (events, revenue))| {
                (
                    FactLevel::Campaign.code(),
                    c,
                    day.clone(),
                    event,
                    age,
                    events,
                    revenue,
                )
            }),
    );
    rows
}

/// Writes the facts of every seeded day for the seeded workspace unless it has some;
/// answers the keyword-level rows written (0 when kept).
pub(super) async fn seed_facts(
    db: &Db,
    seeded: &Seeded,
    keywords: i64,
    days: i64,
    share: i64,
) -> anyhow::Result<i64> {
    let workspace = &seeded.ctx.workspace_id;
    let have: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM attribution_facts WHERE workspace_id = $1")
            .bind(workspace)
            .fetch_one(&db.pool)
            .await?;
    if have > 0 {
        return Ok(0);
    }
    let first = seeded.last - Days::days(days - 1);
    let mut written = 0;
    for d in 0..days {
        let rows = day_rows(keywords, share, first, d);
        written += rows
            .iter()
            .filter(|r| r.0 == FactLevel::Keyword.code())
            .count() as i64;
        let mut tx = db.pool.begin().await?;
        for chunk in rows.chunks(BATCH) {
            let values: Vec<String> = (0..chunk.len())
                .map(|i| {
                    let b = i * 8;
                    format!(
                        "($1, ${}, ${}, ${}, 'adjust', 900, ${}, ${}, 'Click', '', ${}, ${}, ${})",
                        b + 2,
                        b + 3,
                        b + 4,
                        b + 5,
                        b + 6,
                        b + 7,
                        b + 8,
                        b + 9
                    )
                })
                .collect();
            let sql = format!(
                "INSERT INTO attribution_facts (workspace_id, level, entity_id, install_day, \
                   provider, adam_id, event_name, age_days, claim_type, placement, currency, \
                   events, revenue_micros) VALUES {}",
                values.join(", ")
            );
            let mut q = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(workspace);
            for (level, entity, day, event, age, events, revenue) in chunk {
                q = q
                    .bind(*level)
                    .bind(*entity)
                    .bind(day.as_str())
                    .bind(*event)
                    .bind(*age)
                    // Installs carry no money.
                    .bind(if *revenue == 0 { "" } else { "USD" })
                    .bind(*events)
                    .bind(*revenue);
            }
            q.execute(&mut *tx).await?;
        }
        tx.commit().await?;
    }
    // The names as the ingest records them: a purchase counts as a purchase and revenue.
    sqlx::query(
        "INSERT INTO attribution_event_names (workspace_id, provider, adam_id, event_name, \
           is_trial, is_purchase, is_revenue, events, first_seen_at, last_seen_at) \
         VALUES ($1, 'adjust', 900, 'purchase', 0, 1, 1, 1, 0, 0)",
    )
    .bind(workspace)
    .execute(&db.pool)
    .await?;
    Ok(written)
}
