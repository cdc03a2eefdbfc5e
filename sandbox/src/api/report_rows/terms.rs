//! Search-term rows without dimensions: each bidder-day split among the keyword's search
//! terms (its plan made the first day it serves), summed by flat (bidder, term) position
//! with no row map; settled weeks of a whole campaign's totals are read from the world's
//! cache, or added up there for the next report.

use time::{Date, Duration};

use super::contributions::Scratch;
use super::{Buckets, CampaignDays, CampaignRows, MAX_DIMS, Pass, RowKey, passes};
use crate::metrics::Totals;
use crate::sim::days::{self, WeekKind, WeekRow};
use crate::sim::late::hour_weights_on;
use crate::sim::{Simulation, TermPlan, Unit, term_plan};

/// Search terms one bidder has at most: its own text and four variants
/// ([`crate::sim::terms::terms`]).
const TERM_SLOTS: usize = 5;

/// Search-term rows of one campaign without dimensions.
pub(super) fn term_days(
    sim: &mut Simulation<'_>,
    pass: &Pass<'_>,
    days: &CampaignDays<'_>,
    scratch: &mut Scratch,
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
    let mut day = first;
    let units = sim.flat_units(campaign);
    let mut acc: Vec<Option<(Totals, Buckets)>> = vec![None; units.len() * TERM_SLOTS];
    // Each keyword's terms, made the first day it serves.
    let mut plans: Vec<Option<TermPlan>> =
        std::iter::repeat_with(|| None).take(units.len()).collect();
    let all_pass = c.ids.iter().all(|(f, _)| f == "campaignId");
    // Totals only, of every bidder, on the ad account's days: settled weeks are
    // read whole from the cache (or added up there for the next report).
    let weeks = all_pass && !pass.granular && !c.utc;
    let mut building: Option<Date> = None;
    let mut week_sums: Vec<Totals> = Vec::new();
    let mut touched: Vec<u32> = Vec::new();
    let mut served: Vec<(u32, Totals)> = Vec::new();
    while day <= end {
        let last = day + Duration::days(days::WEEK_DAYS - 1);
        if weeks && building.is_none() && last <= end && sim.keeps_week(campaign, day) {
            if let Some(week) = sim.kept_week(campaign, day, WeekKind::Terms) {
                for r in &week.rows {
                    let entry = acc[r.slot as usize].get_or_insert_with(Default::default);
                    entry.0.add(&r.totals());
                }
                day = last.next_day().expect("date in range");
                continue;
            }
            building = Some(day);
            if week_sums.is_empty() {
                week_sums = vec![Totals::default(); acc.len()];
            }
        }
        let hours = hour_weights_on(now, day);
        sim.campaign_units_flat(campaign, day, &mut served);
        for (at, t) in &served {
            let unit = &units[*at as usize];
            if !all_pass && !passes(unit, c) {
                continue;
            }
            scratch.terms.clear();
            match unit {
                Unit::Keyword(k) => {
                    let plan = plans[*at as usize].get_or_insert_with(|| term_plan(w, k));
                    Simulation::split_by_plan(
                        w,
                        plan,
                        day,
                        t,
                        &mut scratch.terms,
                        &mut scratch.parts,
                    )
                }
                Unit::Auto(..) => scratch.terms.push((0, *t)),
            }
            for (term, part) in &scratch.terms {
                if part.is_zero() {
                    continue;
                }
                let slot = *at as usize * TERM_SLOTS + usize::from(*term);
                let entry = acc[slot].get_or_insert_with(Default::default);
                sink.add(entry, day, part, &hours);
                if building.is_some() {
                    let sum = &mut week_sums[slot];
                    if sum.is_zero() {
                        touched.push(slot as u32);
                    }
                    sum.add(part);
                }
            }
        }
        if let Some(start) = building
            && day == start + Duration::days(days::WEEK_DAYS - 1)
        {
            touched.sort_unstable();
            let rows: Option<Vec<WeekRow>> = touched
                .iter()
                .map(|slot| WeekRow::new(*slot, &week_sums[*slot as usize]))
                .collect();
            for slot in touched.drain(..) {
                week_sums[slot as usize] = Totals::default();
            }
            if let Some(rows) = rows {
                sim.keep_week(campaign, start, WeekKind::Terms, rows);
            }
            building = None;
        }
        day = day.next_day().expect("date in range");
    }
    for (slot, row) in acc.into_iter().enumerate() {
        if let Some(row) = row {
            let key = RowKey {
                id: units[slot / TERM_SLOTS].id(),
                term: (slot % TERM_SLOTS) as u16,
                dims: [0; MAX_DIMS],
            };
            rows.insert(key, row);
        }
    }
    rows
}
