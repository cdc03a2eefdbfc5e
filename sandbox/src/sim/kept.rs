//! What a simulation reads from the world's cache of settled days and weeks: a kept day
//! of a campaign, its bidders by flat position or summed per ad group straight from the
//! kept day, and the search-term and ad weeks reports keep for their next read.

use std::sync::Arc;

use time::Date;

use super::{Simulation, days, late};
use crate::metrics::Totals;
use crate::world::Id;

impl<'w> Simulation<'w> {
    /// The kept day of `campaign`, when `day` is settled as of the ad account's `today`
    /// and kept at the campaign's stamp.
    pub(super) fn kept_day(&self, campaign: Id, day: Date, today: Date) -> Option<Arc<days::Day>> {
        let world = self.world;
        if !self.kept || day > today || (today - day).whole_days() < late::SETTLE_DAYS {
            return None;
        }
        world
            .days
            .as_ref()?
            .get(campaign, day, world.stamp(campaign))
    }

    /// Whether the week of `campaign` starting on `start` can be kept: its last day is
    /// settled (as of the ad account's today) and this simulation uses the world's cache.
    pub fn keeps_week(&self, campaign: Id, start: Date) -> bool {
        let last = start + time::Duration::days(days::WEEK_DAYS - 1);
        self.kept
            && self.world.days.is_some()
            && days::week_starts(start)
            && (self.world.campaign_now(campaign).today - last).whole_days() >= late::SETTLE_DAYS
    }

    /// The kept `kind` week of `campaign` from `start` (see [`Self::keeps_week`]).
    pub fn kept_week(
        &self,
        campaign: Id,
        start: Date,
        kind: days::WeekKind,
    ) -> Option<Arc<days::Week>> {
        if !self.keeps_week(campaign, start) {
            return None;
        }
        let w = self.world;
        w.days
            .as_ref()?
            .week(campaign, start, kind, w.stamp(campaign))
    }

    /// Keeps `rows` (by slot) as the `kind` week of `campaign` from `start`.
    pub fn keep_week(
        &self,
        campaign: Id,
        start: Date,
        kind: days::WeekKind,
        rows: Vec<days::WeekRow>,
    ) {
        let w = self.world;
        if let (true, Some(cache)) = (self.keeps_week(campaign, start), w.days.as_ref()) {
            let week = days::Week {
                stamp: w.stamp(campaign),
                rows,
            };
            cache.put_week(campaign, start, kind, Arc::new(week));
        }
    }

    /// [`Self::campaign_units`] as `(flat position, totals)` into `out` (cleared first),
    /// straight from the kept day when there is one.
    pub fn campaign_units_flat(&mut self, campaign: Id, day: Date, out: &mut Vec<(u32, Totals)>) {
        out.clear();
        let world = self.world;
        let today = world.campaign_now(campaign).today;
        if self.kept
            && day <= today
            && (today - day).whole_days() >= late::SETTLE_DAYS
            && let Some(cache) = world.days.as_ref()
            && let Some(kept) = cache.get(campaign, day, world.stamp(campaign))
            && let Some(plan) = self.plan(campaign)
        {
            out.extend(kept.rows.iter().map(|p| {
                (
                    plan.offsets[p.group as usize] + u32::from(p.unit),
                    p.totals(),
                )
            }));
            self.caps.insert((campaign, day), kept.cap.clone());
            return;
        }
        let served = self.campaign_units(campaign, day);
        let Some(plan) = self.plan(campaign) else {
            return;
        };
        out.extend(served.into_iter().map(|(u, t)| {
            let (g, i) = plan.at[&u.id()];
            (plan.offsets[g] + i as u32, t)
        }));
    }

    /// [`Self::campaign_units`] added up per ad group: `(ad group id, totals)` of the ad
    /// groups with traffic on `day`, read from the kept day when there is one.
    pub fn campaign_groups(&mut self, campaign: Id, day: Date) -> Vec<(Id, Totals)> {
        let world = self.world;
        let today = world.campaign_now(campaign).today;
        if self.kept
            && day <= today
            && (today - day).whole_days() >= late::SETTLE_DAYS
            && let Some(cache) = world.days.as_ref()
            && let Some(kept) = cache.get(campaign, day, world.stamp(campaign))
            && let Some(plan) = self.plan(campaign)
        {
            let out = kept
                .groups
                .iter()
                .map(|(g, t)| (plan.groups[*g as usize].group.id, *t))
                .collect();
            self.caps.insert((campaign, day), kept.cap.clone());
            return out;
        }
        let mut out: Vec<(Id, Totals)> = Vec::new();
        for (unit, t) in self.campaign_units(campaign, day) {
            let group = unit.ad_group_id();
            match out.last_mut() {
                Some((g, sum)) if *g == group => sum.add(&t),
                _ => out.push((group, t)),
            }
        }
        out
    }
}

#[cfg(test)]
#[path = "kept_tests.rs"]
mod tests;
