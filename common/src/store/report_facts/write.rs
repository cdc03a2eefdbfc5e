//! Writing facts: raw daily rows (for tests and the benchmark; the sync has its own
//! `replace_days`) and the running sums derived from them ([`refresh`]).

use std::collections::BTreeMap;

use sqlx::{QueryBuilder, Sqlite};
use time::{Date, Duration};

use super::{
    COUNTER_COLUMNS, Counters, DayRow, FactLevel, Native, counter_list, decode_sums, on_native,
};
use crate::db::Db;

/// Rows per SQLite statement: 17 bound values each stays under its 32,766 variables.
const SQLITE_ROWS: usize = 1_900;
/// Rows per PostgreSQL `UNNEST` statement.
const PG_ROWS: usize = 50_000;
/// Days of raw rows [`refresh`] holds in memory at once.
const DAYS_PER_READ: i64 = 7;

/// Writes raw daily rows, replacing any with the same key (org, level, day, entity). Does
/// not refresh the sums: call [`refresh`] afterwards. Returns the number of rows written.
pub async fn insert_days(db: &Db, rows: &[DayRow]) -> Result<u64, sqlx::Error> {
    let cols = format!(
        "org_key, level, day, entity_id, campaign_id, ad_group_id, {}",
        counter_list("")
    );
    let updates = COUNTER_COLUMNS
        .iter()
        .chain(["campaign_id", "ad_group_id"].iter())
        .map(|c| format!("{c} = excluded.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    let conflict = format!(" ON CONFLICT (org_key, level, day, entity_id) DO UPDATE SET {updates}");
    let mut written = 0;
    match &db.native {
        Native::Sqlite(pool) => {
            let mut tx = pool.begin().await?;
            for chunk in rows.chunks(SQLITE_ROWS) {
                let mut q =
                    QueryBuilder::<Sqlite>::new(format!("INSERT INTO asa_day_metrics ({cols}) "));
                q.push_values(chunk, |mut b, r| {
                    b.push_bind(r.org_key)
                        .push_bind(r.level.code())
                        .push_bind(r.day)
                        .push_bind(r.entity_id)
                        .push_bind(r.campaign_id)
                        .push_bind(r.ad_group_id);
                    for v in r.counters.0 {
                        b.push_bind(v);
                    }
                });
                q.push(&conflict);
                written += q.build().execute(&mut *tx).await?.rows_affected();
            }
            tx.commit().await?;
        }
        Native::Postgres(pool) => {
            let mut tx = pool.begin().await?;
            for chunk in rows.chunks(PG_ROWS) {
                let sql = format!(
                    "INSERT INTO asa_day_metrics ({cols}) SELECT * FROM UNNEST($1::int8[], $2::int2[], \
                     $3::date[], $4::int8[], $5::int8[], $6::int8[], {}){conflict}",
                    (7..18)
                        .map(|i| format!("${i}::int8[]"))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                let mut q = sqlx::query(sqlx::AssertSqlSafe(sql.as_str()))
                    .bind(chunk.iter().map(|r| r.org_key).collect::<Vec<_>>())
                    .bind(
                        chunk
                            .iter()
                            .map(|r| r.level.code() as i16)
                            .collect::<Vec<_>>(),
                    )
                    .bind(chunk.iter().map(|r| r.day).collect::<Vec<_>>())
                    .bind(chunk.iter().map(|r| r.entity_id).collect::<Vec<_>>())
                    .bind(chunk.iter().map(|r| r.campaign_id).collect::<Vec<_>>())
                    .bind(chunk.iter().map(|r| r.ad_group_id).collect::<Vec<_>>());
                for i in 0..11 {
                    q = q.bind(chunk.iter().map(|r| r.counters.0[i]).collect::<Vec<_>>());
                }
                written += q.execute(&mut *tx).await?.rows_affected();
            }
            tx.commit().await?;
        }
    }
    Ok(written)
}

/// What one [`refresh`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Refreshed {
    /// The first day rewritten (None when there are no raw rows: the sums were cleared).
    pub from: Option<Date>,
    /// Running-sum rows written.
    pub rows: u64,
}

/// Recomputes the running sums of (org, level) from the raw daily rows of `from_day` on,
/// after a sync replaced days from `from_day`. Idempotent; one transaction. When raw rows
/// exist before the first stored sums (history fetched backwards) it recomputes from the
/// first raw day, and when `from_day` is after the last stored sums it fills the gap, so
/// the sums are always complete and dense.
pub async fn refresh(
    db: &Db,
    org_key: i64,
    level: FactLevel,
    from_day: Date,
) -> Result<Refreshed, sqlx::Error> {
    let raw_bounds =
        "SELECT MIN(day), MAX(day) FROM asa_day_metrics WHERE org_key = $1 AND level = $2";
    let (raw_first, raw_last): (Option<Date>, Option<Date>) = on_native!(db, pool => {
        sqlx::query_as(raw_bounds).bind(org_key).bind(level.code()).fetch_one(pool).await?
    });
    let sums = super::sums_bounds(db, org_key, level).await?;
    let (Some(raw_first), Some(raw_last)) = (raw_first, raw_last) else {
        let clear = "DELETE FROM asa_day_sums WHERE org_key = $1 AND level = $2";
        on_native!(db, pool => { sqlx::query(clear).bind(org_key).bind(level.code()).execute(pool).await?; });
        return Ok(Refreshed::default());
    };
    let start = match sums {
        Some((first, last)) if raw_first >= first => {
            let next = last.next_day().unwrap_or(last);
            from_day.max(raw_first).min(next)
        }
        _ => raw_first,
    };
    // One short transaction per day written (reads outside them), so a long refresh never
    // holds SQLite's single write lock for more than one day's slice and the product stays
    // responsive during a sync. A refresh cut short leaves later days stale until the
    // sync's retry runs it again from the same day (the sync checkpoints a level only after
    // its refresh).
    let rows = on_native!(db, pool => {
        let level = level.code();
        let mut tx = pool.begin().await?;
        let mut running = slice_before(&mut tx, org_key, level, start).await?;
        tx.commit().await?;
        let raw = format!(
            "SELECT day, entity_id, campaign_id, ad_group_id, {} FROM asa_day_metrics \
             WHERE org_key = $1 AND level = $2 AND day >= $3 AND day <= $4 ORDER BY day",
            counter_list("")
        );
        let mut written = 0;
        let mut from = start;
        while from <= raw_last {
            let to = (from + Duration::days(DAYS_PER_READ - 1)).min(raw_last);
            let mut tx = pool.begin().await?;
            let rows = tx.read_raw(&raw, org_key, level, from, to).await?;
            tx.commit().await?;
            let mut rows = rows.into_iter().peekable();
            let mut day = from;
            while day <= to {
                while let Some((_, e)) = rows.next_if(|(d, _)| *d == day) {
                    let slot = running.entry(e.entity_id).or_insert((
                        e.campaign_id,
                        e.ad_group_id,
                        Counters::default(),
                    ));
                    slot.0 = e.campaign_id;
                    slot.1 = e.ad_group_id;
                    slot.2.add(&e.counters);
                }
                let mut tx = pool.begin().await?;
                tx.exec(
                    "DELETE FROM asa_day_sums WHERE org_key = $1 AND level = $2 AND day = $3",
                    org_key,
                    level,
                    day,
                )
                .await?;
                written += tx.write(org_key, level, day, &running).await?;
                tx.commit().await?;
                day = day.next_day().expect("a day after a stored day");
            }
            from = to.next_day().expect("a day after a stored day");
        }
        let mut tx = pool.begin().await?;
        tx.exec(
            "DELETE FROM asa_day_sums WHERE org_key = $1 AND level = $2 AND day > $3",
            org_key,
            level,
            raw_last,
        )
        .await?;
        tx.commit().await?;
        written
    });
    Ok(Refreshed {
        from: Some(start),
        rows,
    })
}

/// A transaction that can delete, read and bulk-write the sums.
trait SumsTx {
    fn exec(
        &mut self,
        sql: &str,
        org_key: i64,
        level: i64,
        day: Date,
    ) -> impl Future<Output = Result<(), sqlx::Error>> + Send;
    fn read_slice(
        &mut self,
        sql: &str,
        org_key: i64,
        level: i64,
        day: Date,
    ) -> impl Future<Output = Result<Vec<super::EntitySums>, sqlx::Error>> + Send;
    fn read_raw(
        &mut self,
        sql: &str,
        org_key: i64,
        level: i64,
        from: Date,
        to: Date,
    ) -> impl Future<Output = Result<Vec<(Date, super::EntitySums)>, sqlx::Error>> + Send;
    fn write(
        &mut self,
        org_key: i64,
        level: i64,
        day: Date,
        rows: &BTreeMap<i64, (i64, i64, Counters)>,
    ) -> impl Future<Output = Result<u64, sqlx::Error>> + Send;
}

macro_rules! impl_sums_tx {
    ($db:ty) => {
        impl SumsTx for sqlx::Transaction<'_, $db> {
            async fn exec(
                &mut self,
                sql: &str,
                org_key: i64,
                level: i64,
                day: Date,
            ) -> Result<(), sqlx::Error> {
                sqlx::query(sqlx::AssertSqlSafe(sql))
                    .bind(org_key)
                    .bind(level)
                    .bind(day)
                    .execute(&mut **self)
                    .await?;
                Ok(())
            }
            async fn read_slice(
                &mut self,
                sql: &str,
                org_key: i64,
                level: i64,
                day: Date,
            ) -> Result<Vec<super::EntitySums>, sqlx::Error> {
                let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
                    .bind(org_key)
                    .bind(level)
                    .bind(day)
                    .fetch_all(&mut **self)
                    .await?;
                rows.iter().map(|r| decode_sums(r, 0)).collect()
            }
            async fn read_raw(
                &mut self,
                sql: &str,
                org_key: i64,
                level: i64,
                from: Date,
                to: Date,
            ) -> Result<Vec<(Date, super::EntitySums)>, sqlx::Error> {
                use sqlx::Row;
                let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
                    .bind(org_key)
                    .bind(level)
                    .bind(from)
                    .bind(to)
                    .fetch_all(&mut **self)
                    .await?;
                rows.iter()
                    .map(|r| Ok((r.try_get::<Date, _>(0)?, decode_sums(r, 1)?)))
                    .collect()
            }
            async fn write(
                &mut self,
                org_key: i64,
                level: i64,
                day: Date,
                rows: &BTreeMap<i64, (i64, i64, Counters)>,
            ) -> Result<u64, sqlx::Error> {
                <$db as WriteDb>::write(self, org_key, level, day, rows).await
            }
        }
    };
}
impl_sums_tx!(sqlx::Sqlite);
impl_sums_tx!(sqlx::Postgres);

/// The bulk write of one day's running sums, per backend.
trait WriteDb: sqlx::Database {
    fn write(
        tx: &mut sqlx::Transaction<'_, Self>,
        org_key: i64,
        level: i64,
        day: Date,
        rows: &BTreeMap<i64, (i64, i64, Counters)>,
    ) -> impl Future<Output = Result<u64, sqlx::Error>> + Send;
}

fn sums_columns() -> String {
    format!(
        "org_key, level, day, entity_id, campaign_id, ad_group_id, {}",
        counter_list("")
    )
}

impl WriteDb for sqlx::Sqlite {
    async fn write(
        tx: &mut sqlx::Transaction<'_, Self>,
        org_key: i64,
        level: i64,
        day: Date,
        rows: &BTreeMap<i64, (i64, i64, Counters)>,
    ) -> Result<u64, sqlx::Error> {
        let entries: Vec<_> = rows.iter().collect();
        let mut n = 0;
        for chunk in entries.chunks(SQLITE_ROWS) {
            let mut q = QueryBuilder::<Sqlite>::new(format!(
                "INSERT INTO asa_day_sums ({}) ",
                sums_columns()
            ));
            q.push_values(chunk, |mut b, (id, (c, g, counters))| {
                b.push_bind(org_key)
                    .push_bind(level)
                    .push_bind(day)
                    .push_bind(**id)
                    .push_bind(*c)
                    .push_bind(*g);
                for v in counters.0 {
                    b.push_bind(v);
                }
            });
            n += q.build().execute(&mut **tx).await?.rows_affected();
        }
        Ok(n)
    }
}

impl WriteDb for sqlx::Postgres {
    async fn write(
        tx: &mut sqlx::Transaction<'_, Self>,
        org_key: i64,
        level: i64,
        day: Date,
        rows: &BTreeMap<i64, (i64, i64, Counters)>,
    ) -> Result<u64, sqlx::Error> {
        if rows.is_empty() {
            return Ok(0);
        }
        let sql = format!(
            "INSERT INTO asa_day_sums ({}) SELECT $1, $2, $3, * FROM UNNEST($4::int8[], $5::int8[], $6::int8[], {})",
            sums_columns(),
            (7..18)
                .map(|i| format!("${i}::int8[]"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql.as_str()))
            .bind(org_key)
            .bind(level as i16)
            .bind(day)
            .bind(rows.keys().copied().collect::<Vec<_>>())
            .bind(rows.values().map(|v| v.0).collect::<Vec<_>>())
            .bind(rows.values().map(|v| v.1).collect::<Vec<_>>());
        for i in 0..11 {
            q = q.bind(rows.values().map(|v| v.2.0[i]).collect::<Vec<_>>());
        }
        Ok(q.execute(&mut **tx).await?.rows_affected())
    }
}

/// The running sums of the day before `start`: where a refresh from `start` continues.
async fn slice_before(
    tx: &mut impl SumsTx,
    org_key: i64,
    level: i64,
    start: Date,
) -> Result<BTreeMap<i64, (i64, i64, Counters)>, sqlx::Error> {
    let mut running = BTreeMap::new();
    if let Some(before) = start.previous_day() {
        let sql = format!(
            "SELECT entity_id, campaign_id, ad_group_id, {} FROM asa_day_sums \
             WHERE org_key = $1 AND level = $2 AND day = $3",
            counter_list("")
        );
        for e in tx.read_slice(&sql, org_key, level, before).await? {
            running.insert(e.entity_id, (e.campaign_id, e.ad_group_id, e.counters));
        }
    }
    Ok(running)
}
