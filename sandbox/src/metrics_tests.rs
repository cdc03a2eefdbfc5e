//! Consistency of the derived metrics and their response to writes.

use time::macros::date;

use super::*;
use crate::world::{Status, WorldConfig, WorldSize};

fn world() -> World {
    World::generate(WorldConfig {
        seed: 7,
        size: WorldSize::Small,
        today: Some(date!(2026 - 03 - 15)),
    })
}

#[test]
fn every_keyword_day_is_internally_consistent() {
    let w = world();
    let mut total = Totals::default();
    for kw in w.keywords.values() {
        let bid = kw.bid.current();
        let mut day = w.first_day();
        while day <= w.today {
            let m = keyword_day(&w, kw, day);
            assert!(m.taps <= m.impressions, "{m:?}");
            assert!(m.tap_installs() <= m.taps, "{m:?}");
            assert!(m.spend <= m.taps as i64 * bid, "spend over bid: {m:?}");
            if m.taps > 0 {
                assert_eq!(m.spend % m.taps as i64, 0, "one CPT per keyword-day");
            }
            total.add(&m);
            day = day.next_day().unwrap();
        }
    }
    assert!(
        total.impressions > 100_000,
        "the world should serve: {total:?}"
    );
    assert!(
        total.taps > 1_000 && total.total_installs() > 100,
        "{total:?}"
    );
}

#[test]
fn same_seed_same_numbers_and_different_seed_different_numbers() {
    let (a, b) = (world(), world());
    let kw = a.keywords.values().next().unwrap();
    let day = a.today - time::Duration::days(3);
    assert_eq!(
        keyword_day(&a, kw, day),
        keyword_day(&b, &b.keywords[&kw.id], day)
    );
    let c = World::generate(WorldConfig {
        seed: 8,
        size: WorldSize::Small,
        today: Some(a.today),
    });
    let sum = |w: &World| {
        w.keywords
            .values()
            .map(|k| keyword_day(w, k, day).impressions)
            .sum::<u64>()
    };
    assert_ne!(sum(&a), sum(&c));
}

#[test]
fn higher_bid_buys_more_impressions_from_the_next_day() {
    let mut w = world();
    let day = w.effective_day();
    w.today = day; // let the simulated day advance so the effective day has metrics
    let id = w
        .keywords
        .values()
        .find(|k| w.keyword_serves(k, day))
        .unwrap()
        .id;
    let before: u64 = keyword_day(&w, &w.keywords[&id], day).impressions;
    let old = w.keywords[&id].bid.current();
    w.keywords.get_mut(&id).unwrap().bid.set(day, old * 3);
    let after = keyword_day(&w, &w.keywords[&id], day).impressions;
    assert!(after > before, "{before} -> {after}");
    let yesterday = day.previous_day().unwrap();
    let past = keyword_day(&w, &w.keywords[&id], yesterday);
    w.keywords.get_mut(&id).unwrap().bid.set(day, old);
    assert_eq!(
        past,
        keyword_day(&w, &w.keywords[&id], yesterday),
        "history unchanged"
    );
}

#[test]
fn paused_campaign_stops_spending() {
    let mut w = world();
    let day = w.effective_day();
    w.today = day;
    let kw = w
        .keywords
        .values()
        .find(|k| w.keyword_serves(k, day) && keyword_day(&w, k, day).spend > 0)
        .unwrap()
        .clone();
    w.campaigns
        .get_mut(&kw.campaign_id)
        .unwrap()
        .life
        .status
        .set(day, Status::Paused);
    assert_eq!(keyword_day(&w, &kw, day), Totals::default());
    assert!(
        keyword_day(&w, &kw, day.previous_day().unwrap()).impressions > 0
            || !w.keyword_serves(&kw, day.previous_day().unwrap())
    );
}

#[test]
fn popularity_is_bounded_and_stable() {
    for text in ["photo editor", "free photo editor app for iphone", "x"] {
        let p = popularity(1, text);
        assert!((1..=100).contains(&p));
        assert_eq!(p, popularity(1, text));
    }
    assert!(popularity(3, "budget") > popularity(3, "best budget tracker for students"));
}

#[test]
fn large_world_generates_quickly() {
    let started = std::time::Instant::now();
    let w = World::generate(WorldConfig {
        seed: 1,
        size: WorldSize::Large,
        today: Some(date!(2026 - 03 - 15)),
    });
    let elapsed = started.elapsed();
    let big = w.accounts.keys().last().unwrap();
    let count = w
        .keywords
        .values()
        .filter(|k| k.ad_account_id == *big)
        .count();
    assert!(count >= 100_000, "{count}");
    eprintln!("large world: {} keywords in {elapsed:?}", w.keywords.len());
}
