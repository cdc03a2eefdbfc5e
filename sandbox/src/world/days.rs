//! Served campaign-days kept for the next reports. A day older than the restatement window
//! ([`crate::sim::late::SETTLE_DAYS`]) is final: writes take effect from the next simulated day,
//! so only a write under the campaign (or to its ad account's creatives) can change what it
//! served, and such a write moves the campaign's stamp ([`crate::world::World::stamp`]).
//! Each kept day holds, per bidder with traffic, its plan position and its served numbers
//! (packed: counts as `u32`, one CPT), and the day's budget cap; a report over a 90-day
//! window of the large world reads them instead of simulating 9 million bidder-days again.
//! The cache also keeps the search-term and ad rows of settled weeks ([`Week`]): a
//! search-term or ad report's totals over a 90-day window add up a dozen kept weeks per
//! campaign instead of splitting 90 days of bidder-days among terms or ads again.
//! Bounded in bytes (oldest kept first out); worlds made for tests have no cache.

use std::collections::VecDeque;
use std::sync::Arc;

use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use time::Date;

use super::Id;
use crate::totals::Totals;

/// How a campaign-day over budget was cut: the factor, and the units that bought one tap
/// back with what flooring left.
#[derive(Debug, Clone, Default)]
pub struct Cap {
    pub(crate) factor: Option<f64>,
    pub(crate) bonus: Vec<Id>,
}

/// Bytes of kept days at most, by default.
pub const DEFAULT_BYTES: usize = 400 << 20;

/// The six counts of a row (impressions, taps, tap new downloads and redownloads, view new
/// downloads and redownloads) as `u32`; spend is kept by whoever holds them.
#[derive(Debug, Clone, Copy)]
struct Counts([u32; 6]);

impl Counts {
    /// `t`'s counts; `None` when one does not fit in a `u32`.
    fn of(t: &Totals) -> Option<Self> {
        let c = |x: u64| u32::try_from(x).ok();
        Some(Counts([
            c(t.impressions)?,
            c(t.taps)?,
            c(t.tap_new_downloads)?,
            c(t.tap_redownloads)?,
            c(t.view_new_downloads)?,
            c(t.view_redownloads)?,
        ]))
    }

    fn taps(&self) -> u64 {
        u64::from(self.0[1])
    }

    /// The counts with `spend`.
    fn totals(&self, spend: i64) -> Totals {
        let [impressions, taps, tn, tr, vn, vr] = self.0.map(u64::from);
        Totals {
            impressions,
            taps,
            tap_new_downloads: tn,
            tap_redownloads: tr,
            view_new_downloads: vn,
            view_redownloads: vr,
            spend,
        }
    }
}

/// One bidder-day, packed in 32 bytes: positions as `u16`, counts and CPT as `u32`,
/// spend as taps × CPT.
#[derive(Debug, Clone, Copy)]
pub struct Packed {
    /// Group and unit position in the campaign's plan.
    pub group: u16,
    pub unit: u16,
    counts: Counts,
    cpt: u32,
}

// The kept-days budget counts on this size.
const _: () = assert!(std::mem::size_of::<Packed>() == 32);

impl Packed {
    /// Packs `t`; `None` when a count does not fit or spend is not taps × one CPT.
    pub fn new(group: usize, unit: usize, t: &Totals) -> Option<Self> {
        let cpt = if t.taps > 0 {
            t.spend / t.taps as i64
        } else {
            0
        };
        if cpt * t.taps as i64 != t.spend || (t.taps == 0 && t.spend != 0) {
            return None;
        }
        Some(Packed {
            group: u16::try_from(group).ok()?,
            unit: u16::try_from(unit).ok()?,
            counts: Counts::of(t)?,
            cpt: u32::try_from(cpt).ok()?,
        })
    }

    /// The numbers it holds.
    pub fn totals(&self) -> Totals {
        self.counts
            .totals(self.counts.taps() as i64 * i64::from(self.cpt))
    }
}

/// A settled campaign-day as served.
#[derive(Debug)]
pub struct Day {
    /// The campaign's stamp when it was computed.
    pub stamp: u64,
    pub rows: Vec<Packed>,
    /// The rows added up per ad group (by plan position), for campaign and ad group rows.
    pub groups: Vec<(u32, Totals)>,
    pub cap: Cap,
}

impl Day {
    fn bytes(&self) -> usize {
        std::mem::size_of::<Day>()
            + self.rows.capacity() * std::mem::size_of::<Packed>()
            + self.groups.capacity() * std::mem::size_of::<(u32, Totals)>()
            + self.cap.bonus.capacity() * std::mem::size_of::<Id>()
    }
}

/// Days in a kept week.
pub const WEEK_DAYS: i64 = 7;

/// Whether kept weeks start on `day` (weeks run from a Julian day divisible by 7: Mondays).
pub fn week_starts(day: Date) -> bool {
    day.to_julian_day().rem_euclid(WEEK_DAYS as i32) == 0
}

/// Totals of one row over a kept week: counts as `u32`, spend in full (days of one row
/// have different CPTs).
#[derive(Debug, Clone, Copy)]
pub struct WeekRow {
    /// The row's position: for search terms, flat bidder position × term slots + term.
    pub slot: u32,
    counts: Counts,
    spend: i64,
}

impl WeekRow {
    /// Packs `t`; `None` when a count does not fit.
    pub fn new(slot: u32, t: &Totals) -> Option<Self> {
        Some(WeekRow {
            slot,
            counts: Counts::of(t)?,
            spend: t.spend,
        })
    }

    /// The numbers it holds.
    pub fn totals(&self) -> Totals {
        self.counts.totals(self.spend)
    }
}

/// Which rows a kept week holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WeekKind {
    /// Search-term rows; slot: flat bidder position × term slots + term position.
    Terms,
    /// Ad rows; slot: the ad's position in the campaign's ads (ad group by ad group).
    Ads,
}

/// The search-term or ad rows of a campaign over a settled week (the days from a
/// [`week_starts`] day on), summed per row: what a report adds for those days.
#[derive(Debug)]
pub struct Week {
    /// The campaign's stamp when it was computed.
    pub stamp: u64,
    /// Rows with traffic, by slot.
    pub rows: Vec<WeekRow>,
}

impl Week {
    fn bytes(&self) -> usize {
        std::mem::size_of::<Week>() + self.rows.capacity() * std::mem::size_of::<WeekRow>()
    }
}

/// What the cache holds, oldest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    Day(Id, Date),
    Week(Id, Date, WeekKind),
}

#[derive(Default)]
struct Kept {
    days: FxHashMap<(Id, Date), Arc<Day>>,
    weeks: FxHashMap<(Id, Date, WeekKind), Arc<Week>>,
    order: VecDeque<Key>,
    bytes: usize,
}

impl Kept {
    /// Drops `key`'s entry; its bytes.
    fn remove(&mut self, key: Key) -> usize {
        match key {
            Key::Day(c, d) => self.days.remove(&(c, d)).map_or(0, |x| x.bytes()),
            Key::Week(c, d, k) => self.weeks.remove(&(c, d, k)).map_or(0, |x| x.bytes()),
        }
    }

    /// Keeps an entry of `size` bytes under `key` (already inserted in its map, replacing
    /// `old` bytes when it was there), dropping the oldest past `limit`.
    fn account(&mut self, key: Key, old: Option<usize>, size: usize, limit: usize) {
        match old {
            Some(old) => self.bytes -= old,
            None => self.order.push_back(key),
        }
        self.bytes += size;
        while self.bytes > limit {
            let Some(oldest) = self.order.pop_front() else {
                break;
            };
            let gone = self.remove(oldest);
            self.bytes -= gone;
        }
    }
}

/// `rows` added up per ad group, in the order they come.
pub fn group_sums(rows: &[Packed]) -> Vec<(u32, Totals)> {
    let mut out: Vec<(u32, Totals)> = Vec::new();
    for p in rows {
        match out.last_mut() {
            Some((g, t)) if *g == u32::from(p.group) => t.add(&p.totals()),
            _ => out.push((u32::from(p.group), p.totals())),
        }
    }
    out
}

/// Settled campaign-days, shared by every snapshot of one world.
pub struct DayCache {
    kept: Mutex<Kept>,
    limit: usize,
}

impl std::fmt::Debug for DayCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept = self.kept.lock();
        f.debug_struct("DayCache")
            .field("days", &kept.days.len())
            .field("weeks", &kept.weeks.len())
            .field("bytes", &kept.bytes)
            .field(
                "week_bytes",
                &kept.weeks.values().map(|w| w.bytes()).sum::<usize>(),
            )
            .field("limit", &self.limit)
            .finish()
    }
}

impl DayCache {
    /// A cache holding at most `limit` bytes of days.
    pub fn new(limit: usize) -> Self {
        DayCache {
            kept: Mutex::default(),
            limit,
        }
    }

    /// The kept day of `campaign`, if computed at `stamp`.
    pub fn get(&self, campaign: Id, day: Date, stamp: u64) -> Option<Arc<Day>> {
        let kept = self.kept.lock();
        kept.days
            .get(&(campaign, day))
            .filter(|d| d.stamp == stamp)
            .cloned()
    }

    /// Keeps `computed`, dropping the oldest days past the limit.
    pub fn put(&self, campaign: Id, day: Date, computed: Arc<Day>) {
        let size = computed.bytes();
        if size > self.limit {
            return;
        }
        let mut kept = self.kept.lock();
        let old = kept
            .days
            .insert((campaign, day), computed)
            .map(|o| o.bytes());
        kept.account(Key::Day(campaign, day), old, size, self.limit);
    }

    /// The kept `kind` week of `campaign` starting on `start`, if computed at `stamp`.
    pub fn week(&self, campaign: Id, start: Date, kind: WeekKind, stamp: u64) -> Option<Arc<Week>> {
        let kept = self.kept.lock();
        kept.weeks
            .get(&(campaign, start, kind))
            .filter(|w| w.stamp == stamp)
            .cloned()
    }

    /// Keeps the `kind` week of `campaign` starting on `start`.
    pub fn put_week(&self, campaign: Id, start: Date, kind: WeekKind, computed: Arc<Week>) {
        let size = computed.bytes();
        if size > self.limit {
            return;
        }
        let mut kept = self.kept.lock();
        let old = kept
            .weeks
            .insert((campaign, start, kind), computed)
            .map(|o| o.bytes());
        kept.account(Key::Week(campaign, start, kind), old, size, self.limit);
    }

    /// Weeks held.
    pub fn weeks(&self) -> usize {
        self.kept.lock().weeks.len()
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.kept.lock().bytes
    }
}
