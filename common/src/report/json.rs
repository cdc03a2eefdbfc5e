//! Metric values as a report answers them in JSON: a decimal as a number ([`number`]), a
//! row's metrics by name ([`metrics_json`]) and a graph point ([`graph_point`]), money null
//! where currencies mix. The engine and the mixed-currency path both write through here.

use rust_decimal::{Decimal, prelude::ToPrimitive};
use serde_json::{Map, Value, json};

use super::catalog::{GRAPH_METRICS, Kind, Metric};
use crate::{money::currency::MoneyRule, store::report_facts::Counters};

/// A decimal as a JSON number.
pub(super) fn number(d: Decimal) -> Value {
    let d = d.normalize();
    if d.scale() == 0
        && let Some(i) = d.to_i64()
    {
        return json!(i);
    }
    d.to_f64()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

/// The metrics of `counters` as JSON: every metric by name (money null when `money` is
/// None, i.e. mixed currencies).
pub(super) fn metrics_json(
    counters: &Counters,
    money: Option<&MoneyRule>,
    out: &mut Map<String, Value>,
) {
    let fallback = MoneyRule::of(None);
    for m in Metric::ALL {
        let value = match (m.kind(), money) {
            (Kind::Money, None) => None,
            _ => m.value(counters, money.unwrap_or(&fallback)),
        };
        out.insert(m.name().to_string(), value.map_or(Value::Null, number));
    }
}

/// One graph point: the day and the graph metrics.
pub(super) fn graph_point(
    day: time::Date,
    c: &Counters,
    money: Option<&MoneyRule>,
) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("date".into(), json!(day.to_string()));
    let fallback = MoneyRule::of(None);
    for metric in GRAPH_METRICS {
        let value = match (metric.kind(), money) {
            (Kind::Money, None) => None,
            _ => metric.value(c, money.unwrap_or(&fallback)),
        };
        m.insert(metric.name().to_string(), value.map_or(Value::Null, number));
    }
    m
}
