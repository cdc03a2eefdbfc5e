//! How many provider calls a collection makes, and the first estimate of its duration.
//!
//! The collection (`workers::jobs::collect_keywords::collector`) spends its time on provider
//! calls: App Store lookups, search and hints, Apple Ads' keyword, phrase and category
//! suggestions, and search-term popularity in batches. The limits below bound each phase's
//! calls; [`planned_calls`] counts them for a search, and [`first_estimate`] turns the count
//! into a duration before any collection of that type and country has finished on this
//! installation (issue 42 item 13: the spec's '5-20 min' stands only when nothing is known).

use super::SuggestionType;

/// Seeds whose App Store search hints are read in the first phase (the required keywords,
/// then the app's name and title terms), and required keywords explored in Apple Ads'
/// suggestions of a keywords-only search.
pub const HINT_SEEDS: usize = 12;
/// Root phrases of Apple Ads' phrase suggestions explored with the keyword suggestions
/// containing each.
pub const PHRASE_ROOTS: usize = 8;
/// Most terms per search-term popularity call.
pub const POPULARITY_BATCH: usize = 100;

/// The search a first estimate assumes where the timing route knows only the type: the
/// required keywords of a keywords-only search, the competitors of a competitors search,
/// and the candidates whose popularity is asked (the sandbox's collections end with
/// 500–1,500; Apple's with 1,000–3,000).
pub const TYPICAL_KEYWORDS: usize = 5;
pub const TYPICAL_COMPETITORS: usize = 3;
pub const TYPICAL_CANDIDATES: usize = 1_500;

/// Time per provider call before the installation has measured any: the rate limiter's
/// pace until a response has taught it the real limit (5 requests per second per key,
/// `RateLimitSettings::initial_rate`).
pub const DEFAULT_MS_PER_CALL: i64 = 200;

/// The most provider calls a collection of `kind` with `keywords` required keywords and
/// `competitors` competitors makes when its candidates number `candidates` (a keywords-only
/// search of exactly its required keywords, or an app whose name gives fewer seeds, makes
/// fewer).
pub fn planned_calls(
    kind: SuggestionType,
    keywords: usize,
    competitors: usize,
    candidates: usize,
) -> u64 {
    let calls = match kind {
        // The lookup, each required keyword's hints (its seeds are the required keywords
        // alone) and Apple Ads' suggestions containing each.
        SuggestionType::Keywords => 1 + 2 * keywords.min(HINT_SEEDS),
        // The lookup of the app (and its competitors), the seeds' hints, App Store search
        // for the app's top term, Apple Ads' keyword suggestions for the app, its phrases,
        // the keywords around each root phrase and its categories; then each competitor's
        // brand hints.
        SuggestionType::App | SuggestionType::Competitors => {
            let app = 1 + HINT_SEEDS + 1 + 1 + 1 + PHRASE_ROOTS + 1;
            app + if kind == SuggestionType::Competitors {
                competitors
            } else {
                0
            }
        }
    };
    (calls + candidates.div_ceil(POPULARITY_BATCH)) as u64
}

/// A first estimate of a collection's wall time (ms) and the calls it rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Estimate {
    pub calls: u64,
    pub duration_ms: i64,
}

/// The estimate for a typical search of `kind` at `ms_per_call` (the installation's measured
/// time per call, or [`DEFAULT_MS_PER_CALL`]).
pub fn first_estimate(kind: SuggestionType, ms_per_call: Option<i64>) -> Estimate {
    let calls = planned_calls(
        kind,
        TYPICAL_KEYWORDS,
        TYPICAL_COMPETITORS,
        TYPICAL_CANDIDATES,
    );
    let per_call = ms_per_call
        .filter(|ms| *ms > 0)
        .unwrap_or(DEFAULT_MS_PER_CALL);
    Estimate {
        calls,
        duration_ms: calls as i64 * per_call,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_follow_the_phases_of_each_type() {
        // App: lookup, 12 hints, store search, suggestions, phrases, 8 roots, categories,
        // then 15 popularity batches of 1,500 candidates.
        assert_eq!(
            planned_calls(SuggestionType::App, 0, 0, 1_500),
            1 + 12 + 1 + 1 + 1 + 8 + 1 + 15
        );
        assert_eq!(
            planned_calls(SuggestionType::Competitors, 0, 3, 1_500),
            40 + 3
        );
        // Keywords only: the lookup, each keyword's hints and suggestions, and a partial batch.
        assert_eq!(
            planned_calls(SuggestionType::Keywords, 5, 0, 101),
            1 + 5 + 5 + 2
        );
        assert_eq!(
            planned_calls(SuggestionType::Keywords, 40, 0, 0),
            1 + 12 + 12
        );
    }

    #[test]
    fn the_first_estimate_uses_the_measured_pace_when_there_is_one() {
        let default = first_estimate(SuggestionType::App, None);
        assert_eq!(
            default.duration_ms,
            default.calls as i64 * DEFAULT_MS_PER_CALL
        );
        assert_eq!(
            first_estimate(SuggestionType::App, Some(50)).duration_ms,
            default.calls as i64 * 50
        );
        assert_eq!(first_estimate(SuggestionType::App, Some(0)), default);
    }
}
