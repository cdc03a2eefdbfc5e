//! The currency table of docs/product.md#3-currency-table (symbol, native symbol, decimal digits,
//! cash rounding and name per ISO 4217 code) from its one source, `common/data/currencies.json` —
//! the frontend imports the same file — and money rounding (docs/product.md#5-money: floored to the
//! currency's digits, and to its cash rounding increment where it has one, 0.05 for the Swiss
//! franc).

use std::{collections::BTreeMap, sync::LazyLock};

use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};

/// One currency of the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Currency {
    /// The sign in English text (`$`, `CA$`, `€`, `CHF`).
    pub symbol: String,
    /// The sign in the currency's own region (`￥` for JPY).
    pub symbol_native: String,
    /// Decimal digits money is floored to.
    pub digits: u32,
    /// Cash rounding increment (0.05 for CHF), 0 for none.
    #[schema(value_type = f64)]
    pub rounding: Decimal,
    /// English name.
    pub name: String,
}

static TABLE: LazyLock<BTreeMap<String, Currency>> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../../data/currencies.json"))
        .expect("common/data/currencies.json is a valid currency table")
});

/// The whole table, by code.
pub fn table() -> &'static BTreeMap<String, Currency> {
    &TABLE
}

/// The currency of `code` (case-insensitive), if in the table.
pub fn of(code: &str) -> Option<&'static Currency> {
    TABLE.get(&code.trim().to_ascii_uppercase())
}

/// Digits of money whose currency is unknown (docs/product.md#5-money: two decimals by default).
pub const DEFAULT_DIGITS: u32 = 2;

/// How money of one currency is rounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoneyRule {
    pub digits: u32,
    pub rounding: Decimal,
}

impl MoneyRule {
    /// The rule of `code`, or two digits without increment for an unknown code.
    pub fn of(code: Option<&str>) -> MoneyRule {
        match code.and_then(of) {
            Some(c) => MoneyRule {
                digits: c.digits,
                rounding: c.rounding,
            },
            None => MoneyRule {
                digits: DEFAULT_DIGITS,
                rounding: Decimal::ZERO,
            },
        }
    }

    /// `amount` floored to the currency's increment and digits (docs/product.md#5-money).
    pub fn floor(&self, amount: Decimal) -> Decimal {
        let stepped = if self.rounding > Decimal::ZERO {
            (amount / self.rounding).floor() * self.rounding
        } else {
            amount
        };
        let mut out =
            stepped.round_dp_with_strategy(self.digits, RoundingStrategy::ToNegativeInfinity);
        out.rescale(self.digits);
        out
    }

    /// Micros of the currency as floored money.
    pub fn micros(&self, micros: i64) -> Decimal {
        self.floor(Decimal::new(micros, 6))
    }
}

/// Apple's smallest amounts (`sandbox/data/apple-minimums.json`: the one table the sandbox
/// enforces and the web app checks with).
static MINIMUMS: LazyLock<serde_json::Value> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../../../sandbox/data/apple-minimums.json"))
        .expect("apple-minimums.json is JSON")
});

/// Which of Apple's minimums.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Minimum {
    /// A CPT bid (keyword or ad group default).
    Bid,
    /// A campaign's daily budget.
    DailyBudget,
}

/// Apple's smallest `kind` in `currency`, in micros: the US-dollar minimum times the
/// currency's rate, rounded up to its minor unit (as the sandbox computes it).
pub fn minimum(kind: Minimum, currency: &str) -> i64 {
    let table = &*MINIMUMS;
    let usd = match kind {
        Minimum::Bid => &table["minimumsUsd"]["bid"],
        Minimum::DailyBudget => &table["minimumsUsd"]["dailyBudget"],
    }
    .as_f64()
    .unwrap_or(0.0);
    let rate = table["usdRates"][currency].as_f64().unwrap_or(1.0);
    let whole = table["wholeUnits"]
        .as_array()
        .is_some_and(|w| w.iter().any(|c| c.as_str() == Some(currency)));
    let minor: i64 = if whole { 1_000_000 } else { 10_000 };
    let micros = usd * rate * 1_000_000.0;
    ((micros / minor as f64).ceil() as i64) * minor
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn the_table_has_the_active_codes_with_their_digits() {
        assert!((165..=180).contains(&table().len()), "{}", table().len());
        assert_eq!(of("jpy").unwrap().digits, 0);
        assert_eq!(of("KWD").unwrap().digits, 3);
        assert_eq!(of("CHF").unwrap().rounding, d("0.05"));
        assert_eq!(of("USD").unwrap().symbol, "$");
        assert!(of("XAU").is_none());
        let with_increment: Vec<_> = table()
            .iter()
            .filter(|(_, c)| !c.rounding.is_zero())
            .map(|(k, _)| k.as_str())
            .collect();
        assert_eq!(with_increment, ["CHF"]);
    }

    #[test]
    fn money_is_floored_per_currency() {
        let jpy = MoneyRule::of(Some("JPY"));
        assert_eq!(jpy.floor(d("123.99")), d("123"));
        let kwd = MoneyRule::of(Some("KWD"));
        assert_eq!(kwd.floor(d("1.23456")).to_string(), "1.234");
        let chf = MoneyRule::of(Some("CHF"));
        assert_eq!(chf.floor(d("1.09")).to_string(), "1.05");
        assert_eq!(chf.floor(d("1.10")).to_string(), "1.10");
        assert_eq!(chf.floor(d("0.049999")).to_string(), "0.00");
        let usd = MoneyRule::of(Some("USD"));
        assert_eq!(usd.micros(1_999_999).to_string(), "1.99");
        assert_eq!(MoneyRule::of(None).micros(5_000_000).to_string(), "5.00");
        assert_eq!(
            MoneyRule::of(Some("ZZZ")).floor(d("2.567")).to_string(),
            "2.56"
        );
    }
}
