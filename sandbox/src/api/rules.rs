//! The write rules Apple enforces that the entity handlers share: amount minimums per
//! currency, name lengths, start/end order, the storefronts an app is sold in, the bid
//! strategies and match types the sandbox serves. Each refusal is an [`ApiError`] naming
//! the offending field.

use serde::Deserialize;
use time::OffsetDateTime;

use super::error::ApiError;
use crate::metrics::mix_pub;
use crate::world::money::{AMOUNTS, MICROS, format_amount, minor_unit, usd_rate};
use crate::world::words::COUNTRIES;
use crate::world::{MatchType, World};

/// Longest campaign, ad group, ad and creative name.
pub const MAX_NAME: usize = 200;
/// Longest keyword or negative keyword text.
pub const MAX_KEYWORD: usize = 80;

/// Storefronts beyond the simulated markets an app may also be sold in.
const MORE_STOREFRONTS: &[&str] = &["BR", "IN", "KR", "IT", "ES", "NL", "SE", "CH", "CN", "TW"];

/// `usd` US dollars in `currency`, rounded up to its minor unit, in micros.
fn usd_equivalent(usd: f64, currency: &str) -> i64 {
    let minor = minor_unit(currency);
    let micros = usd * usd_rate(currency) * MICROS as f64;
    ((micros / minor as f64).ceil() as i64) * minor
}

/// The smallest CPT bid (keyword or ad group default): 0.10 USD in the account's currency
/// (`data/apple-minimums.json`, which the web app checks bids with too).
pub fn min_bid(currency: &str) -> i64 {
    usd_equivalent(AMOUNTS.minimums_usd.bid, currency)
}

/// The smallest daily budget: 1 USD in the account's currency (`data/apple-minimums.json`).
pub fn min_daily_budget(currency: &str) -> i64 {
    usd_equivalent(AMOUNTS.minimums_usd.daily_budget, currency)
}

/// Refuses `micros` below `min` with `AMOUNT_TOO_LOW` on `field`.
pub fn at_least(micros: i64, min: i64, field: &str, currency: &str) -> Result<i64, ApiError> {
    if micros < min {
        return Err(ApiError::invalid(
            "AMOUNT_TOO_LOW",
            field,
            format!(
                "{field} must be at least {} {currency}",
                format_amount(min, currency)
            ),
        ));
    }
    Ok(micros)
}

/// Checks a name is neither blank nor longer than `max` characters.
pub fn name(s: &str, field: &str, max: usize) -> Result<(), ApiError> {
    super::non_blank(s, field)?;
    if s.chars().count() > max {
        return Err(ApiError::invalid(
            "INVALID_LENGTH",
            field,
            format!("{field} must be at most {max} characters"),
        ));
    }
    Ok(())
}

/// Refuses an end time that is not after the start time.
pub fn time_order(start: OffsetDateTime, end: Option<OffsetDateTime>) -> Result<(), ApiError> {
    if end.is_some_and(|e| e <= start) {
        return Err(ApiError::invalid(
            "INVALID_DATE_RANGE",
            "endTime",
            "endTime must be after startTime",
        ));
    }
    Ok(())
}

/// The storefronts (ISO alpha-2) app `adam_id` is sold in: every simulated market for the
/// ad accounts' own apps (minus none, so their generated campaigns stay valid), most of them
/// for competitors, and a seeded share of further storefronts for every app.
pub fn storefronts(w: &World, adam_id: i64) -> Vec<&'static str> {
    let owned = w.apps.get(&adam_id).is_some_and(|a| a.owner.is_some());
    let keep = |code: &str, share: f64| {
        let h = mix_pub(&[w.seed, adam_id as u64, u64::from_le_bytes(pad(code))]);
        (h % 1000) as f64 / 1000.0 < share
    };
    let markets = COUNTRIES
        .iter()
        .map(|(c, _)| *c)
        .filter(|c| owned || *c == "US" || keep(c, 0.8));
    let more = MORE_STOREFRONTS.iter().copied().filter(|c| keep(c, 0.5));
    markets.chain(more).collect()
}

fn pad(code: &str) -> [u8; 8] {
    let mut out = [0u8; 8];
    for (o, b) in out.iter_mut().zip(code.bytes()) {
        *o = b;
    }
    out
}

/// Refuses countries or regions app `adam_id` is not sold in.
pub fn sold_in(w: &World, adam_id: i64, countries: &[String], field: &str) -> Result<(), ApiError> {
    let sold = storefronts(w, adam_id);
    let missing: Vec<&str> = countries
        .iter()
        .map(String::as_str)
        .filter(|c| !sold.contains(c))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(ApiError::invalid(
        "COUNTRIES_OR_REGIONS_NOT_ELIGIBLE",
        field,
        format!(
            "app {adam_id} is not sold in {}; it is sold in {}",
            missing.join(", "),
            sold.join(", ")
        ),
    ))
}

/// `BidStrategyType` values of the reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum BidStrategyType {
    ManualCpt,
    MaxConversions,
    ManualCpm,
    MaxEngagements,
}

/// `BidStrategyGoal` values of the reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum BidStrategyGoal {
    Impression,
    Install,
    Tap,
}

/// `BidStrategyCreate` / `BidStrategyUpdate`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BidStrategyIn {
    pub bid_strategy_type: Option<BidStrategyType>,
    pub bid_strategy_goal: Option<BidStrategyGoal>,
    pub bid: Option<super::MoneyIn>,
}

impl BidStrategyIn {
    /// Refuses any strategy but manual CPT bidding toward taps (what search results
    /// campaigns in the sandbox run), rather than replacing it silently.
    pub fn manual_cpt(&self) -> Result<(), ApiError> {
        if self
            .bid_strategy_type
            .is_some_and(|t| t != BidStrategyType::ManualCpt)
        {
            return Err(ApiError::invalid(
                "UNSUPPORTED_BID_STRATEGY",
                "bidStrategy.bidStrategyType",
                "search results campaigns bid MANUAL_CPT",
            ));
        }
        if self
            .bid_strategy_goal
            .is_some_and(|g| g != BidStrategyGoal::Tap)
        {
            return Err(ApiError::invalid(
                "UNSUPPORTED_BID_STRATEGY",
                "bidStrategy.bidStrategyGoal",
                "MANUAL_CPT bids toward TAP",
            ));
        }
        Ok(())
    }
}

/// `KeywordMatchType` values of the reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum MatchTypeIn {
    Exact,
    Broad,
    Phrase,
    Category,
}

impl MatchTypeIn {
    /// The simulated match type; CATEGORY (Apple's own category matching) is refused.
    pub fn simulated(self, field: &str) -> Result<MatchType, ApiError> {
        match self {
            MatchTypeIn::Exact => Ok(MatchType::Exact),
            MatchTypeIn::Broad => Ok(MatchType::Broad),
            MatchTypeIn::Phrase => Ok(MatchType::Phrase),
            MatchTypeIn::Category => Err(ApiError::invalid(
                "UNSUPPORTED_VALUE",
                field,
                "CATEGORY match type is not simulated; use EXACT, BROAD or PHRASE",
            )),
        }
    }
}

/// Checks a keyword text: not blank, at most [`MAX_KEYWORD`] characters.
pub fn keyword_text(text: &str) -> Result<(), ApiError> {
    name(text, "text", MAX_KEYWORD)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimums_scale_by_currency_and_round_up_to_the_minor_unit() {
        assert_eq!(min_bid("USD"), 100_000);
        assert_eq!(min_bid("EUR"), 100_000);
        assert_eq!(min_bid("JPY"), 15 * MICROS);
        assert_eq!(min_daily_budget("USD"), MICROS);
        assert_eq!(min_daily_budget("JPY"), 150 * MICROS);
        assert_eq!(min_bid("GBP"), 80_000);
        assert_eq!(min_bid("IDR"), MICROS, "whole units round up");
    }

    #[test]
    fn a_phrase_negative_blocks_its_words_in_order_only() {
        let w = World::generate(Default::default());
        let mut n = w.negative_keywords.values().next().unwrap().clone();
        n.text = "photo editor".into();
        n.match_type = MatchType::Phrase;
        assert!(crate::sim::terms::blocks(&n, "best photo editor app"));
        assert!(!crate::sim::terms::blocks(&n, "editor photo"));
        assert!(!crate::sim::terms::blocks(&n, "photo video editor"));
        n.match_type = MatchType::Broad;
        assert!(crate::sim::terms::blocks(&n, "editor photo"));
    }

    #[test]
    fn owned_apps_are_sold_in_every_simulated_market() {
        let w = World::generate(Default::default());
        for app in w.apps.values().filter(|a| a.owner.is_some()) {
            let sold = storefronts(&w, app.adam_id);
            assert!(COUNTRIES.iter().all(|(c, _)| sold.contains(c)));
        }
        let app = w.apps.values().find(|a| a.owner.is_some()).unwrap();
        let refused = sold_in(&w, app.adam_id, &["ZZ".into()], "f").unwrap_err();
        assert_eq!(refused.details[0].0, "COUNTRIES_OR_REGIONS_NOT_ELIGIBLE");
    }
}
