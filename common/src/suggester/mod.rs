//! The keyword suggester's domain (docs/product.md#2-keyword-suggester,
//! docs/product.md#3-entities-and-their-fields, docs/product.md#5-keyword-lists; the contract is
//! docs/api/suggester.md): the search payload and its checks ([`payload`]), the keyword text rules
//! ([`text`]), what a collection answers ([`keyword`]) and the calls it plans ([`plan`]). The
//! `collect-keywords` job ([`crate::jobs::CollectKeywords`]) runs the collection; the API starts
//! and polls it.

pub mod keyword;
pub mod payload;
pub mod plan;
/// The keyword text rules, which the stores share (`searchdeck-model`).
pub use searchdeck_model::text;

pub use keyword::{
    BidOn, COMPLETED, CollectProgress, FAILED, Keyword, NegatedIn, Phase, STOPPED, Source,
    SourceType, TOTAL_STEPS, apple_popularity,
};
pub use payload::{MAX_COMPETITORS, Search, SearchBody, SearchPayload, SuggestionType};
pub use text::{Negatives, clean, key, parse_list};
