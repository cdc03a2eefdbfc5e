//! The served simulation over the base keyword model: a keyword serves only while its ad
//! group has a serving ad; ad groups with search match also bid on a few terms of their
//! own ([`auto`]); a campaign's spend on a day is capped at its daily budget in effect that
//! day (every bidder of an over-budget campaign scales down by the same factor:
//! impressions, taps and installs floor, spend stays taps × CPT); today is served up to
//! the current hour and the last days' installs are still arriving ([`late`]); and a
//! bidder-day divides into ads, search terms, dimensions and hours by [`split`].

pub mod auto;
pub mod dims;
pub mod late;
pub mod split;
pub mod terms;

use std::cell::RefCell;
use std::collections::HashMap;

use time::Date;

use crate::metrics::{KeywordModel, Totals, mix_pub, unit};
use crate::world::{Ad, AdGroup, Campaign, Id, Keyword, NegativeKeyword, World};

/// Something that bids in an ad group: a keyword or a search-match term.
#[derive(Debug, Clone, Copy)]
pub enum Unit<'w> {
    Keyword(&'w Keyword),
    /// Search-match term `index` of the ad group.
    Auto(&'w AdGroup, u16),
}

impl Unit<'_> {
    /// Its id: the keyword's, or [`auto::id`] of the term.
    pub fn id(&self) -> Id {
        match self {
            Unit::Keyword(k) => k.id,
            Unit::Auto(g, i) => auto::id(g.id, *i),
        }
    }

    pub fn ad_group_id(&self) -> Id {
        match self {
            Unit::Keyword(k) => k.ad_group_id,
            Unit::Auto(g, _) => g.id,
        }
    }

    pub fn campaign_id(&self) -> Id {
        match self {
            Unit::Keyword(k) => k.campaign_id,
            Unit::Auto(g, _) => g.campaign_id,
        }
    }

    /// The keyword, for keyword units.
    pub fn keyword(&self) -> Option<&Keyword> {
        match self {
            Unit::Keyword(k) => Some(k),
            Unit::Auto(..) => None,
        }
    }
}

struct GroupPlan<'w> {
    group: &'w AdGroup,
    /// Ads with the day their creative was deleted.
    ads: Vec<(&'w Ad, Option<Date>)>,
    units: Vec<(Unit<'w>, KeywordModel)>,
}

struct CampaignPlan<'w> {
    campaign: &'w Campaign,
    groups: Vec<GroupPlan<'w>>,
    /// Unit id → (group, unit) position.
    at: HashMap<Id, (usize, usize)>,
}

/// How a campaign-day over budget was cut: the factor, and the units that bought one tap
/// back with what flooring left.
#[derive(Debug, Clone, Default)]
pub struct Cap {
    factor: Option<f64>,
    bonus: Vec<Id>,
}

/// A search term's weight and the negative keywords that block it.
type TermBlock = (f64, Vec<Id>);

/// Budget caps by campaign-day.
pub type Caps = HashMap<(Id, Date), Cap>;

/// One request's view of the simulation, memoising models and budget caps.
pub struct Simulation<'w> {
    pub world: &'w World,
    plans: HashMap<Id, CampaignPlan<'w>>,
    caps: Caps,
    /// Per keyword: each search term's weight and the negatives that block it.
    terms: RefCell<HashMap<Id, Vec<TermBlock>>>,
}

impl<'w> Simulation<'w> {
    pub fn new(world: &'w World) -> Self {
        Self::with_caps(world, Caps::new())
    }

    /// A simulation that already knows the caps of some campaign-days (computed over the
    /// same world version and hour).
    pub fn with_caps(world: &'w World, caps: Caps) -> Self {
        Simulation {
            world,
            plans: HashMap::new(),
            caps,
            terms: RefCell::default(),
        }
    }

    /// The caps met so far.
    pub fn into_caps(self) -> Caps {
        self.caps
    }

    /// Unit ids of the bidders of ad group `group` of `campaign`.
    pub fn group_units(&mut self, campaign: Id, group: Id) -> Vec<Id> {
        self.plan(campaign)
            .and_then(|p| p.groups.iter().find(|g| g.group.id == group))
            .map(|g| g.units.iter().map(|(u, _)| u.id()).collect())
            .unwrap_or_default()
    }

    fn plan(&mut self, campaign: Id) -> Option<&CampaignPlan<'w>> {
        let w = self.world;
        if let std::collections::hash_map::Entry::Vacant(slot) = self.plans.entry(campaign) {
            let c = w.campaigns.get(&campaign)?;
            let mut groups: Vec<GroupPlan<'w>> = Vec::new();
            let mut at = HashMap::new();
            for gid in w.index.children("AdGroup", campaign) {
                let group = &w.ad_groups[gid];
                let ads = w
                    .index
                    .children("Ad", *gid)
                    .iter()
                    .map(|id| {
                        let a = &w.ads[id];
                        let gone = w
                            .creatives
                            .get(&a.creative_id)
                            .and_then(|c| c.life.deleted_on);
                        (a, gone)
                    })
                    .collect();
                let mut units: Vec<(Unit<'w>, KeywordModel)> = w
                    .index
                    .children("Keyword", *gid)
                    .iter()
                    .map(|id| {
                        let k = &w.keywords[id];
                        (Unit::Keyword(k), KeywordModel::new(w, k))
                    })
                    .collect();
                for (i, text) in auto::terms(w, group).into_iter().enumerate() {
                    let unit = Unit::Auto(group, i as u16);
                    units.push((unit, auto::model(w, group, unit.id(), &text)));
                }
                for (u, (unit, _)) in units.iter().enumerate() {
                    at.insert(unit.id(), (groups.len(), u));
                }
                groups.push(GroupPlan { group, ads, units });
            }
            slot.insert(CampaignPlan {
                campaign: c,
                groups,
                at,
            });
        }
        self.plans.get(&campaign)
    }

    /// The ads of `group` serving on `day` with their share weights.
    pub fn ads_on(&self, group: Id, day: Date) -> Vec<(Id, f64)> {
        let w = self.world;
        w.index
            .children("Ad", group)
            .iter()
            .map(|id| &w.ads[id])
            .filter(|a| {
                a.life.active_on(day)
                    && w.creatives
                        .get(&a.creative_id)
                        .is_none_or(|c| c.life.deleted_on.is_none_or(|d| day < d))
            })
            .map(|a| (a.id, 0.5 + unit(mix_pub(&[w.seed, a.id as u64, 0xad]))))
            .collect()
    }

    /// Served metrics of every bidder of `campaign` with traffic on `day` (keywords and
    /// search-match terms), capped by the daily budget in effect that day: over budget, each
    /// scales by budget / spend (counts floored), then the budget left by flooring buys
    /// single taps back, largest remainder first, so the day spends nearly all of its budget
    /// and never more. Today is served up to now's hour; recent days' installs are still
    /// arriving.
    pub fn campaign_units(&mut self, campaign: Id, day: Date) -> Vec<(Unit<'w>, Totals)> {
        let world = self.world;
        if day > world.today {
            return vec![];
        }
        let Some(plan) = self.plan(campaign) else {
            return vec![];
        };
        let mut out: Vec<(Unit<'w>, Totals)> = Vec::new();
        if plan.campaign.life.active_on(day) {
            for g in &plan.groups {
                if !(g.group.life.active_on(day) && serves(&g.ads, day)) {
                    continue;
                }
                for (unit, model) in &g.units {
                    if unit_active(unit, day) {
                        let t = model.serving_day(day);
                        if !t.is_zero() {
                            out.push((*unit, t));
                        }
                    }
                }
            }
        }
        let budget = plan.campaign.daily_budget.at(day);
        let cap = cap(&mut out, budget);
        for (unit, t) in &mut out {
            *t = late::finish(world, unit.id(), day, t);
        }
        out.retain(|(_, t)| !t.is_zero());
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
        if day > self.world.today {
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
        let Some(plan) = self.plan(campaign) else {
            return Totals::default();
        };
        let Some(&(gi, ui)) = plan.at.get(&id) else {
            return Totals::default();
        };
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
        late::finish(world, id, day, &t)
    }

    /// Served metrics of keyword `k` on `day`.
    pub fn keyword_day(&mut self, k: &'w Keyword, day: Date) -> Totals {
        self.unit_day(k.campaign_id, k.id, day)
    }

    /// The search terms `k` matched on `day` with their weights, after negatives, each
    /// with its position in [`terms::terms`].
    pub fn terms_on(&self, k: &Keyword, day: Date) -> Vec<(usize, String, f64)> {
        let all = terms::terms(self.world.seed, k);
        self.term_weights_on(k, day)
            .into_iter()
            .map(|(i, w)| (i, all[i].0.clone(), w))
            .collect()
    }

    /// [`Self::terms_on`] without the texts (memoised per keyword).
    pub fn term_weights_on(&self, k: &Keyword, day: Date) -> Vec<(usize, f64)> {
        let w = self.world;
        let mut cache = self.terms.borrow_mut();
        let terms = cache.entry(k.id).or_insert_with(|| {
            let negatives: Vec<&NegativeKeyword> = w
                .index
                .children("NegativeKeyword", k.campaign_id)
                .iter()
                .map(|id| &w.negative_keywords[id])
                .filter(|n| n.ad_group_id.is_none_or(|g| g == k.ad_group_id))
                .collect();
            terms::terms(w.seed, k)
                .into_iter()
                .enumerate()
                .map(|(i, (t, weight))| {
                    let blocked_by = if i == 0 {
                        vec![]
                    } else {
                        negatives
                            .iter()
                            .filter(|n| terms::blocks(n, &t))
                            .map(|n| n.id)
                            .collect()
                    };
                    (weight, blocked_by)
                })
                .collect()
        });
        terms
            .iter()
            .enumerate()
            .filter(|(_, (_, blocked_by))| {
                !blocked_by
                    .iter()
                    .any(|n| w.negative_keywords[n].life.active_on(day))
            })
            .map(|(i, (weight, _))| (i, *weight))
            .collect()
    }

    /// The text of a search-match term.
    pub fn auto_text(&mut self, campaign: Id, id: Id) -> Option<String> {
        let (group, index) = auto::parse_id(id)?;
        let g = self.world.ad_groups.get(&group)?;
        debug_assert_eq!(g.campaign_id, campaign);
        auto::terms(self.world, g).get(usize::from(index)).cloned()
    }
}

/// Whether an ad group with `ads` has one serving on `day`.
fn serves(ads: &[(&Ad, Option<Date>)], day: Date) -> bool {
    ads.iter()
        .any(|(a, gone)| a.life.active_on(day) && gone.is_none_or(|d| day < d))
}

/// Whether the unit itself serves on `day` (its parents checked apart).
fn unit_active(unit: &Unit<'_>, day: Date) -> bool {
    match unit {
        Unit::Keyword(k) => k.life.active_on(day),
        Unit::Auto(g, _) => g.automated_keywords_opt_in,
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

#[cfg(test)]
#[path = "sim_tests.rs"]
mod tests;
