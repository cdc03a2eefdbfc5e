//! Daily keyword metrics: the fact rows reports read, synced from Apple Ads and keyed on
//! Apple's integer ids (ad account, campaign, ad group, keyword) and the day.
//!
//! This store needs what the portable `Any` pool cannot give — dates, exact `NUMERIC` sums on
//! PostgreSQL, array binds for one-statement bulk upserts — so it is a trait,
//! [`MetricsStore`], with one implementation per backend over the native pools of
//! [`Db::native`]: [`PgMetrics`] (`UNNEST` upsert, `NUMERIC` sums) and [`SqliteMetrics`]
//! (multi-row `INSERT … ON CONFLICT` in one transaction). [`Db::metrics`] picks the one for
//! the configured database; both pass the same conformance suite.

mod postgres;
mod sqlite;

use std::collections::HashMap;

pub use postgres::PgMetrics;
use rust_decimal::Decimal;
pub use sqlite::SqliteMetrics;
use time::Date;

use crate::db::{Db, Native};

/// One keyword's metrics on one day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeywordDay {
    pub ad_account_id: i64,
    pub day: Date,
    pub campaign_id: i64,
    pub ad_group_id: i64,
    pub keyword_id: i64,
    pub impressions: i64,
    pub taps: i64,
    pub installs: i64,
    /// Spend in micros of the ad account's currency.
    pub spend_micros: i64,
}

/// One keyword's metrics summed over a range of days, exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeywordTotals {
    pub campaign_id: i64,
    pub ad_group_id: i64,
    pub keyword_id: i64,
    pub impressions: i64,
    pub taps: i64,
    pub installs: i64,
    /// Spend in units of the ad account's currency (micros / 1,000,000, exact).
    pub spend: Decimal,
}

/// Storage of daily keyword metrics.
pub trait MetricsStore {
    /// Writes `rows`, replacing the metrics of any (account, day, campaign, ad group,
    /// keyword) already stored; of rows with the same key in one call the last wins. All or
    /// nothing. Returns the number of distinct rows written.
    fn upsert_days(
        &self,
        rows: &[KeywordDay],
    ) -> impl Future<Output = Result<u64, sqlx::Error>> + Send;

    /// Each keyword's sums over the days `from..=to` of one ad account, ordered by
    /// (keyword, campaign, ad group).
    fn sum_range(
        &self,
        ad_account_id: i64,
        from: Date,
        to: Date,
    ) -> impl Future<Output = Result<Vec<KeywordTotals>, sqlx::Error>> + Send;
}

/// The metrics store of the configured backend.
#[derive(Debug, Clone, Copy)]
pub enum Metrics<'a> {
    Sqlite(SqliteMetrics<'a>),
    Postgres(PgMetrics<'a>),
}

impl Db {
    /// The metrics store over this database's native pool.
    pub fn metrics(&self) -> Metrics<'_> {
        match &self.native {
            Native::Sqlite(pool) => Metrics::Sqlite(SqliteMetrics(pool)),
            Native::Postgres(pool) => Metrics::Postgres(PgMetrics(pool)),
        }
    }
}

impl MetricsStore for Metrics<'_> {
    async fn upsert_days(&self, rows: &[KeywordDay]) -> Result<u64, sqlx::Error> {
        match self {
            Metrics::Sqlite(s) => s.upsert_days(rows).await,
            Metrics::Postgres(s) => s.upsert_days(rows).await,
        }
    }

    async fn sum_range(
        &self,
        ad_account_id: i64,
        from: Date,
        to: Date,
    ) -> Result<Vec<KeywordTotals>, sqlx::Error> {
        match self {
            Metrics::Sqlite(s) => s.sum_range(ad_account_id, from, to).await,
            Metrics::Postgres(s) => s.sum_range(ad_account_id, from, to).await,
        }
    }
}

/// `rows` with only the last of each key, in first-seen order (a statement may not touch
/// one row twice).
fn last_per_key(rows: &[KeywordDay]) -> Vec<&KeywordDay> {
    let mut at: HashMap<(i64, Date, i64, i64, i64), usize> = HashMap::new();
    let mut out: Vec<&KeywordDay> = Vec::with_capacity(rows.len());
    for row in rows {
        let key = (
            row.ad_account_id,
            row.day,
            row.campaign_id,
            row.ad_group_id,
            row.keyword_id,
        );
        match at.get(&key) {
            Some(&i) => out[i] = row,
            None => {
                at.insert(key, out.len());
                out.push(row);
            }
        }
    }
    out
}

/// Micros as currency units, exactly.
fn units(micros: Decimal) -> Decimal {
    (micros / Decimal::from(1_000_000)).normalize()
}

/// An exact sum that must fit an i64.
fn count(sum: Decimal) -> Result<i64, sqlx::Error> {
    i64::try_from(sum)
        .map_err(|e| sqlx::Error::Decode(format!("sum {sum} out of range: {e}").into()))
}

/// The SELECT both backends run for [`MetricsStore::sum_range`].
const SUM_RANGE: &str = "SELECT campaign_id, ad_group_id, keyword_id, SUM(impressions) AS impressions, \
     SUM(taps) AS taps, SUM(installs) AS installs, SUM(spend_micros) AS spend_micros \
     FROM keyword_day_metrics WHERE ad_account_id = $1 AND day >= $2 AND day <= $3 \
     GROUP BY keyword_id, campaign_id, ad_group_id ORDER BY keyword_id, campaign_id, ad_group_id";

/// [`MetricsStore::sum_range`] on a native pool whose `SUM`s decode as `S` (`NUMERIC` as
/// `Decimal` on PostgreSQL, `i64` on SQLite).
async fn sum_range_on<DB, S>(
    pool: &sqlx::Pool<DB>,
    ad_account_id: i64,
    from: Date,
    to: Date,
) -> Result<Vec<KeywordTotals>, sqlx::Error>
where
    DB: sqlx::Database,
    for<'c> &'c mut DB::Connection: sqlx::Executor<'c, Database = DB>,
    DB::Arguments: sqlx::IntoArguments<DB>,
    for<'q> i64: sqlx::Encode<'q, DB> + sqlx::Decode<'q, DB> + sqlx::Type<DB>,
    for<'q> Date: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'r> S: sqlx::Decode<'r, DB> + sqlx::Type<DB> + Into<Decimal>,
    for<'r> &'r str: sqlx::ColumnIndex<DB::Row>,
{
    let rows = sqlx::query(SUM_RANGE)
        .bind(ad_account_id)
        .bind(from)
        .bind(to)
        .fetch_all(pool)
        .await?;
    rows.iter().map(totals::<_, S>).collect()
}

/// Totals from a row of [`SUM_RANGE`] whose sums decode as `S`.
fn totals<'r, R, S>(row: &'r R) -> Result<KeywordTotals, sqlx::Error>
where
    R: sqlx::Row,
    S: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database> + Into<Decimal>,
    i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    &'static str: sqlx::ColumnIndex<R>,
{
    let sum = |name: &'static str| row.try_get::<S, _>(name).map(Into::into);
    Ok(KeywordTotals {
        campaign_id: row.try_get("campaign_id")?,
        ad_group_id: row.try_get("ad_group_id")?,
        keyword_id: row.try_get("keyword_id")?,
        impressions: count(sum("impressions")?)?,
        taps: count(sum("taps")?)?,
        installs: count(sum("installs")?)?,
        spend: units(sum("spend_micros")?),
    })
}
