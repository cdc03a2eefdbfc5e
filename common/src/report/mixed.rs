//! Reports over campaign groups of several currencies (ACCOUNTS and ORGS): amounts in
//! different currencies are never added together. Instead the report answers
//!
//! - per-currency subtotals of the matching rows (`subtotals`: every metric of the
//!   campaign groups billing in that currency, money floored to its digits);
//! - per-currency daily money in the graph (`byCurrency` on each point);
//! - when a reporting currency is asked for (`reportingCurrency`), the totals and the
//!   graph's money converted to it (`converted`) at the daily reference rates in force on
//!   the range's last day (each currency's latest rate published on or before it,
//!   `store::fx_rates`), with that date and the rates' source. A currency without any rate
//!   leaves the converted money out (null) and is listed in `missing`.
//!
//! Counts and ratios that do not depend on money are the same in every currency.

use crate::money::currency::MoneyRule;
use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use serde_json::{Map, Value, json};
use time::Date;

use super::{
    DateRange, ReportError,
    catalog::{GRAPH_METRICS, Kind},
    json::{graph_point, metrics_json, number},
};
use crate::{
    Db,
    fx::RateSet,
    store::{
        self,
        report_entities::SyncOrg,
        report_facts::{self, Counters, FactLevel, Scope as FactScope, Snapshot},
    },
};

/// Index of the spend in [`Counters`].
const SPEND: usize = 10;

/// A campaign group of the report with its counters over the range.
pub(crate) struct OrgSum<'a> {
    pub org: &'a SyncOrg,
    pub counters: Counters,
}

/// The per-currency subtotals of `orgs`, by currency code: `{currency, …every metric}`.
pub(crate) fn subtotals(orgs: &[OrgSum<'_>]) -> Vec<Map<String, Value>> {
    let mut by: BTreeMap<&str, Counters> = BTreeMap::new();
    for o in orgs {
        if let Some(c) = o.org.currency.as_deref() {
            by.entry(c).or_default().add(&o.counters);
        }
    }
    by.into_iter()
        .map(|(currency, counters)| {
            let mut m = Map::new();
            m.insert("currency".into(), json!(currency));
            metrics_json(&counters, Some(&MoneyRule::of(Some(currency))), &mut m);
            m
        })
        .collect()
}

/// Money of a report converted to one currency.
#[derive(Debug, Clone)]
pub struct Conversion {
    /// The reporting currency (ISO 4217, upper case).
    pub currency: String,
    pub rates: RateSet,
}

/// The `converted` part of a report.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Converted {
    /// The reporting currency.
    pub currency: String,
    /// The day of the rates used (YYYY-MM-DD): the newest publication on or before the
    /// range's last day; null when no rate is stored.
    pub rate_date: Option<String>,
    /// The range's last day, whose rates were asked for (YYYY-MM-DD).
    pub asked_date: String,
    /// Who published the rates (`ECB`), null when no rate is stored.
    pub source: Option<String>,
    /// Currencies of the report without a rate: converted money is null while any is.
    pub missing: Vec<String>,
    /// The totals with money in the reporting currency.
    #[schema(value_type = Object)]
    pub totals: Map<String, Value>,
}

impl Conversion {
    /// The rates in force on `day` for a report in `currency`.
    pub async fn load(db: &Db, currency: &str, day: Date) -> Result<Conversion, ReportError> {
        Ok(Conversion {
            currency: currency.to_ascii_uppercase(),
            rates: store::fx_rates::rate_set(&db.pool, day).await?,
        })
    }

    /// `c` with its spend (in `from`) converted; None without a rate.
    fn counters(&self, from: Option<&str>, c: &Counters) -> Option<Counters> {
        let mut out = *c;
        if c.spend_micros() != 0 {
            out.0[SPEND] = self
                .rates
                .convert_micros(c.spend_micros(), from?, &self.currency)?;
        }
        Some(out)
    }

    /// The sum of `orgs` in the reporting currency, and the currencies without a rate.
    fn sum(&self, orgs: &[(Option<&str>, Counters)]) -> (Counters, Vec<String>) {
        let mut sum = Counters::default();
        let mut missing = Vec::new();
        for (currency, c) in orgs {
            match self.counters(*currency, c) {
                Some(c) => sum.add(&c),
                None => {
                    // Counts still add up; the money is left out (null) below.
                    let mut counts = *c;
                    counts.0[SPEND] = 0;
                    sum.add(&counts);
                    let code = currency.unwrap_or("?").to_string();
                    if !missing.contains(&code) {
                        missing.push(code);
                    }
                }
            }
        }
        missing.sort();
        (sum, missing)
    }

    fn rule(&self) -> MoneyRule {
        MoneyRule::of(Some(&self.currency))
    }

    /// The `converted` answer over `orgs` for a range ending on `asked`.
    pub(crate) fn totals(&self, orgs: &[OrgSum<'_>], asked: Date) -> Converted {
        let parts: Vec<(Option<&str>, Counters)> = orgs
            .iter()
            .map(|o| (o.org.currency.as_deref(), o.counters))
            .collect();
        let (sum, missing) = self.sum(&parts);
        let mut totals = Map::new();
        let rule = self.rule();
        metrics_json(&sum, missing.is_empty().then_some(&rule), &mut totals);
        let mut codes: Vec<&str> = parts.iter().filter_map(|(c, _)| *c).collect();
        codes.push(&self.currency);
        Converted {
            currency: self.currency.clone(),
            rate_date: self.rates.day_of(codes).map(|d| d.to_string()),
            asked_date: asked.to_string(),
            source: self.rates.source.clone(),
            missing,
            totals,
        }
    }
}

/// The money graph metrics of `c` in the currency of `rule` (null without one).
fn money_point(c: &Counters, rule: Option<&MoneyRule>) -> Map<String, Value> {
    let mut m = Map::new();
    for metric in GRAPH_METRICS.iter().filter(|m| m.kind() == Kind::Money) {
        let value = rule.and_then(|r| metric.value(c, r));
        m.insert(metric.name().to_string(), value.map_or(Value::Null, number));
    }
    m
}

/// The graph of ACCOUNTS and ORGS over the campaign groups `orgs` (those of the rows the
/// filters kept): one point per day of `range` with the summed counts, the money when
/// `money` is given (one currency), else per currency under `byCurrency`, and the money in
/// the reporting currency under `converted` when `conversion` is given.
pub(crate) async fn graph(
    db: &Db,
    facts: &Snapshot,
    orgs: &[&SyncOrg],
    range: DateRange,
    money: Option<MoneyRule>,
    conversion: Option<&Conversion>,
) -> Result<Vec<Map<String, Value>>, ReportError> {
    // Per day, the counters of each campaign group.
    let mut per_day: HashMap<Date, Vec<(Option<&str>, Counters)>> = HashMap::new();
    for o in orgs {
        for (d, c) in report_facts::daily(
            db,
            facts,
            o.org_key,
            FactLevel::Campaign,
            range.from..=range.to,
            FactScope::default(),
            None,
        )
        .await?
        {
            per_day
                .entry(d)
                .or_default()
                .push((o.currency.as_deref(), c));
        }
    }
    let mixed = money.is_none();
    let currencies: Vec<&str> = {
        let mut v: Vec<&str> = orgs.iter().filter_map(|o| o.currency.as_deref()).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    Ok(range
        .days()
        .map(|d| {
            let parts = per_day.get(&d).map(Vec::as_slice).unwrap_or_default();
            let mut total = Counters::default();
            for (_, c) in parts {
                total.add(c);
            }
            let mut point = graph_point(d, &total, money.as_ref());
            if mixed {
                let mut by = Map::new();
                for code in &currencies {
                    let mut sum = Counters::default();
                    for (_, c) in parts.iter().filter(|(c, _)| *c == Some(*code)) {
                        sum.add(c);
                    }
                    by.insert(
                        (*code).to_string(),
                        Value::Object(money_point(&sum, Some(&MoneyRule::of(Some(code))))),
                    );
                }
                point.insert("byCurrency".into(), Value::Object(by));
            }
            if let Some(conv) = conversion {
                let (sum, missing) = conv.sum(parts);
                let rule = conv.rule();
                point.insert(
                    "converted".into(),
                    Value::Object(money_point(&sum, missing.is_empty().then_some(&rule))),
                );
            }
            point
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use rust_decimal::Decimal;
    use time::macros::date;

    use super::*;

    fn org(key: i64, currency: &str) -> SyncOrg {
        SyncOrg {
            org_key: key,
            account_id: "a".into(),
            org_id: key,
            currency: Some(currency.into()),
            time_zone: None,
            entities_synced_at: None,
            metrics_through: None,
            metrics_from: None,
            metrics_synced_at: None,
            metrics_job: None,
        }
    }

    fn counters(taps: i64, spend_micros: i64) -> Counters {
        let mut c = Counters::default();
        c.0[1] = taps;
        c.0[SPEND] = spend_micros;
        c
    }

    #[test]
    fn subtotals_add_up_each_currency_alone() {
        let (usd, usd2, jpy) = (org(1, "USD"), org(2, "USD"), org(3, "JPY"));
        let sums = [
            OrgSum {
                org: &usd,
                counters: counters(10, 12_345_678),
            },
            OrgSum {
                org: &usd2,
                counters: counters(5, 1_000_000),
            },
            OrgSum {
                org: &jpy,
                counters: counters(4, 999_999_999),
            },
        ];
        let subs = subtotals(&sums);
        assert_eq!(subs.len(), 2);
        assert_eq!(subs[0]["currency"], "JPY");
        assert_eq!(
            subs[0]["localSpend"],
            json!(999),
            "yen floored to whole units"
        );
        assert_eq!(subs[1]["currency"], "USD");
        assert_eq!(subs[1]["localSpend"], json!(13.34));
        assert_eq!(subs[1]["taps"], json!(15));
        // CPT of the dollars alone: 13.345678 / 15 = 0.889711… floored.
        assert_eq!(subs[1]["avgCPT"], json!(0.88));
    }

    #[test]
    fn conversion_is_decimal_and_floored_to_the_reporting_currency() {
        let d = |s: &str| Decimal::from_str(s).unwrap();
        let day = date!(2026 - 11 - 20);
        let rates = RateSet {
            rates: [
                ("USD".to_string(), (d("1.0870"), day)),
                ("JPY".to_string(), (d("163.0435"), date!(2026 - 11 - 19))),
            ]
            .into_iter()
            .collect(),
            source: Some("ECB".into()),
        };
        let conv = Conversion {
            currency: "EUR".into(),
            rates,
        };
        let (usd, jpy, gbp) = (org(1, "USD"), org(2, "JPY"), org(3, "GBP"));
        let sums = [
            // 108.70 USD = 100 EUR; 16,304.35 JPY = 100 EUR.
            OrgSum {
                org: &usd,
                counters: counters(10, 108_700_000),
            },
            OrgSum {
                org: &jpy,
                counters: counters(10, 16_304_350_000),
            },
        ];
        let out = conv.totals(&sums, date!(2026 - 11 - 22));
        assert_eq!(out.totals["localSpend"], json!(200));
        assert_eq!(out.totals["avgCPT"], json!(10));
        assert_eq!(out.rate_date.as_deref(), Some("2026-11-20"));
        assert_eq!(out.asked_date, "2026-11-22");
        assert!(out.missing.is_empty());

        // To yen: 100 EUR of dollars = 16,304.35 JPY, floored to whole yen.
        let to_jpy = Conversion {
            currency: "JPY".into(),
            rates: conv.rates.clone(),
        };
        let one = [OrgSum {
            org: &usd,
            counters: counters(1, 108_700_000),
        }];
        assert_eq!(to_jpy.totals(&one, day).totals["localSpend"], json!(16304));

        // A currency without a rate: converted money is left out and named.
        let with_gbp = [
            OrgSum {
                org: &usd,
                counters: counters(1, 1_000_000),
            },
            OrgSum {
                org: &gbp,
                counters: counters(1, 1_000_000),
            },
        ];
        let out = conv.totals(&with_gbp, day);
        assert_eq!(out.missing, ["GBP"]);
        assert_eq!(out.totals["localSpend"], Value::Null);
        assert_eq!(out.totals["taps"], json!(2), "counts still add up");
    }
}
