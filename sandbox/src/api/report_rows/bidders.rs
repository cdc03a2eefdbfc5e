//! The general path: each served bidder-day of a campaign (its ad groups' or ads' rows,
//! rows by `groupBy` dimensions, hourly and UTC reports, the second pass over a page's
//! bidders) into the rows it contributes to, split by ad and by dimension as asked. Ad rows
//! take an ad group's whole sum when it serves one ad that day, and a whole campaign's
//! settled weeks of ad totals are read from the world's cache, or added up there.

use std::collections::HashMap;

use rustc_hash::{FxHashMap, FxHashSet};
use time::{Date, Duration};

use super::contributions::{
    DimWeights, Scratch, by_dims, contributions, group_dim_weights, settings_period,
};
use super::{CampaignDays, CampaignRows, MAX_DIMS, Pass, RowKey, allowed, passes, unit_of};
use crate::api::report_request::{Checked, Entity, Granularity};
use crate::metrics::Totals;
use crate::sim::days::{self, WeekKind, WeekRow};
use crate::sim::late::hour_weights_on;
use crate::sim::{Simulation, Unit};
use crate::world::Id;

/// The row a bidder-day goes to whole (no split by terms, ads or dimensions), if it does.
fn direct_row(unit: &Unit<'_>, entity: Entity, c: &Checked) -> Option<Id> {
    if !c.group_by.is_empty() {
        return None;
    }
    match (entity, unit) {
        (Entity::Campaign, _) => Some(unit.campaign_id()),
        (Entity::AdGroup, _) => Some(unit.ad_group_id()),
        (Entity::Keyword, Unit::Keyword(k)) => Some(k.id),
        _ => None,
    }
}

/// The rows of one campaign through its bidders (module docs).
pub(super) fn bidder_days(
    sim: &mut Simulation<'_>,
    pass: &Pass<'_>,
    days: &CampaignDays<'_>,
    scratch: &mut Scratch,
    dim_weights: &mut HashMap<(Id, usize, usize), DimWeights>,
) -> CampaignRows {
    let w = sim.world;
    let c = pass.checked;
    let &CampaignDays {
        campaign,
        now,
        first,
        end,
        ref sink,
    } = days;
    let mut rows = CampaignRows::default();
    let no_dims: DimWeights = Vec::new();
    let mut day = first;
    // Ad rows by day: an ad group serving one ad that day gives it its whole sum; only
    // groups with more ads split each bidder-day among them.
    let ad_sums = pass.units.is_none()
        && c.group_by.is_empty()
        && pass.entity == Entity::Ad
        && c.granularity != Some(Granularity::Hourly)
        && !c.utc
        && !c.ids.iter().any(|(f, _)| f == "keywordId");
    // The second pass's bidders of this campaign, in id order.
    let own_units: Option<Vec<(Id, Unit<'_>)>> = pass.units.as_ref().map(|units| {
        let mut ids: Vec<(Id, Unit<'_>)> = units
            .iter()
            .filter_map(|id| unit_of(w, *id).map(|u| (*id, u)))
            .filter(|(_, u)| u.campaign_id() == campaign)
            .collect();
        ids.sort_by_key(|(id, _)| *id);
        ids
    });
    // Many of the campaign's bidders (the page's ad groups or ads): read whole
    // campaign-days (kept days are read, not simulated) and keep the page's bidders.
    let whole_days = match (&own_units, &pass.units) {
        (Some(ids), Some(set)) if ids.len() * 4 >= sim.flat_units(campaign).len() => Some(set),
        _ => None,
    };
    // Ad totals of every ad on the ad account's days: settled weeks are read whole from
    // the cache (or added up there for the next report).
    let ad_weeks = ad_sums
        && pass.rows.is_none()
        && !pass.granular
        && c.ids.iter().all(|(f, _)| f == "campaignId");
    let ads = if ad_weeks {
        sim.flat_ads(campaign)
    } else {
        Vec::new()
    };
    let mut building: Option<Date> = None;
    let mut week_ads: FxHashMap<Id, Totals> = FxHashMap::default();
    let keep_ads = |sim: &Simulation<'_>, start: Date, sums: &mut FxHashMap<Id, Totals>| {
        let slot: FxHashMap<Id, u32> = ads
            .iter()
            .enumerate()
            .map(|(i, a)| (*a, i as u32))
            .collect();
        let mut kept: Option<Vec<WeekRow>> = sums
            .drain()
            .map(|(id, t)| WeekRow::new(*slot.get(&id)?, &t))
            .collect();
        if let Some(rows) = kept.as_mut() {
            rows.sort_unstable_by_key(|r| r.slot);
        }
        if let Some(rows) = kept {
            sim.keep_week(campaign, start, WeekKind::Ads, rows);
        }
    };
    while day <= end {
        if let Some(start) = building
            && day == start + Duration::days(days::WEEK_DAYS)
        {
            keep_ads(&*sim, start, &mut week_ads);
            building = None;
        }
        let last = day + Duration::days(days::WEEK_DAYS - 1);
        if ad_weeks && building.is_none() && last <= end && sim.keeps_week(campaign, day) {
            if let Some(week) = sim.kept_week(campaign, day, WeekKind::Ads) {
                for r in &week.rows {
                    let key = RowKey {
                        id: ads[r.slot as usize],
                        term: u16::MAX,
                        dims: [0; MAX_DIMS],
                    };
                    rows.entry(key).or_default().0.add(&r.totals());
                }
                day = last.next_day().expect("date in range");
                continue;
            }
            building = Some(day);
        }
        let mut split_groups: Option<FxHashSet<Id>> = None;
        if ad_sums {
            let hours = hour_weights_on(now, day);
            let mut several = FxHashSet::default();
            for (group, t) in sim.campaign_groups(campaign, day) {
                let ads = sim.ads_on(group, day);
                if ads.len() != 1 {
                    several.insert(group);
                    continue;
                }
                if !allowed(c, "adGroupId", group) || !allowed(c, "adId", ads[0].0) {
                    continue;
                }
                let key = RowKey {
                    id: ads[0].0,
                    term: u16::MAX,
                    dims: [0; MAX_DIMS],
                };
                if pass.rows.as_ref().is_none_or(|r| r.contains(&key)) {
                    let entry = rows.entry(key).or_default();
                    sink.add(entry, day, &t, &hours);
                    if building.is_some() {
                        week_ads.entry(key.id).or_default().add(&t);
                    }
                }
            }
            if several.is_empty() {
                day = day.next_day().expect("date in range");
                continue;
            }
            split_groups = Some(several);
        }
        let served: Vec<(Unit<'_>, Totals)> = match &own_units {
            Some(_) if whole_days.is_some() => {
                let set = whole_days.expect("checked");
                let mut all = sim.campaign_units(campaign, day);
                all.retain(|(u, _)| set.contains(&u.id()));
                all
            }
            None => {
                let mut all = sim.campaign_units(campaign, day);
                if let Some(groups) = &split_groups {
                    all.retain(|(u, _)| groups.contains(&u.ad_group_id()));
                }
                all
            }
            Some(ids) => ids
                .iter()
                .map(|(id, u)| (*u, sim.unit_day(campaign, *id, day)))
                .filter(|(_, t)| !t.is_zero())
                .collect(),
        };
        let hours = hour_weights_on(now, day);
        scratch.ads.clear();
        for (unit, t) in served {
            if !passes(&unit, c) {
                continue;
            }
            if let Some(id) = direct_row(&unit, pass.entity, c) {
                let key = RowKey {
                    id,
                    term: u16::MAX,
                    dims: [0; MAX_DIMS],
                };
                if pass.rows.as_ref().is_none_or(|r| r.contains(&key)) {
                    let entry = rows.entry(key).or_default();
                    sink.add(entry, day, &t, &hours);
                }
                continue;
            }
            let weights = if c.group_by.is_empty() {
                &no_dims
            } else {
                dim_weights
                    .entry(settings_period(w, &unit, day))
                    .or_insert_with(|| group_dim_weights(w, &unit, c, day))
            };
            contributions(sim, &unit, day, t, c, pass.entity, scratch);
            for &(id, term, part) in &scratch.out {
                let mut add = |dims: [u16; MAX_DIMS], t: &Totals| {
                    if t.is_zero() {
                        return;
                    }
                    let key = RowKey { id, term, dims };
                    if pass.rows.as_ref().is_some_and(|r| !r.contains(&key)) {
                        return;
                    }
                    let entry = rows.entry(key).or_default();
                    sink.add(entry, day, t, &hours);
                    if building.is_some() {
                        week_ads.entry(id).or_default().add(t);
                    }
                };
                if weights.is_empty() {
                    add([0; MAX_DIMS], &part);
                } else {
                    for (dims, t) in by_dims(part, weights) {
                        add(dims, &t);
                    }
                }
            }
        }
        day = day.next_day().expect("date in range");
    }
    if let Some(start) = building
        && day == start + Duration::days(days::WEEK_DAYS)
    {
        keep_ads(&*sim, start, &mut week_ads);
    }
    rows
}
