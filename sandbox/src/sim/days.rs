//! Served campaign-days kept for the next reports. A day older than the restatement window
//! ([`super::late::SETTLE_DAYS`]) is final: writes take effect from the next simulated day,
//! so only a write under the campaign (or to its ad account's creatives) can change what it
//! served, and such a write moves the campaign's stamp ([`crate::world::World::stamp`]).
//! Each kept day holds, per bidder with traffic, its plan position and its served numbers
//! (packed: counts as `u32`, one CPT), and the day's budget cap; a report over a 90-day
//! window of the large world reads them instead of simulating 9 million bidder-days again.
//! Bounded in bytes (oldest kept first out); worlds made for tests have no cache.

use std::collections::VecDeque;
use std::sync::Arc;

use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use time::Date;

use super::Cap;
use crate::metrics::Totals;
use crate::world::Id;

/// Bytes of kept days at most, by default.
pub const DEFAULT_BYTES: usize = 320 << 20;

/// One bidder-day, packed: counts as `u32`, spend as taps × CPT.
#[derive(Debug, Clone, Copy)]
pub struct Packed {
    /// Group and unit position in the campaign's plan.
    pub group: u32,
    pub unit: u32,
    counts: [u32; 6],
    cpt: i64,
}

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
        let c = |x: u64| u32::try_from(x).ok();
        Some(Packed {
            group: u32::try_from(group).ok()?,
            unit: u32::try_from(unit).ok()?,
            counts: [
                c(t.impressions)?,
                c(t.taps)?,
                c(t.tap_new_downloads)?,
                c(t.tap_redownloads)?,
                c(t.view_new_downloads)?,
                c(t.view_redownloads)?,
            ],
            cpt,
        })
    }

    /// The numbers it holds.
    pub fn totals(&self) -> Totals {
        let [impressions, taps, tn, tr, vn, vr] = self.counts.map(u64::from);
        Totals {
            impressions,
            taps,
            tap_new_downloads: tn,
            tap_redownloads: tr,
            view_new_downloads: vn,
            view_redownloads: vr,
            spend: taps as i64 * self.cpt,
        }
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

#[derive(Default)]
struct Kept {
    days: FxHashMap<(Id, Date), Arc<Day>>,
    order: VecDeque<(Id, Date)>,
    bytes: usize,
}

/// `rows` added up per ad group, in the order they come.
pub fn group_sums(rows: &[Packed]) -> Vec<(u32, Totals)> {
    let mut out: Vec<(u32, Totals)> = Vec::new();
    for p in rows {
        match out.last_mut() {
            Some((g, t)) if *g == p.group => t.add(&p.totals()),
            _ => out.push((p.group, p.totals())),
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
            .field("bytes", &kept.bytes)
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
        if let Some(old) = kept.days.insert((campaign, day), computed) {
            kept.bytes -= old.bytes();
        } else {
            kept.order.push_back((campaign, day));
        }
        kept.bytes += size;
        while kept.bytes > self.limit {
            let Some(oldest) = kept.order.pop_front() else {
                break;
            };
            if let Some(gone) = kept.days.remove(&oldest) {
                kept.bytes -= gone.bytes();
            }
        }
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.kept.lock().bytes
    }
}
