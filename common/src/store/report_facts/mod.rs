//! The facts every report reads: the raw daily rows of `asa_day_metrics` (written by the
//! sync, the source of truth) and the day blobs of `asa_day_blobs` (derived here), which
//! make the sums of any date range exact and fast.
//!
//! A blob packs a list of entities of one (org_key, level) with their campaign, ad group
//! and 11 counters ([`codec`]: sorted ids, delta varints, zigzag counters):
//!
//! - a **daily** blob per day with metrics: that day's non-zero rows;
//! - a **checkpoint** every [`CHECKPOINT_EVERY`] days (and on the last stored day): every
//!   entity's counters summed from the first stored day through that day.
//!
//! The sums of `[a, b]` are `cum(b) - cum(a - 1)`, where `cum(d)` is the checkpoint nearest
//! `d` plus the daily blobs between it and `d` (or minus those past `d`): at most two
//! checkpoints and a few daily blobs whatever the range's length, or the range's own daily
//! blobs when that is cheaper ([`range`]; [`range_naive`], a `GROUP BY` over the raw rows,
//! is kept for the benchmark and the tests that prove the two agree). The graph sums the
//! daily blobs of its days ([`daily`]).
//!
//! The sync calls [`refresh`] after it replaced days; it rewrites the daily blobs from the
//! first changed day on and the checkpoints after it, carrying the running sums from the
//! checkpoint before. History fetched before the first stored day (the backfill) gets its
//! daily blobs and its sums added to every later checkpoint, without rereading later days.
//! With no blobs at all (a new org, or an install migrated from the older running-sums
//! table) it builds them from the first raw day.
//!
//! # Generations
//!
//! A refresh writes many blobs, each day in its own short transaction (SQLite has one write
//! lock, and a year of a large campaign group takes minutes to rebuild). Readers still see
//! one complete state: every blob row carries the `generation` of the refresh that wrote it
//! and, once replaced or removed, the generation it was `retired_in`. A refresh writes
//! generation `g + 1` while readers keep reading `g` (the published one, in
//! `asa_blob_generations`), and publishes `g + 1` in one statement when it is done; a
//! refresh cut short leaves an unpublished generation the next one deletes. A report takes
//! the generation of each (org, level) once ([`Snapshot`]) and reads every blob of it there,
//! so its rows, totals and graph are all from before a refresh or all from after it.
//!
//! Replaced blobs are deleted (swept) when the next refresh of the same (org, level) begins,
//! after it recorded in `swept` that readers of older generations may miss blobs:
//! [`Snapshot::holds`] tells a reader that took one to read again (in practice, a report
//! that ran across a whole refresh).
//!
//! SQL here runs on the native pools ([`Db::native`]): dates and bulk writes need them. The
//! statements are the same text on both backends; [`on_native!`] runs one body per pool type.

pub mod cache;
mod codec;
pub mod decoded;
mod write;

use std::{
    collections::{BTreeMap, HashMap},
    ops::RangeInclusive,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
};

use time::Date;

pub use write::{Refreshed, insert_days, refresh};

use crate::db::{Db, Native};
use cache::Universe;
use decoded::{DecodedBlob, Sums};

/// Runs `$body` with `$pool` bound to the database's native pool, whichever backend it is
/// (the body is compiled once per pool type, so it may use backend-generic sqlx calls).
macro_rules! on_native {
    ($db:expr, $pool:ident => $body:expr) => {
        match &$db.native {
            Native::Sqlite($pool) => $body,
            Native::Postgres($pool) => $body,
        }
    };
}
pub(crate) use on_native;

/// The counters of `asa_day_metrics`, in column order.
pub const COUNTER_COLUMNS: [&str; 11] = [
    "impressions",
    "taps",
    "tap_installs",
    "view_installs",
    "tap_new_downloads",
    "tap_redownloads",
    "view_new_downloads",
    "view_redownloads",
    "tap_pre_orders",
    "view_pre_orders",
    "spend_micros",
];

/// The level of a fact row (the `level` column of `asa_day_metrics`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FactLevel {
    Campaign = 1,
    AdGroup = 2,
    Keyword = 3,
    SearchTerm = 4,
    Ad = 5,
}

impl FactLevel {
    /// Every level, parents first (the order a sync fetches them in).
    pub const ALL: [FactLevel; 5] = [
        FactLevel::Campaign,
        FactLevel::AdGroup,
        FactLevel::Keyword,
        FactLevel::SearchTerm,
        FactLevel::Ad,
    ];

    /// The stored number.
    pub fn code(self) -> i64 {
        self as i64
    }
}

/// Counters summed over some days: the columns of [`COUNTER_COLUMNS`], in that order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Counters(pub [i64; 11]);

impl Counters {
    pub fn impressions(&self) -> i64 {
        self.0[0]
    }
    pub fn taps(&self) -> i64 {
        self.0[1]
    }
    pub fn tap_installs(&self) -> i64 {
        self.0[2]
    }
    pub fn view_installs(&self) -> i64 {
        self.0[3]
    }
    pub fn tap_new_downloads(&self) -> i64 {
        self.0[4]
    }
    pub fn tap_redownloads(&self) -> i64 {
        self.0[5]
    }
    pub fn view_new_downloads(&self) -> i64 {
        self.0[6]
    }
    pub fn view_redownloads(&self) -> i64 {
        self.0[7]
    }
    pub fn tap_pre_orders(&self) -> i64 {
        self.0[8]
    }
    pub fn view_pre_orders(&self) -> i64 {
        self.0[9]
    }
    /// Spend in micros of the campaign group's currency.
    pub fn spend_micros(&self) -> i64 {
        self.0[10]
    }

    /// Adds `other` in place.
    pub fn add(&mut self, other: &Counters) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }

    /// `self - other`.
    pub fn minus(&self, other: &Counters) -> Counters {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a -= b;
        }
        out
    }

    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&v| v == 0)
    }
}

/// One entity's raw metrics on one day (a row of `asa_day_metrics`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayRow {
    pub org_key: i64,
    pub level: FactLevel,
    pub day: Date,
    pub entity_id: i64,
    pub campaign_id: i64,
    /// 0 at the campaign level.
    pub ad_group_id: i64,
    pub counters: Counters,
}

/// One entity's counters over a range of days.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntitySums {
    pub entity_id: i64,
    pub campaign_id: i64,
    pub ad_group_id: i64,
    pub counters: Counters,
}

/// Which entities of a level a read covers: all of the org, or those of one campaign or
/// one ad group.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scope {
    pub campaign_id: Option<i64>,
    pub ad_group_id: Option<i64>,
}

impl Scope {
    /// Whether an entity with these parents is in the scope.
    pub fn contains(&self, e: &EntitySums) -> bool {
        self.campaign_id.is_none_or(|c| c == e.campaign_id)
            && self.ad_group_id.is_none_or(|g| g == e.ad_group_id)
    }

    /// ` AND …` restricting rows aliased `t` to the scope, with binds from `$first` on.
    fn sql(&self, first: usize) -> (String, Vec<i64>) {
        let mut sql = String::new();
        let mut binds = Vec::new();
        if let Some(c) = self.campaign_id {
            sql.push_str(&format!(" AND campaign_id = ${}", first + binds.len()));
            binds.push(c);
        }
        if let Some(g) = self.ad_group_id {
            sql.push_str(&format!(" AND ad_group_id = ${}", first + binds.len()));
            binds.push(g);
        }
        (sql, binds)
    }
}

fn counter_list(prefix: &str) -> String {
    COUNTER_COLUMNS
        .iter()
        .map(|c| format!("{prefix}{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Decodes `entity_id, campaign_id, ad_group_id` and the 11 counters from column `at` on.
fn decode_sums<R>(row: &R, at: usize) -> Result<EntitySums, sqlx::Error>
where
    R: sqlx::Row,
    usize: sqlx::ColumnIndex<R>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    let mut counters = Counters::default();
    for (i, c) in counters.0.iter_mut().enumerate() {
        *c = row.try_get(at + 3 + i)?;
    }
    Ok(EntitySums {
        entity_id: row.try_get(at)?,
        campaign_id: row.try_get(at + 1)?,
        ad_group_id: row.try_get(at + 2)?,
        counters,
    })
}

/// Blob kinds (the `kind` column of `asa_day_blobs`).
pub(crate) const DAILY: i64 = 1;
pub(crate) const CHECKPOINT: i64 = 2;

/// Checkpoints fall on every day whose Julian day number is `CHECKPOINT_EVERY - 1` modulo
/// this (plus the last stored day), so a day is at most `CHECKPOINT_EVERY / 2` daily blobs
/// from a checkpoint.
pub const CHECKPOINT_EVERY: i32 = 16;

/// What reading a checkpoint costs in daily blobs (a checkpoint holds every entity so far
/// with larger sums, a daily blob only that day's entities).
const CHECKPOINT_COST: i32 = 2;

/// Whether `jd` is a regular checkpoint day.
pub(crate) fn on_grid(jd: i32) -> bool {
    jd.rem_euclid(CHECKPOINT_EVERY) == CHECKPOINT_EVERY - 1
}

pub(crate) fn jd(d: Date) -> i32 {
    d.to_julian_day()
}

pub(crate) fn from_jd(jd: i32) -> Date {
    Date::from_julian_day(jd).expect("a Julian day of a stored date")
}

/// Which blobs (org, level) has in one generation: the first daily blob's day, the last
/// checkpoint's day (the last stored day), every checkpoint day, as Julian days, and the
/// stamp of every blob by (kind, Julian day).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Layout {
    pub first: i32,
    pub last: i32,
    pub checkpoints: Vec<i32>,
    pub stamps: HashMap<(i64, i32), i64>,
}

impl Layout {
    /// Adds to `terms` the blobs whose signed sum is `sign` × the counters summed over every
    /// stored day up to `d`, from whichever checkpoint is nearest (or from nothing, before the
    /// first day).
    fn cumulative(&self, d: i32, sign: i64, terms: &mut BTreeMap<(i64, i32), i64>) {
        if d < self.first {
            return;
        }
        let d = d.min(self.last);
        let i = self.checkpoints.partition_point(|&c| c <= d);
        let below = i.checked_sub(1).map(|i| self.checkpoints[i]);
        let below_cost = match below {
            Some(c) => d - c + CHECKPOINT_COST,
            None => d - self.first + 1,
        };
        let above = self
            .checkpoints
            .get(i)
            .copied()
            .filter(|_| below != Some(d));
        let mut add = |kind, day, s| *terms.entry((kind, day)).or_insert(0) += s;
        match above {
            Some(c) if c - d + CHECKPOINT_COST < below_cost => {
                add(CHECKPOINT, c, sign);
                for day in d + 1..=c {
                    add(DAILY, day, -sign);
                }
            }
            _ => {
                let from = match below {
                    Some(c) => {
                        add(CHECKPOINT, c, sign);
                        c + 1
                    }
                    None => self.first,
                };
                for day in from..=d {
                    add(DAILY, day, sign);
                }
            }
        }
    }

    /// The blobs to add (sign 1) and subtract (sign -1) for the sums over `[a, b]`: the
    /// cheaper of the daily blobs of the range and the difference of two cumulative sums.
    pub(crate) fn plan(&self, a: i32, b: i32) -> Vec<(i64, i32, i64)> {
        let (a, b) = (a.max(self.first), b.min(self.last));
        if a > b {
            return Vec::new();
        }
        let mut terms = BTreeMap::new();
        self.cumulative(b, 1, &mut terms);
        self.cumulative(a - 1, -1, &mut terms);
        terms.retain(|_, s| *s != 0);
        let cost: i32 = terms
            .keys()
            .map(|(k, _)| if *k == CHECKPOINT { CHECKPOINT_COST } else { 1 })
            .sum();
        if cost > b - a {
            return (a..=b).map(|d| (DAILY, d, 1)).collect();
        }
        // Checkpoints first: they hold the most entities, the others merge into them.
        let mut out: Vec<_> = terms.into_iter().map(|((k, d), s)| (k, d, s)).collect();
        out.sort_by_key(|(k, d, s)| (-k, -s, *d));
        out
    }
}

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

/// Every entity of `universe`'s counters over the days `from..=to` (inclusive), exactly, by
/// position in the universe (zero for entities without metrics in the range), at the
/// snapshot's generation. The same blobs as [`range`], decoded ones taken from the database
/// handle's cache when their stamp is unchanged; entities of the blobs outside the universe
/// are left out.
pub async fn range_for(
    db: &Db,
    snapshot: &Snapshot,
    org_key: i64,
    level: FactLevel,
    from: Date,
    to: Date,
    universe: Arc<Universe>,
) -> Result<Vec<Counters>, sqlx::Error> {
    let at = snapshot.blobs(db, org_key, level).await?;
    let Some(layout) = layout_at(db, at).await? else {
        return Ok(vec![Counters::default(); universe.len()]);
    };
    let caches = &db.report_caches;
    let mut cached: Vec<(Arc<DecodedBlob>, i64)> = Vec::new();
    // Blobs read from the database: ((kind, day), stamp, bytes, sign).
    type Fetched = ((i64, i32), i64, Vec<u8>, i64);
    let mut fetched: Vec<Fetched> = Vec::new();
    for (kind, day, sign) in layout.plan(jd(from), jd(to)) {
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
        let mut sums = Sums::new(&universe.ids);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Days 100..=200 stored, checkpoints on the grid and at 200.
    fn layout() -> Layout {
        let mut checkpoints: Vec<i32> = (100..=200).filter(|&d| on_grid(d)).collect();
        checkpoints.push(200);
        Layout {
            first: 100,
            last: 200,
            checkpoints,
            ..Layout::default()
        }
    }

    /// What a plan sums, day by day: the signed number of times each day is counted.
    fn coverage(l: &Layout, plan: &[(i64, i32, i64)]) -> BTreeMap<i32, i64> {
        let mut out = BTreeMap::new();
        for &(kind, day, sign) in plan {
            let days = if kind == CHECKPOINT {
                l.first..=day
            } else {
                day..=day
            };
            for d in days {
                *out.entry(d).or_insert(0) += sign;
            }
        }
        out.retain(|_, n| *n != 0);
        out
    }

    #[test]
    fn every_plan_counts_each_day_of_the_range_once_and_reads_little() {
        let l = layout();
        for a in 90..=210 {
            for b in a..=210 {
                let plan = l.plan(a, b);
                let want: BTreeMap<i32, i64> = (a.max(100)..=b.min(200)).map(|d| (d, 1)).collect();
                assert_eq!(coverage(&l, &plan), want, "[{a}, {b}]");
                let checkpoints = plan.iter().filter(|t| t.0 == CHECKPOINT).count();
                let dailies = plan.len() - checkpoints;
                assert!(checkpoints <= 2, "[{a}, {b}] {plan:?}");
                assert!(
                    dailies <= CHECKPOINT_EVERY as usize + 2,
                    "[{a}, {b}] reads {dailies} daily blobs"
                );
            }
        }
    }

    #[test]
    fn a_range_ending_on_the_last_day_reads_its_checkpoint() {
        let l = layout();
        let plan = l.plan(171, 200);
        assert!(plan.contains(&(CHECKPOINT, 200, 1)), "{plan:?}");
        assert!(
            plan.len() <= 1 + 1 + CHECKPOINT_EVERY as usize / 2,
            "{plan:?}"
        );
    }
}
