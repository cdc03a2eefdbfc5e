//! The facts every report reads: the raw daily rows of `asa_day_metrics` (written by the
//! sync, the source of truth) and the day blobs of `asa_day_blobs` (derived here), which
//! make the sums of any date range exact and fast.
//!
//! One of the four stores over the synced data, each with one role: [`super::synced`]
//! writes it (the sync; `synced::metrics::replace_days` writes the raw rows), this one
//! holds the daily metrics and their blobs that reports sum, [`super::report_entities`]
//! gives the report engine the rows those metrics belong to, and [`super::campaign_views`]
//! answers the campaign routes' and edits' lookups of single campaigns and ad groups.
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
mod read;
mod write;

use std::collections::{BTreeMap, HashMap};

use time::Date;

pub(crate) use read::{Blobs, blob, layout_at, published, range_in};
pub use read::{
    Snapshot, campaign_generations_of_workspace, daily, last_day, range, range_for, range_naive,
    spend_for, sums_bounds,
};
pub use write::{Refreshed, insert_days, refresh};

use crate::db::Native;

pub(crate) use super::on_native;

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

/// The level of a fact row (the `level` column of `asa_day_metrics`, whose writer defines it).
pub use crate::store::synced::metrics::Level as FactLevel;

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
