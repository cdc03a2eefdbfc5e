//! A bidder-day's contributions to rows: whole to its campaign, ad group or keyword,
//! split among the keyword's search terms or among the ad group's serving ads, then by the
//! requested `groupBy` dimensions (an ad group's dimension values and weights, the same for
//! the days of one settings period); with the buffers reused from one bidder-day to the
//! next.

use rustc_hash::FxHashMap;
use time::Date;

use super::{MAX_DIMS, allowed};
use crate::api::report_request::{Checked, Entity};
use crate::metrics::Totals;
use crate::sim::split::split;
use crate::sim::{Simulation, Unit};
use crate::world::{Id, World};

/// Dimension values (as [`crate::sim::dims::Dim::code`]s) and weights of an ad group's
/// bidders: one list per requested dimension.
pub(super) type DimWeights = Vec<(Vec<u16>, Vec<f64>)>;

/// Which settings of an ad group and its campaign are in effect on `day`: the dimension
/// weights are the same for the days of one period.
pub(super) fn settings_period(w: &World, unit: &Unit<'_>, day: Date) -> (Id, usize, usize) {
    let group = w
        .ad_groups
        .get(&unit.ad_group_id())
        .map_or(0, |g| g.before.partition_point(|b| b.until <= day));
    let campaign = w.campaigns.get(&unit.campaign_id()).map_or(0, |c| {
        c.countries_before.partition_point(|(u, _)| *u <= day)
    });
    (unit.ad_group_id(), group, campaign)
}

/// The dimension values and weights of `unit`'s ad group on `day`, per requested
/// dimension.
pub(super) fn group_dim_weights(w: &World, unit: &Unit<'_>, c: &Checked, day: Date) -> DimWeights {
    let (Some(campaign), Some(group)) = (
        w.campaigns.get(&unit.campaign_id()),
        w.ad_groups.get(&unit.ad_group_id()),
    ) else {
        return vec![];
    };
    c.group_by
        .iter()
        .map(|d| {
            let values = d.values(campaign, group, day);
            (
                values.iter().map(|v| d.code(&v.0)).collect(),
                values.iter().map(|v| v.1).collect(),
            )
        })
        .collect()
}

/// Buffers reused from one bidder-day to the next.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) terms: Vec<(u16, Totals)>,
    pub(super) parts: Vec<Totals>,
    /// The serving ads of each ad group on the day gone through: ids and integer weights.
    pub(super) ads: FxHashMap<Id, (Vec<Id>, Vec<u64>)>,
    /// The contributions of the bidder-day.
    pub(super) out: Vec<(Id, u16, Totals)>,
}

/// One bidder-day's contributions to rows at `entity` level, before dimensions, into
/// `scratch.out`.
pub(super) fn contributions(
    sim: &Simulation<'_>,
    unit: &Unit<'_>,
    day: Date,
    t: Totals,
    c: &Checked,
    entity: Entity,
    scratch: &mut Scratch,
) {
    const NONE: u16 = u16::MAX;
    scratch.out.clear();
    match entity {
        Entity::Campaign => scratch.out.push((unit.campaign_id(), NONE, t)),
        Entity::AdGroup => scratch.out.push((unit.ad_group_id(), NONE, t)),
        Entity::Keyword => match unit {
            Unit::Keyword(k) => scratch.out.push((k.id, NONE, t)),
            Unit::Auto(..) => {}
        },
        Entity::SearchTerm => match unit {
            Unit::Keyword(k) => {
                sim.split_terms(k, day, &t, &mut scratch.terms, &mut scratch.parts);
                let id = k.id;
                scratch
                    .out
                    .extend(scratch.terms.iter().map(|(i, part)| (id, *i, *part)));
            }
            Unit::Auto(..) => scratch.out.push((unit.id(), 0, t)),
        },
        Entity::Ad => {
            let (ids, weights) = scratch.ads.entry(unit.ad_group_id()).or_insert_with(|| {
                let ads = sim.ads_on(unit.ad_group_id(), day);
                let weights: Vec<f64> = ads.iter().map(|x| x.1).collect();
                (
                    ads.iter().map(|x| x.0).collect(),
                    crate::sim::split::int_weights(&weights),
                )
            });
            crate::sim::split::split_ints_into(&t, weights, &mut scratch.parts);
            scratch.out.extend(
                ids.iter()
                    .zip(&scratch.parts)
                    .filter(|(id, _)| allowed(c, "adId", **id))
                    .map(|(id, part)| (*id, NONE, *part)),
            );
        }
    }
}

/// Splits a contribution by the requested dimensions, in order.
pub(super) fn by_dims(t: Totals, weights: &DimWeights) -> Vec<([u16; MAX_DIMS], Totals)> {
    let mut parts = vec![([0u16; MAX_DIMS], t)];
    for (d, (codes, w)) in weights.iter().enumerate() {
        parts = parts
            .into_iter()
            .flat_map(|(labels, t)| {
                split(&t, w)
                    .into_iter()
                    .zip(codes)
                    .map(move |(part, code)| {
                        let mut l = labels;
                        l[d] = *code;
                        (l, part)
                    })
            })
            .collect();
    }
    parts
}
