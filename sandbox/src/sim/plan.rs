//! A campaign's plan, made once per simulation: its ad groups with their ads (and the day
//! each ad's creative was deleted), their bidders — keywords and search-match terms — with
//! the models that serve them, and where each bidder sits; with the lookups over it
//! (an ad group's bidders and serving ads, the campaign's bidders and ads in flat order,
//! a search-match term's text).

use rustc_hash::FxHashMap as HashMap;
use time::Date;

use super::{Simulation, Unit, auto};
use crate::metrics::{KeywordModel, mix_pub, unit};
use crate::world::{Ad, AdGroup, Campaign, Id};

/// An ad group of a campaign's plan: its ads and its bidders with their models.
pub(super) struct GroupPlan<'w> {
    pub(super) group: &'w AdGroup,
    /// Ads with the day their creative was deleted.
    pub(super) ads: Vec<(&'w Ad, Option<Date>)>,
    pub(super) units: Vec<(Unit<'w>, KeywordModel)>,
}

/// A campaign's bidders and their models, made once per simulation.
pub(super) struct CampaignPlan<'w> {
    pub(super) campaign: &'w Campaign,
    pub(super) groups: Vec<GroupPlan<'w>>,
    /// Unit id → (group, unit) position.
    pub(super) at: HashMap<Id, (usize, usize)>,
    /// Where each group's units start in the campaign's flat unit order.
    pub(super) offsets: Vec<u32>,
}

impl<'w> Simulation<'w> {
    /// Unit ids of the bidders of ad group `group` of `campaign`.
    pub fn group_units(&mut self, campaign: Id, group: Id) -> Vec<Id> {
        self.plan(campaign)
            .and_then(|p| p.groups.iter().find(|g| g.group.id == group))
            .map(|g| g.units.iter().map(|(u, _)| u.id()).collect())
            .unwrap_or_default()
    }

    /// The plan of `campaign` (made the first time it is asked for), None for an unknown
    /// campaign.
    pub(super) fn plan(&mut self, campaign: Id) -> Option<&CampaignPlan<'w>> {
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

    /// The text of a search-match term.
    pub fn auto_text(&mut self, campaign: Id, id: Id) -> Option<String> {
        let (group, index) = auto::parse_id(id)?;
        let g = self.world.ad_groups.get(&group)?;
        debug_assert_eq!(g.campaign_id, campaign);
        auto::terms(self.world, g).get(usize::from(index)).cloned()
    }
}

/// Whether an ad group with `ads` has one serving on `day`.
pub(super) fn serves(ads: &[(&Ad, Option<Date>)], day: Date) -> bool {
    ads.iter()
        .any(|(a, gone)| a.life.active_on(day) && gone.is_none_or(|d| day < d))
}

/// Whether the unit itself serves on `day` (its parents checked apart).
pub(super) fn unit_active(unit: &Unit<'_>, day: Date) -> bool {
    match unit {
        Unit::Keyword(k) => k.life.active_on(day),
        Unit::Auto(g, _) => g.settings_on(day).1,
    }
}
