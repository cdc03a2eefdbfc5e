//! Writing facts: raw daily rows (for tests and the benchmark; the sync has its own
//! `replace_days`) and the day blobs derived from them ([`refresh`]).

use sqlx::{QueryBuilder, Sqlite};
use time::Date;

use super::{
    Blobs, CHECKPOINT, COUNTER_COLUMNS, DAILY, DayRow, EntitySums, FactLevel, Layout, Native,
    Scope, codec, counter_list, decode_sums, from_jd, jd, on_grid, on_native,
};
use crate::db::Db;

/// Rows per SQLite statement: 17 bound values each stays under its 32,766 variables.
const SQLITE_ROWS: usize = 1_900;
/// Rows per PostgreSQL `UNNEST` statement.
const PG_ROWS: usize = 50_000;
/// Days of raw rows [`refresh`] holds in memory at once.
const DAYS_PER_READ: i32 = 7;

/// Writes raw daily rows, replacing any with the same key (org, level, day, entity). Does
/// not refresh the blobs: call [`refresh`] afterwards. Returns the number of rows written.
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
    /// The first day whose daily blob was rewritten (None when there are no raw rows: the
    /// blobs were cleared).
    pub from: Option<Date>,
    /// The first day of history added before the stored days, when there was some: its
    /// daily blobs were written and its sums added to every later checkpoint.
    pub prepended: Option<Date>,
    /// Blobs written.
    pub blobs: u64,
    /// The generation the refresh published (module docs, "Generations").
    pub generation: i64,
}

/// Brings the day blobs of (org, level) up to date after a sync replaced the raw days from
/// `from_day` on. Idempotent.
///
/// - Raw days before the first stored day (history fetched backwards) are prepended: their
///   daily blobs are written and their sums added to every checkpoint.
/// - From `from_day` (clamped to the stored days, and to the day after the last stored day
///   so a gap is filled) to the last raw day, the daily blobs are rewritten and the
///   checkpoints recomputed, carrying the running sums from the stored ones before.
/// - With nothing stored yet, everything is built from the first raw day.
///
/// Every day is written in its own short transaction (reads outside them), so a refresh
/// never holds SQLite's single write lock for long and the product stays responsive during
/// a sync. All of it goes to a new generation, published at the end in one statement:
/// reports read the previous one until then (module docs, "Generations"). A refresh cut
/// short publishes nothing; the sync's retry runs it again from the published state (the
/// sync checkpoints a level only after its refresh).
///
/// One refresh of an (org, level) runs at a time (the sync job is unique per connection);
/// a second one publishing first makes this one fail rather than overwrite it.
pub async fn refresh(
    db: &Db,
    org_key: i64,
    level: FactLevel,
    from_day: Date,
) -> Result<Refreshed, sqlx::Error> {
    let published = begin(db, org_key, level).await?;
    let t = Blobs {
        org_key,
        level,
        generation: published + 1,
    };
    let mut done = build(db, t, from_day).await?;
    publish(db, t, published).await?;
    done.generation = t.generation;
    Ok(done)
}

/// Readies (org, level) for a refresh and returns its published generation: records that
/// blobs replaced up to that generation are about to be deleted (readers of older
/// generations then read again), deletes them, and deletes what a refresh cut short left
/// (blobs of unpublished generations, and its retirements).
async fn begin(db: &Db, org_key: i64, level: FactLevel) -> Result<i64, sqlx::Error> {
    let ensure = "INSERT INTO asa_blob_generations (org_key, level, generation, swept) \
                  VALUES ($1, $2, 0, 0) ON CONFLICT (org_key, level) DO NOTHING";
    let sweep_from = "UPDATE asa_blob_generations SET swept = $3 WHERE org_key = $1 AND level = $2";
    let delete = "DELETE FROM asa_day_blobs WHERE org_key = $1 AND level = $2 \
                  AND (generation > $3 OR retired_in <= $3)";
    let restore = "UPDATE asa_day_blobs SET retired_in = NULL WHERE org_key = $1 AND level = $2 \
                   AND retired_in > $3";
    Db::retry_busy(|| async {
        on_native!(db, pool => {
            sqlx::query(ensure).bind(org_key).bind(level.code()).execute(pool).await?;
        });
        Ok::<_, sqlx::Error>(())
    })
    .await?;
    let (generation, swept) = super::published(db, org_key, level).await?;
    // `swept` first: a reader checks it after its reads, so one that could have missed a
    // blob deleted below sees it.
    let sweep = (swept < generation).then_some(sweep_from);
    for sql in sweep.into_iter().chain([delete, restore]) {
        Db::retry_busy(|| async {
            on_native!(db, pool => {
                sqlx::query(sql).bind(org_key).bind(level.code()).bind(generation).execute(pool).await?;
            });
            Ok::<_, sqlx::Error>(())
        })
        .await?;
    }
    Ok(generation)
}

/// Makes `t.generation` the one readers see, if `published` still is.
async fn publish(db: &Db, t: Blobs, published: i64) -> Result<(), sqlx::Error> {
    let sql = "UPDATE asa_blob_generations SET generation = $3 \
               WHERE org_key = $1 AND level = $2 AND generation = $4";
    let updated = Db::retry_busy(|| async {
        Ok::<_, sqlx::Error>(on_native!(db, pool => {
            sqlx::query(sql).bind(t.org_key).bind(t.level.code()).bind(t.generation).bind(published).execute(pool).await?.rows_affected()
        }))
    })
    .await?;
    if updated != 1 {
        return Err(sqlx::Error::Protocol(format!(
            "day blobs of org {} level {:?}: another refresh published while this one ran",
            t.org_key, t.level
        )));
    }
    Ok(())
}

/// The blobs of a refresh (see [`refresh`]), written to `t.generation`.
async fn build(db: &Db, t: Blobs, from_day: Date) -> Result<Refreshed, sqlx::Error> {
    let Blobs { org_key, level, .. } = t;
    let raw_bounds =
        "SELECT MIN(day), MAX(day) FROM asa_day_metrics WHERE org_key = $1 AND level = $2";
    let (raw_first, raw_last): (Option<Date>, Option<Date>) = on_native!(db, pool => {
        sqlx::query_as(raw_bounds).bind(org_key).bind(level.code()).fetch_one(pool).await?
    });
    let (Some(raw_first), Some(raw_last)) = (raw_first, raw_last) else {
        retire(db, t, None).await?;
        return Ok(Refreshed::default());
    };
    let (first, last) = (jd(raw_first), jd(raw_last));
    let mut done = Refreshed::default();
    let mut layout = super::layout_at(db, t).await?;
    if let Some(l) = &layout
        && first < l.first
    {
        match prepend(db, t, l, first).await? {
            Some(written) => {
                done.prepended = Some(raw_first);
                done.blobs += written;
                layout = super::layout_at(db, t).await?;
            }
            // Checkpoints that do not sum from the stored first day: rebuild them all.
            None => layout = None,
        }
    }
    let (start, running, old) = match layout {
        Some(l) if first >= l.first => {
            let mut start = if first > l.first {
                // Days at the start were removed: everything sums differently.
                l.first
            } else {
                jd(from_day).max(l.first).min(l.last + 1)
            };
            if l.last > last {
                // Days at the end were removed: the last day needs its checkpoint.
                start = start.min(last);
            }
            let running = if start > l.first {
                super::range_in(db, t, &l, l.first, start - 1, Scope::default())
                .await?
                .ok_or_else(|| {
                    sqlx::Error::Protocol(format!(
                        "day blobs of org {org_key} level {level:?} changed during their refresh"
                    ))
                })?
            } else {
                Vec::new()
            };
            (start, running, l.checkpoints)
        }
        _ => {
            // Nothing usable stored (a new org, an install migrated from the running-sums
            // table, or inconsistent checkpoints): build everything from the first raw day.
            retire(db, t, None).await?;
            (first, Vec::new(), Vec::new())
        }
    };
    done.from = Some(from_jd(start));
    done.blobs += restate(db, t, start, last, first, running).await?;
    // Checkpoints that are neither on the grid nor the last day (an older last day), and
    // blobs after the last raw day.
    let stale: Vec<i32> = old
        .into_iter()
        .filter(|&c| c > last || (!on_grid(c) && c != last))
        .collect();
    retire(db, t, Some(raw_last)).await?;
    let deletes: Vec<(i32, i64, Option<Vec<u8>>)> =
        stale.into_iter().map(|c| (c, CHECKPOINT, None)).collect();
    for chunk in deletes.chunks(64) {
        write_blobs(db, t, chunk).await?;
    }
    Ok(done)
}

/// Removes from `t.generation` every blob of (org, level), or those after day `after`:
/// blobs of published generations are retired in it, its own are deleted.
async fn retire(db: &Db, t: Blobs, after: Option<Date>) -> Result<(), sqlx::Error> {
    let days = if after.is_some() { " AND day > $4" } else { "" };
    let delete = format!(
        "DELETE FROM asa_day_blobs WHERE org_key = $1 AND level = $2 AND generation = $3{days}"
    );
    let retire = format!(
        "UPDATE asa_day_blobs SET retired_in = $3 WHERE org_key = $1 AND level = $2 \
         AND generation < $3 AND retired_in IS NULL{days}"
    );
    Db::retry_busy(|| async {
        on_native!(db, pool => {
            let mut tx = pool.begin().await?;
            for sql in [&delete, &retire] {
                let mut q = sqlx::query(sqlx::AssertSqlSafe(sql.as_str())).bind(t.org_key).bind(t.level.code()).bind(t.generation);
                if let Some(day) = after {
                    q = q.bind(day);
                }
                q.execute(&mut *tx).await?;
            }
            tx.commit().await?;
        });
        Ok::<_, sqlx::Error>(())
    })
    .await
}

/// The raw rows of the days `from..=to` that have any, by day, each day's rows by entity.
async fn raw_days(
    db: &Db,
    org_key: i64,
    level: FactLevel,
    from: i32,
    to: i32,
) -> Result<Vec<(i32, Vec<EntitySums>)>, sqlx::Error> {
    let sql = format!(
        "SELECT day, entity_id, campaign_id, ad_group_id, {} FROM asa_day_metrics \
         WHERE org_key = $1 AND level = $2 AND day >= $3 AND day <= $4 ORDER BY day, entity_id",
        counter_list("")
    );
    // Streamed: each driver row is decoded and dropped at once (a week of a large campaign
    // group's search terms is over a million rows; held as driver rows they took gigabytes).
    let mut out: Vec<(i32, Vec<EntitySums>)> = Vec::new();
    on_native!(db, pool => {
        use futures::TryStreamExt;
        use sqlx::Row;
        let mut rows = sqlx::query(sqlx::AssertSqlSafe(sql.as_str()))
            .bind(org_key)
            .bind(level.code())
            .bind(from_jd(from))
            .bind(from_jd(to))
            .fetch(pool);
        while let Some(r) = rows.try_next().await? {
            let day = jd(r.try_get::<Date, _>(0)?);
            let e = decode_sums(&r, 1)?;
            match out.last_mut() {
                Some((d, list)) if *d == day => list.push(e),
                _ => out.push((day, vec![e])),
            }
        }
    });
    Ok(out)
}

/// Replaces blobs of `t.generation` in one transaction: each `(day, kind, data)` removes
/// that blob (retiring a published one, deleting one written earlier by this refresh) and,
/// with data, writes it anew. Returns the number of blobs written.
async fn write_blobs(
    db: &Db,
    t: Blobs,
    ops: &[(i32, i64, Option<Vec<u8>>)],
) -> Result<u64, sqlx::Error> {
    let delete = "DELETE FROM asa_day_blobs WHERE org_key = $1 AND level = $2 AND day = $3 \
                  AND kind = $4 AND generation = $5";
    let retire = "UPDATE asa_day_blobs SET retired_in = $5 WHERE org_key = $1 AND level = $2 \
                  AND day = $3 AND kind = $4 AND generation < $5 AND retired_in IS NULL";
    let insert = "INSERT INTO asa_day_blobs (org_key, level, day, kind, generation, stamp, data) \
                  VALUES ($1, $2, $3, $4, $5, $6, $7)";
    Db::retry_busy(|| async {
        let mut written = 0;
        on_native!(db, pool => {
            let mut tx = pool.begin().await?;
            for (day, kind, data) in ops {
                let day = from_jd(*day);
                for sql in [delete, retire] {
                    sqlx::query(sql).bind(t.org_key).bind(t.level.code()).bind(day).bind(*kind).bind(t.generation).execute(&mut *tx).await?;
                }
                if let Some(data) = data {
                    // A fresh stamp: report caches holding the old bytes see it changed.
                    let stamp = super::cache::new_stamp();
                    sqlx::query(insert).bind(t.org_key).bind(t.level.code()).bind(day).bind(*kind).bind(t.generation).bind(stamp).bind(data.as_slice()).execute(&mut *tx).await?;
                    written += 1;
                }
            }
            tx.commit().await?;
        });
        Ok::<_, sqlx::Error>(written)
    })
    .await
}

/// Rewrites the daily blobs of `start..=last` from the raw rows and the checkpoints among
/// them, `running` being the sums through `start - 1` and `base` the first stored day.
async fn restate(
    db: &Db,
    t: Blobs,
    start: i32,
    last: i32,
    base: i32,
    mut running: Vec<EntitySums>,
) -> Result<u64, sqlx::Error> {
    let mut written = 0;
    let mut from = start;
    while from <= last {
        let to = (from + DAYS_PER_READ - 1).min(last);
        let mut days = raw_days(db, t.org_key, t.level, from, to)
            .await?
            .into_iter()
            .peekable();
        for day in from..=to {
            let rows = days.next_if(|(d, _)| *d == day).map(|(_, rows)| rows);
            let mut ops = Vec::with_capacity(2);
            if let Some(rows) = &rows {
                running = codec::merge(running, rows, 1);
                running.retain(|e| !e.counters.is_zero());
            }
            ops.push((day, DAILY, rows.map(|r| codec::encode(day, &r))));
            if on_grid(day) || day == last {
                ops.push((day, CHECKPOINT, Some(codec::encode(base, &running))));
            }
            written += write_blobs(db, t, &ops).await?;
        }
        from = to + 1;
    }
    Ok(written)
}

/// Adds the raw days `first..l.first` (history before the stored days) to the blobs:
/// their sums to every stored checkpoint, then the checkpoints among them, then their
/// daily blobs. None when a stored checkpoint does not sum from `l.first` (rebuild
/// instead).
async fn prepend(db: &Db, t: Blobs, l: &Layout, first: i32) -> Result<Option<u64>, sqlx::Error> {
    let mut running: Vec<EntitySums> = Vec::new();
    let mut dailies = Vec::new();
    let mut checkpoints = Vec::new();
    let mut from = first;
    while from < l.first {
        let to = (from + DAYS_PER_READ - 1).min(l.first - 1);
        let mut days = raw_days(db, t.org_key, t.level, from, to)
            .await?
            .into_iter()
            .peekable();
        for day in from..=to {
            if let Some((_, rows)) = days.next_if(|(d, _)| *d == day) {
                running = codec::merge(running, &rows, 1);
                running.retain(|e| !e.counters.is_zero());
                dailies.push((day, DAILY, Some(codec::encode(day, &rows))));
            }
            if on_grid(day) {
                checkpoints.push((day, CHECKPOINT, Some(codec::encode(first, &running))));
            }
        }
        from = to + 1;
    }
    let mut written = 0;
    for &c in &l.checkpoints {
        let Some((_, data)) = super::blob(db, t, CHECKPOINT, c).await? else {
            continue;
        };
        let decoder = codec::Decoder::new(&data)?;
        if decoder.base() != l.first {
            return Ok(None);
        }
        let stored = decoder.collect(Scope::default())?;
        let mut sums = codec::merge(stored, &running, 1);
        sums.retain(|e| !e.counters.is_zero());
        let data = codec::encode(first, &sums);
        written += write_blobs(db, t, &[(c, CHECKPOINT, Some(data))]).await?;
    }
    for op in checkpoints.into_iter().chain(dailies) {
        written += write_blobs(db, t, std::slice::from_ref(&op)).await?;
    }
    Ok(Some(written))
}
