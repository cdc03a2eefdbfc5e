//! The collector over substituted sources: every phase in order with each source
//! contributing, negatives never and required keywords always in, a stop mid-call, and a
//! transient provider failure that a second run gets past.

use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU32, Ordering},
    },
    time::{Duration, Instant},
};

use async_trait::async_trait;
use searchdeck_common::suggester::{BidOn, Phase, SearchPayload, SourceType};
use searchdeck_provider::{ProviderError, appstore::StoreApp};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::collector::roots;
use super::{AdsSource, Halt, OwnData, Reporter, Sources, StoreSource, collect, failure};
use searchdeck_common::queue::JobError;

const APP: i64 = 100;
const RIVAL: i64 = 200;

fn app(id: i64, name: &str, description: &str) -> StoreApp {
    serde_json::from_value(
        json!({"trackId": id, "trackName": name, "primaryGenreName": "Photo & Video",
        "genres": ["Photo & Video"], "description": description}),
    )
    .unwrap()
}

/// An App Store whose hints complete any seed with " pro" and " free", and which can hang.
struct Store {
    hang: bool,
    calls: AtomicU32,
}

#[async_trait]
impl StoreSource for Store {
    async fn hints(&self, term: &str, _: &str) -> Result<Vec<String>, ProviderError> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        if self.hang {
            std::future::pending::<()>().await;
        }
        Ok(vec![format!("{term} pro"), format!("{term} free")])
    }
    async fn lookup(&self, ids: &[i64], _: &str) -> Result<Vec<StoreApp>, ProviderError> {
        let all = [
            app(
                APP,
                "Snapfix",
                "Snapfix is a photo editor with filters. Edit photo collage.",
            ),
            app(
                RIVAL,
                "Pixelo",
                "Pixelo makes a collage maker for selfie lovers.",
            ),
        ];
        Ok(all
            .into_iter()
            .filter(|a| ids.contains(&a.track_id))
            .collect())
    }
    async fn search(&self, _: &str, _: &str, _: u32) -> Result<Vec<StoreApp>, ProviderError> {
        Ok(vec![app(300, "Otherapp", "photo")])
    }
}

/// Apple Ads with fixed suggestions and a popularity table; fails `fail` popularity calls.
struct Ads {
    popularity: HashMap<String, u8>,
    fail: AtomicU32,
}

#[async_trait]
impl AdsSource for Ads {
    async fn keywords(
        &self,
        _: i64,
        text: Option<&str>,
    ) -> Result<Vec<(String, u8)>, ProviderError> {
        Ok(vec![(format!("{} camera", text.unwrap_or("photo")), 40)])
    }
    async fn phrases(&self, _: i64) -> Result<Vec<(String, u8)>, ProviderError> {
        Ok(vec![("picture editor".into(), 30)])
    }
    async fn categories(&self, _: i64) -> Result<Vec<(String, u8)>, ProviderError> {
        Ok(vec![("Photo & Video".into(), 50)])
    }
    async fn popularity(
        &self,
        terms: &[String],
        _: &str,
    ) -> Result<HashMap<String, u8>, ProviderError> {
        if self.fail.load(Ordering::Relaxed) > 0 {
            self.fail.fetch_sub(1, Ordering::Relaxed);
            return Err(ProviderError::Retryable {
                status: Some(503),
                message: "unavailable".into(),
            });
        }
        Ok(terms
            .iter()
            .filter_map(|t| self.popularity.get(t).map(|p| (t.clone(), *p)))
            .collect())
    }
}

#[derive(Default)]
struct Seen(Mutex<Vec<(Phase, u64)>>);

#[async_trait]
impl Reporter for Seen {
    async fn phase(&self, phase: Phase, candidates: u64) {
        self.0.lock().unwrap().push((phase, candidates));
    }
}

fn sources(hang: bool, fail: u32) -> (Sources, Arc<Store>) {
    let popularity = [
        "photo editor",
        "snapfix",
        "snapfix pro",
        "pixelo",
        "collage maker",
        "photo camera",
        "picture editor",
        "picture editor camera",
        "photo video",
        "selfie",
        "photo collage",
        "my search term",
        "filters",
    ]
    .iter()
    .map(|t| (t.to_string(), 10 + t.len() as u8))
    .chain([("photo".to_string(), 3)])
    .collect();
    let store = Arc::new(Store {
        hang,
        calls: AtomicU32::new(0),
    });
    let mut own = OwnData {
        search_terms: vec!["My Search Term!".into()],
        ..Default::default()
    };
    own.bid_on.insert(
        "photo editor".into(),
        vec![BidOn {
            campaign_id: "1".into(),
            campaign_name: "US Brand".into(),
            ad_group_id: "2".into(),
            ad_group_name: "Exact".into(),
            match_type: "EXACT".into(),
        }],
    );
    let sources = Sources {
        store: store.clone(),
        ads: Arc::new(Ads {
            popularity,
            fail: AtomicU32::new(fail),
        }),
        own: Arc::new(own),
    };
    (sources, store)
}

fn search(v: serde_json::Value) -> searchdeck_common::suggester::Search {
    serde_json::from_value::<SearchPayload>(v)
        .unwrap()
        .check()
        .unwrap()
}

#[tokio::test]
async fn every_phase_runs_in_order_and_each_source_contributes() {
    let (sources, _) = sources(false, 0);
    let s = search(
        json!({"country": "US", "suggestionType": "competitors", "competitors": [RIVAL.to_string()],
        "words": ["Rare Required"], "excludedWords": ["free"], "excludedWordsByPopularities": 12}),
    );
    let seen = Seen::default();
    let done = collect(APP, &s, &sources, &seen, &CancellationToken::new())
        .await
        .unwrap();
    let phases: Vec<Phase> = seen.0.lock().unwrap().iter().map(|p| p.0).collect();
    assert_eq!(phases, Phase::ALL.to_vec());
    assert_eq!(done.phases, Phase::ALL.to_vec());
    let counts: Vec<u64> = seen.0.lock().unwrap().iter().map(|p| p.1).collect();
    assert!(
        counts.windows(2).all(|w| w[0] <= w[1]) && counts[4] > 10,
        "{counts:?}"
    );
    let by_type = |t: SourceType| {
        done.items
            .iter()
            .filter(|k| k.sources.iter().any(|s| s.kind == t))
            .count()
    };
    for t in [
        SourceType::Required,
        SourceType::Hint,
        SourceType::App,
        SourceType::Competitor,
        SourceType::Phrase,
        SourceType::Apple,
        SourceType::SearchTerm,
    ] {
        assert!(
            by_type(t) > 0,
            "{t:?} contributed nothing: {:#?}",
            done.items
        );
    }
    // Required in without traffic; negatives (as words) never; below 12 out.
    let required = done
        .items
        .iter()
        .find(|k| k.name == "rare required")
        .unwrap();
    assert!(required.required && required.popularity.is_none());
    assert!(
        done.items
            .iter()
            .all(|k| !k.name.split(' ').any(|w| w == "free"))
    );
    assert!(
        done.items
            .iter()
            .all(|k| k.required || k.popularity.unwrap() >= 12)
    );
    assert!(
        !done.items.iter().any(|k| k.name == "photo"),
        "popularity 3 is below 12"
    );
    let editor = done
        .items
        .iter()
        .find(|k| k.name == "photo editor")
        .unwrap();
    assert_eq!(editor.bid_on.len(), 1);
    assert_eq!(editor.apple_popularity, Some(2));
    let pixelo = done.items.iter().find(|k| k.name == "pixelo").unwrap();
    assert_eq!(pixelo.sources[0].adam_id.as_deref(), Some("200"));
    assert!(done.items.iter().any(|k| k.name == "my search term"));
    // Keyword suggestions around the phrase suggestion 'picture editor'.
    let around = done
        .items
        .iter()
        .find(|k| k.name == "picture editor camera")
        .unwrap();
    assert_eq!(around.sources[0].kind, SourceType::Apple);
    // Sorted by popularity, then name.
    assert!(
        done.items
            .windows(2)
            .all(|w| w[0].popularity >= w[1].popularity)
    );
    assert!(done.calls >= 8);
}

#[tokio::test]
async fn only_popularity_and_keywords_mode_skip_what_they_do_not_explore() {
    let (sources, store) = sources(false, 0);
    let s = search(
        json!({"country": "US", "suggestionType": "app", "onlyPopularity": true,
        "words": ["photo editor", "nothing here"]}),
    );
    let seen = Seen::default();
    let done = collect(APP, &s, &sources, &seen, &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(
        done.phases,
        vec![
            Phase::CollectingResults,
            Phase::Popularity,
            Phase::Excluding
        ]
    );
    let names: Vec<&str> = done.items.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, vec!["photo editor", "nothing here"]);
    assert_eq!(store.calls.load(Ordering::Relaxed), 0);

    let s = search(
        json!({"country": "US", "suggestionType": "keywords", "words": ["selfie"],
        "withoutShuffle": true, "excludedWordsByPopularities": 0}),
    );
    let done = collect(
        APP,
        &s,
        &sources,
        &Seen::default(),
        &CancellationToken::new(),
    )
    .await
    .unwrap();
    assert_eq!(
        done.phases,
        vec![
            Phase::AppStoreSuggestions,
            Phase::ExploringApp,
            Phase::CollectingResults,
            Phase::Popularity,
            Phase::Excluding
        ]
    );
    assert!(
        done.items.iter().any(|k| k.name == "selfie camera"),
        "Apple's suggestion for the word"
    );
    assert!(
        !done
            .items
            .iter()
            .any(|k| k.sources.iter().any(|s| s.kind == SourceType::App))
    );
    assert!(
        !done.items.iter().any(|k| k.name == "my search term"),
        "not about the required word"
    );
}

#[tokio::test]
async fn a_stop_ends_a_hanging_call_at_once() {
    let (sources, _) = sources(true, 0);
    let s = search(json!({"country": "US", "suggestionType": "app"}));
    let stop = CancellationToken::new();
    let run = {
        let stop = stop.clone();
        tokio::spawn(async move { collect(APP, &s, &sources, &Seen::default(), &stop).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let asked = Instant::now();
    stop.cancel();
    let ended = tokio::time::timeout(Duration::from_secs(1), run)
        .await
        .unwrap()
        .unwrap();
    assert!(matches!(ended, Err(Halt::Stopped)));
    assert!(asked.elapsed() < Duration::from_secs(1));
}

#[tokio::test]
async fn a_transient_failure_retries_and_the_next_run_finishes() {
    let (sources, _) = sources(false, 1);
    let s = search(json!({"country": "US", "suggestionType": "app"}));
    let first = collect(
        APP,
        &s,
        &sources,
        &Seen::default(),
        &CancellationToken::new(),
    )
    .await;
    let Err(Halt::Provider(e)) = first else {
        panic!("the first run fails")
    };
    assert!(matches!(failure(e, 1), JobError::Retryable(_)));
    let again = collect(
        APP,
        &s,
        &sources,
        &Seen::default(),
        &CancellationToken::new(),
    )
    .await
    .unwrap();
    assert!(!again.items.is_empty());
}

#[test]
fn root_phrases_are_the_shortest_that_hold_no_earlier_root() {
    let phrases: Vec<String> = [
        "Free Camera",
        "photo editor",
        "camera",
        "best photo editor",
        "camera app",
        "cameraman",
        "video editor",
        "",
    ]
    .iter()
    .map(|p| p.to_string())
    .collect();
    assert_eq!(
        roots(&phrases, 8),
        vec!["camera", "cameraman", "photo editor", "video editor"]
    );
    assert_eq!(roots(&phrases, 2), vec!["camera", "cameraman"]);
    assert!(roots(&[], 8).is_empty());
}
