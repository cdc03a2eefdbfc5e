//! The report's Conversions and Cohort columns (docs/api/attribution.md "In the reports"),
//! from the attribution facts of a report's rows: installs the providers attributed
//! (`trackedInstalls`), trials, purchases (new paying users) and revenue, what each event
//! name counts as being the workspace's setting; revenue in the report's currency (each
//! currency converted at the reference rates of the range's last day); and the cohort
//! columns `revenueD0` … `revenueD30`, each summed only over installs old enough for it.
//!
//! Derived columns are computed from the sums, never averaged: `costPerTrial` and
//! `costPerPurchase` (spend ÷ count), `roas` (revenue ÷ spend), `arpu` (revenue ÷ tracked
//! installs), `trackedInstallRate` (tracked ÷ Apple's installs); a ratio without its
//! denominator is null. Revenue is split by tap-through and view-through (`tapRevenue`,
//! `viewRevenue`, from the installs' claim type).
//!
//! Cohort ROAS (`roasD0` … `roasD30`) is a cohort's revenue over the spend that bought it:
//! `revenueDN` ÷ the spend of the same install days, so only of the days old enough for
//! `DN` ([`cohorts`]); the caller sums that spend from Apple's facts and passes it per
//! cohort. A range with no day old enough has no denominator, so the column is null: a
//! young cohort is never read as earning nothing.

use std::collections::HashMap;

use rust_decimal::Decimal;
use time::{Date, Duration};

use crate::{
    fx::RateSet,
    money::currency::MoneyRule,
    store::attribution::{
        facts::{Cohort, Sum},
        names::{Counts, EventName},
    },
};
use searchdeck_model::attribution::INSTALL_EVENT;

/// The cohort columns' ages in days after the install (`revenueD7`: revenue of the first
/// seven days after the install, of installs at least seven full days old).
pub const COHORT_DAYS: [i64; 6] = [0, 1, 3, 7, 14, 30];

/// The Conversions group's columns, in display order.
pub const CONVERSION_COLUMNS: [&str; 11] = [
    "trackedInstalls",
    "trackedInstallRate",
    "trials",
    "costPerTrial",
    "purchases",
    "costPerPurchase",
    "totalRevenue",
    "tapRevenue",
    "viewRevenue",
    "roas",
    "arpu",
];

/// The Cohort group's revenue columns, per [`COHORT_DAYS`].
pub const COHORT_REVENUE: [&str; 6] = [
    "revenueD0",
    "revenueD1",
    "revenueD3",
    "revenueD7",
    "revenueD14",
    "revenueD30",
];

/// The Cohort group's ROAS columns, per [`COHORT_DAYS`].
pub const COHORT_ROAS: [&str; 6] = ["roasD0", "roasD1", "roasD3", "roasD7", "roasD14", "roasD30"];

/// The Cohort group's columns (revenue `revenueD0` … `revenueD30`, then ROAS `roasD0` …
/// `roasD30`), in display order.
pub const COHORT_COLUMNS: [&str; 12] = [
    COHORT_REVENUE[0],
    COHORT_REVENUE[1],
    COHORT_REVENUE[2],
    COHORT_REVENUE[3],
    COHORT_REVENUE[4],
    COHORT_REVENUE[5],
    COHORT_ROAS[0],
    COHORT_ROAS[1],
    COHORT_ROAS[2],
    COHORT_ROAS[3],
    COHORT_ROAS[4],
    COHORT_ROAS[5],
];

/// How the web app shows a Conversions or Cohort column: `count`, `money` (the report's
/// currency) or `percent` (a ratio: ROAS 1.5 is 150 %).
pub fn display(column: &str) -> &'static str {
    match column {
        "trackedInstalls" | "trials" | "purchases" => "count",
        "trackedInstallRate" | "roas" => "percent",
        c if COHORT_ROAS.contains(&c) => "percent",
        _ => "money",
    }
}

/// The position in [`COHORT_DAYS`] of a Cohort column (`revenueD7`, `roasD7`: 3); None for
/// any other name.
pub fn cohort_index(column: &str) -> Option<usize> {
    COHORT_REVENUE
        .iter()
        .position(|c| *c == column)
        .or_else(|| COHORT_ROAS.iter().position(|c| *c == column))
}

/// The user's name of a Cohort column (`ROAS D7`, `Revenue D7`), for messages.
pub fn cohort_label(column: &str) -> Option<String> {
    let i = cohort_index(column)?;
    let kind = if COHORT_ROAS[i] == column {
        "ROAS"
    } else {
        "Revenue"
    };
    Some(format!("{kind} D{}", COHORT_DAYS[i]))
}

/// The cuts of the cohort columns when the campaign group's today is `today`: installs of
/// day `d` count for `revenueDN` once day `d + N` has ended, so through `today − N − 1`.
pub fn cohorts(today: Date) -> Vec<Cohort> {
    COHORT_DAYS
        .iter()
        .map(|&n| Cohort {
            age_days: n,
            through: (today - Duration::days(n + 1)).to_string(),
        })
        .collect()
}

/// What each event name counts as, by provider, name and app; names not listed count as
/// nothing. Looked up by borrowed names (a report looks up every sum of its rows).
#[derive(Debug, Clone, Default)]
pub struct Mapping(HashMap<String, HashMap<String, Vec<(i64, Counts)>>>);

impl Mapping {
    pub fn new(names: Vec<EventName>) -> Mapping {
        let mut out: HashMap<String, HashMap<String, Vec<(i64, Counts)>>> = HashMap::new();
        for n in names {
            out.entry(n.provider)
                .or_default()
                .entry(n.event_name)
                .or_default()
                .push((n.adam_id, n.counts));
        }
        Mapping(out)
    }

    fn of(&self, s: &Sum) -> Counts {
        self.0
            .get(s.provider.as_str())
            .and_then(|names| names.get(s.event_name.as_str()))
            .and_then(|apps| apps.iter().find(|(adam, _)| *adam == s.adam_id))
            .map(|(_, counts)| *counts)
            .unwrap_or_default()
    }
}

/// One row's conversions (revenue in micros of the report's currency).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conversions {
    pub tracked_installs: i64,
    pub trials: i64,
    pub purchases: i64,
    pub revenue_micros: i64,
    pub tap_revenue_micros: i64,
    pub view_revenue_micros: i64,
    /// Per [`COHORT_DAYS`]: the revenue of the installs old enough.
    pub cohort_revenue_micros: Vec<i64>,
    /// Currencies of revenue that had no reference rate to the report's currency (left out).
    pub unconverted: Vec<String>,
}

impl Conversions {
    fn add(&mut self, other: &Conversions) {
        self.tracked_installs += other.tracked_installs;
        self.trials += other.trials;
        self.purchases += other.purchases;
        self.revenue_micros += other.revenue_micros;
        self.tap_revenue_micros += other.tap_revenue_micros;
        self.view_revenue_micros += other.view_revenue_micros;
        if self.cohort_revenue_micros.len() < other.cohort_revenue_micros.len() {
            self.cohort_revenue_micros
                .resize(other.cohort_revenue_micros.len(), 0);
        }
        for (a, b) in self
            .cohort_revenue_micros
            .iter_mut()
            .zip(&other.cohort_revenue_micros)
        {
            *a += b;
        }
        for c in &other.unconverted {
            if !self.unconverted.contains(c) {
                self.unconverted.push(c.clone());
            }
        }
    }
}

/// The conversions of each entity of `sums`, revenue converted to `currency` (the report's;
/// None: revenue kept only when all of it is in one currency… which a campaign group's
/// report always has) at `rates`.
pub fn by_entity(
    sums: &[Sum],
    mapping: &Mapping,
    currency: Option<&str>,
    rates: &RateSet,
) -> HashMap<i64, Conversions> {
    let mut out: HashMap<i64, Conversions> = HashMap::new();
    for s in sums {
        let row = out.entry(s.entity_id).or_default();
        if row.cohort_revenue_micros.len() < s.cohorts.len() {
            row.cohort_revenue_micros.resize(s.cohorts.len(), 0);
        }
        if s.event_name == INSTALL_EVENT {
            row.tracked_installs += s.events;
            continue;
        }
        let counts = mapping.of(s);
        if counts.trial {
            row.trials += s.events;
        }
        if counts.purchase {
            row.purchases += s.events;
        }
        if !counts.revenue || s.currency.is_empty() {
            continue;
        }
        let convert = |micros: i64| match currency {
            Some(to) if to != s.currency => rates.convert_micros(micros, &s.currency, to),
            _ => Some(micros),
        };
        let Some(revenue) = convert(s.revenue_micros) else {
            if !row.unconverted.contains(&s.currency) {
                row.unconverted.push(s.currency.clone());
            }
            continue;
        };
        row.revenue_micros += revenue;
        match s.claim_type.as_str() {
            "Click" => row.tap_revenue_micros += revenue,
            "Impression" => row.view_revenue_micros += revenue,
            _ => {}
        }
        for (slot, (_, micros)) in row.cohort_revenue_micros.iter_mut().zip(&s.cohorts) {
            *slot += convert(*micros).unwrap_or(0);
        }
    }
    out
}

/// The sum of several rows' conversions (the report's totals).
pub fn total<'a>(rows: impl IntoIterator<Item = &'a Conversions>) -> Conversions {
    let mut out = Conversions::default();
    for r in rows {
        out.add(r);
    }
    out
}

/// What a row's Conversions and Cohort columns are over: Apple's spend and installs of the
/// row in the range, and per [`COHORT_DAYS`] the spend of its install days old enough for
/// that cohort (empty: not read, the cohort ROAS columns are then null).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Apple<'a> {
    pub spend_micros: i64,
    pub installs: i64,
    pub cohort_spend_micros: &'a [i64],
}

/// The row's Conversions and Cohort columns by name, in display order: money floored by
/// `money` (None: the row mixes currencies, money left out), ratios over the row's
/// Apple counts (`apple`); None where a ratio has no denominator.
pub fn values(
    c: &Conversions,
    apple: Apple<'_>,
    money: Option<&MoneyRule>,
) -> Vec<(&'static str, Option<Decimal>)> {
    CONVERSION_COLUMNS
        .iter()
        .chain(&COHORT_COLUMNS)
        .map(|&name| (name, value(c, apple, money, name)))
        .collect()
}

/// One column of [`values`] (None: not a Conversions or Cohort column, or null): only that
/// column is computed (a sort or a filter reads one column of every row).
pub fn value(
    c: &Conversions,
    apple: Apple<'_>,
    money: Option<&MoneyRule>,
    column: &str,
) -> Option<Decimal> {
    let Apple {
        spend_micros,
        installs,
        cohort_spend_micros,
    } = apple;
    let amount = |micros: i64| money.map(|rule| rule.micros(micros));
    let ratio = |num: i64, den: i64| {
        (den != 0).then(|| (Decimal::from(num) / Decimal::from(den)).round_dp(4))
    };
    let per = |micros: i64, count: i64| {
        money
            .filter(|_| count != 0)
            .map(|rule| rule.floor(Decimal::from(micros) / Decimal::from(count) / MICROS))
    };
    let cohort_revenue = |i: usize| c.cohort_revenue_micros.get(i).copied().unwrap_or(0);
    match column {
        "trackedInstalls" => Some(Decimal::from(c.tracked_installs)),
        "trackedInstallRate" => ratio(c.tracked_installs, installs),
        "trials" => Some(Decimal::from(c.trials)),
        "costPerTrial" => per(spend_micros, c.trials),
        "purchases" => Some(Decimal::from(c.purchases)),
        "costPerPurchase" => per(spend_micros, c.purchases),
        "totalRevenue" => amount(c.revenue_micros),
        "tapRevenue" => amount(c.tap_revenue_micros),
        "viewRevenue" => amount(c.view_revenue_micros),
        "roas" => money.and(ratio(c.revenue_micros, spend_micros)),
        "arpu" => per(c.revenue_micros, c.tracked_installs),
        other => {
            let i = cohort_index(other)?;
            if COHORT_REVENUE[i] == other {
                amount(cohort_revenue(i))
            } else {
                let spend = cohort_spend_micros.get(i).copied().unwrap_or(0);
                money.and(ratio(cohort_revenue(i), spend))
            }
        }
    }
}

const MICROS: Decimal = Decimal::from_parts(1_000_000, 0, 0, false, 0);

#[cfg(test)]
mod tests;
