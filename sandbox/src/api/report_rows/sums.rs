//! The two paths that need no split of a bidder-day: campaign and ad group rows by day,
//! from each ad group's daily sum, and keyword rows without dimensions, from the
//! campaign's bidders by their flat position (no row map).

use super::{Buckets, CampaignDays, CampaignRows, MAX_DIMS, Pass, RowKey, allowed, passes};
use crate::api::report_request::Entity;
use crate::metrics::Totals;
use crate::sim::Simulation;
use crate::sim::late::hour_weights_on;

/// Campaign or ad group rows of one campaign by day: each ad group's sum of the day, whole
/// (hours are split per bidder, so HOURLY and UTC days go through the bidders instead).
pub(super) fn group_days(
    sim: &mut Simulation<'_>,
    pass: &Pass<'_>,
    days: &CampaignDays<'_>,
) -> CampaignRows {
    let c = pass.checked;
    let &CampaignDays {
        campaign,
        now,
        first,
        end,
        ref sink,
    } = days;
    let mut rows = CampaignRows::default();
    let mut day = first;
    while day <= end {
        let hours = hour_weights_on(now, day);
        for (group, t) in sim.campaign_groups(campaign, day) {
            if !allowed(c, "adGroupId", group) {
                continue;
            }
            let id = if pass.entity == Entity::Campaign {
                campaign
            } else {
                group
            };
            let key = RowKey {
                id,
                term: u16::MAX,
                dims: [0; MAX_DIMS],
            };
            if pass.rows.as_ref().is_none_or(|r| r.contains(&key)) {
                let entry = rows.entry(key).or_default();
                sink.add(entry, day, &t, &hours);
            }
        }
        day = day.next_day().expect("date in range");
    }
    rows
}

/// Keyword rows of one campaign without dimensions: its bidders by flat position.
pub(super) fn keyword_days(
    sim: &mut Simulation<'_>,
    pass: &Pass<'_>,
    days: &CampaignDays<'_>,
) -> CampaignRows {
    let c = pass.checked;
    let &CampaignDays {
        campaign,
        now,
        first,
        end,
        ref sink,
    } = days;
    let mut rows = CampaignRows::default();
    let mut day = first;
    let units = sim.flat_units(campaign);
    let mut acc: Vec<Option<(Totals, Buckets)>> = vec![None; units.len()];
    let mut served: Vec<(u32, Totals)> = Vec::new();
    while day <= end {
        let hours = hour_weights_on(now, day);
        sim.campaign_units_flat(campaign, day, &mut served);
        for (at, t) in &served {
            let unit = &units[*at as usize];
            if unit.keyword().is_none() || !passes(unit, c) {
                continue;
            }
            let entry = acc[*at as usize].get_or_insert_with(Default::default);
            sink.add(entry, day, t, &hours);
        }
        day = day.next_day().expect("date in range");
    }
    for (unit, row) in units.iter().zip(acc) {
        if let Some(row) = row {
            let key = RowKey {
                id: unit.id(),
                term: u16::MAX,
                dims: [0; MAX_DIMS],
            };
            rows.insert(key, row);
        }
    }
    rows
}
