//! Keyword text rules of the suggester: the list parsing of docs/product.md#5-keyword-lists
//! ("punctuation and symbols removed, lower-cased, empty lines dropped, duplicates removed"), the
//! key that deduplicates candidates case- and punctuation-insensitively, negative keywords as
//! words, and the terms and phrases the collector draws from store metadata.

use std::collections::{HashMap, HashSet};

use unicode_general_category::{GeneralCategory, get_general_category};

/// Whether `c` is punctuation or a symbol (Unicode general categories P* and S*).
fn punctuation_or_symbol(c: char) -> bool {
    use GeneralCategory::*;
    matches!(
        get_general_category(c),
        ConnectorPunctuation
            | DashPunctuation
            | OpenPunctuation
            | ClosePunctuation
            | InitialPunctuation
            | FinalPunctuation
            | OtherPunctuation
            | MathSymbol
            | CurrencySymbol
            | ModifierSymbol
            | OtherSymbol
    )
}

/// One keyword as docs/product.md#5-keyword-lists keeps it: punctuation and symbols removed,
/// lower-cased, spaces collapsed to one and trimmed. Empty when nothing is left. A removed
/// character separates words only where it stood between spaces ("photo-editor" → "photoeditor", as
/// Apple matches the typed text; "photo - editor" → "photo editor").
pub fn clean(text: &str) -> String {
    let kept: String = text
        .chars()
        .filter(|c| !punctuation_or_symbol(*c))
        .flat_map(char::to_lowercase)
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The dedupe key of a keyword text: texts with the same key are one keyword (case,
/// punctuation and spacing do not count).
pub fn key(text: &str) -> String {
    clean(text)
}

/// A keyword list as entered (docs/product.md#5-keyword-lists): every entry may hold several lines;
/// each line is [`clean`]ed, empty ones dropped and repeats removed, first occurrence first.
pub fn parse_list<S: AsRef<str>>(entries: &[S]) -> Vec<String> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for entry in entries {
        for line in entry.as_ref().lines() {
            let cleaned = clean(line);
            if !cleaned.is_empty() && seen.insert(cleaned.clone()) {
                out.push(cleaned);
            }
        }
    }
    out
}

/// Two words are variants of one another when they are equal or differ by a plural ending
/// ("game"/"games", "match"/"matches").
fn variant(a: &str, b: &str) -> bool {
    a == b
        || a.strip_suffix('s') == Some(b)
        || b.strip_suffix('s') == Some(a)
        || a.strip_suffix("es") == Some(b)
        || b.strip_suffix("es") == Some(a)
}

/// The negative keywords of a collection: no result contains one as a word (or run of
/// words, for a negative of several), nor a plural/singular variant of it.
#[derive(Debug, Clone, Default)]
pub struct Negatives(Vec<Vec<String>>);

impl Negatives {
    /// From a parsed negative keyword list.
    pub fn new(list: &[String]) -> Self {
        Negatives(
            list.iter()
                .map(|n| n.split_whitespace().map(str::to_string).collect::<Vec<_>>())
                .filter(|w| !w.is_empty())
                .collect(),
        )
    }

    /// Whether `text` (any form) contains a negative keyword as a word.
    pub fn excludes(&self, text: &str) -> bool {
        let cleaned = clean(text);
        let words: Vec<&str> = cleaned.split_whitespace().collect();
        self.0.iter().any(|neg| {
            words.len() >= neg.len()
                && words
                    .windows(neg.len())
                    .any(|w| w.iter().zip(neg).all(|(a, b)| variant(a, b)))
        })
    }
}

/// Words too common to be a search term on their own.
const STOPWORDS: &[&str] = &[
    "a", "about", "all", "also", "an", "and", "any", "app", "apps", "are", "as", "at", "be",
    "best", "but", "by", "can", "do", "does", "each", "every", "for", "free", "from", "get", "has",
    "have", "how", "in", "into", "is", "it", "its", "just", "make", "more", "most", "new", "no",
    "not", "now", "of", "on", "one", "or", "our", "out", "over", "so", "some", "than", "that",
    "the", "their", "them", "then", "there", "these", "they", "this", "to", "up", "us", "use",
    "using", "very", "was", "we", "what", "when", "which", "while", "who", "will", "with", "you",
    "your",
];

/// Whether `word` can stand as a term: not a stop word, not only digits, 3+ characters.
fn term_word(word: &str) -> bool {
    word.chars().count() >= 3
        && !word.chars().all(|c| c.is_ascii_digit())
        && !STOPWORDS.contains(&word)
}

/// The terms of a piece of store metadata (a title, subtitle, genre or description), most
/// frequent first: its words that can stand alone, and every run of two or three such words
/// in a row within one sentence or title segment ("photo editor" from "Photo Editor: Filters").
pub fn terms(text: &str) -> Vec<String> {
    let mut counts: HashMap<String, (usize, usize)> = HashMap::new();
    let mut order = 0;
    let mut add = |t: String| {
        let entry = counts.entry(t).or_insert((0, order));
        entry.0 += 1;
        order += 1;
    };
    // Sentences and title segments: a phrase never spans one of these separators.
    for segment in text.split(|c: char| {
        matches!(
            c,
            '.' | ',' | ':' | ';' | '!' | '?' | '|' | '(' | ')' | '\n' | '•' | '–' | '—'
        )
    }) {
        let cleaned = clean(segment);
        let words: Vec<&str> = cleaned.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            if term_word(w) {
                add((*w).to_string());
            }
            for n in [2, 3] {
                if i + n <= words.len() {
                    let run = &words[i..i + n];
                    // A phrase starts and ends on a term word; stop words may join inside.
                    if term_word(run[0]) && term_word(run[n - 1]) {
                        add(run.join(" "));
                    }
                }
            }
        }
    }
    let mut out: Vec<(String, (usize, usize))> = counts.into_iter().collect();
    out.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.1.1.cmp(&b.1.1)));
    out.into_iter().map(|(t, _)| t).collect()
}

/// 'Doing some magic...': phrases combined from the leading single-word `terms` (at most
/// `max_terms` of them), each pair in both orders ("photo" + "editor" → "photo editor",
/// "editor photo"). Multi-word terms are left out; they are phrases already.
pub fn combine(terms: &[String], max_terms: usize) -> Vec<String> {
    let words: Vec<&String> = terms
        .iter()
        .filter(|t| !t.contains(' '))
        .take(max_terms)
        .collect();
    let mut out = Vec::new();
    for a in &words {
        for b in &words {
            if a != b && !variant(a, b) {
                out.push(format!("{a} {b}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_parsed_as_spec_5_says() {
        let entries = vec![
            "Photo Editor!\n\n  photo   editor \nFILTERS".to_string(),
            "  ".to_string(),
            "collage™ maker".to_string(),
            "€uro $cash 100%".to_string(),
            "l'été".to_string(),
        ];
        assert_eq!(
            parse_list(&entries),
            vec![
                "photo editor",
                "filters",
                "collage maker",
                "uro cash 100",
                "lété"
            ]
        );
        assert_eq!(key("Photo-Editor"), key("photo editor").replace(' ', ""));
        assert_eq!(key("  PHOTO, editor "), "photo editor");
        assert!(parse_list::<String>(&[]).is_empty());
    }

    #[test]
    fn negatives_exclude_words_and_their_variants_only() {
        let neg = Negatives::new(&parse_list(&["free", "video call"]));
        assert!(neg.excludes("Free photo editor"));
        assert!(neg.excludes("photo editor frees"));
        assert!(neg.excludes("group video calls app"));
        assert!(!neg.excludes("freedom photo"));
        assert!(!neg.excludes("video editor call"));
        assert!(!Negatives::default().excludes("anything"));
    }

    #[test]
    fn metadata_is_split_into_terms_and_combined() {
        let t = terms("Photo Editor: Filters & Effects. Edit your photo with filters");
        assert_eq!(t[0], "photo");
        assert!(t.contains(&"filters".to_string()));
        assert!(t.contains(&"photo editor".to_string()));
        assert!(t.contains(&"filters effects".to_string()));
        assert!(!t.contains(&"your".to_string()));
        assert!(
            !t.contains(&"editor filters".to_string()),
            "a phrase spans no ':'"
        );
        let c = combine(&t, 3);
        assert!(c.contains(&"photo filters".to_string()));
        assert!(c.contains(&"filters photo".to_string()));
        assert!(c.iter().all(|p| p.split(' ').count() == 2));
    }
}
