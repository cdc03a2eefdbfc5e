//! The collection itself, free of the job machinery so the job, its tests and the
//! `bench suggester` benchmark run the same code: [`collect`] walks the phases of
//! docs/product.md#2-keyword-suggester in order over the [`Sources`], reporting each phase and the
//! candidate count to a [`Reporter`] and stopping between (and during) provider calls once its stop
//! token is cancelled.

use std::{
    collections::{HashMap, HashSet},
    future::Future,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
};

use async_trait::async_trait;
use searchdeck_common::suggester::{
    Keyword, Negatives, Phase, Search, Source, SourceType, SuggestionType, apple_popularity,
    keyword, text,
};
use searchdeck_provider::{ProviderError, appstore::StoreApp};
use tokio_util::sync::CancellationToken;

use searchdeck_common::suggester::plan::{HINT_SEEDS, PHRASE_ROOTS, POPULARITY_BATCH};

use super::sources::{AdsSource, OwnData, StoreSource};

/// Longest candidate kept (characters); Apple Ads keywords are at most 100.
const MAX_KEYWORD_CHARS: usize = 100;
/// Terms of an app's description kept.
const DESCRIPTION_TERMS: usize = 40;
/// Single-word terms combined into phrases ('Doing some magic...').
const MAGIC_TERMS: usize = 12;
/// Apps an App Store search for the app's top term returns (their names are brand terms).
const SEARCH_LIMIT: u32 = 25;

/// Where a collection's inputs come from.
#[derive(Clone)]
pub struct Sources {
    pub store: Arc<dyn StoreSource>,
    pub ads: Arc<dyn AdsSource>,
    pub own: Arc<OwnData>,
}

/// What a collection is told while it runs.
#[async_trait]
pub trait Reporter: Send + Sync {
    /// The collection entered `phase` with `candidates` distinct candidates so far.
    async fn phase(&self, phase: Phase, candidates: u64);
}

/// A reporter that only counts (the benchmark's).
pub struct Quiet;

#[async_trait]
impl Reporter for Quiet {
    async fn phase(&self, _: Phase, _: u64) {}
}

/// Why a collection ended early.
#[derive(Debug)]
pub enum Halt {
    /// Its stop token was cancelled.
    Stopped,
    /// A provider call failed (retries are the caller's).
    Provider(ProviderError),
}

impl From<ProviderError> for Halt {
    fn from(e: ProviderError) -> Self {
        Halt::Provider(e)
    }
}

/// A collection's answer and what it cost.
#[derive(Debug, Clone)]
pub struct Collected {
    pub items: Vec<Keyword>,
    /// Provider calls made (App Store and Apple Ads).
    pub calls: u64,
    /// The phases entered, in order.
    pub phases: Vec<Phase>,
}

/// One candidate keyword while collecting.
struct Candidate {
    name: String,
    sources: Vec<Source>,
}

/// The running collection's state.
struct Run<'a> {
    search: &'a Search,
    sources: &'a Sources,
    reporter: &'a dyn Reporter,
    stop: &'a CancellationToken,
    negatives: Negatives,
    candidates: HashMap<String, Candidate>,
    order: Vec<String>,
    calls: AtomicU64,
    phases: Vec<Phase>,
}

impl Run<'_> {
    /// Adds `text` from `source` unless it is empty, too long or holds a negative keyword.
    fn add(&mut self, text: &str, source: Source) {
        let k = text::key(text);
        if k.is_empty() || k.chars().count() > MAX_KEYWORD_CHARS || self.negatives.excludes(&k) {
            return;
        }
        match self.candidates.get_mut(&k) {
            Some(c) => {
                if !c.sources.contains(&source) {
                    c.sources.push(source);
                }
            }
            None => {
                self.order.push(k.clone());
                self.candidates.insert(
                    k.clone(),
                    Candidate {
                        name: k,
                        sources: vec![source],
                    },
                );
            }
        }
    }

    fn add_all<S: AsRef<str>>(&mut self, texts: &[S], source: &Source) {
        for t in texts {
            self.add(t.as_ref(), source.clone());
        }
    }

    /// Runs one provider call unless stopped; a stop while it is in flight abandons it.
    async fn call<T>(
        &self,
        fut: impl Future<Output = Result<T, ProviderError>>,
    ) -> Result<T, Halt> {
        if self.stop.is_cancelled() {
            return Err(Halt::Stopped);
        }
        self.calls.fetch_add(1, Ordering::Relaxed);
        tokio::select! {
            biased;
            () = self.stop.cancelled() => Err(Halt::Stopped),
            r = fut => r.map_err(Halt::Provider),
        }
    }

    async fn enter(&mut self, phase: Phase) -> Result<(), Halt> {
        if self.stop.is_cancelled() {
            return Err(Halt::Stopped);
        }
        self.phases.push(phase);
        self.reporter
            .phase(phase, self.candidates.len() as u64)
            .await;
        Ok(())
    }

    /// Search hints of each seed, as `source`.
    async fn hints(&mut self, seeds: &[String], source: &Source) -> Result<(), Halt> {
        let country = self.search.country.clone();
        for seed in seeds {
            let found = self.call(self.sources.store.hints(seed, &country)).await?;
            self.add_all(&found, source);
        }
        Ok(())
    }
}

/// An app's metadata terms: title (and subtitle where the store gives one), genres and,
/// unless left out, the description's leading terms.
fn app_terms(app: &StoreApp, with_description: bool) -> Vec<String> {
    let mut out = text::terms(&app.track_name);
    out.insert(0, text::key(&app.track_name));
    for g in app.primary_genre_name.iter().chain(&app.genres) {
        out.push(text::key(g));
    }
    if with_description && let Some(d) = &app.description {
        out.extend(text::terms(d).into_iter().take(DESCRIPTION_TERMS));
    }
    let mut seen = HashSet::new();
    out.retain(|t| !t.is_empty() && seen.insert(t.clone()));
    out
}

/// Up to `n` root phrases of `phrases` (most popular first): the shortest first, each
/// unless it holds an earlier root as whole words ('free camera' adds nothing to 'camera':
/// the keyword suggestions containing 'camera' hold it).
pub(super) fn roots(phrases: &[String], n: usize) -> Vec<String> {
    let mut sorted: Vec<String> = phrases.iter().map(|p| text::key(p)).collect();
    // Stable: phrases of one length keep their popularity order.
    sorted.sort_by_key(|p| p.split_whitespace().count());
    let mut out: Vec<String> = Vec::new();
    for p in sorted {
        if out.len() == n {
            break;
        }
        let padded = format!(" {p} ");
        if p.is_empty() || out.iter().any(|r| padded.contains(&format!(" {r} "))) {
            continue;
        }
        out.push(p);
    }
    out
}

/// Collects keywords for app `adam_id` as `search` asks, over `sources`, reporting to
/// `reporter`; ends with [`Halt::Stopped`] soon after `stop` is cancelled.
pub async fn collect(
    adam_id: i64,
    search: &Search,
    sources: &Sources,
    reporter: &dyn Reporter,
    stop: &CancellationToken,
) -> Result<Collected, Halt> {
    let mut run = Run {
        search,
        sources,
        reporter,
        stop,
        negatives: Negatives::new(&search.excluded_words),
        candidates: HashMap::new(),
        order: Vec::new(),
        calls: AtomicU64::new(0),
        phases: Vec::new(),
    };
    let country = search.country.clone();
    let with_app = search.suggestion_type != SuggestionType::Keywords && !search.only_popularity;
    let required: HashSet<String> = search.words.iter().cloned().collect();
    // Required keywords are in whatever their words are (a negative does not drop them).
    for w in &search.words {
        run.order.push(w.clone());
        run.candidates.insert(
            w.clone(),
            Candidate {
                name: w.clone(),
                sources: vec![Source::of(SourceType::Required)],
            },
        );
    }
    // The app and its competitors as the App Store sells them in the country.
    let mut apps: Vec<StoreApp> = Vec::new();
    let mut other_apps: HashSet<String> = HashSet::new();
    let mut magic_terms: Vec<String> = search.words.clone();
    if !search.only_popularity {
        // Looking for App Store suggestions: the hints of the seeds (the required
        // keywords, and the app's name and title terms unless only keywords are explored).
        run.enter(Phase::AppStoreSuggestions).await?;
        let mut ids = vec![adam_id];
        if search.suggestion_type != SuggestionType::Keywords {
            ids.extend(&search.competitors);
        }
        apps = run.call(sources.store.lookup(&ids, &country)).await?;
        let app = apps.iter().find(|a| a.track_id == adam_id).cloned();
        let mut seeds: Vec<String> = search.words.clone();
        if with_app && let Some(app) = &app {
            seeds.extend(app_terms(app, false));
        }
        seeds.truncate(HINT_SEEDS);
        run.hints(&seeds, &Source::of(SourceType::Hint)).await?;

        // Exploring your app...: its metadata, Apple Ads' suggestions for it, the campaign
        // group's own search terms, and the apps App Store search returns for its top term.
        run.enter(Phase::ExploringApp).await?;
        if with_app {
            if let Some(app) = &app {
                let terms = app_terms(app, !search.without_description);
                run.add_all(&terms, &Source::of(SourceType::App));
                magic_terms.extend(terms.iter().cloned());
                if let Some(top) = terms
                    .iter()
                    .find(|t| !t.contains(' ') && **t != text::key(&app.track_name))
                {
                    let found = run
                        .call(sources.store.search(top, &country, SEARCH_LIMIT))
                        .await?;
                    other_apps.extend(found.iter().map(|a| text::key(&a.track_name)));
                }
            }
            let apple = Source::of(SourceType::Apple);
            let found = run.call(sources.ads.keywords(adam_id, None)).await?;
            run.add_all(
                &found.iter().map(|f| f.0.clone()).collect::<Vec<_>>(),
                &apple,
            );
            let found = run.call(sources.ads.phrases(adam_id)).await?;
            let phrases: Vec<String> = found.iter().map(|f| f.0.clone()).collect();
            run.add_all(&phrases, &apple);
            for root in roots(&phrases, PHRASE_ROOTS) {
                let found = run.call(sources.ads.keywords(adam_id, Some(&root))).await?;
                run.add_all(
                    &found.iter().map(|f| f.0.clone()).collect::<Vec<_>>(),
                    &apple,
                );
            }
            let found = run.call(sources.ads.categories(adam_id)).await?;
            run.add_all(
                &found.iter().map(|f| f.0.clone()).collect::<Vec<_>>(),
                &apple,
            );
        } else {
            // Only the required keywords: Apple Ads' suggestions containing each.
            let apple = Source::of(SourceType::Apple);
            for w in search.words.iter().take(HINT_SEEDS) {
                let found = run.call(sources.ads.keywords(adam_id, Some(w))).await?;
                run.add_all(
                    &found.iter().map(|f| f.0.clone()).collect::<Vec<_>>(),
                    &apple,
                );
            }
        }
        if search.with_aggregation {
            let terms: Vec<String> = sources
                .own
                .search_terms
                .iter()
                .filter(|t| {
                    with_app
                        || search
                            .words
                            .iter()
                            .any(|w| text::key(t).contains(w.as_str()))
                })
                .cloned()
                .collect();
            run.add_all(&terms, &Source::of(SourceType::SearchTerm));
        }

        // Exploring your competitors...: each one's brand, metadata and brand hints.
        if search.suggestion_type != SuggestionType::Keywords && !search.competitors.is_empty() {
            run.enter(Phase::ExploringCompetitors).await?;
            for competitor in apps
                .iter()
                .filter(|a| a.track_id != adam_id)
                .cloned()
                .collect::<Vec<_>>()
            {
                let source = Source::competitor(competitor.track_id, &competitor.track_name);
                let terms = app_terms(&competitor, !search.without_description);
                run.add_all(&terms, &source);
                magic_terms.extend(terms.iter().take(MAGIC_TERMS / 2).cloned());
                let brand = text::key(&competitor.track_name);
                let found = run.call(sources.store.hints(&brand, &country)).await?;
                run.add_all(&found, &source);
            }
        }

        // Doing some magic...: the leading single-word terms combined into phrases.
        if !search.without_shuffle {
            run.enter(Phase::Magic).await?;
            let mut seen = HashSet::new();
            magic_terms.retain(|t| seen.insert(t.clone()));
            let phrases = text::combine(&magic_terms, MAGIC_TERMS);
            run.add_all(&phrases, &Source::of(SourceType::Phrase));
        }
    }

    // Collecting results...: brand terms of other apps out (when asked), places in.
    run.enter(Phase::CollectingResults).await?;
    if search.without_apps {
        let own_names: HashSet<String> = apps.iter().map(|a| text::key(&a.track_name)).collect();
        let drop: Vec<String> = run
            .order
            .iter()
            .filter(|k| {
                other_apps.contains(*k) && !own_names.contains(*k) && !required.contains(*k)
            })
            .cloned()
            .collect();
        for k in &drop {
            run.candidates.remove(k);
        }
        run.order.retain(|k| run.candidates.contains_key(k));
    }

    // Getting Search Ads Popularity for all keywords...: batched.
    run.enter(Phase::Popularity).await?;
    let mut popularity: HashMap<String, u8> = HashMap::new();
    let keys = run.order.clone();
    for batch in keys.chunks(POPULARITY_BATCH) {
        let found = run.call(sources.ads.popularity(batch, &country)).await?;
        popularity.extend(found);
    }

    // Excluding keywords without traffic...: below the payload's threshold out.
    run.enter(Phase::Excluding).await?;
    let mut items: Vec<Keyword> = Vec::with_capacity(run.order.len());
    for k in &run.order {
        let Some(c) = run.candidates.get(k) else {
            continue;
        };
        let p = popularity.get(k).copied();
        let is_required = required.contains(k);
        if !is_required && search.min_popularity > 0 && p.unwrap_or(0) < search.min_popularity {
            continue;
        }
        items.push(Keyword {
            name: c.name.clone(),
            popularity: p,
            apple_popularity: p.map(apple_popularity),
            impressions: 0,
            sources: c.sources.clone(),
            required: is_required,
            bid_on: sources.own.bid_on.get(k).cloned().unwrap_or_default(),
            negated_in: sources.own.negated_in.get(k).cloned().unwrap_or_default(),
        });
    }
    keyword::sort(&mut items);
    Ok(Collected {
        items,
        calls: run.calls.load(Ordering::Relaxed),
        phases: run.phases,
    })
}
