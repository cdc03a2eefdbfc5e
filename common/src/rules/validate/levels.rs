//! What a rule can name at each of its levels: the report level it reads, the metrics a
//! condition takes there (the catalog's, and search popularity where the level has it), the
//! statuses, the entity amounts a comparison may name, and the levels each action applies to.

use super::*;

/// The search popularity pseudo-metric (KEYWORDS, SEARCHTERMS).
pub(super) const POPULARITY: &str = "popularity";

/// Entity amounts a `compare` condition may name as `other`, with the levels they exist at.
pub(super) const AMOUNTS: &[(&str, &[RuleLevel])] = &[
    ("bid", &[RuleLevel::Keywords]),
    ("defaultBid", &[RuleLevel::Adgroups, RuleLevel::Keywords]),
    ("cpaGoal", &[RuleLevel::Adgroups, RuleLevel::Keywords]),
    ("dailyBudget", ALL_LEVELS),
    ("targetCpa", ALL_LEVELS),
    ("targetCpt", ALL_LEVELS),
];

pub(super) const ALL_LEVELS: &[RuleLevel] = &[
    RuleLevel::Campaigns,
    RuleLevel::Adgroups,
    RuleLevel::Keywords,
    RuleLevel::Searchterms,
];

/// The report level a rule level reads.
pub fn report_level(level: RuleLevel) -> Level {
    match level {
        RuleLevel::Campaigns => Level::Campaigns,
        RuleLevel::Adgroups => Level::Groups,
        RuleLevel::Keywords => Level::Keywords,
        RuleLevel::Searchterms => Level::Searchterms,
    }
}

/// The metric named `name` at `level`: a report metric by its exact name, `popularity`
/// where the level has it, or a Conversions or Cohort column where the level has
/// attributed conversions (campaigns, ad groups, keywords; None: not a metric there).
pub fn metric_at(name: &str, level: RuleLevel) -> Option<MetricRef> {
    if name == POPULARITY {
        return report_level(level)
            .has_popularity()
            .then_some(MetricRef::Popularity);
    }
    if let Some(column) = crate::report::filter::conversion_column(name) {
        return report_level(level)
            .has_conversions()
            .then_some(MetricRef::Conversion(column));
    }
    Metric::ALL
        .into_iter()
        .find(|m| m.name() == name)
        .map(MetricRef::Report)
}

/// A metric a condition reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetricRef {
    Report(Metric),
    /// Apple's search popularity, 1–100.
    Popularity,
    /// A Conversions or Cohort column (`roas`, `costPerTrial`, `roasD7`), which the
    /// pro_limited plan locks.
    Conversion(&'static str),
}

impl MetricRef {
    pub(super) fn kind(self) -> Kind {
        match self {
            MetricRef::Report(m) => m.kind(),
            MetricRef::Popularity => Kind::Count,
            MetricRef::Conversion(c) => match crate::attribution::conversions::display(c) {
                "count" => Kind::Count,
                "percent" => Kind::Ratio,
                _ => Kind::Money,
            },
        }
    }
}

/// The statuses a `status` condition may name at `level` (none at SEARCHTERMS).
pub fn statuses(level: RuleLevel) -> &'static [&'static str] {
    match level {
        RuleLevel::Campaigns | RuleLevel::Adgroups => &["ENABLED", "PAUSED"],
        RuleLevel::Keywords => &["ACTIVE", "PAUSED"],
        RuleLevel::Searchterms => &[],
    }
}

/// The levels an action of type `kind` is valid at (the contract's table).
pub fn action_levels(kind: &str) -> &'static [RuleLevel] {
    match kind {
        "pause" | "enable" => &[
            RuleLevel::Campaigns,
            RuleLevel::Adgroups,
            RuleLevel::Keywords,
        ],
        "setBid" | "changeBid" | "bidToTarget" => &[RuleLevel::Adgroups, RuleLevel::Keywords],
        "setBudget" | "changeBudget" => &[RuleLevel::Campaigns],
        "addKeyword" | "addNegative" => &[RuleLevel::Searchterms],
        _ => ALL_LEVELS,
    }
}
