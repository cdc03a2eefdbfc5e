//! The facts every report reads: the raw daily rows of `asa_day_metrics` (written by the
//! sync) and their running sums in `asa_day_sums` (derived here), which make the sums of
//! any date range exact and fast.
//!
//! For each (org_key, level, day) `asa_day_sums` holds one row per entity that has had
//! metrics on or before that day: the entity's counters summed over every stored day up to
//! and including `day`. The sums of a range `[a, b]` are the slice at `b` minus the slice at
//! `a - 1`: two contiguous primary-key slices, merged by entity id ([`range`]), whatever the
//! range's length — instead of a `GROUP BY` over every daily row in the range
//! ([`range_naive`], kept for the benchmark and the tests that prove the two agree).
//!
//! The sync calls [`refresh`] after it replaced days; it rewrites the sums from the first
//! changed day on (a restated day changes every later running sum of its entities), and from
//! the first raw day when history was added before the stored range.
//!
//! SQL here runs on the native pools ([`Db::native`]): dates and bulk writes need them. The
//! statements are the same text on both backends; [`on_native!`] runs one body per pool type.

mod write;

use std::collections::BTreeMap;

use time::Date;

pub use write::{insert_days, refresh};

use crate::db::{Db, Native};

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

/// The first and last day of the stored running sums of (org, level), if any.
pub async fn sums_bounds(
    db: &Db,
    org_key: i64,
    level: FactLevel,
) -> Result<Option<(Date, Date)>, sqlx::Error> {
    let first =
        "SELECT day FROM asa_day_sums WHERE org_key = $1 AND level = $2 ORDER BY day LIMIT 1";
    let last =
        "SELECT day FROM asa_day_sums WHERE org_key = $1 AND level = $2 ORDER BY day DESC LIMIT 1";
    on_native!(db, pool => {
        let a: Option<Date> = sqlx::query_scalar(first).bind(org_key).bind(level.code()).fetch_optional(pool).await?;
        let b: Option<Date> = sqlx::query_scalar(last).bind(org_key).bind(level.code()).fetch_optional(pool).await?;
        Ok(a.zip(b))
    })
}

/// The running sums of every entity of the scope at `day`, ordered by entity id.
async fn slice(
    db: &Db,
    org_key: i64,
    level: FactLevel,
    day: Date,
    scope: Scope,
) -> Result<Vec<EntitySums>, sqlx::Error> {
    let (scope_sql, binds) = scope.sql(4);
    let sql = format!(
        "SELECT entity_id, campaign_id, ad_group_id, {} FROM asa_day_sums \
         WHERE org_key = $1 AND level = $2 AND day = $3{scope_sql} ORDER BY entity_id",
        counter_list("")
    );
    on_native!(db, pool => {
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql.as_str())).bind(org_key).bind(level.code()).bind(day);
        for b in &binds {
            q = q.bind(*b);
        }
        let rows = q.fetch_all(pool).await?;
        rows.iter().map(|r| decode_sums(r, 0)).collect()
    })
}

/// Every entity's counters over the days `from..=to` (inclusive) within `scope`, exactly,
/// ordered by entity id; entities without metrics in the range are left out. Reads two
/// slices of the running sums (at `to` and at `from - 1`) and subtracts them.
pub async fn range(
    db: &Db,
    org_key: i64,
    level: FactLevel,
    from: Date,
    to: Date,
    scope: Scope,
) -> Result<Vec<EntitySums>, sqlx::Error> {
    let Some((first, last)) = sums_bounds(db, org_key, level).await? else {
        return Ok(Vec::new());
    };
    let to = to.min(last);
    if from > to || to < first {
        return Ok(Vec::new());
    }
    let end = slice(db, org_key, level, to, scope).await?;
    let before = match from.previous_day() {
        Some(day) if day >= first => slice(db, org_key, level, day, scope).await?,
        _ => Vec::new(),
    };
    Ok(subtract(end, before))
}

/// `end - before`, both ordered by entity id; entities whose difference is zero are dropped.
fn subtract(end: Vec<EntitySums>, before: Vec<EntitySums>) -> Vec<EntitySums> {
    let mut out = Vec::with_capacity(end.len());
    let mut b = before.into_iter().peekable();
    for mut e in end {
        while b.peek().is_some_and(|x| x.entity_id < e.entity_id) {
            b.next();
        }
        if let Some(x) = b.peek().filter(|x| x.entity_id == e.entity_id) {
            e.counters = e.counters.minus(&x.counters);
            b.next();
        }
        if !e.counters.is_zero() {
            out.push(e);
        }
    }
    out
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

/// The scope's counters per day over `from..=to` at `level` (days without rows left out),
/// from the raw daily rows; `entities` restricts them to those entity ids when given.
pub async fn daily(
    db: &Db,
    org_key: i64,
    level: FactLevel,
    from: Date,
    to: Date,
    scope: Scope,
    entities: Option<&[i64]>,
) -> Result<Vec<(Date, Counters)>, sqlx::Error> {
    let (scope_sql, binds) = scope.sql(5);
    let sums = COUNTER_COLUMNS
        .iter()
        .map(|c| format!("CAST(SUM({c}) AS BIGINT)"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut out: BTreeMap<Date, Counters> = BTreeMap::new();
    // Entity lists go in chunks of inlined ids, so no statement grows without bound.
    let chunks: Vec<Option<&[i64]>> = match entities {
        None => vec![None],
        Some([]) => return Ok(Vec::new()),
        Some(ids) => ids.chunks(10_000).map(Some).collect(),
    };
    for chunk in chunks {
        let mut sql = format!(
            "SELECT day, {sums} FROM asa_day_metrics \
             WHERE org_key = $1 AND level = $2 AND day >= $3 AND day <= $4{scope_sql}"
        );
        if let Some(ids) = chunk {
            // Ids are integers: inlined, as parameters they would cost SQLite a name lookup
            // each (quadratic over thousands).
            let list = ids
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            sql.push_str(&format!(" AND entity_id IN ({list})"));
        }
        sql.push_str(" GROUP BY day ORDER BY day");
        let rows: Vec<(Date, Counters)> = on_native!(db, pool => {
            let mut q = sqlx::query(sqlx::AssertSqlSafe(sql.as_str())).bind(org_key).bind(level.code()).bind(from).bind(to);
            for b in &binds {
                q = q.bind(*b);
            }
            let rows = q.fetch_all(pool).await?;
            rows.iter()
                .map(|r| {
                    use sqlx::Row;
                    let mut c = Counters::default();
                    for (i, v) in c.0.iter_mut().enumerate() {
                        *v = r.try_get(1 + i)?;
                    }
                    Ok((r.try_get::<Date, _>(0)?, c))
                })
                .collect::<Result<_, sqlx::Error>>()
        })?;
        for (day, c) in rows {
            out.entry(day).or_default().add(&c);
        }
    }
    Ok(out.into_iter().collect())
}

/// The newest day with raw metrics of (org, level), for "data through".
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

    fn sums(id: i64, v: i64) -> EntitySums {
        EntitySums {
            entity_id: id,
            campaign_id: 1,
            ad_group_id: 2,
            counters: Counters([v; 11]),
        }
    }

    #[test]
    fn subtracting_slices_keeps_entities_that_moved() {
        let end = vec![sums(1, 5), sums(2, 7), sums(4, 3)];
        let before = vec![sums(1, 5), sums(2, 4), sums(3, 9)];
        let got = subtract(end, before);
        assert_eq!(got, vec![sums(2, 3), sums(4, 3)]);
    }
}
