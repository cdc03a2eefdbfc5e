//! The new amount of a bulk edit's item: set, raised or lowered by an amount or a
//! percentage, floored to the currency, never negative, held within the floor and cap.

use rust_decimal::{Decimal, prelude::ToPrimitive};
use searchdeck_common::money::currency::MoneyRule;
use serde_json::Value;

use crate::error::FieldError;

/// What to do to each item's amount.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    Set(i64),
    By { micros: i64, up: bool },
    Percent { percent: Decimal, up: bool },
}

/// The new amount of an item now at `current`: floored to the currency (docs/product.md#5-money),
/// never negative, then held within `floor` and `cap`. Err when a relative change has no current
/// value to start from.
pub fn target(
    current: Option<i64>,
    change: &Change,
    floor: Option<i64>,
    cap: Option<i64>,
    rule: MoneyRule,
) -> Result<i64, &'static str> {
    let amount = match change {
        Change::Set(v) => Decimal::new(*v, 6),
        Change::By { micros, up } => {
            let c = Decimal::new(current.ok_or(NO_VALUE)?, 6);
            let by = Decimal::new(*micros, 6);
            if *up { c + by } else { c - by }
        }
        Change::Percent { percent, up } => {
            let c = Decimal::new(current.ok_or(NO_VALUE)?, 6);
            let factor = Decimal::ONE + if *up { *percent } else { -*percent } / Decimal::from(100);
            c * factor
        }
    };
    let mut micros = (rule.floor(amount.max(Decimal::ZERO)) * Decimal::from(1_000_000))
        .to_i64()
        .unwrap_or(i64::MAX);
    if let Some(f) = floor {
        micros = micros.max(f);
    }
    if let Some(c) = cap {
        micros = micros.min(c);
    }
    Ok(micros)
}

const NO_VALUE: &str = "No current value to change";

/// A percentage: a JSON number above 0 (at most 100 to lower, 1,000 to raise).
pub(super) fn percent(raw: &Value, up: bool) -> Result<Decimal, FieldError> {
    let err = |m: &str| FieldError::new("percent", m);
    let text = match raw {
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    let p: Decimal = text
        .parse()
        .map_err(|_| err("Percentage must be a number"))?;
    let max = Decimal::from(if up { 1000 } else { 100 });
    if p <= Decimal::ZERO {
        return Err(err("Percentage must be above 0"));
    }
    if p > max {
        return Err(err(if up {
            "Percentage must be at most 1000"
        } else {
            "Percentage must be at most 100"
        }));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usd() -> MoneyRule {
        MoneyRule::of(Some("USD"))
    }

    #[test]
    fn targets_are_floored_and_held_within_floor_and_cap() {
        let pct = |p: i64, up| Change::Percent {
            percent: Decimal::from(p),
            up,
        };
        assert_eq!(
            target(Some(1_500_000), &pct(10, true), None, None, usd()),
            Ok(1_650_000)
        );
        // 1.23 * 1.1 = 1.353, floored to cents.
        assert_eq!(
            target(Some(1_230_000), &pct(10, true), None, None, usd()),
            Ok(1_350_000)
        );
        assert_eq!(
            target(Some(1_000_000), &pct(50, false), None, None, usd()),
            Ok(500_000)
        );
        assert_eq!(
            target(Some(1_000_000), &pct(50, false), Some(800_000), None, usd()),
            Ok(800_000)
        );
        assert_eq!(
            target(
                Some(1_000_000),
                &pct(100, true),
                None,
                Some(1_500_000),
                usd()
            ),
            Ok(1_500_000)
        );
        let by = |m, up| Change::By { micros: m, up };
        assert_eq!(
            target(Some(1_000_000), &by(300_000, false), None, None, usd()),
            Ok(700_000)
        );
        assert_eq!(
            target(Some(100_000), &by(300_000, false), None, None, usd()),
            Ok(0),
            "never negative"
        );
        assert_eq!(target(None, &by(1, true), None, None, usd()), Err(NO_VALUE));
        assert_eq!(
            target(None, &Change::Set(2_000_000), None, None, usd()),
            Ok(2_000_000)
        );
        assert_eq!(
            target(
                Some(100_000_000),
                &pct(10, true),
                None,
                None,
                MoneyRule::of(Some("JPY"))
            ),
            Ok(110_000_000)
        );
    }

    #[test]
    fn percentages_are_bounded() {
        assert!(percent(&serde_json::json!(10), true).is_ok());
        assert!(percent(&serde_json::json!(12.5), false).is_ok());
        // A percentage is a JSON number, as documented: the string "12.5" is refused.
        assert!(percent(&serde_json::json!("12.5"), false).is_err());
        assert!(percent(&serde_json::json!(0), true).is_err());
        assert!(percent(&serde_json::json!(101), false).is_err());
        assert!(percent(&serde_json::json!("x"), true).is_err());
    }
}
