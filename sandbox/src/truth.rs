//! The keyword suggester's ground truth over the sandbox world (issue 22, "Performance";
//! docs/sandbox.md "Suggester ground truth"): which search terms carry traffic, and which of
//! them are relevant for an app of the world. Derived from the world's generator alone
//! (the vocabulary, the apps and their categories, [`crate::metrics::popularity`]), never
//! from what a collector found, so `searchdeck bench suggester` measures the collector and
//! not the fixture.
//!
//! - **Traffic**: a term has traffic exactly when the search-term popularity endpoint
//!   (`POST /v1/insights/apps/search-term-popularity/query`) answers a row for it: when it is
//!   among the terms a genre ranks ([`vocabulary::ranked_terms`], the endpoint's own list). Its
//!   popularity is [`popularity`] of the text (1–100); the endpoint's weekly figure drifts
//!   within ±10 % of it per week and storefront.
//! - **Relevant for an app in a country** ([`relevant_terms`]): nothing when the app is not
//!   sold there; otherwise the app's own brand, the brands of its competitors sold there,
//!   and the terms its category ranks (its category's brands, seed phrases and their
//!   modifier combinations), each with traffic and a popularity of at least
//!   [`MIN_POPULARITY`].

use std::collections::BTreeMap;

use crate::api::rules::storefronts;
use crate::api::vocabulary::{self, category_index};
use crate::metrics::popularity;
use crate::world::World;
use crate::world::words::CATEGORIES;

/// The popularity a relevant term needs: 1, the collector's default threshold
/// (`DEFAULT_MIN_POPULARITY` of the suggester's payload: "Excluding keywords without
/// traffic..." keeps every term Apple publishes a popularity for). Every ranked term reaches
/// it, so the set is bounded by the ranking's depth instead (500 terms per genre, as Apple's
/// reference publishes): the thousands of longer modifier combinations the suggestions
/// endpoint also offers have no published popularity, and no user could tell them apart.
pub const MIN_POPULARITY: u8 = 1;

/// `text` as the sandbox's vocabulary spells terms: lower case, single spaces.
pub fn normalise(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Every term with traffic in the world, by text, with its popularity (1–100).
pub fn traffic_terms(w: &World) -> BTreeMap<String, u8> {
    (0..CATEGORIES.len())
        .flat_map(|c| vocabulary::ranked_terms(w, c))
        .map(|t| {
            let p = popularity(w.seed, &t);
            (t, p)
        })
        .collect()
}

/// The popularity of `text` when it has traffic (the endpoint answers a row for it), else
/// `None`. Case and spacing do not matter.
pub fn traffic(w: &World, text: &str) -> Option<u8> {
    let t = normalise(text);
    (0..CATEGORIES.len())
        .any(|c| vocabulary::ranked_terms(w, c).contains(&t))
        .then(|| popularity(w.seed, &t))
}

/// The search terms with traffic that are relevant for app `adam_id` in `country`, with
/// their popularity, most popular first (then by text): its brand, the brands of
/// `competitors` sold in `country`, and its category's ranked terms, each with a
/// popularity of at least [`MIN_POPULARITY`]. Empty when the app is unknown or not sold in
/// `country`.
pub fn relevant_terms(
    w: &World,
    adam_id: i64,
    competitors: &[i64],
    country: &str,
) -> Vec<(String, u8)> {
    let country = country.to_uppercase();
    let sold = |id: i64| storefronts(w, id).contains(&country.as_str());
    let Some(app) = w.apps.get(&adam_id).filter(|_| sold(adam_id)) else {
        return Vec::new();
    };
    let all = traffic_terms(w);
    let mut texts: Vec<String> = vec![normalise(&app.name)];
    texts.extend(
        competitors
            .iter()
            .filter(|id| **id != adam_id && sold(**id))
            .filter_map(|id| w.apps.get(id))
            .map(|a| normalise(&a.name)),
    );
    if let Some(c) = category_index(app.category) {
        texts.extend(vocabulary::ranked_terms(w, c));
    }
    let mut out: BTreeMap<String, u8> = BTreeMap::new();
    for t in texts {
        if let Some(p) = all.get(&t).copied().filter(|p| *p >= MIN_POPULARITY) {
            out.insert(t, p);
        }
    }
    let mut out: Vec<(String, u8)> = out.into_iter().collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::WorldConfig;

    fn world() -> World {
        World::generate(WorldConfig::default())
    }

    /// An app of an ad account and the competitor (an app no account owns) of its category.
    fn app_and_competitor(w: &World) -> (i64, i64) {
        let app = w.apps.values().find(|a| a.owner.is_some()).unwrap();
        let rival = w
            .apps
            .values()
            .find(|a| a.owner.is_none() && a.category == app.category)
            .unwrap();
        (app.adam_id, rival.adam_id)
    }

    #[test]
    fn the_set_is_the_brands_and_the_category_ranking_with_popularity() {
        let w = world();
        let (app, rival) = app_and_competitor(&w);
        let terms = relevant_terms(&w, app, &[rival], "US");
        let c = category_index(w.apps[&app].category).unwrap();
        let ranked = vocabulary::ranked_terms(&w, c);
        // The category's ranking, its brands among it: nothing else, nothing twice.
        assert_eq!(terms.len(), ranked.len());
        for brand in [app, rival] {
            let name = normalise(&w.apps[&brand].name);
            assert!(terms.iter().any(|(t, _)| *t == name), "{name}");
        }
        for (t, p) in &terms {
            assert!(ranked.contains(t), "{t}");
            assert_eq!(*p, popularity(w.seed, t));
            assert!(*p >= MIN_POPULARITY);
        }
        // Most popular first.
        assert!(terms.windows(2).all(|p| p[0].1 >= p[1].1));
        // The seed phrases of the category are in; another category's are not.
        let (_, phrases) = CATEGORIES[c];
        assert!(terms.iter().any(|(t, _)| t == phrases[0]));
        let other = CATEGORIES[(c + 1) % CATEGORIES.len()].1[0];
        assert!(!terms.iter().any(|(t, _)| t == other));
    }

    #[test]
    fn a_competitor_of_another_category_adds_its_brand_only() {
        let w = world();
        let (app, _) = app_and_competitor(&w);
        let category = w.apps[&app].category;
        let other = w
            .apps
            .values()
            .find(|a| a.category != category && storefronts(&w, a.adam_id).contains(&"US"))
            .unwrap();
        let alone = relevant_terms(&w, app, &[], "US");
        let with = relevant_terms(&w, app, &[other.adam_id], "US");
        let name = normalise(&other.name);
        let added: Vec<&(String, u8)> = with.iter().filter(|t| !alone.contains(t)).collect();
        assert_eq!(added.len(), 1, "{added:?}");
        assert_eq!(added[0].0, name);
    }

    #[test]
    fn an_app_not_sold_in_the_country_has_none() {
        let w = world();
        let (app, _) = app_and_competitor(&w);
        assert!(relevant_terms(&w, app, &[], "ZZ").is_empty());
        assert!(relevant_terms(&w, 1, &[], "US").is_empty());
    }

    #[test]
    fn traffic_is_the_ranking_whatever_the_spelling() {
        let w = world();
        let c = 0;
        let ranked = vocabulary::ranked_terms(&w, c);
        let first = &ranked[ranked.len() - 1];
        assert_eq!(traffic(&w, first), Some(popularity(w.seed, first)));
        assert_eq!(
            traffic(&w, &format!("  {}  ", first.to_uppercase())),
            Some(popularity(w.seed, first))
        );
        // Beyond the ranking's depth: offered by suggestions, without traffic.
        let beyond = vocabulary::terms(&w, c, vocabulary::TERMS_PER_GENRE + 1);
        let beyond = beyond.last().unwrap();
        assert!(!ranked.contains(beyond));
        assert_eq!(traffic(&w, beyond), None);
        assert_eq!(traffic(&w, "no such search term"), None);
        assert_eq!(
            traffic_terms(&w).len(),
            (0..CATEGORIES.len())
                .flat_map(|c| vocabulary::ranked_terms(&w, c))
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        );
    }
}
