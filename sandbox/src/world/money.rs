//! Amounts in micros of the ad account's currency, and their wire form (`Money`:
//! `{"amount": "1.50", "currency": "USD"}`).

use serde_json::{Value, json};

/// One currency unit in micros.
pub const MICROS: i64 = 1_000_000;

/// The smallest amount the currency bills in, in micros (whole yen, cents elsewhere).
pub fn minor_unit(currency: &str) -> i64 {
    match currency {
        "JPY" | "IDR" => MICROS,
        _ => MICROS / 100,
    }
}

/// How many units of `currency` buy roughly one US dollar, to keep bids plausible.
pub fn usd_rate(currency: &str) -> f64 {
    match currency {
        "JPY" => 150.0,
        "EUR" => 0.92,
        "GBP" => 0.79,
        "AUD" => 1.5,
        "CAD" => 1.36,
        "INR" => 83.0,
        "BRL" => 5.0,
        "MXN" => 17.0,
        _ => 1.0,
    }
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
