//! Search match: an ad group with `automatedKeywordsOptIn` also shows for a few searches
//! of its app's category that none of its keywords matches, bidding its default bid. Each
//! such term bids like a broad keyword of its own; its id is derived from the ad group's
//! (negative, so it never meets an entity id).

use crate::metrics::{KeywordModel, mix_pub};
use crate::world::words::{CATEGORIES, keyword_text};
use crate::world::{AdGroup, Id, MatchType, World};

/// Search-match terms per opted-in ad group.
const TERMS: u16 = 4;

/// The id of term `index` of ad group `group`.
pub fn id(group: Id, index: u16) -> Id {
    -(group * 16 + i64::from(index))
}

/// `(ad group, index)` of a search-match term id.
pub fn parse_id(id: Id) -> Option<(Id, u16)> {
    (id < 0).then(|| (-id / 16, (-id % 16) as u16))
}

/// The search-match terms of `group`: texts of its app's category that are none of its
/// keywords' texts.
pub fn terms(w: &World, group: &AdGroup) -> Vec<String> {
    let Some(phrases) = w
        .campaigns
        .get(&group.campaign_id)
        .and_then(|c| w.apps.get(&c.adam_id))
        .and_then(|a| CATEGORIES.iter().find(|(name, _)| *name == a.category))
        .map(|(_, phrases)| *phrases)
    else {
        return vec![];
    };
    let own: Vec<String> = w
        .index
        .children("Keyword", group.id)
        .iter()
        .map(|id| w.keywords[id].text.to_lowercase())
        .collect();
    let mut out: Vec<String> = Vec::new();
    let mut n = 0u64;
    while out.len() < usize::from(TERMS) && n < 64 {
        let pick = mix_pub(&[w.seed, group.id as u64, 0x5ea7, n]) % 4096;
        let text = keyword_text(phrases, pick as usize);
        if !own.contains(&text.to_lowercase()) && !out.contains(&text) {
            out.push(text);
        }
        n += 1;
    }
    out
}

/// The model of search-match term `text` (id `id`) of `group`: broad reach at the ad
/// group's default bid.
pub fn model(w: &World, group: &AdGroup, id: Id, text: &str) -> KeywordModel {
    let since = w.first_day();
    KeywordModel::bidder(
        w,
        (id, group.campaign_id),
        text,
        MatchType::Broad,
        group.default_bid_timeline(since),
    )
}
