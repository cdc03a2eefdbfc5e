//! The served simulation over the base keyword model: a keyword serves only while its ad
//! group has a serving ad; ad groups with search match also bid on a few terms of their
//! own ([`auto`]); a campaign's spend on a day is capped at its daily budget in effect that
//! day (every bidder of an over-budget campaign scales down by the same factor:
//! impressions, taps and installs floor, spend stays taps × CPT); the ad account's today
//! (in its zone) is served up to its current hour and the last days' installs are still
//! arriving ([`late`]); and a bidder-day divides into ads, search terms, dimensions and
//! hours by [`split`].

pub mod auto;
pub mod days;
pub mod dims;
pub mod late;
pub mod split;
pub mod terms;

use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;

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
    /// Where each group's units start in the campaign's flat unit order.
    offsets: Vec<u32>,
}

/// How a campaign-day over budget was cut: the factor, and the units that bought one tap
/// back with what flooring left.
#[derive(Debug, Clone, Default)]
pub struct Cap {
    factor: Option<f64>,
    bonus: Vec<Id>,
}

/// A keyword's search terms: their weights (also as [`split::int_weights`]) and the
/// negative keywords that may block each.
pub struct TermPlan {
    weights: Vec<f64>,
    ints: Vec<u64>,
    blocked_by: Vec<Vec<Id>>,
    any_blocker: bool,
}

impl TermPlan {
    /// Whether term `i` is blocked on `day` by a negative keyword in effect.
    fn blocked(&self, w: &World, i: usize, day: Date) -> bool {
        self.blocked_by[i]
            .iter()
            .any(|n| w.negative_keywords[n].life.active_on(day))
    }
}

/// The search terms of `k` with the negatives of its campaign and ad group that match them
/// (never its own text).
pub fn term_plan(w: &World, k: &Keyword) -> TermPlan {
    let negatives: Vec<&NegativeKeyword> = w
        .index
        .children("NegativeKeyword", k.campaign_id)
        .iter()
        .map(|id| &w.negative_keywords[id])
        .filter(|n| n.ad_group_id.is_none_or(|g| g == k.ad_group_id))
        .collect();
    let (mut weights, mut blocked_by) = (Vec::new(), Vec::new());
    for (i, (t, weight)) in terms::terms(w.seed, k).into_iter().enumerate() {
        weights.push(weight);
        blocked_by.push(if i == 0 {
            vec![]
        } else {
            negatives
                .iter()
                .filter(|n| terms::blocks(n, &t))
                .map(|n| n.id)
                .collect()
        });
    }
    TermPlan {
        ints: split::int_weights(&weights),
        any_blocker: blocked_by.iter().any(|b: &Vec<Id>| !b.is_empty()),
        weights,
        blocked_by,
    }
}

/// Budget caps by campaign-day.
pub type Caps = HashMap<(Id, Date), Cap>;

/// One request's view of the simulation, memoising models and budget caps.
pub struct Simulation<'w> {
    pub world: &'w World,
    plans: HashMap<Id, CampaignPlan<'w>>,
    caps: Caps,
    /// Per keyword: each search term's weight and the negatives that block it.
    terms: RefCell<HashMap<Id, TermPlan>>,
    /// Whether settled days are read from and kept in the world's [`days::DayCache`].
    kept: bool,
}

impl<'w> Simulation<'w> {
    pub fn new(world: &'w World) -> Self {
        Self::with_caps(world, Caps::default())
    }

    /// A simulation that already knows the caps of some campaign-days (computed over the
    /// same world version and hour).
    pub fn with_caps(world: &'w World, caps: Caps) -> Self {
        Simulation {
            world,
            plans: HashMap::default(),
            caps,
            terms: RefCell::default(),
            kept: true,
        }
    }

    /// A simulation that computes every day, even those the world keeps (benchmarks).
    pub fn uncached(world: &'w World) -> Self {
        Simulation {
            kept: false,
            ..Self::new(world)
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
            let mut at = HashMap::default();
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
            let mut offsets = Vec::with_capacity(groups.len());
            let mut n = 0u32;
            for g in &groups {
                offsets.push(n);
                n += g.units.len() as u32;
            }
            slot.insert(CampaignPlan {
                campaign: c,
                groups,
                at,
                offsets,
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

    /// The kept day of `campaign`, when `day` is settled as of the ad account's `today`
    /// and kept at the campaign's stamp.
    fn kept_day(&self, campaign: Id, day: Date, today: Date) -> Option<std::sync::Arc<days::Day>> {
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
    ) -> Option<std::sync::Arc<days::Week>> {
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
            cache.put_week(campaign, start, kind, std::sync::Arc::new(week));
        }
    }

    /// The ads of `campaign`, ad group by ad group: the slots of its kept ad weeks.
    pub fn flat_ads(&mut self, campaign: Id) -> Vec<Id> {
        self.plan(campaign)
            .map(|p| {
                p.groups
                    .iter()
                    .flat_map(|g| g.ads.iter().map(|(a, _)| a.id))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Every bidder of `campaign` in its flat order (ad group by ad group), the order
    /// [`Self::campaign_units_flat`] numbers them in.
    pub fn flat_units(&mut self, campaign: Id) -> Vec<Unit<'w>> {
        self.plan(campaign)
            .map(|p| {
                p.groups
                    .iter()
                    .flat_map(|g| g.units.iter().map(|(u, _)| *u))
                    .collect()
            })
            .unwrap_or_default()
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
        let plan = cache.entry(k.id).or_insert_with(|| term_plan(w, k));
        plan.weights
            .iter()
            .enumerate()
            .filter(|(i, _)| !plan.blocked(w, *i, day))
            .map(|(i, weight)| (i, *weight))
            .collect()
    }

    /// Splits keyword `k`'s served `t` on `day` among the search terms it matched that day
    /// (as [`Self::term_weights_on`] weighs them) into `out`: `(term position, part)`.
    pub fn split_terms(
        &self,
        k: &Keyword,
        day: Date,
        t: &Totals,
        out: &mut Vec<(u16, Totals)>,
        parts: &mut Vec<Totals>,
    ) {
        let w = self.world;
        let mut cache = self.terms.borrow_mut();
        let plan = cache.entry(k.id).or_insert_with(|| term_plan(w, k));
        Self::split_by_plan(w, plan, day, t, out, parts);
    }

    /// [`Self::split_terms`] with the keyword's [`term_plan`] at hand (callers going through
    /// many days of the same bidders keep the plans by position).
    pub fn split_by_plan(
        w: &World,
        plan: &TermPlan,
        day: Date,
        t: &Totals,
        out: &mut Vec<(u16, Totals)>,
        parts: &mut Vec<Totals>,
    ) {
        out.clear();
        if !plan.any_blocker {
            split::split_ints_into(t, &plan.ints, parts);
            out.extend(parts.iter().enumerate().map(|(i, p)| (i as u16, *p)));
            return;
        }
        let open: Vec<usize> = (0..plan.weights.len())
            .filter(|i| !plan.blocked(w, *i, day))
            .collect();
        let ints: Vec<u64> = open.iter().map(|i| plan.ints[*i]).collect();
        split::split_ints_into(t, &ints, parts);
        out.extend(open.iter().zip(parts.iter()).map(|(i, p)| (*i as u16, *p)));
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
        Unit::Auto(g, _) => g.settings_on(day).1,
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
