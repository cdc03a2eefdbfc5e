//! Money typed by a user (docs/product.md#5-money): the one rule every amount a request
//! sends is checked by, whether a quick edit's bid (`api/src/money.rs`, which reads the
//! request's JSON and calls [`parse_text`]) or a rule's guardrail (`rules::validate`). An
//! amount is a plain decimal (`"1.5"`: digits, an optional point with digits after it; no
//! exponent, no grouping), with at most the currency's decimals (JPY none, USD two, KWD
//! three), at most [`MAX_AMOUNT`], and negative only where the caller allows a sign (a rule's
//! change "by −0.10").

pub mod currency;

use std::str::FromStr;

use rust_decimal::Decimal;

use crate::FieldError;
use currency::MoneyRule;

/// Largest amount accepted (a billion in any currency; Apple's own limits are far lower).
pub const MAX_AMOUNT: i64 = 1_000_000_000;

/// Whether an amount may be negative.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sign {
    /// At least 0 (a bid, a budget, a guardrail).
    NonNegative,
    /// Either sign (a change by an amount).
    Signed,
}

/// Whether `s` is a plain unsigned decimal: digits, optionally a point followed by digits.
fn plain(s: &str) -> bool {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    !int.is_empty()
        && int.chars().all(|c| c.is_ascii_digit())
        && frac.chars().all(|c| c.is_ascii_digit())
        && (frac.is_empty() != s.contains('.'))
}

/// The amount `text` sent for `field` (labelled `label` in messages) in `currency` (the
/// campaign group's; `None`: two decimals), exactly.
pub fn parse_text(
    field: &str,
    label: &str,
    text: &str,
    currency: Option<&str>,
    sign: Sign,
) -> Result<Decimal, FieldError> {
    let err = |m: String| FieldError::new(field, m);
    let text = text.trim();
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) if plain(rest) => (true, rest),
        _ => (false, text),
    };
    if negative && sign == Sign::NonNegative {
        return Err(err(format!("{label} must not be negative")));
    }
    let number = plain(unsigned)
        .then(|| Decimal::from_str(unsigned).ok())
        .flatten()
        .ok_or_else(|| err(format!("{label} must be a number")))?;
    let rule = MoneyRule::of(currency);
    if number.normalize().scale() > rule.digits {
        let code = currency.unwrap_or("this currency");
        return Err(err(if rule.digits == 0 {
            format!("{label} must be a whole amount in {code}")
        } else {
            format!("{label} has at most {} decimals in {code}", rule.digits)
        }));
    }
    if number > Decimal::from(MAX_AMOUNT) {
        return Err(err(format!("{label} must be at most {MAX_AMOUNT}")));
    }
    Ok(if negative { -number } else { number })
}

/// Micros of an exact amount (None past `i64`, which [`MAX_AMOUNT`] rules out).
pub fn micros(amount: Decimal) -> Option<i64> {
    use rust_decimal::prelude::ToPrimitive;
    (amount * Decimal::from(1_000_000)).trunc().to_i64()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str, currency: &str, sign: Sign) -> Result<String, String> {
        parse_text("amount", "Amount", text, Some(currency), sign)
            .map(|d| d.to_string())
            .map_err(|e| e.message)
    }

    #[test]
    fn amounts_follow_the_currency_and_the_sign() {
        assert_eq!(p("1.50", "USD", Sign::NonNegative), Ok("1.50".into()));
        assert_eq!(p(" 2 ", "JPY", Sign::NonNegative), Ok("2".into()));
        assert_eq!(
            p("1.5", "JPY", Sign::NonNegative),
            Err("Amount must be a whole amount in JPY".into())
        );
        assert_eq!(
            p("1.125", "USD", Sign::NonNegative),
            Err("Amount has at most 2 decimals in USD".into())
        );
        assert_eq!(p("1.125", "KWD", Sign::NonNegative), Ok("1.125".into()));
        assert_eq!(
            p("-0.10", "USD", Sign::NonNegative),
            Err("Amount must not be negative".into())
        );
        assert_eq!(p("-0.10", "USD", Sign::Signed), Ok("-0.10".into()));
        assert_eq!(
            p("-0.105", "USD", Sign::Signed),
            Err("Amount has at most 2 decimals in USD".into())
        );
        for bad in ["", "abc", "1e3", "1.", ".5", "1,5", "--1", "-", "+1"] {
            assert_eq!(
                p(bad, "USD", Sign::Signed),
                Err("Amount must be a number".into()),
                "{bad:?}"
            );
        }
        assert!(p("1000000001", "USD", Sign::NonNegative).is_err());
        assert_eq!(micros(Decimal::new(-150, 2)), Some(-1_500_000));
    }
}
