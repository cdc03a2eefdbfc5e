//! What stays as served: a kept day is the day simulated, a write under its campaign drops
//! it, and settings changed today leave the days before as they served.

use std::sync::Arc;

use time::macros::date;
use time::{Date, Duration};

use crate::metrics::Totals;
use crate::sim::{Simulation, days, dims, late};
use crate::world::{Id, World, WorldConfig, WorldSize};

fn world() -> World {
    World::generate(WorldConfig {
        seed: 7,
        size: WorldSize::Small,
        today: Some(date!(2026 - 03 - 15)),
    })
}

#[test]
fn kept_days_are_the_days_simulated_and_a_write_under_the_campaign_drops_them() {
    let mut w = world();
    w.days = Some(Arc::new(days::DayCache::new(days::DEFAULT_BYTES)));
    let campaigns: Vec<Id> = w.campaigns.keys().copied().collect();
    let settled: Vec<Date> = (late::SETTLE_DAYS..late::SETTLE_DAYS + 15)
        .map(|back| w.today - Duration::days(back))
        .collect();
    let served = |sim: &mut Simulation<'_>, c: Id, d: Date| -> Vec<(Id, Totals)> {
        sim.campaign_units(c, d)
            .into_iter()
            .map(|(u, t)| (u.id(), t))
            .collect()
    };
    for pass in 0..2 {
        for c in &campaigns {
            for d in &settled {
                let kept = served(&mut Simulation::new(&w), *c, *d);
                let fresh = served(&mut Simulation::uncached(&w), *c, *d);
                assert_eq!(kept, fresh, "pass {pass}, campaign {c} on {d}");
            }
        }
        assert!(
            w.days.as_ref().unwrap().bytes() > 0,
            "settled days are kept"
        );
    }
    // Today and the days still restated are never kept: they change with the clock.
    let recent = w.today - Duration::days(1);
    let mut sim = Simulation::new(&w);
    sim.campaign_units(campaigns[0], recent);
    let stamp = w.stamp(campaigns[0]);
    assert!(
        w.days
            .as_ref()
            .unwrap()
            .get(campaigns[0], recent, stamp)
            .is_none()
    );

    // A write under the campaign (here one reaching back, which the API never makes)
    // moves its stamp: its kept days are simulated again.
    let (c, d) = (campaigns[0], settled[0]);
    let before = served(&mut Simulation::new(&w), c, d);
    let (k, _) = before.iter().find(|(id, _)| *id > 0).copied().unwrap();
    w.bump_version();
    let first = w.first_day();
    let bid = w.keywords[&k].bid.current();
    w.keywords.get_mut(&k).unwrap().bid.set(first, bid * 3);
    w.touch("Keyword", k);
    let after = served(&mut Simulation::new(&w), c, d);
    assert_eq!(after, served(&mut Simulation::uncached(&w), c, d));
    assert_ne!(after, before, "the tripled bid shows");
    let other = campaigns[1];
    assert_eq!(w.stamp(other), 0, "other campaigns keep their days");
}

#[test]
fn settings_changed_today_leave_the_days_before_as_served() {
    let mut w = world();
    let g = w
        .ad_groups
        .values()
        .find(|g| g.automated_keywords_opt_in && w.campaigns[&g.campaign_id].countries.len() > 1)
        .expect("an opted-in ad group of a campaign in several storefronts")
        .id;
    let c = w.ad_groups[&g].campaign_id;
    let days: Vec<Date> = (1..8).map(|back| w.today - Duration::days(back)).collect();
    let served = |w: &World| -> Vec<Vec<(Id, Totals)>> {
        let mut sim = Simulation::new(w);
        days.iter()
            .map(|d| {
                sim.campaign_units(c, *d)
                    .into_iter()
                    .map(|(u, t)| (u.id(), t))
                    .collect()
            })
            .collect()
    };
    type Values = Vec<(String, f64)>;
    let dims = |w: &World| -> Vec<(Values, Values)> {
        let (campaign, group) = (&w.campaigns[&c], &w.ad_groups[&g]);
        days.iter()
            .map(|d| {
                (
                    dims::Dim::CountryOrRegion.values(campaign, group, *d),
                    dims::Dim::DeviceClass.values(campaign, group, *d),
                )
            })
            .collect()
    };
    let (before, before_dims) = (served(&w), dims(&w));
    assert!(
        before.iter().flatten().any(|(id, _)| *id < 0),
        "search match served"
    );

    // Today's changes, as the update routes make them: from the next day on.
    let from = w.effective_day(w.campaigns[&c].ad_account_id);
    let group = w.ad_groups.get_mut(&g).unwrap();
    group.keep_before(from);
    group.default_bid *= 3;
    group.automated_keywords_opt_in = false;
    group.device_classes = vec!["IPHONE"];
    let campaign = w.campaigns.get_mut(&c).unwrap();
    campaign.keep_countries_before(from);
    campaign.countries.truncate(1);

    assert_eq!(served(&w), before, "past days keep what they served");
    assert_eq!(dims(&w), before_dims, "and how it divided");
    let (campaign, group) = (&w.campaigns[&c], &w.ad_groups[&g]);
    assert_eq!(campaign.countries_on(from).len(), 1);
    assert_eq!(
        group.settings_on(from),
        (group.default_bid, false, &["IPHONE"][..])
    );
    let mut later = w.clone();
    later.set_now(w.now + Duration::days(1));
    let next = Simulation::new(&later).campaign_units(c, from);
    assert!(
        next.iter().all(|(u, _)| u.id() > 0),
        "search match stops from the next day"
    );
}
