//! Budget capping and the consistency of splits over the served simulation.

use time::Duration;
use time::macros::date;

use super::*;
use crate::metrics::Totals;
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
        let countries = dims::Dim::CountryOrRegion.values(campaign, group, day);
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

/// `w` with its clock at `hour` on `day`.
fn at(mut w: World, day: Date, hour: u8) -> World {
    w.set_now(day.with_hms(hour, 0, 0).unwrap().assume_utc());
    w
}

#[test]
fn today_fills_up_by_the_hour_and_recent_installs_arrive_late() {
    let base = world();
    let today = base.today;
    let campaign = *base.campaigns.keys().next().unwrap();
    let total = |w: &World, day: Date| -> Totals {
        let mut sum = Totals::default();
        Simulation::new(w)
            .campaign_units(campaign, day)
            .iter()
            .for_each(|(_, t)| sum.add(t));
        sum
    };
    let morning = total(&at(base.clone(), today, 8), today);
    let evening = total(&at(base.clone(), today, 20), today);
    let tomorrow = total(&at(base.clone(), today.next_day().unwrap(), 0), today);
    assert_eq!(total(&at(base.clone(), today, 0), today), Totals::default());
    assert!(
        morning.impressions < evening.impressions && evening.impressions < tomorrow.impressions,
        "{morning:?} {evening:?} {tomorrow:?}"
    );
    // Yesterday's taps are final; its installs keep arriving for a few days, then settle.
    let yesterday = today.previous_day().unwrap();
    let seen = |days_later: i64| {
        total(
            &at(base.clone(), yesterday + Duration::days(days_later), 12),
            yesterday,
        )
    };
    let (d1, d2, d4, d6, d9) = (seen(1), seen(2), seen(4), seen(6), seen(9));
    assert_eq!((d1.taps, d1.spend), (d9.taps, d9.spend));
    assert!(d1.tap_installs() < d2.tap_installs(), "{d1:?} {d2:?}");
    assert!(d2.tap_installs() <= d4.tap_installs() && d4.tap_installs() <= d6.tap_installs());
    assert_eq!(d6, d9, "settled");
}

#[test]
fn each_ad_account_is_served_up_to_the_hour_of_its_own_zone() {
    let base = world();
    let today = base.today;
    let yesterday = today.previous_day().unwrap();
    let in_zone = |tz: &str| {
        let mut sim = Simulation::new(&base);
        base.campaigns
            .values()
            .filter(|c| base.accounts[&c.ad_account_id].timezone == tz)
            .find(|c| !sim.campaign_units(c.id, yesterday).is_empty())
            .map(|c| (c.id, c.ad_account_id))
            .unwrap()
    };
    let (la, la_account) = in_zone("America/Los_Angeles");
    let (tokyo, tokyo_account) = in_zone("Asia/Tokyo");
    // 03:00 UTC on 15 March 2026: 20:00 of the 14th in Los Angeles (daylight time since the
    // 8th), 12:00 of the 15th in Tokyo.
    let early = at(base.clone(), today, 3);
    let la_now = early.account_now(la_account);
    assert_eq!((la_now.today, la_now.hour), (yesterday, 20));
    let tokyo_now = early.account_now(tokyo_account);
    assert_eq!((tokyo_now.today, tokyo_now.hour), (today, 12));
    // Writes under each ad account take effect from its own next day.
    assert_eq!(early.effective_day(la_account), today);
    assert_eq!(
        early.effective_day(tokyo_account),
        today.next_day().unwrap()
    );

    let mut sim = Simulation::new(&early);
    assert!(
        sim.campaign_units(la, today).is_empty(),
        "LA's today is the 14th"
    );
    assert!(
        !sim.campaign_units(tokyo, today).is_empty(),
        "Tokyo is at noon"
    );
    // LA's 14th is served up to 20:00 local: each bidder's impressions are the first 20
    // hourly parts of its whole day (impressions never restate; the day's cap is the same).
    let later = at(base.clone(), today, 12);
    let mut whole_sim = Simulation::new(&later);
    let whole: HashMap<Id, Totals> = whole_sim
        .campaign_units(la, yesterday)
        .into_iter()
        .map(|(u, t)| (u.id(), t))
        .collect();
    let partial = sim.campaign_units(la, yesterday);
    assert!(!partial.is_empty());
    let mut parts_sum = 0;
    let mut whole_sum = 0;
    for (u, t) in &partial {
        let full = whole[&u.id()];
        let first: u64 = split::split(&full, &dims::hour_weights())
            .iter()
            .take(20)
            .map(|p| p.impressions)
            .sum();
        assert_eq!(t.impressions, first, "{}", u.id());
        parts_sum += t.impressions;
    }
    for t in whole.values() {
        whole_sum += t.impressions;
    }
    assert!(parts_sum < whole_sum, "{parts_sum} < {whole_sum}");
    // The same seed and clock give the same numbers.
    let again = at(base.clone(), today, 3);
    assert_eq!(
        Simulation::new(&again).campaign_units(la, yesterday).len(),
        partial.len()
    );
    let sum = |units: &[(Unit<'_>, Totals)]| {
        let mut s = Totals::default();
        units.iter().for_each(|(_, t)| s.add(t));
        s
    };
    assert_eq!(
        sum(&Simulation::new(&again).campaign_units(la, yesterday)),
        sum(&partial)
    );
}

#[test]
fn raising_a_bid_buys_more_the_next_day_and_lowering_it_less() {
    let base = world();
    let day = base.today.next_day().unwrap();
    // A keyword with traffic in a campaign far from its budget.
    let mut sim = Simulation::new(&base);
    let roomy: Vec<Id> = base
        .campaigns
        .values()
        .filter(|c| {
            (1..8).all(|back| {
                let d = base.today - Duration::days(back);
                let spend: i64 = sim.campaign_units(c.id, d).iter().map(|u| u.1.spend).sum();
                spend < c.daily_budget.at(d) * 2 / 3
            })
        })
        .map(|c| c.id)
        .collect();
    let (id, campaign) = roomy
        .iter()
        .find_map(|c| {
            sim.campaign_day(*c, base.today - Duration::days(1))
                .into_iter()
                .filter(|(k, _)| k.match_type == crate::world::MatchType::Exact)
                .max_by_key(|(_, t)| t.impressions)
                .map(|(k, _)| (k.id, *c))
        })
        .expect("an uncapped campaign with traffic");
    let next_day = |factor: f64| {
        let mut w = base.clone();
        let k = w.keywords.get_mut(&id).unwrap();
        let bid = ((k.bid.current() as f64 * factor) as i64 / 10_000).max(1) * 10_000;
        k.bid.set(day, bid);
        let w = at(w, day.next_day().unwrap(), 0);
        let t = Simulation::new(&w).unit_day(campaign, id, day);
        (t, bid)
    };
    let (same, bid) = next_day(1.0);
    let (raised, raised_bid) = next_day(2.0);
    let (lowered, _) = next_day(0.5);
    assert!(
        raised.impressions > same.impressions && same.impressions > lowered.impressions,
        "{lowered:?} < {same:?} < {raised:?}"
    );
    assert!(raised.spend > same.spend && raised.taps >= same.taps);
    assert!(
        (raised.impressions as f64) < same.impressions as f64 * 2.0,
        "diminishing returns"
    );
    for (t, b) in [(same, bid), (raised, raised_bid)] {
        assert!(
            t.taps > 0 && t.spend / (t.taps as i64) < b,
            "second price below the bid"
        );
    }
}

#[test]
fn budget_capping_is_the_exception() {
    let mut capped = 0;
    let mut serving = 0;
    for seed in 1..6 {
        let w = World::generate(WorldConfig {
            seed,
            size: WorldSize::Small,
            today: Some(date!(2026 - 03 - 15)),
        });
        let mut sim = Simulation::new(&w);
        for c in w.campaigns.values() {
            let mut spent = 0;
            let mut days_capped = 0;
            for back in 1..15 {
                let day = w.today - Duration::days(back);
                let spend: i64 = sim
                    .campaign_units(c.id, day)
                    .iter()
                    .map(|u| u.1.spend)
                    .sum();
                spent += spend;
                if spend * 100 >= c.daily_budget.at(day) * 99 {
                    days_capped += 1;
                }
            }
            if spent > 0 {
                serving += 1;
                if days_capped >= 7 {
                    capped += 1;
                }
            }
        }
    }
    assert!(capped >= 1, "some campaigns are budget-limited");
    assert!(
        capped * 3 < serving,
        "{capped} of {serving} campaigns capped"
    );
}

#[test]
fn search_match_terms_bid_apart_from_the_keywords() {
    let w = world();
    let mut sim = Simulation::new(&w);
    let day = w.today - Duration::days(3);
    let mut auto_terms = 0;
    for c in w.campaigns.keys() {
        for (unit, t) in sim.campaign_units(*c, day) {
            if let Unit::Auto(g, _) = unit {
                assert!(g.automated_keywords_opt_in);
                let text = sim.auto_text(*c, unit.id()).unwrap();
                let own = w.index.children("Keyword", g.id);
                assert!(own.iter().all(|k| w.keywords[k].text != text), "{text}");
                assert!(t.impressions > 0);
                auto_terms += 1;
            }
        }
    }
    assert!(auto_terms > 3, "{auto_terms}");
}
