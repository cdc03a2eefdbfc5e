//! Budget capping and the consistency of splits over the served simulation.

use time::Duration;
use time::macros::date;

use super::*;
use crate::world::{WorldConfig, WorldSize};

fn world() -> World {
    World::generate(WorldConfig {
        seed: 7,
        size: WorldSize::Small,
        today: Some(date!(2026 - 03 - 15)),
    })
}

fn campaign_day(sim: &mut Simulation<'_>, campaign: Id, day: Date) -> (Totals, Vec<Totals>) {
    let parts: Vec<Totals> = sim
        .campaign_day(campaign, day)
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    let mut sum = Totals::default();
    parts.iter().for_each(|t| sum.add(t));
    (sum, parts)
}

#[test]
fn a_campaign_never_spends_more_than_its_daily_budget() {
    let mut w = world();
    let id = *w.campaigns.keys().next().unwrap();
    let day = w.today - Duration::days(10);
    let before = campaign_day(&mut Simulation::new(&w), id, day).0;
    assert!(before.spend > 0, "{before:?}");
    // A budget of a third of the day's spend, from that day on.
    let budget = before.spend / 3;
    w.campaigns
        .get_mut(&id)
        .unwrap()
        .daily_budget
        .set(day, budget);
    let mut sim = Simulation::new(&w);
    let (after, parts) = campaign_day(&mut sim, id, day);
    assert!(after.spend <= budget, "{} > {budget}", after.spend);
    assert!(after.spend > budget * 9 / 10, "uses most of the budget");
    assert!(after.taps < before.taps && after.impressions < before.impressions);
    for p in parts {
        assert!(
            p.taps <= p.impressions && p.tap_installs() <= p.taps,
            "{p:?}"
        );
    }
    let yesterday = day.previous_day().unwrap();
    let mut old = Simulation::new(&w);
    assert_eq!(
        campaign_day(&mut old, id, yesterday).0,
        campaign_day(&mut Simulation::new(&world()), id, yesterday).0,
        "days before the change keep their numbers"
    );
    // Every campaign-day of the generated world is within budget too.
    let w = world();
    let mut sim = Simulation::new(&w);
    for c in w.campaigns.values() {
        for back in 0..30 {
            let day = w.today - Duration::days(back);
            let spend = campaign_day(&mut sim, c.id, day).0.spend;
            assert!(spend <= c.daily_budget.at(day), "{} on {day}", c.id);
        }
    }
}

#[test]
fn search_terms_ads_and_dimensions_add_up_to_the_keyword() {
    let w = world();
    let mut sim = Simulation::new(&w);
    let day = w.today - Duration::days(2);
    let mut checked = 0;
    let served: Vec<(&Keyword, Totals)> = w
        .campaigns
        .keys()
        .flat_map(|c| sim.campaign_day(*c, day))
        .collect();
    for (k, t) in served {
        if t.impressions == 0 {
            continue;
        }
        let terms = sim.terms_on(k, day);
        let ads = sim.ads_on(k.ad_group_id, day);
        let campaign = &w.campaigns[&k.campaign_id];
        let group = &w.ad_groups[&k.ad_group_id];
        let countries = dims::Dim::CountryOrRegion.values(campaign, group);
        for weights in [
            terms.iter().map(|x| x.2).collect::<Vec<_>>(),
            ads.iter().map(|x| x.1).collect(),
            countries.iter().map(|x| x.1).collect(),
            dims::hour_weights().to_vec(),
        ] {
            let mut sum = Totals::default();
            split::split(&t, &weights).iter().for_each(|p| sum.add(p));
            assert_eq!(sum, t);
        }
        checked += 1;
    }
    assert!(checked > 50, "{checked}");
}
