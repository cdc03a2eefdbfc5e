//! Daily reference exchange rates (`fx_rates`): written by the `fetch-rates` job from the
//! configured feed, read by reports converted to a reporting currency. Days are ISO dates
//! as text and rates decimal text, so both backends compare and keep them exactly.

use std::str::FromStr;

use rust_decimal::Decimal;
use sqlx::Row;
use time::{Date, macros::format_description};

use super::Exec;
use crate::fx::RateSet;

/// One stored rate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredRate {
    pub day: String,
    pub currency: String,
    /// Units of the currency per euro, as decimal text.
    pub rate: String,
    pub source: String,
}

/// Saves one day's rate of one currency (replacing what the feed published before).
pub async fn upsert(
    ex: impl Exec<'_>,
    rate: &StoredRate,
    fetched_at: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO fx_rates (day, currency, rate, source, fetched_at) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (day, currency) DO UPDATE SET rate = excluded.rate, source = excluded.source, \
         fetched_at = excluded.fetched_at",
    )
    .bind(&rate.day)
    .bind(&rate.currency)
    .bind(&rate.rate)
    .bind(&rate.source)
    .bind(fetched_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// Per currency, its latest rate published on or before `day` (YYYY-MM-DD).
pub async fn on_or_before(ex: impl Exec<'_>, day: &str) -> Result<Vec<StoredRate>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT f.day, f.currency, f.rate, f.source FROM fx_rates f \
         JOIN (SELECT currency, MAX(day) AS day FROM fx_rates WHERE day <= $1 GROUP BY currency) m \
           ON m.currency = f.currency AND m.day = f.day \
         ORDER BY f.currency",
    )
    .bind(day)
    .fetch_all(ex)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(StoredRate {
                day: r.try_get("day")?,
                currency: r.try_get("currency")?,
                rate: r.try_get("rate")?,
                source: r.try_get("source")?,
            })
        })
        .collect()
}

/// The newest day with any rate, if any.
pub async fn latest_day(ex: impl Exec<'_>) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT MAX(day) FROM fx_rates")
        .fetch_one(ex)
        .await
}

/// The rates in force on `day`: each currency's latest rate on or before it. Rows that do
/// not parse (never written by this code) are skipped.
pub async fn rate_set(ex: impl Exec<'_>, day: Date) -> Result<RateSet, sqlx::Error> {
    let format = format_description!("[year]-[month]-[day]");
    let mut set = RateSet::default();
    for r in on_or_before(ex, &day.to_string()).await? {
        let (Ok(rate), Ok(on)) = (Decimal::from_str(&r.rate), Date::parse(&r.day, format)) else {
            continue;
        };
        if set.source.is_none() {
            set.source = Some(r.source.clone());
        }
        set.rates.insert(r.currency, (rate, on));
    }
    Ok(set)
}
