//! Last month's ad spend of a workspace in US dollars, which decides `pro_free` against
//! `pro_limited` (docs/product.md#4-plans, docs/product.md#9-plans-and-trials;
//! docs/api/plans.md "Last month's spend").
//!
//! The month is the previous calendar month (UTC) before the clock's `now`. The report
//! engine answers each connection's campaign groups' spend over it (ORGS totals, each in its
//! group's currency); amounts are converted to US dollars at the stored reference rates
//! (`fx_rates`, the ECB's euro rates) in force on the month's last day, a currency without
//! one there at the newest stored rate, and a currency without any rate is left out and
//! logged. The sum is floored to cents.
//!
//! # The memo
//!
//! Every report, campaigns, totals, fields and estimates request of a free workspace asks
//! the plan, and a free plan depends on this sum, which is a report over every connection.
//! [`last_month_usd`] therefore keeps each workspace's sum in [`Memo`] (one per
//! database, held with the report caches in `engines::Engines`), keyed by the month and by what the sum was
//! read from: the published generation of the campaign-level day blobs of every synced
//! campaign group of the workspace
//! ([`store::report_facts::campaign_generations_of_workspace`]: one indexed query; each
//! refresh after the sync stored new metrics publishes a new generation, in whichever
//! process ran it) and, when a currency was converted, the newest stored rate day. A
//! request then costs that query and a map lookup; a connection added or removed, new
//! synced metrics, a new month or new rates read the sum again.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use rust_decimal::Decimal;
use time::{Date, OffsetDateTime};

use crate::{
    Db,
    fx::RateSet,
    report::{self, Cancel, Context, DateRange, Level, Query, ReportError},
    store,
};

/// The currency the free-plan threshold is in.
pub const USD: &str = "USD";

/// The calendar month before the one holding `now` (ms, UTC).
pub fn last_month(now: i64) -> DateRange {
    let today = OffsetDateTime::from_unix_timestamp_nanos(i128::from(now) * 1_000_000)
        .map_or(Date::MIN, OffsetDateTime::date);
    let first_of_this = today.replace_day(1).unwrap_or(today);
    let to = first_of_this.previous_day().unwrap_or(first_of_this);
    let from = to.replace_day(1).unwrap_or(to);
    DateRange { from, to }
}

/// The sum in US dollars of `amounts` (currency, micros), and the currencies left out for
/// want of a rate: each at `rates`, else at `fallback`.
pub fn sum_usd(
    amounts: &[(Option<String>, i64)],
    rates: &RateSet,
    fallback: &RateSet,
) -> (Decimal, Vec<String>) {
    let mut micros: i128 = 0;
    let mut missing: Vec<String> = Vec::new();
    for (currency, amount) in amounts {
        if *amount == 0 {
            continue;
        }
        let converted = currency.as_deref().and_then(|c| {
            rates
                .convert_micros(*amount, c, USD)
                .or_else(|| fallback.convert_micros(*amount, c, USD))
        });
        match converted {
            Some(m) => micros += i128::from(m),
            None => {
                let code = currency.clone().unwrap_or_else(|| "?".into());
                if !missing.contains(&code) {
                    missing.push(code);
                }
            }
        }
    }
    missing.sort();
    let usd = Decimal::from_i128_with_scale(micros, 6);
    (
        usd.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::ToZero),
        missing,
    )
}

/// The most workspaces a [`Memo`] holds; past it, it starts again empty (an entry is a few
/// dozen bytes, and a miss costs one report of the workspace).
pub const MEMO_ENTRIES: usize = 10_000;

/// What one memoised sum was read from (module docs, "The memo").
#[derive(Debug, Clone, PartialEq, Eq)]
struct MemoKey {
    month: DateRange,
    generations: Vec<(i64, i64)>,
}

#[derive(Debug, Clone)]
struct MemoEntry {
    key: MemoKey,
    /// The newest stored rate day when the sum converted a currency (None: all US dollars,
    /// the rates do not matter).
    rates_day: Option<Option<String>>,
    usd: Decimal,
}

/// Last month's spend per workspace, valid while what it was read from is unchanged
/// (module docs, "The memo"). Cheap to clone: shared.
#[derive(Debug, Clone, Default)]
pub struct Memo {
    entries: Arc<Mutex<HashMap<String, MemoEntry>>>,
    reads: Arc<std::sync::atomic::AtomicU64>,
}

impl Memo {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, MemoEntry>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets every sum (the benchmark's uncached baseline).
    pub fn clear(&self) {
        self.lock().clear();
    }

    /// How many times a sum was read from the reports rather than the memo (tests).
    pub fn reads(&self) -> u64 {
        self.reads.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// Last month's spend of `workspace_id` in US dollars at `now`, from the memo when nothing
/// it was read from changed (module docs, "The memo").
pub async fn last_month_usd(
    db: &Db,
    reports: &report::Caches,
    memo: &Memo,
    workspace_id: &str,
    now: i64,
) -> Result<Decimal, ReportError> {
    let key = MemoKey {
        month: last_month(now),
        generations: store::report_facts::campaign_generations_of_workspace(db, workspace_id)
            .await?,
    };
    let cached = memo.lock().get(workspace_id).cloned();
    if let Some(entry) = cached.filter(|e| e.key == key) {
        let rates_unchanged = match &entry.rates_day {
            None => true,
            Some(day) => *day == store::fx_rates::latest_day(&db.pool).await?,
        };
        if rates_unchanged {
            return Ok(entry.usd);
        }
    }
    memo.reads
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let (usd, rates_day) = read_last_month_usd(db, reports, workspace_id, key.month).await?;
    let mut entries = memo.lock();
    if entries.len() >= MEMO_ENTRIES && !entries.contains_key(workspace_id) {
        entries.clear();
    }
    entries.insert(
        workspace_id.to_string(),
        MemoEntry {
            key,
            rates_day,
            usd,
        },
    );
    Ok(usd)
}

/// Last month's spend of `workspace_id` over `range`, read from the reports, and the newest
/// stored rate day when a currency was converted.
async fn read_last_month_usd(
    db: &Db,
    reports: &report::Caches,
    workspace_id: &str,
    range: DateRange,
) -> Result<(Decimal, Option<Option<String>>), ReportError> {
    let mut amounts = Vec::new();
    for account in store::accounts::all(&db.pool, workspace_id).await? {
        let ctx = Context {
            workspace_id: workspace_id.to_string(),
            account_id: account.id.clone(),
            org: None,
            // Spend is never locked, so what the plan grants does not matter (and asking
            // the plan here would ask this very function).
            columns: report::catalog::ColumnAccess::ALL,
        };
        let q = Query::totals(Level::Orgs, range, Default::default(), Vec::new());
        for row in report::totals(db, reports, &ctx, &q, &Cancel::new()).await? {
            amounts.push((row.currency, row.counters.spend_micros()));
        }
    }
    if amounts
        .iter()
        .all(|(c, m)| *m == 0 || c.as_deref() == Some(USD))
    {
        return Ok((
            sum_usd(&amounts, &RateSet::default(), &RateSet::default()).0,
            None,
        ));
    }
    let rates = store::fx_rates::rate_set(&db.pool, range.to).await?;
    let latest = store::fx_rates::latest_day(&db.pool).await?;
    let fallback = match &latest {
        Some(day) => match Date::parse(
            day,
            time::macros::format_description!("[year]-[month]-[day]"),
        ) {
            Ok(day) => store::fx_rates::rate_set(&db.pool, day).await?,
            Err(_) => RateSet::default(),
        },
        None => RateSet::default(),
    };
    let (usd, missing) = sum_usd(&amounts, &rates, &fallback);
    if !missing.is_empty() {
        tracing::warn!(
            workspace.id = workspace_id,
            ?missing,
            "last month's spend: currencies without a rate left out"
        );
    }
    Ok((usd, Some(latest)))
}

#[cfg(test)]
mod tests {
    use std::{collections::BTreeMap, str::FromStr};

    use time::macros::{date, datetime};

    use super::*;

    fn ms(t: OffsetDateTime) -> i64 {
        (t.unix_timestamp_nanos() / 1_000_000) as i64
    }

    #[test]
    fn last_month_is_the_previous_calendar_month_in_utc() {
        for (now, from, to) in [
            (
                datetime!(2026-03-01 00:00 UTC),
                date!(2026 - 02 - 01),
                date!(2026 - 02 - 28),
            ),
            (
                datetime!(2026-02-28 23:59:59 UTC),
                date!(2026 - 01 - 01),
                date!(2026 - 01 - 31),
            ),
            (
                datetime!(2027-01-15 12:00 UTC),
                date!(2026 - 12 - 01),
                date!(2026 - 12 - 31),
            ),
            (
                datetime!(2028-03-31 23:59 UTC),
                date!(2028 - 02 - 01),
                date!(2028 - 02 - 29),
            ),
        ] {
            assert_eq!(last_month(ms(now)), DateRange { from, to }, "{now}");
        }
    }

    #[test]
    fn amounts_convert_to_dollars_through_the_euro_and_floor_to_cents() {
        let rates = RateSet {
            rates: BTreeMap::from([
                (
                    "USD".to_string(),
                    (Decimal::from_str("1.25").unwrap(), date!(2026 - 02 - 27)),
                ),
                (
                    "JPY".to_string(),
                    (Decimal::from_str("160").unwrap(), date!(2026 - 02 - 27)),
                ),
            ]),
            source: None,
        };
        let mut fallback = rates.clone();
        fallback.rates.insert(
            "GBP".into(),
            (Decimal::from_str("0.8").unwrap(), date!(2026 - 03 - 20)),
        );
        let amounts = vec![
            (Some("USD".to_string()), 5_000_000_000),   // $5,000
            (Some("EUR".to_string()), 2_000_000_000),   // €2,000 = $2,500
            (Some("JPY".to_string()), 320_000_000_000), // ¥320,000 = €2,000 = $2,500
            (Some("GBP".to_string()), 8_000_000),       // £8 = €10 = $12.50 (fallback)
            (Some("XYZ".to_string()), 1_000_000),       // no rate: left out
            (None, 0),
        ];
        let (usd, missing) = sum_usd(&amounts, &rates, &fallback);
        assert_eq!(usd, Decimal::from_str("10012.50").unwrap());
        assert_eq!(missing, ["XYZ"]);
        // Fractions of a cent are floored: exactly at the threshold stays pro_free.
        let (usd, _) = sum_usd(&[(Some("USD".into()), 10_000_009_999)], &rates, &fallback);
        assert_eq!(usd, Decimal::from(10_000));
        let (none, missing) = sum_usd(&[], &RateSet::default(), &RateSet::default());
        assert_eq!((none, missing.len()), (Decimal::ZERO, 0));
    }
}
