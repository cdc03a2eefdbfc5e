//! The served simulation over the base keyword model: a keyword serves only while its ad
//! group has a serving ad; a campaign's spend on a day is capped at its daily budget in
//! effect that day (every keyword of an over-budget campaign scales down by the same
//! factor: impressions, taps and installs floor, spend stays taps × CPT); and a
//! keyword-day divides into ads, search terms, dimensions and hours by [`split`].

pub mod dims;
pub mod split;
pub mod terms;

use std::collections::HashMap;

use time::Date;

use crate::metrics::{KeywordModel, Totals, mix_pub, unit};
use crate::world::{Ad, Id, Keyword, NegativeKeyword, World};

/// One request's view of the simulation, memoising per-keyword models and budget caps.
pub struct Simulation<'w> {
    pub world: &'w World,
    models: HashMap<Id, KeywordModel<'w>>,
    campaign_keywords: HashMap<Id, Vec<&'w Keyword>>,
    group_ads: HashMap<Id, Vec<&'w Ad>>,
    negatives: HashMap<Id, Vec<&'w NegativeKeyword>>,
}

impl<'w> Simulation<'w> {
    pub fn new(world: &'w World) -> Self {
        let mut campaign_keywords: HashMap<Id, Vec<&Keyword>> = HashMap::new();
        for k in world.keywords.values() {
            campaign_keywords.entry(k.campaign_id).or_default().push(k);
        }
        let mut group_ads: HashMap<Id, Vec<&Ad>> = HashMap::new();
        for a in world.ads.values() {
            group_ads.entry(a.ad_group_id).or_default().push(a);
        }
        let mut negatives: HashMap<Id, Vec<&NegativeKeyword>> = HashMap::new();
        for n in world.negative_keywords.values() {
            negatives.entry(n.campaign_id).or_default().push(n);
        }
        Simulation {
            world,
            models: HashMap::new(),
            campaign_keywords,
            group_ads,
            negatives,
        }
    }

    /// The ads of `group` serving on `day` with their share weights.
    pub fn ads_on(&self, group: Id, day: Date) -> Vec<(Id, f64)> {
        let w = self.world;
        self.group_ads
            .get(&group)
            .into_iter()
            .flatten()
            .filter(|a| {
                a.life.active_on(day)
                    && w.creatives
                        .get(&a.creative_id)
                        .is_none_or(|c| c.life.deleted_on.is_none_or(|d| day < d))
            })
            .map(|a| (a.id, 0.5 + unit(mix_pub(&[w.seed, a.id as u64, 0xad]))))
            .collect()
    }

    /// Metrics of `k` on `day` before budget capping.
    fn uncapped(&mut self, k: &'w Keyword, day: Date) -> Totals {
        if self.ads_on(k.ad_group_id, day).is_empty() {
            return Totals::default();
        }
        let world = self.world;
        self.models
            .entry(k.id)
            .or_insert_with(|| KeywordModel::new(world, k))
            .day(world, day)
    }

    /// Served metrics of every keyword of `campaign` on `day`, capped by the daily budget
    /// in effect that day: over budget, each keyword scales by budget / spend (counts
    /// floored), then the budget left by flooring buys single taps back, largest remainder
    /// first, so the day spends nearly all of its budget and never more.
    pub fn campaign_day(&mut self, campaign: Id, day: Date) -> Vec<(&'w Keyword, Totals)> {
        let keywords = self
            .campaign_keywords
            .get(&campaign)
            .cloned()
            .unwrap_or_default();
        let mut out: Vec<(&'w Keyword, Totals)> = keywords
            .into_iter()
            .map(|k| (k, self.uncapped(k, day)))
            .collect();
        let spend: i64 = out.iter().map(|(_, t)| t.spend).sum();
        let budget = self
            .world
            .campaigns
            .get(&campaign)
            .map_or(i64::MAX, |c| c.daily_budget.at(day));
        if spend <= budget {
            return out;
        }
        let f = budget as f64 / spend as f64;
        let mut order = Vec::new();
        let mut left = budget;
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
        for (_, i, cpt) in order {
            if cpt <= left {
                let t = &mut out[i].1;
                t.taps += 1;
                t.impressions = t.impressions.max(t.taps);
                t.spend += cpt;
                left -= cpt;
            }
        }
        out
    }

    /// Served metrics of `k` on `day` (computes its whole campaign: prefer
    /// [`Self::campaign_day`] in loops).
    pub fn keyword_day(&mut self, k: &'w Keyword, day: Date) -> Totals {
        self.campaign_day(k.campaign_id, day)
            .into_iter()
            .find(|(x, _)| x.id == k.id)
            .map(|(_, t)| t)
            .unwrap_or_default()
    }

    /// The search terms `k` matched on `day` with their weights, after negatives.
    pub fn terms_on(&self, k: &Keyword, day: Date) -> Vec<(String, f64)> {
        let negatives: Vec<&NegativeKeyword> = self
            .negatives
            .get(&k.campaign_id)
            .into_iter()
            .flatten()
            .filter(|n| n.ad_group_id.is_none_or(|g| g == k.ad_group_id) && n.life.active_on(day))
            .copied()
            .collect();
        terms::terms(self.world.seed, k)
            .into_iter()
            .enumerate()
            .filter(|(i, (t, _))| *i == 0 || !negatives.iter().any(|n| terms::blocks(n, t)))
            .map(|(_, t)| t)
            .collect()
    }
}

#[cfg(test)]
#[path = "sim_tests.rs"]
mod tests;
