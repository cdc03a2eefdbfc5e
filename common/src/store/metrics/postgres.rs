//! Metrics on PostgreSQL: one `UNNEST` statement per batch, `NUMERIC` sums decoded exactly.

use rust_decimal::Decimal;
use sqlx::PgPool;
use time::Date;

use super::{KeywordDay, KeywordTotals, MetricsStore, last_per_key, sum_range_on};
use crate::ids::now_ms;

/// [`MetricsStore`] over a native PostgreSQL pool.
#[derive(Debug, Clone, Copy)]
pub struct PgMetrics<'a>(pub &'a PgPool);

const UPSERT: &str = "INSERT INTO keyword_day_metrics \
     (ad_account_id, day, campaign_id, ad_group_id, keyword_id, impressions, taps, installs, spend_micros, updated_at) \
     SELECT a, d, c, g, k, i, t, n, s, $10 FROM UNNEST($1::int8[], $2::date[], $3::int8[], $4::int8[], \
     $5::int8[], $6::int8[], $7::int8[], $8::int8[], $9::int8[]) AS u(a, d, c, g, k, i, t, n, s) \
     ON CONFLICT (ad_account_id, day, campaign_id, ad_group_id, keyword_id) DO UPDATE SET \
     impressions = excluded.impressions, taps = excluded.taps, installs = excluded.installs, \
     spend_micros = excluded.spend_micros, updated_at = excluded.updated_at";

impl MetricsStore for PgMetrics<'_> {
    async fn upsert_days(&self, rows: &[KeywordDay]) -> Result<u64, sqlx::Error> {
        let rows = last_per_key(rows);
        if rows.is_empty() {
            return Ok(0);
        }
        let col = |f: fn(&KeywordDay) -> i64| rows.iter().map(|r| f(r)).collect::<Vec<i64>>();
        let days: Vec<Date> = rows.iter().map(|r| r.day).collect();
        let done = sqlx::query(UPSERT)
            .bind(col(|r| r.ad_account_id))
            .bind(days)
            .bind(col(|r| r.campaign_id))
            .bind(col(|r| r.ad_group_id))
            .bind(col(|r| r.keyword_id))
            .bind(col(|r| r.impressions))
            .bind(col(|r| r.taps))
            .bind(col(|r| r.installs))
            .bind(col(|r| r.spend_micros))
            .bind(now_ms())
            .execute(self.0)
            .await?;
        Ok(done.rows_affected())
    }

    async fn sum_range(
        &self,
        ad_account_id: i64,
        from: Date,
        to: Date,
    ) -> Result<Vec<KeywordTotals>, sqlx::Error> {
        sum_range_on::<_, Decimal>(self.0, ad_account_id, from, to).await
    }
}
