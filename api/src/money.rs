//! Money of an edit or a creation (docs/product.md#5-money: a number, minimum 0, in the
//! campaign group's currency): the request's amount parsed exactly into micros, refused when
//! it is not a number, negative, in another currency or more precise than the currency (JPY
//! has no decimals, USD two, KWD three); Apple's smallest bid and daily budget per currency
//! ([`minimum`], the table the sandbox and the web app use); and amounts of the provider's
//! answers read back exactly.

use std::str::FromStr;

use rust_decimal::{Decimal, prelude::ToPrimitive};
use searchdeck_common::money::{self, Sign};
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::error::FieldError;

/// An amount as a request sends it: `{"amount": "1.5", "currency": "USD"}`, or the amount
/// alone (`"1.5"` or `1.5`). The currency, when given, must be the campaign group's.
#[derive(Debug, Deserialize, ToSchema)]
pub struct MoneyIn {
    /// Decimal amount (string or number), at least 0, with at most the currency's decimals.
    #[schema(value_type = String)]
    pub amount: Value,
    pub currency: Option<String>,
}

/// Micros of the amount `raw` sent for `field` (labelled `label` in messages), in
/// `currency` (the campaign group's).
pub fn parse(
    field: &str,
    label: &str,
    raw: &Value,
    currency: Option<&str>,
) -> Result<i64, FieldError> {
    let err = |m: String| FieldError::new(field, m);
    let amount = match raw {
        Value::Object(o) => {
            if let Some(sent) = o.get("currency").and_then(Value::as_str)
                && let Some(ours) = currency
                && sent != ours
            {
                return Err(err(format!(
                    "{label} must be in {ours}, the campaign group's currency"
                )));
            }
            o.get("amount").cloned().unwrap_or(Value::Null)
        }
        other => other.clone(),
    };
    let text = match &amount {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    // The one rule of typed money (`searchdeck_common::money`), shared with the rules.
    let number = money::parse_text(field, label, &text, currency, Sign::NonNegative)?;
    money::micros(number).ok_or_else(|| err(format!("{label} must be a number")))
}

/// Apple's smallest bid and daily budget per currency: the table lives in
/// `searchdeck_common::money::currency` (automated rules keep computed amounts above it too).
pub use searchdeck_common::money::currency::{Minimum, minimum};

/// Exact micros of an amount in a provider answer: a `Money` object, a `{"value": Money}`
/// wrapper, or a decimal string.
pub fn wire_micros(v: &Value) -> Option<i64> {
    let v = if v.get("value").is_some() {
        &v["value"]
    } else {
        v
    };
    let v = if v.is_object() { &v["amount"] } else { v };
    let text = match v {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    (Decimal::from_str(&text).ok()? * Decimal::from(1_000_000)).to_i64()
}

/// `micros` as an exact decimal (`"12.5"`), as change records store money.
pub fn text(micros: Option<i64>) -> Option<String> {
    micros.map(|m| Decimal::new(m, 6).normalize().to_string())
}

/// `micros` as a provider `Money` in `currency`.
pub fn wire(micros: i64, currency: Option<&str>) -> Value {
    json!({ "amount": Decimal::new(micros, 6).normalize().to_string(), "currency": currency })
}

/// `micros` as the answer's `{amount, currency}`, or null.
pub fn answer(micros: Option<i64>, currency: Option<&str>) -> Value {
    micros.map_or(Value::Null, |m| wire(m, currency))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(raw: Value, currency: &str) -> Result<i64, String> {
        parse("bid", "Bid", &raw, Some(currency)).map_err(|e| e.message)
    }

    #[test]
    fn amounts_parse_exactly_within_the_currency() {
        assert_eq!(p(json!("1.5"), "USD"), Ok(1_500_000));
        assert_eq!(p(json!(1.25), "USD"), Ok(1_250_000));
        assert_eq!(
            p(json!({"amount": "2", "currency": "USD"}), "USD"),
            Ok(2_000_000)
        );
        // Currency codes are taken exactly as documented (one rule for every enum).
        assert_eq!(
            p(json!({"amount": "2", "currency": "usd"}), "USD"),
            Err("Bid must be in USD, the campaign group's currency".into())
        );
        assert_eq!(
            p(json!("1.50"), "USD"),
            Ok(1_500_000),
            "trailing zeros are not precision"
        );
        assert_eq!(p(json!("0"), "USD"), Ok(0));
        assert_eq!(p(json!("150"), "JPY"), Ok(150_000_000));
        assert_eq!(p(json!("1.125"), "KWD"), Ok(1_125_000));
        assert_eq!(
            p(json!("1.123"), "USD"),
            Err("Bid has at most 2 decimals in USD".into())
        );
        assert_eq!(
            p(json!("1.5"), "JPY"),
            Err("Bid must be a whole amount in JPY".into())
        );
        assert_eq!(
            p(json!("-1"), "USD"),
            Err("Bid must not be negative".into())
        );
        for bad in [
            json!("abc"),
            json!(""),
            json!(null),
            json!("1e3"),
            json!("1."),
            json!(".5"),
            json!(true),
            json!("1,5"),
        ] {
            assert_eq!(
                p(bad.clone(), "USD"),
                Err("Bid must be a number".into()),
                "{bad}"
            );
        }
        assert!(p(json!({"amount": "1", "currency": "EUR"}), "USD").is_err());
        assert!(p(json!("10000000000"), "USD").is_err());
    }

    #[test]
    fn minimums_follow_the_shared_table() {
        assert_eq!(minimum(Minimum::DailyBudget, "USD"), 1_000_000);
        assert_eq!(minimum(Minimum::Bid, "USD"), 100_000);
        assert_eq!(minimum(Minimum::DailyBudget, "JPY"), 150_000_000);
        assert_eq!(minimum(Minimum::Bid, "JPY"), 15_000_000);
        assert_eq!(minimum(Minimum::DailyBudget, "EUR"), 920_000);
    }

    #[test]
    fn answers_read_back_exactly() {
        assert_eq!(
            wire_micros(&json!({"value": {"amount": "0.1", "currency": "USD"}})),
            Some(100_000)
        );
        assert_eq!(
            wire_micros(&json!({"amount": "12.345", "currency": "KWD"})),
            Some(12_345_000)
        );
        assert_eq!(wire_micros(&json!(null)), None);
        assert_eq!(text(Some(1_500_000)), Some("1.5".into()));
        assert_eq!(
            wire(100_000, Some("USD")),
            json!({"amount": "0.1", "currency": "USD"})
        );
    }
}
