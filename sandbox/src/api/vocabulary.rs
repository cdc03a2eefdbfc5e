//! The search vocabulary suggestions and popularity insights draw from: per App Store
//! category, the brand names of the world's apps in it, its seed phrases and the phrases
//! with the modifiers people type around them (thousands of distinct terms per category).
//! Popularity of every term comes from the function that drives the keyword model.

use crate::metrics::popularity;
use crate::world::World;
use crate::world::words::{CATEGORIES, PREFIXES, SUFFIXES, keyword_text};

/// Search terms ranked per genre, storefront and period by the search-term popularity
/// endpoint: the reference's "up to 500 search terms per Country/Genre combination"
/// (`SearchTermPopularityRow.rankInGenre`), so the terms hints and suggestions offer beyond a
/// genre's top 200 have a popularity too. A term outside every genre's ranking has no
/// popularity: Apple publishes none for it, and the sandbox counts it as without traffic
/// (`crate::truth`).
pub const TERMS_PER_GENRE: usize = 500;

/// The terms the search-term popularity endpoint ranks for `category` (the first
/// [`TERMS_PER_GENRE`] of [`terms`]): the one list the endpoint and the suggester's ground
/// truth (`crate::truth`) read.
pub fn ranked_terms(w: &World, category: usize) -> Vec<String> {
    terms(w, category, TERMS_PER_GENRE)
}

/// How many modifier combinations a category offers beyond its brands.
pub fn combinations(category: usize) -> usize {
    CATEGORIES[category].1.len() * PREFIXES.len() * SUFFIXES.len()
}

/// The index of category `name` (its App Store genre name).
pub fn category_index(name: &str) -> Option<usize> {
    CATEGORIES.iter().position(|(c, _)| *c == name)
}

/// Up to `n` search terms of `category`: brand names of its apps first (competitors'
/// brands are searched too), then phrase combinations.
pub fn terms(w: &World, category: usize, n: usize) -> Vec<String> {
    let name = CATEGORIES[category].0;
    let mut out: Vec<String> = w
        .apps
        .values()
        .filter(|a| a.category == name)
        .map(|a| a.name.to_lowercase())
        .collect();
    out.sort();
    out.dedup();
    let more = n.saturating_sub(out.len()).min(combinations(category));
    out.extend((0..more).map(|i| keyword_text(CATEGORIES[category].1, i)));
    out.truncate(n);
    out
}

/// Seed phrases of `category`: its phrases and each with the common leading modifiers.
pub fn phrases(category: usize) -> Vec<String> {
    let base = CATEGORIES[category].1;
    let mut out: Vec<String> = base.iter().map(|p| (*p).to_string()).collect();
    for prefix in PREFIXES.iter().filter(|p| !p.is_empty()).take(10) {
        out.extend(base.iter().map(|p| format!("{prefix} {p}")));
    }
    out
}

/// A category's popularity: the mean popularity of its seed phrases.
pub fn category_popularity(seed: u64, category: usize) -> u8 {
    let base = CATEGORIES[category].1;
    let sum: u32 = base.iter().map(|p| u32::from(popularity(seed, p))).sum();
    (sum / base.len().max(1) as u32) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_are_distinct_and_start_with_brands() {
        let w = World::generate(Default::default());
        let app = w.apps.values().next().unwrap();
        let c = category_index(app.category).unwrap();
        let t = terms(&w, c, 2000);
        assert_eq!(t.len(), 2000);
        let mut sorted = t.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), t.len());
        assert!(t.contains(&app.name.to_lowercase()));
    }
}
