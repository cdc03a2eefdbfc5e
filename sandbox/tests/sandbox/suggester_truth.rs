//! The suggester's ground truth (`searchdeck_sandbox::truth`) agrees with what the
//! search-term popularity endpoint answers: a term has traffic exactly when the endpoint
//! answers a row for it, every relevant term of an app gets one, and the endpoint's weekly
//! popularity stays within the ±10 % drift of the truth's. So the recall `bench suggester`
//! prints cannot drift away from what a collector can observe.

use std::collections::HashMap;

use crate::support::Client;
use searchdeck_sandbox::SandboxConfig;
use searchdeck_sandbox::api::vocabulary;
use searchdeck_sandbox::truth;
use serde_json::json;
use time::Duration;
use time::macros::datetime;

fn client() -> Client {
    Client::new(SandboxConfig {
        now: Some(datetime!(2026-03-15 13:00 UTC)),
        frozen_clock: true,
        ..SandboxConfig::default()
    })
}

/// The endpoint's newest weekly popularity of each of `terms` in `country` (terms it
/// answers no row for are missing), over the last three weeks.
async fn endpoint(c: &Client, terms: &[String], country: &str) -> HashMap<String, u8> {
    let today = c.sandbox.world.read().today;
    let mut out: HashMap<String, (String, u8)> = HashMap::new();
    for batch in terms.chunks(500) {
        let body = json!({
            "timeRange": { "start": (today - Duration::days(20)).to_string(), "end": today.to_string(),
                           "granularity": "WEEKLY_SUN_SAT", "timeZone": "UTC" },
            "filters": [
                { "field": "countryOrRegion", "operator": "EQUALS", "value": [country] },
                { "field": "searchTerm", "operator": "IN", "value": batch },
            ],
            "pagination": { "offset": 0, "pageSize": 5000 },
        });
        let page = c
            .post("/insights/apps/search-term-popularity/query", body)
            .await;
        let rows = page["result"]["rows"].as_array().unwrap();
        assert!(
            page["pagination"]["totalCount"].as_u64().unwrap() as usize == rows.len(),
            "one page holds every row"
        );
        for r in rows {
            let term = r["searchTerm"].as_str().unwrap().to_string();
            let week = r["week"].as_str().unwrap().to_string();
            let p = r["searchPopularity1to100"].as_u64().unwrap() as u8;
            let e = out.entry(term).or_insert((week.clone(), p));
            if week > e.0 {
                *e = (week, p);
            }
        }
    }
    out.into_iter().map(|(t, (_, p))| (t, p)).collect()
}

/// Within the endpoint's weekly drift (×0.9–1.1, rounded, 1–100) of `base`.
fn within_drift(base: u8, weekly: u8) -> bool {
    let low = (f64::from(base) * 0.9).round().clamp(1.0, 100.0) as u8;
    let high = (f64::from(base) * 1.1).round().clamp(1.0, 100.0) as u8;
    (low..=high).contains(&weekly)
}

#[tokio::test]
async fn traffic_is_what_the_popularity_endpoint_answers() {
    let c = client();
    // Every category's ranking and the next terms suggestions offer beyond it.
    let candidates: Vec<String> = {
        let w = c.sandbox.world.read();
        (0..8)
            .flat_map(|cat| vocabulary::terms(&w, cat, vocabulary::TERMS_PER_GENRE + 100))
            .collect()
    };
    for country in ["DE"] {
        let answered = endpoint(&c, &candidates, country).await;
        let w = c.sandbox.world.read();
        let mut with = 0;
        for t in &candidates {
            match (truth::traffic(&w, t), answered.get(t)) {
                (Some(base), Some(weekly)) => {
                    with += 1;
                    assert!(within_drift(base, *weekly), "{t}: {base} vs {weekly}");
                }
                (None, None) => {}
                (mine, theirs) => panic!("{t} in {country}: truth {mine:?}, endpoint {theirs:?}"),
            }
        }
        assert_eq!(with, truth::traffic_terms(&w).len());
        assert!(with >= 8 * vocabulary::TERMS_PER_GENRE - 16, "{with}");
    }
}

#[tokio::test]
async fn every_relevant_term_of_an_app_has_a_row() {
    let c = client();
    let (app, rivals, terms) = {
        let w = c.sandbox.world.read();
        let app = w.apps.values().find(|a| a.owner.is_some()).unwrap();
        let rivals: Vec<i64> = w
            .apps
            .values()
            .filter(|a| a.owner.is_none())
            .map(|a| a.adam_id)
            .collect();
        let terms = truth::relevant_terms(&w, app.adam_id, &rivals, "US");
        (app.adam_id, rivals, terms)
    };
    assert!(
        terms.len() >= vocabulary::TERMS_PER_GENRE,
        "{}",
        terms.len()
    );
    let texts: Vec<String> = terms.iter().map(|(t, _)| t.clone()).collect();
    let answered = endpoint(&c, &texts, "US").await;
    for (t, p) in &terms {
        let weekly = answered.get(t).unwrap_or_else(|| panic!("no row for {t}"));
        assert!(within_drift(*p, *weekly), "{t}: {p} vs {weekly}");
        assert!(*weekly >= truth::MIN_POPULARITY);
    }
    // The competitors' brands are in, whichever category they sell in.
    let w = c.sandbox.world.read();
    for r in &rivals {
        if searchdeck_sandbox::api::rules::storefronts(&w, *r).contains(&"US") {
            let name = truth::normalise(&w.apps[r].name);
            assert!(texts.contains(&name), "{name}");
        }
    }
    assert!(texts.contains(&truth::normalise(&w.apps[&app].name)));
}
