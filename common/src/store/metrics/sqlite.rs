//! Metrics on SQLite: multi-row `INSERT … ON CONFLICT` in one transaction; `SUM` over
//! integers is an exact integer (SQLite fails the query rather than overflow).

use sqlx::{QueryBuilder, Sqlite, SqlitePool};
use time::Date;

use super::{KeywordDay, KeywordTotals, MetricsStore, last_per_key, sum_range_on};
use crate::ids::now_ms;

/// [`MetricsStore`] over a native SQLite pool.
#[derive(Debug, Clone, Copy)]
pub struct SqliteMetrics<'a>(pub &'a SqlitePool);

/// Rows per statement: 10 bound values each stays under SQLite's 32,766 variables.
const ROWS_PER_STATEMENT: usize = 3_000;

impl MetricsStore for SqliteMetrics<'_> {
    async fn upsert_days(&self, rows: &[KeywordDay]) -> Result<u64, sqlx::Error> {
        let rows = last_per_key(rows);
        let now = now_ms();
        let mut tx = self.0.begin().await?;
        let mut written = 0;
        for chunk in rows.chunks(ROWS_PER_STATEMENT) {
            let mut insert = QueryBuilder::<Sqlite>::new(
                "INSERT INTO keyword_day_metrics (ad_account_id, day, campaign_id, ad_group_id, \
                 keyword_id, impressions, taps, installs, spend_micros, updated_at) ",
            );
            insert.push_values(chunk, |mut b, r| {
                b.push_bind(r.ad_account_id)
                    .push_bind(r.day)
                    .push_bind(r.campaign_id)
                    .push_bind(r.ad_group_id)
                    .push_bind(r.keyword_id)
                    .push_bind(r.impressions)
                    .push_bind(r.taps)
                    .push_bind(r.installs)
                    .push_bind(r.spend_micros)
                    .push_bind(now);
            });
            insert.push(
                " ON CONFLICT (ad_account_id, day, campaign_id, ad_group_id, keyword_id) DO UPDATE SET \
                 impressions = excluded.impressions, taps = excluded.taps, installs = excluded.installs, \
                 spend_micros = excluded.spend_micros, updated_at = excluded.updated_at",
            );
            written += insert.build().execute(&mut *tx).await?.rows_affected();
        }
        tx.commit().await?;
        Ok(written)
    }

    async fn sum_range(
        &self,
        ad_account_id: i64,
        from: Date,
        to: Date,
    ) -> Result<Vec<KeywordTotals>, sqlx::Error> {
        sum_range_on::<_, i64>(self.0, ad_account_id, from, to).await
    }
}
