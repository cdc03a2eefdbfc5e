//! Served metrics: every bidder of a campaign with traffic on a day, capped by the daily
//! budget in effect (over budget, each scales down by the same factor and the budget left
//! by flooring buys single taps back), today served up to now's hour and the last days'
//! installs still arriving; a settled day is read from the world's cache when kept, and
//! kept there when computed. One bidder's day reuses the campaign-day's cap.

use super::plan::{serves, unit_active};
use super::{Cap, Simulation, Unit, days, late, split};
use crate::metrics::Totals;
use crate::world::{Id, Keyword};
use time::Date;

impl<'w> Simulation<'w> {
    /// Served metrics of every bidder of `campaign` with traffic on `day` (keywords and
    /// search-match terms), capped by the daily budget in effect that day: over budget, each
    /// scales by budget / spend (counts floored), then the budget left by flooring buys
    /// single taps back, largest remainder first, so the day spends nearly all of its budget
    /// and never more. Today is served up to now's hour; recent days' installs are still
    /// arriving.
    pub fn campaign_units(&mut self, campaign: Id, day: Date) -> Vec<(Unit<'w>, Totals)> {
        let world = self.world;
        let now = world.campaign_now(campaign);
        if day > now.today {
            return vec![];
        }
        // A settled day served what it served: read it when kept.
        let keep = world
            .days
            .as_ref()
            .filter(|_| self.kept && (now.today - day).whole_days() >= late::SETTLE_DAYS)
            .map(|cache| (cache, world.stamp(campaign)));
        if let Some((cache, stamp)) = keep
            && let Some(kept) = cache.get(campaign, day, stamp)
        {
            let Some(plan) = self.plan(campaign) else {
                return vec![];
            };
            let out = kept
                .rows
                .iter()
                .map(|p| {
                    let unit = plan.groups[p.group as usize].units[p.unit as usize].0;
                    (unit, p.totals())
                })
                .collect();
            self.caps.insert((campaign, day), kept.cap.clone());
            return out;
        }
        let Some(plan) = self.plan(campaign) else {
            return vec![];
        };
        let mut out: Vec<(Unit<'w>, Totals)> = Vec::new();
        let mut at: Vec<(usize, usize)> = Vec::new();
        if plan.campaign.life.active_on(day) {
            for (gi, g) in plan.groups.iter().enumerate() {
                if !(g.group.life.active_on(day) && serves(&g.ads, day)) {
                    continue;
                }
                for (ui, (unit, model)) in g.units.iter().enumerate() {
                    if unit_active(unit, day) {
                        let t = model.serving_day(day);
                        if !t.is_zero() {
                            out.push((*unit, t));
                            at.push((gi, ui));
                        }
                    }
                }
            }
        }
        let budget = plan.campaign.daily_budget.at(day);
        let cap = cap(&mut out, budget);
        for (unit, t) in &mut out {
            *t = late::finish(world, now, unit.id(), day, t);
        }
        let mut kept_rows = Vec::with_capacity(if keep.is_some() { out.len() } else { 0 });
        let mut packs = keep.is_some();
        let mut i = 0;
        out.retain(|(_, t)| {
            let (gi, ui) = at[i];
            i += 1;
            if t.is_zero() {
                return false;
            }
            if packs {
                match days::Packed::new(gi, ui, t) {
                    Some(p) => kept_rows.push(p),
                    None => packs = false,
                }
            }
            true
        });
        if let Some((cache, stamp)) = keep
            && packs
        {
            let day_rows = days::Day {
                stamp,
                groups: days::group_sums(&kept_rows),
                rows: kept_rows,
                cap: cap.clone(),
            };
            cache.put(campaign, day, std::sync::Arc::new(day_rows));
        }
        self.caps.insert((campaign, day), cap);
        out
    }

    /// [`Self::campaign_units`] restricted to keywords.
    pub fn campaign_day(&mut self, campaign: Id, day: Date) -> Vec<(&'w Keyword, Totals)> {
        self.campaign_units(campaign, day)
            .into_iter()
            .filter_map(|(u, t)| match u {
                Unit::Keyword(k) => Some((k, t)),
                Unit::Auto(..) => None,
            })
            .collect()
    }

    /// Served metrics of one bidder (by its unit id) of `campaign` on `day`; uses the
    /// campaign-day's cap when it was computed before.
    pub fn unit_day(&mut self, campaign: Id, id: Id, day: Date) -> Totals {
        let now = self.world.campaign_now(campaign);
        if day > now.today {
            return Totals::default();
        }
        if !self.caps.contains_key(&(campaign, day)) {
            return self
                .campaign_units(campaign, day)
                .into_iter()
                .find(|(u, _)| u.id() == id)
                .map(|(_, t)| t)
                .unwrap_or_default();
        }
        let world = self.world;
        let kept = self.kept_day(campaign, day, now.today);
        let Some(plan) = self.plan(campaign) else {
            return Totals::default();
        };
        let Some(&(gi, ui)) = plan.at.get(&id) else {
            return Totals::default();
        };
        if let Some(kept) = kept {
            // Kept rows are in plan order: find the bidder's by its position.
            let at = (gi, ui);
            return kept
                .rows
                .binary_search_by(|p| (usize::from(p.group), usize::from(p.unit)).cmp(&at))
                .map_or_else(|_| Totals::default(), |i| kept.rows[i].totals());
        }
        let g = &plan.groups[gi];
        let (unit, model) = &g.units[ui];
        if !(plan.campaign.life.active_on(day)
            && g.group.life.active_on(day)
            && serves(&g.ads, day)
            && unit_active(unit, day))
        {
            return Totals::default();
        }
        let raw = model.serving_day(day);
        let cap = &self.caps[&(campaign, day)];
        let t = match cap.factor {
            None => raw,
            Some(f) => {
                let mut t = split::scale(&raw, f);
                if cap.bonus.binary_search(&id).is_ok() {
                    buy_back(&mut t, &raw);
                }
                t
            }
        };
        late::finish(world, now, id, day, &t)
    }

    /// Served metrics of keyword `k` on `day`.
    pub fn keyword_day(&mut self, k: &'w Keyword, day: Date) -> Totals {
        self.unit_day(k.campaign_id, k.id, day)
    }
}

/// Adds the one tap a capped unit bought back at its own CPT.
fn buy_back(t: &mut Totals, raw: &Totals) {
    t.taps += 1;
    t.impressions = t.impressions.max(t.taps);
    t.spend += raw.spend / raw.taps as i64;
}

/// Caps `out` at `budget` in place (see [`Simulation::campaign_units`]).
fn cap(out: &mut [(Unit<'_>, Totals)], budget: i64) -> Cap {
    let spend: i64 = out.iter().map(|(_, t)| t.spend).sum();
    if spend <= budget {
        return Cap::default();
    }
    let f = budget as f64 / spend as f64;
    let mut order = Vec::new();
    let mut left = budget;
    let raws: Vec<Totals> = out.iter().map(|(_, t)| *t).collect();
    for (i, (_, t)) in out.iter_mut().enumerate() {
        let exact = t.taps as f64 * f;
        let cpt = if t.taps > 0 {
            t.spend / t.taps as i64
        } else {
            0
        };
        let raw_taps = t.taps;
        *t = split::scale(t, f);
        left -= t.spend;
        if t.taps < raw_taps {
            order.push((exact - exact.floor(), i, cpt));
        }
    }
    order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut bonus = Vec::new();
    for (_, i, cpt) in order {
        if cpt <= left {
            buy_back(&mut out[i].1, &raws[i]);
            left -= cpt;
            bonus.push(out[i].0.id());
        }
    }
    bonus.sort_unstable();
    Cap {
        factor: Some(f),
        bonus,
    }
}
