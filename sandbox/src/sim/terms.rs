//! Search terms: the App Store searches a keyword matched. An EXACT keyword matches its own
//! text; a BROAD or PHRASE one also matches close variants (a prefix or suffix more, the
//! phrase kept in order). Negative keywords of the campaign or ad group in effect on a day
//! remove the terms they match that day (never the keyword's own text, so keyword and
//! search-term reports agree).

use crate::metrics::{mix_pub, unit};
use crate::world::words::{PREFIXES, SUFFIXES};
use crate::world::{Keyword, MatchType, NegativeKeyword};

/// The terms a keyword matches, with their share weights; the keyword's text first.
pub fn terms(seed: u64, k: &Keyword) -> Vec<(String, f64)> {
    let mut out = vec![(k.text.clone(), 1.0)];
    if k.match_type == MatchType::Exact {
        return out;
    }
    let h = mix_pub(&[seed, k.id as u64, 0x7e57]);
    for i in 0..4u64 {
        let r = mix_pub(&[h, i]);
        let variant = if r.is_multiple_of(2) {
            let p = PREFIXES[(r / 2) as usize % PREFIXES.len()];
            format!("{p} {}", k.text)
        } else {
            let s = SUFFIXES[(r / 2) as usize % SUFFIXES.len()];
            format!("{} {s}", k.text)
        };
        let variant = variant.trim().to_string();
        if !out.iter().any(|(t, _)| *t == variant) {
            out.push((variant, 0.15 + 0.45 * unit(r) / (i as f64 + 1.0)));
        }
    }
    out
}

/// Whether negative keyword `n` blocks search term `term`.
pub fn blocks(n: &NegativeKeyword, term: &str) -> bool {
    let term = term.to_lowercase();
    let neg = n.text.to_lowercase();
    match n.match_type {
        MatchType::Exact => term == neg,
        MatchType::Broad => {
            let words: Vec<&str> = term.split_whitespace().collect();
            neg.split_whitespace().all(|w| words.contains(&w))
        }
        MatchType::Phrase => {
            let words: Vec<&str> = term.split_whitespace().collect();
            let phrase: Vec<&str> = neg.split_whitespace().collect();
            !phrase.is_empty() && words.windows(phrase.len()).any(|w| w == phrase)
        }
    }
}
