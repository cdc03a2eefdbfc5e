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
    // Noon UTC: every ad account of the small world is on the UTC date.
    let day = w.effective_day(*w.accounts.keys().next().unwrap());
    // Let the simulated day advance so the effective day has metrics.
    w.set_now(w.now + time::Duration::days(1));
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
    let day = w.effective_day(*w.accounts.keys().next().unwrap());
    w.set_now(w.now + time::Duration::days(1));
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

#[test]
fn the_mid_world_is_the_small_world_plus_one_large_young_ad_group() {
    let config = |size| WorldConfig {
        seed: 42,
        size,
        today: Some(date!(2026 - 03 - 15)),
    };
    let small = World::generate(config(WorldSize::Small));
    let mid = World::generate(config(WorldSize::Mid));
    // The small world's accounts, campaigns and keywords are unchanged.
    for (id, kw) in &small.keywords {
        assert_eq!(mid.keywords[id].text, kw.text);
        assert_eq!(mid.keywords[id].bid, kw.bid);
    }
    assert_eq!(mid.accounts.len(), small.accounts.len() + 1);
    let account = *mid.accounts.keys().last().unwrap();
    let campaigns: Vec<_> = mid
        .campaigns
        .values()
        .filter(|c| c.ad_account_id == account)
        .collect();
    let groups: Vec<_> = mid
        .ad_groups
        .values()
        .filter(|g| g.ad_account_id == account)
        .collect();
    assert_eq!((campaigns.len(), groups.len()), (1, 1));
    let keywords: Vec<_> = mid
        .keywords
        .values()
        .filter(|k| k.ad_group_id == groups[0].id)
        .collect();
    assert_eq!(keywords.len(), crate::world::MID_KEYWORDS);
    assert!(keywords.len() >= 2_100);
    let texts: std::collections::HashSet<_> = keywords.iter().map(|k| &k.text).collect();
    assert_eq!(
        texts.len(),
        keywords.len(),
        "texts are distinct in the ad group"
    );
    // Young: two weeks of history, nothing created after today, and it serves.
    let start = mid.today - time::Duration::days(14);
    let created = campaigns[0].life.created.date();
    assert!(start <= created && created < mid.today - time::Duration::days(10));
    let mut installs = 0;
    for kw in &keywords {
        assert!(kw.life.created.date() <= mid.today);
        assert!(kw.life.serving_from > start);
        installs += keyword_day(&mid, kw, mid.today - time::Duration::days(2)).tap_installs();
    }
    assert!(installs > 0);
    assert!(
        keywords
            .iter()
            .any(|k| k.life.status.current() == Status::Paused)
    );
}
