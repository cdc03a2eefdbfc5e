//! Reading the day blobs: the generation readers see ([`Snapshot`]), range sums
//! ([`range`], [`range_for`]), the daily series of the graph ([`daily`]) and the naive
//! reference ([`range_naive`]).

use std::{
    collections::HashMap,
    ops::RangeInclusive,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
};

use time::Date;

use super::cache::Universe;
use super::decoded::{DecodedBlob, Sums};
use super::{
    CHECKPOINT, COUNTER_COLUMNS, Counters, DAILY, EntitySums, FactLevel, Layout, Scope, codec,
    decode_sums, from_jd, jd, on_native,
};
use crate::db::{Db, Native};

/// The blobs of (org, level) in one generation: what a reader reads or a refresh writes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Blobs {
    pub org_key: i64,
    pub level: FactLevel,
    pub generation: i64,
}

/// `AND` clause of the blobs a reader of the generation bound at `$n` sees.
pub(crate) fn visible(n: usize) -> String {
    format!(" AND generation <= ${n} AND (retired_in IS NULL OR retired_in > ${n})")
}

/// The published generation of (org, level) and the newest swept one, (0, 0) before its
/// first refresh.
pub(crate) async fn published(
    db: &Db,
    org_key: i64,
    level: FactLevel,
) -> Result<(i64, i64), sqlx::Error> {
    let sql =
        "SELECT generation, swept FROM asa_blob_generations WHERE org_key = $1 AND level = $2";
    let row: Option<(i64, i64)> = on_native!(db, pool => {
        sqlx::query_as(sql).bind(org_key).bind(level.code()).fetch_optional(pool).await?
    });
    Ok(row.unwrap_or((0, 0)))
}

/// The published generation of the campaign-level facts of every synced campaign group of
/// `workspace_id`'s connections, by org key ascending (0 for a group never refreshed):
/// what changes when synced metrics arrive, so a memo of sums over those facts (last
/// month's spend, `plan::spend`) is valid while this list is unchanged.
pub async fn campaign_generations_of_workspace(
    db: &Db,
    workspace_id: &str,
) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    let sql = "SELECT s.org_key, COALESCE(g.generation, 0) FROM accounts a \
        JOIN sync_orgs s ON s.account_id = a.id \
        LEFT JOIN asa_blob_generations g ON g.org_key = s.org_key AND g.level = $2 \
        WHERE a.workspace_id = $1 ORDER BY s.org_key";
    let rows: Vec<(i64, i64)> = on_native!(db, pool => {
        sqlx::query_as(sql)
            .bind(workspace_id)
            .bind(FactLevel::Campaign.code())
            .fetch_all(pool)
            .await?
    });
    Ok(rows)
}

/// The generations one report reads: each (org, level) is read at the generation published
/// when the report first touched it, whatever a refresh publishes meanwhile (module docs,
/// "Generations"). Cheap; one per report.
#[derive(Debug, Default)]
pub struct Snapshot {
    taken: Mutex<HashMap<(i64, FactLevel), i64>>,
    /// A blob of the layout was gone when read (swept by a later refresh).
    missed: AtomicBool,
}

impl Snapshot {
    pub fn new() -> Snapshot {
        Snapshot::default()
    }

    /// The generation this snapshot reads (org, level) at, taken on first use.
    pub async fn generation(
        &self,
        db: &Db,
        org_key: i64,
        level: FactLevel,
    ) -> Result<i64, sqlx::Error> {
        if let Some(&g) = self.lock().get(&(org_key, level)) {
            return Ok(g);
        }
        let (g, _) = published(db, org_key, level).await?;
        Ok(*self.lock().entry((org_key, level)).or_insert(g))
    }

    /// The blobs this snapshot reads of (org, level).
    async fn blobs(&self, db: &Db, org_key: i64, level: FactLevel) -> Result<Blobs, sqlx::Error> {
        Ok(Blobs {
            org_key,
            level,
            generation: self.generation(db, org_key, level).await?,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(i64, FactLevel), i64>> {
        self.taken.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether everything read through this snapshot is complete: no blob it needed has been
    /// swept. Call it after the reads; when false, read again with a new snapshot.
    pub async fn holds(&self, db: &Db) -> Result<bool, sqlx::Error> {
        if self.missed.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let taken: Vec<_> = self.lock().iter().map(|(&k, &g)| (k, g)).collect();
        for ((org_key, level), g) in taken {
            let (_, swept) = published(db, org_key, level).await?;
            if g < swept {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// The blob layout of (org, level) at the published generation, None when nothing is
/// stored.
async fn layout(db: &Db, org_key: i64, level: FactLevel) -> Result<Option<Layout>, sqlx::Error> {
    let (generation, _) = published(db, org_key, level).await?;
    let at = Blobs {
        org_key,
        level,
        generation,
    };
    layout_at(db, at).await
}

/// The first and last day of the stored day blobs of (org, level), if any.
pub async fn sums_bounds(
    db: &Db,
    org_key: i64,
    level: FactLevel,
) -> Result<Option<(Date, Date)>, sqlx::Error> {
    Ok(layout(db, org_key, level)
        .await?
        .map(|l| (from_jd(l.first), from_jd(l.last))))
}

/// One blob of a generation with its stamp (None when absent: a day without metrics, or a
/// blob swept since the layout was read).
pub(crate) async fn blob(
    db: &Db,
    at: Blobs,
    kind: i64,
    day: i32,
) -> Result<Option<(i64, Vec<u8>)>, sqlx::Error> {
    let sql = format!(
        "SELECT stamp, data FROM asa_day_blobs WHERE org_key = $1 AND level = $2 AND day = $3 \
         AND kind = $4{}",
        visible(5)
    );
    on_native!(db, pool => {
        sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(at.org_key).bind(at.level.code()).bind(from_jd(day)).bind(kind).bind(at.generation).fetch_optional(pool).await
    })
}

/// Runs CPU-bound decoding off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, sqlx::Error> + Send + 'static,
) -> Result<T, sqlx::Error> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| sqlx::Error::Protocol(format!("decoding task failed: {e}")))?
}

/// The signed sum of decoded blobs, entities sorted by id.
fn combine(blobs: &[(Vec<u8>, i64)], scope: Scope) -> Result<Vec<EntitySums>, sqlx::Error> {
    let mut acc = Vec::new();
    for (data, sign) in blobs {
        let entries = codec::Decoder::new(data)?.collect(scope)?;
        acc = if acc.is_empty() && *sign == 1 {
            entries
        } else {
            codec::merge(acc, &entries, *sign)
        };
    }
    Ok(acc)
}

/// Every entity's counters over the days `from..=to` (inclusive) within `scope`, exactly,
/// ordered by entity id, at the snapshot's generation; entities without metrics in the range
/// are left out. Reads at most two checkpoints and a few daily blobs around them (or the
/// range's daily blobs when fewer), whatever the range's length.
pub async fn range(
    db: &Db,
    snapshot: &Snapshot,
    org_key: i64,
    level: FactLevel,
    from: Date,
    to: Date,
    scope: Scope,
) -> Result<Vec<EntitySums>, sqlx::Error> {
    let at = snapshot.blobs(db, org_key, level).await?;
    let Some(layout) = layout_at(db, at).await? else {
        return Ok(Vec::new());
    };
    let sums = range_in(db, at, &layout, jd(from), jd(to), scope).await?;
    Ok(sums.unwrap_or_else(|| {
        snapshot.missed.store(true, Ordering::Relaxed);
        Vec::new()
    }))
}

/// [`range`] over Julian days with a known layout of the blobs `at`; None when a blob of the
/// layout is gone (swept by a later refresh).
pub(crate) async fn range_in(
    db: &Db,
    at: Blobs,
    layout: &Layout,
    from: i32,
    to: i32,
    scope: Scope,
) -> Result<Option<Vec<EntitySums>>, sqlx::Error> {
    let mut blobs = Vec::new();
    for (kind, day, sign) in layout.plan(from, to) {
        if !layout.stamps.contains_key(&(kind, day)) {
            continue;
        }
        match blob(db, at, kind, day).await? {
            Some((_, data)) => blobs.push((data, sign)),
            None => return Ok(None),
        }
    }
    blocking(move || {
        let mut sums = combine(&blobs, scope)?;
        sums.retain(|e| !e.counters.is_zero());
        Ok(Some(sums))
    })
    .await
}

/// The blob layout of (org, level) in `generation` with the stamp of every blob, in one read
/// that never touches the blobs' bytes; None when nothing is stored.
pub(crate) async fn layout_at(db: &Db, at: Blobs) -> Result<Option<Layout>, sqlx::Error> {
    let sql = format!(
        "SELECT day, kind, stamp FROM asa_day_blobs WHERE org_key = $1 AND level = $2{} \
         ORDER BY day",
        visible(3)
    );
    let rows: Vec<(Date, i64, i64)> = on_native!(db, pool => {
        sqlx::query_as::<_, (Date, i16, i64)>(sqlx::AssertSqlSafe(sql.as_str()))
            .bind(at.org_key)
            .bind(at.level.code() as i16)
            .bind(at.generation)
            .fetch_all(pool)
            .await?
            .into_iter()
            .map(|(d, k, s)| (d, k as i64, s))
            .collect()
    });
    let mut stamps = HashMap::with_capacity(rows.len());
    let mut first = None;
    let mut checkpoints = Vec::new();
    for (day, kind, stamp) in rows {
        let day = jd(day);
        if kind == DAILY && first.is_none() {
            first = Some(day);
        }
        if kind == CHECKPOINT {
            checkpoints.push(day);
        }
        stamps.insert((kind, day), stamp);
    }
    Ok(match (first, checkpoints.last()) {
        (Some(first), Some(&last)) => Some(Layout {
            first,
            last,
            checkpoints,
            stamps,
        }),
        _ => None,
    })
}

/// Every entity of `universe`'s counters over `days` (inclusive), exactly, by position in
/// the universe (zero for entities without metrics in the range), at the snapshot's
/// generation. The same blobs as [`range`], decoded ones taken from `caches` when their
/// stamp is unchanged; entities of the blobs outside the universe are left out.
pub async fn range_for(
    db: &Db,
    caches: &super::cache::Caches,
    snapshot: &Snapshot,
    org_key: i64,
    level: FactLevel,
    days: std::ops::RangeInclusive<Date>,
    universe: Arc<Universe>,
) -> Result<Vec<Counters>, sqlx::Error> {
    let at = RangeAt {
        db,
        caches,
        snapshot,
        org_key,
        level,
    };
    range_of_columns(at, days, universe, None).await
}

/// [`range_for`] of the spend alone (micros, by position in the universe): one column of
/// the blobs summed instead of eleven, for the cohort ROAS's denominators.
pub async fn spend_for(
    db: &Db,
    caches: &super::cache::Caches,
    snapshot: &Snapshot,
    org_key: i64,
    level: FactLevel,
    days: std::ops::RangeInclusive<Date>,
    universe: Arc<Universe>,
) -> Result<Vec<i64>, sqlx::Error> {
    let at = RangeAt {
        db,
        caches,
        snapshot,
        org_key,
        level,
    };
    let sums = range_of_columns(at, days, universe, Some(SPEND_COLUMN)).await?;
    Ok(sums.iter().map(Counters::spend_micros).collect())
}

/// The position of the spend among the counters ([`Counters::spend_micros`]).
const SPEND_COLUMN: usize = 10;

/// The blobs a range sum reads: (org, level) in the snapshot, decoded through `caches`.
#[derive(Clone, Copy)]
struct RangeAt<'a> {
    db: &'a Db,
    caches: &'a super::cache::Caches,
    snapshot: &'a Snapshot,
    org_key: i64,
    level: FactLevel,
}

/// [`range_for`], of counter `only` alone when given (the others left zero).
async fn range_of_columns(
    at_: RangeAt<'_>,
    days: std::ops::RangeInclusive<Date>,
    universe: Arc<Universe>,
    only: Option<usize>,
) -> Result<Vec<Counters>, sqlx::Error> {
    let RangeAt {
        db,
        caches,
        snapshot,
        org_key,
        level,
    } = at_;
    let at = snapshot.blobs(db, org_key, level).await?;
    let Some(layout) = layout_at(db, at).await? else {
        return Ok(vec![Counters::default(); universe.len()]);
    };
    let mut cached: Vec<(Arc<DecodedBlob>, i64)> = Vec::new();
    // Blobs read from the database: ((kind, day), stamp, bytes, sign).
    type Fetched = ((i64, i32), i64, Vec<u8>, i64);
    let mut fetched: Vec<Fetched> = Vec::new();
    for (kind, day, sign) in layout.plan(jd(*days.start()), jd(*days.end())) {
        let Some(&stamp) = layout.stamps.get(&(kind, day)) else {
            continue;
        };
        if let Some(b) = caches.blob((org_key, level.code(), kind, day), stamp) {
            cached.push((b, sign));
            continue;
        }
        match blob(db, at, kind, day).await? {
            Some((stamp, data)) => fetched.push(((kind, day), stamp, data, sign)),
            None => {
                snapshot.missed.store(true, Ordering::Relaxed);
                return Ok(vec![Counters::default(); universe.len()]);
            }
        }
    }
    let caches = caches.clone();
    blocking(move || {
        let mut blobs = cached;
        for ((kind, day), stamp, data, sign) in fetched {
            let b = Arc::new(DecodedBlob::decode(&data)?);
            caches.put_blob((org_key, level.code(), kind, day), stamp, b.clone());
            blobs.push((b, sign));
        }
        let mut sums = match only {
            Some(column) => Sums::of_column(&universe.ids, column),
            None => Sums::new(&universe.ids),
        };
        for (b, sign) in &blobs {
            sums.add(b, *sign);
        }
        Ok(sums.into_counters())
    })
    .await
}

/// The same answer as [`range`] by a `GROUP BY` over the raw daily rows: the reference the
/// benchmark compares against and the tests check [`range`] with.
pub async fn range_naive(
    db: &Db,
    org_key: i64,
    level: FactLevel,
    from: Date,
    to: Date,
    scope: Scope,
) -> Result<Vec<EntitySums>, sqlx::Error> {
    let (scope_sql, binds) = scope.sql(5);
    let sums = COUNTER_COLUMNS
        .iter()
        .map(|c| format!("CAST(SUM({c}) AS BIGINT)"))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "SELECT entity_id, MAX(campaign_id), MAX(ad_group_id), {sums} FROM asa_day_metrics \
         WHERE org_key = $1 AND level = $2 AND day >= $3 AND day <= $4{scope_sql} \
         GROUP BY entity_id ORDER BY entity_id"
    );
    let rows: Vec<EntitySums> = on_native!(db, pool => {
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql.as_str())).bind(org_key).bind(level.code()).bind(from).bind(to);
        for b in &binds {
            q = q.bind(*b);
        }
        let rows = q.fetch_all(pool).await?;
        rows.iter().map(|r| decode_sums(r, 0)).collect::<Result<_, _>>()
    })?;
    Ok(rows.into_iter().filter(|e| !e.counters.is_zero()).collect())
}

/// The scope's counters per day over `days` at `level` (days without metrics left
/// out), from the daily blobs of the snapshot's generation; `entities` restricts them to
/// those entity ids when given.
pub async fn daily(
    db: &Db,
    snapshot: &Snapshot,
    org_key: i64,
    level: FactLevel,
    days: RangeInclusive<Date>,
    scope: Scope,
    entities: Option<&[i64]>,
) -> Result<Vec<(Date, Counters)>, sqlx::Error> {
    let generation = snapshot.generation(db, org_key, level).await?;
    let sql = format!(
        "SELECT day, data FROM asa_day_blobs WHERE org_key = $1 AND level = $2 \
         AND kind = $3 AND day >= $4 AND day <= $5{} ORDER BY day",
        visible(6)
    );
    let blobs: Vec<(Date, Vec<u8>)> = on_native!(db, pool => {
        sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(org_key).bind(level.code()).bind(DAILY).bind(*days.start()).bind(*days.end()).bind(generation).fetch_all(pool).await?
    });
    let mut only: Option<Vec<i64>> = entities.map(<[i64]>::to_vec);
    if let Some(ids) = &mut only {
        ids.sort_unstable();
    }
    blocking(move || {
        let mut out = Vec::new();
        for (day, data) in blobs {
            let mut d = codec::Decoder::new(&data)?;
            let mut sum = Counters::default();
            let mut any = false;
            while let Some(e) = d.next_entry()? {
                let wanted = match &only {
                    Some(ids) => ids.binary_search(&e.entity_id).is_ok(),
                    None => true,
                };
                if wanted && scope.contains(&e) {
                    sum.add(&e.counters);
                    any = true;
                }
            }
            if any {
                out.push((day, sum));
            }
        }
        Ok(out)
    })
    .await
}

/// The newest day with metrics of (org, level), for "data through".
pub async fn last_day(
    db: &Db,
    org_key: i64,
    level: FactLevel,
) -> Result<Option<Date>, sqlx::Error> {
    Ok(sums_bounds(db, org_key, level).await?.map(|(_, last)| last))
}
