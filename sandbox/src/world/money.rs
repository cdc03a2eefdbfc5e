//! Amounts in micros of the ad account's currency, and their wire form (`Money`:
//! `{"amount": "1.50", "currency": "USD"}`).

use std::collections::HashMap;
use std::sync::LazyLock;

use serde::Deserialize;
use serde_json::{Value, json};

/// One currency unit in micros.
pub const MICROS: i64 = 1_000_000;

/// `data/apple-minimums.json`: Apple's smallest amounts in US dollars, the rates that carry
/// them into other currencies and the currencies billed in whole units. The web app reads
/// the same file to check money fields before sending them.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AmountTable {
    /// The smallest CPT bid and daily budget, in US dollars.
    pub minimums_usd: MinimumsUsd,
    /// Units of a currency that buy one US dollar (others count 1:1).
    pub usd_rates: HashMap<String, f64>,
    /// Currencies billed in whole units (others in hundredths).
    pub whole_units: Vec<String>,
}

/// Apple's smallest amounts in US dollars.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MinimumsUsd {
    /// A keyword's or ad group's CPT bid.
    pub bid: f64,
    /// A campaign's daily budget.
    pub daily_budget: f64,
}

/// The table, read once from the file compiled in.
pub static AMOUNTS: LazyLock<AmountTable> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../data/apple-minimums.json"))
        .expect("data/apple-minimums.json is a valid amount table")
});

/// The smallest amount the currency bills in, in micros (whole yen, cents elsewhere).
pub fn minor_unit(currency: &str) -> i64 {
    if AMOUNTS.whole_units.iter().any(|c| c == currency) {
        MICROS
    } else {
        MICROS / 100
    }
}

/// How many units of `currency` buy roughly one US dollar, to keep bids plausible.
pub fn usd_rate(currency: &str) -> f64 {
    AMOUNTS.usd_rates.get(currency).copied().unwrap_or(1.0)
}

/// Renders micros as a decimal string with the currency's minor-unit precision.
pub fn format_amount(micros: i64, currency: &str) -> String {
    let decimals = if minor_unit(currency) == MICROS { 0 } else { 2 };
    let value = micros as f64 / MICROS as f64;
    format!("{value:.decimals$}")
}

/// The wire `Money` object.
pub fn money(micros: i64, currency: &str) -> Value {
    json!({ "amount": format_amount(micros, currency), "currency": currency })
}

/// Parses a decimal amount string ("1.5", "12", "0.25") into micros.
pub fn parse_amount(s: &str) -> Option<i64> {
    let s = s.trim();
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    if int.is_empty()
        || !int.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 6
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let whole: i64 = int.parse().ok()?;
    let frac_micros: i64 = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<6}").parse().ok()?
    };
    whole.checked_mul(MICROS)?.checked_add(frac_micros)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_round_trip() {
        assert_eq!(parse_amount("1.5"), Some(1_500_000));
        assert_eq!(parse_amount("12"), Some(12_000_000));
        assert_eq!(parse_amount("0.000001"), Some(1));
        assert_eq!(parse_amount("-1"), None);
        assert_eq!(parse_amount("1.2.3"), None);
        assert_eq!(parse_amount(""), None);
        assert_eq!(format_amount(1_500_000, "USD"), "1.50");
        assert_eq!(format_amount(150_000_000, "JPY"), "150");
    }
}
