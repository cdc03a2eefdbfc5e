//! Validation of a rule (schema version 1) exactly as `docs/api/rules.md` "A rule" states
//! it: every problem is a [`FieldError`] at the path the browser's form shows it under
//! (`name`, `conditions.groups.1.conditions.0.value`, `window.days`, `actions.0.amount`,
//! `guardrails.maxBid`), all of them at once. Metrics are the report catalog's at the rule's
//! level (`report::catalog`), money is checked by the one rule of typed money
//! ([`crate::money`]) in the rule's currency, and actions by the contract's table of levels.
//! The API calls [`validate`] before it stores a rule; the rules engine calls it on a rule
//! it previews. What needs the database (the connection, the org, the campaigns) is the
//! caller's to check.

use std::collections::HashSet;

use rust_decimal::Decimal;

use super::schema::{Action, ChangeBy, Condition, Guardrails, Rule, RuleLevel, VERSION, Window};
use crate::{
    FieldError,
    money::{self, Sign},
    report::catalog::{Kind, Level, Metric},
};

/// Longest rule name.
pub const NAME_MAX: usize = 100;
/// Most groups of conditions.
pub const GROUPS_MAX: usize = 10;
/// Most conditions in a group.
pub const CONDITIONS_MAX: usize = 20;
/// Most actions of a rule.
pub const ACTIONS_MAX: usize = 5;
/// Longest window, in days.
pub const DAYS_MAX: u32 = 365;
/// Most entities a run may act on.
pub const ENTITIES_MAX: u32 = 10_000;
/// Most values of a list condition, `minData` entries and alert recipients.
pub const LIST_MAX: usize = 50;
/// Longest text of a name condition or a tag.
pub const TEXT_MAX: usize = 200;
/// Most campaigns a rule names in one request.
pub const CAMPAIGNS_MAX: usize = 1_000;

/// Message of a rule without a name.
pub const NAME_REQUIRED: &str = "Enter a rule name";

/// The search popularity pseudo-metric (KEYWORDS, SEARCHTERMS).
const POPULARITY: &str = "popularity";

/// Entity amounts a `compare` condition may name as `other`, with the levels they exist at.
const AMOUNTS: &[(&str, &[RuleLevel])] = &[
    ("bid", &[RuleLevel::Keywords]),
    ("defaultBid", &[RuleLevel::Adgroups, RuleLevel::Keywords]),
    ("cpaGoal", &[RuleLevel::Adgroups, RuleLevel::Keywords]),
    ("dailyBudget", ALL_LEVELS),
    ("targetCpa", ALL_LEVELS),
    ("targetCpt", ALL_LEVELS),
];

const ALL_LEVELS: &[RuleLevel] = &[
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

/// The metric named `name` at `level`: a report metric by its exact name, or `popularity`
/// where the level has it (None: not a metric there).
pub fn metric_at(name: &str, level: RuleLevel) -> Option<MetricRef> {
    if name == POPULARITY {
        return report_level(level)
            .has_popularity()
            .then_some(MetricRef::Popularity);
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
}

impl MetricRef {
    fn kind(self) -> Kind {
        match self {
            MetricRef::Report(m) => m.kind(),
            MetricRef::Popularity => Kind::Count,
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

const MATCH_TYPES: &[&str] = &["EXACT", "BROAD"];

/// Collects the errors of one rule.
struct Check<'a> {
    currency: &'a str,
    errors: Vec<FieldError>,
}

impl Check<'_> {
    fn err(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.errors.push(FieldError::new(field, message));
    }

    /// A plain decimal (`"1.5"`, sign allowed with `sign`), with at most `digits` decimals.
    fn number(&mut self, field: &str, text: &str, sign: Sign, digits: u32) -> Option<Decimal> {
        let t = text.trim();
        let (neg, unsigned) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t),
        };
        let plain = {
            let (int, frac) = unsigned.split_once('.').unwrap_or((unsigned, ""));
            !int.is_empty()
                && int.chars().all(|c| c.is_ascii_digit())
                && frac.chars().all(|c| c.is_ascii_digit())
                && (frac.is_empty() != unsigned.contains('.'))
        };
        let parsed = plain
            .then(|| unsigned.parse::<Decimal>().ok())
            .flatten()
            .filter(|d| *d <= Decimal::from(money::MAX_AMOUNT));
        let Some(value) = parsed else {
            self.err(field, "Enter a number");
            return None;
        };
        if neg && sign == Sign::NonNegative {
            self.err(field, "Must not be negative");
            return None;
        }
        if value.normalize().scale() > digits {
            self.err(
                field,
                if digits == 0 {
                    "Enter a whole number".to_string()
                } else {
                    format!("At most {digits} decimals")
                },
            );
            return None;
        }
        Some(if neg { -value } else { value })
    }

    /// Money in the rule's currency.
    fn money(&mut self, field: &str, text: &str, sign: Sign) -> Option<Decimal> {
        match money::parse_text(field, "Amount", text, Some(self.currency), sign) {
            Ok(d) => Some(d),
            Err(e) => {
                self.errors.push(e);
                None
            }
        }
    }

    /// Money greater than 0.
    fn positive_money(&mut self, field: &str, text: &str) -> Option<Decimal> {
        let d = self.money(field, text, Sign::NonNegative)?;
        if d.is_zero() {
            self.err(field, "Enter an amount greater than 0");
            return None;
        }
        Some(d)
    }

    /// A percentage from `min` to `max` with at most two decimals.
    fn percent(&mut self, field: &str, text: &str, min: i64, max: i64) -> Option<Decimal> {
        let d = self.number(field, text, Sign::NonNegative, 2)?;
        if d < Decimal::from(min) || d > Decimal::from(max) {
            self.err(field, format!("Enter a percentage from {min} to {max}"));
            return None;
        }
        Some(d)
    }

    /// A condition's value for `metric`: money in the currency, a whole count, a fraction.
    fn metric_value(&mut self, field: &str, metric: MetricRef, text: &str) {
        match metric.kind() {
            Kind::Money => {
                self.money(field, text, Sign::NonNegative);
            }
            Kind::Count => {
                self.number(field, text, Sign::NonNegative, 0);
            }
            Kind::Ratio => {
                self.number(field, text, Sign::NonNegative, 6);
            }
        }
    }

    fn metric(&mut self, field: &str, name: &str, level: RuleLevel) -> Option<MetricRef> {
        let found = metric_at(name, level);
        if found.is_none() {
            self.err(field, format!("Not a metric at {}", level.as_str()));
        }
        found
    }

    fn values(&mut self, field: &str, values: &[String], allowed: Option<&[&str]>) {
        if values.is_empty() {
            self.err(field, "Choose at least one value");
            return;
        }
        if values.len() > LIST_MAX {
            self.err(field, format!("At most {LIST_MAX} values"));
            return;
        }
        for (i, v) in values.iter().enumerate() {
            let bad = match allowed {
                Some(allowed) => !allowed.contains(&v.as_str()),
                None => v.trim().is_empty() || v.chars().count() > TEXT_MAX,
            };
            if bad {
                let message = match allowed {
                    Some(allowed) => format!("Must be one of: {}", allowed.join(", ")),
                    None => format!("Enter 1 to {TEXT_MAX} characters"),
                };
                self.err(format!("{field}.{i}"), message);
            }
        }
    }

    fn condition(&mut self, at: &str, c: &Condition, level: RuleLevel) {
        match c {
            Condition::Metric { metric, value, .. } => {
                if let Some(m) = self.metric(&format!("{at}.metric"), metric, level) {
                    self.metric_value(&format!("{at}.value"), m, value);
                }
            }
            Condition::Compare {
                metric,
                other,
                coefficient,
                ..
            } => {
                self.metric(&format!("{at}.metric"), metric, level);
                let amount = AMOUNTS.iter().find(|(name, _)| name == other);
                match amount {
                    Some((_, levels)) if !levels.contains(&level) => {
                        self.err(
                            format!("{at}.other"),
                            format!("Not available at {}", level.as_str()),
                        );
                    }
                    Some(_) => {}
                    None => {
                        if metric_at(other, level).is_none() {
                            self.err(format!("{at}.other"), "Choose a metric or an amount");
                        }
                    }
                }
                let field = format!("{at}.coefficient");
                if let Some(k) = self.number(&field, coefficient, Sign::NonNegative, 4)
                    && (k.is_zero() || k > Decimal::from(1_000))
                {
                    self.err(field, "Enter a coefficient greater than 0, at most 1000");
                }
            }
            Condition::Status { values } => {
                if level == RuleLevel::Searchterms {
                    self.err(format!("{at}.type"), "Search terms have no status");
                } else {
                    self.values(&format!("{at}.values"), values, Some(statuses(level)));
                }
            }
            Condition::Name { value, .. } => {
                if value.trim().is_empty() || value.chars().count() > TEXT_MAX {
                    self.err(
                        format!("{at}.value"),
                        format!("Enter 1 to {TEXT_MAX} characters"),
                    );
                }
            }
            Condition::Tag { values } => self.values(&format!("{at}.values"), values, None),
            Condition::MatchType { values } => {
                if matches!(level, RuleLevel::Keywords | RuleLevel::Searchterms) {
                    self.values(&format!("{at}.values"), values, Some(MATCH_TYPES));
                } else {
                    self.err(
                        format!("{at}.type"),
                        format!("Not available at {}", level.as_str()),
                    );
                }
            }
        }
    }

    fn change(&mut self, at: &str, by: ChangeBy, value: &str) {
        let field = format!("{at}.value");
        let parsed = match by {
            ChangeBy::Percent => self.number(&field, value, Sign::Signed, 2),
            ChangeBy::Amount => self.money(&field, value, Sign::Signed),
        };
        let Some(v) = parsed else { return };
        if v.is_zero() {
            self.err(field, "Enter a change other than 0");
        } else if by == ChangeBy::Percent && (v <= Decimal::from(-100) || v > Decimal::from(1_000))
        {
            self.err(field, "Enter a percentage above -100, at most 1000");
        }
    }

    fn action(&mut self, at: &str, a: &Action, rule: &Rule) {
        match a {
            Action::Pause | Action::Enable => {}
            Action::SetBid { amount } | Action::SetBudget { amount } => {
                self.positive_money(&format!("{at}.amount"), amount);
            }
            Action::ChangeBid { by, value } | Action::ChangeBudget { by, value } => {
                self.change(at, *by, value);
            }
            Action::BidToTarget {
                amount,
                max_step_percent,
                ..
            } => {
                if let Some(amount) = amount {
                    self.positive_money(&format!("{at}.amount"), amount);
                }
                if let Some(step) = max_step_percent {
                    self.percent(&format!("{at}.maxStepPercent"), step, 1, 100);
                }
            }
            Action::AddKeyword {
                campaign_id,
                ad_group_id,
                match_type,
                bid,
            } => {
                let attached = rule
                    .campaign_ids
                    .as_ref()
                    .is_none_or(|ids| ids.iter().any(|c| c == campaign_id));
                if !digits(campaign_id) || !attached {
                    self.err(
                        format!("{at}.campaignId"),
                        "Choose one of the rule's campaigns",
                    );
                }
                if !digits(ad_group_id) {
                    self.err(format!("{at}.adGroupId"), "Choose an ad group");
                }
                if !MATCH_TYPES.contains(&match_type.as_str()) {
                    self.err(format!("{at}.matchType"), "Must be one of: EXACT, BROAD");
                }
                if let Some(bid) = bid {
                    self.positive_money(&format!("{at}.bid"), bid);
                }
            }
            Action::AddNegative { match_type, .. } => {
                if !MATCH_TYPES.contains(&match_type.as_str()) {
                    self.err(format!("{at}.matchType"), "Must be one of: EXACT, BROAD");
                }
            }
            Action::Alert { channels, emails } => {
                if channels.is_empty() {
                    self.err(format!("{at}.channels"), "Choose email, Slack or both");
                } else if (1..channels.len()).any(|i| channels[..i].contains(&channels[i])) {
                    self.err(format!("{at}.channels"), "Name each channel once");
                }
                if emails.len() > LIST_MAX {
                    self.err(
                        format!("{at}.emails"),
                        format!("At most {LIST_MAX} addresses"),
                    );
                }
                for (i, e) in emails.iter().enumerate() {
                    if !looks_like_email(e) {
                        self.err(format!("{at}.emails.{i}"), "Enter an email address");
                    }
                }
            }
        }
    }

    /// A `min…`/`max…` pair of money guardrails: each at least 0, min ≤ max (else on max).
    fn bounds(
        &mut self,
        min: &Option<String>,
        max: &Option<String>,
        names: (&str, &str),
        what: &str,
    ) {
        let lo = min
            .as_deref()
            .and_then(|t| self.money(&format!("guardrails.{}", names.0), t, Sign::NonNegative));
        let hi = max
            .as_deref()
            .and_then(|t| self.money(&format!("guardrails.{}", names.1), t, Sign::NonNegative));
        if let (Some(lo), Some(hi)) = (lo, hi)
            && lo > hi
        {
            self.err(
                format!("guardrails.{}", names.1),
                format!("Must be at least the {what}"),
            );
        }
    }

    fn guardrails(&mut self, g: &Guardrails, level: RuleLevel) {
        self.bounds(&g.min_bid, &g.max_bid, ("minBid", "maxBid"), "minimum bid");
        self.bounds(
            &g.min_budget,
            &g.max_budget,
            ("minBudget", "maxBudget"),
            "minimum budget",
        );
        if let Some(p) = &g.max_change_percent {
            self.percent("guardrails.maxChangePercent", p, 1, 1_000);
        }
        if let Some(n) = g.max_entities
            && !(1..=ENTITIES_MAX).contains(&n)
        {
            self.err(
                "guardrails.maxEntities",
                format!("Enter 1 to {ENTITIES_MAX}"),
            );
        }
        if let Some(n) = g.max_change_share
            && !(1..=100).contains(&n)
        {
            self.err("guardrails.maxChangeShare", "Enter 1 to 100");
        }
        if g.min_data.len() > LIST_MAX {
            self.err("guardrails.minData", format!("At most {LIST_MAX} entries"));
        }
        for (i, d) in g.min_data.iter().enumerate() {
            let at = format!("guardrails.minData.{i}");
            match metric_at(&d.metric, level) {
                Some(m) if m.kind() == Kind::Count && m != MetricRef::Popularity => {
                    self.number(&format!("{at}.value"), &d.value, Sign::NonNegative, 0);
                }
                _ => self.err(
                    format!("{at}.metric"),
                    "Choose a counter (impressions, taps, installs…)",
                ),
            }
        }
    }
}

/// Whether `s` is an Apple id: a string of 1–19 digits below 2^63.
pub fn digits(s: &str) -> bool {
    (1..=19).contains(&s.len()) && s.chars().all(|c| c.is_ascii_digit()) && s.parse::<i64>().is_ok()
}

/// One `@` with text on both sides and a dot in the domain, no spaces.
fn looks_like_email(s: &str) -> bool {
    matches!(s.split_once('@'), Some((user, host)) if !user.is_empty() && host.contains('.') && !host.contains('@'))
        && !s.chars().any(char::is_whitespace)
        && s.len() <= 254
}

/// Checks `rule` against every rule of the contract, money in `currency` (the rule's
/// campaign group's); all the problems at once.
pub fn validate(rule: &Rule, currency: &str) -> Result<(), Vec<FieldError>> {
    let mut c = Check {
        currency,
        errors: Vec::new(),
    };
    let level = rule.level;
    if rule.version != VERSION {
        c.err("version", "Only version 1 of the rule schema is supported");
    }
    let name = rule.name.trim();
    if name.is_empty() {
        c.err("name", NAME_REQUIRED);
    } else if name.chars().count() > NAME_MAX {
        c.err("name", format!("At most {NAME_MAX} characters"));
    } else if name.chars().any(char::is_control) {
        c.err("name", "Must not contain control characters");
    }
    if rule.account_id.trim().is_empty() {
        c.err("accountId", "Choose a connection");
    }
    if !digits(&rule.org_id) {
        c.err("orgId", "Choose a campaign group");
    }
    if let Some(ids) = &rule.campaign_ids {
        if ids.len() > CAMPAIGNS_MAX {
            c.err("campaignIds", format!("At most {CAMPAIGNS_MAX} campaigns"));
        }
        let mut seen = HashSet::new();
        for (i, id) in ids.iter().enumerate() {
            if !digits(id) {
                c.err(format!("campaignIds.{i}"), "Must be a campaign id");
            } else if !seen.insert(id) {
                c.err(format!("campaignIds.{i}"), "Name each campaign once");
            }
        }
    }
    let groups = &rule.conditions.groups;
    if groups.is_empty() || groups.len() > GROUPS_MAX {
        c.err(
            "conditions.groups",
            format!("Add 1 to {GROUPS_MAX} groups of conditions"),
        );
    }
    for (g, group) in groups.iter().enumerate().take(GROUPS_MAX) {
        let at = format!("conditions.groups.{g}.conditions");
        if group.conditions.is_empty() || group.conditions.len() > CONDITIONS_MAX {
            c.err(&*at, format!("Add 1 to {CONDITIONS_MAX} conditions"));
        }
        for (i, cond) in group.conditions.iter().enumerate().take(CONDITIONS_MAX) {
            c.condition(&format!("{at}.{i}"), cond, level);
        }
    }
    match &rule.window {
        Window::Last { days, .. } => {
            if !(1..=DAYS_MAX).contains(days) {
                c.err("window.days", format!("Enter 1 to {DAYS_MAX} days"));
            }
        }
        Window::Between {
            from_days_ago,
            to_days_ago,
        } => {
            if !(1..=DAYS_MAX).contains(to_days_ago) {
                c.err("window.toDaysAgo", format!("Enter 1 to {DAYS_MAX} days"));
            }
            if !(1..=DAYS_MAX).contains(from_days_ago) {
                c.err("window.fromDaysAgo", format!("Enter 1 to {DAYS_MAX} days"));
            } else if from_days_ago < to_days_ago {
                c.err(
                    "window.fromDaysAgo",
                    "Must be at least the end of the window",
                );
            }
        }
    }
    match &rule.frequency {
        super::Frequency::Hourly => {}
        super::Frequency::Daily { hour } | super::Frequency::Weekly { hour, .. } => {
            if *hour > 23 {
                c.err("frequency.hour", "Enter an hour from 0 to 23");
            }
        }
    }
    if rule.actions.is_empty() || rule.actions.len() > ACTIONS_MAX {
        c.err("actions", format!("Add 1 to {ACTIONS_MAX} actions"));
    }
    let mut kinds = HashSet::new();
    for (i, a) in rule.actions.iter().enumerate().take(ACTIONS_MAX) {
        let at = format!("actions.{i}");
        if !kinds.insert(a.kind()) {
            c.err(format!("{at}.type"), "Only one action of each type");
        } else if !action_levels(a.kind()).contains(&level) {
            c.err(
                format!("{at}.type"),
                format!("Not available at {}", level.as_str()),
            );
        } else {
            c.action(&at, a, rule);
        }
    }
    c.guardrails(&rule.guardrails, level);
    if c.errors.is_empty() {
        Ok(())
    } else {
        Err(c.errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The contract's example rule (docs/api/rules.md "A rule").
    const EXAMPLE: &str = r#"{
      "id": "01J", "version": 1, "name": "Pause keywords that spend without installs",
      "enabled": true, "accountId": "01H", "orgId": "4500123", "currency": "USD",
      "level": "KEYWORDS", "campaignIds": ["1870001", "1870002"],
      "conditions": {"operator": "AND", "groups": [
        {"operator": "AND", "conditions": [
          {"type": "metric", "metric": "localSpend", "operator": "GREATER_THAN", "value": "20"},
          {"type": "metric", "metric": "installs", "operator": "EQUALS", "value": "0"}
        ]},
        {"operator": "OR", "conditions": [
          {"type": "compare", "metric": "avgCPA", "operator": "GREATER_THAN", "other": "cpaGoal", "coefficient": "1.5"},
          {"type": "status", "values": ["ACTIVE"]}
        ]}
      ]},
      "window": {"type": "last", "days": 7, "excludeToday": true},
      "frequency": {"type": "daily", "hour": 6},
      "actions": [{"type": "pause"}, {"type": "alert", "channels": ["EMAIL", "SLACK"], "emails": []}],
      "guardrails": {
        "minBid": "0.10", "maxBid": "5.00", "minBudget": null, "maxBudget": null,
        "maxChangePercent": "50", "maxEntities": 500,
        "minData": [{"metric": "taps", "value": "10"}]
      },
      "createdBy": "ann@example.com", "createdAt": 1764200000, "updatedAt": 1764200000,
      "lastRun": null
    }"#;

    fn example() -> Rule {
        serde_json::from_str(EXAMPLE).expect("the example reads")
    }

    /// The fields of the errors of `rule` (in USD).
    fn fields(rule: &Rule) -> Vec<String> {
        validate(rule, "USD")
            .err()
            .unwrap_or_default()
            .into_iter()
            .map(|e| e.field)
            .collect()
    }

    fn with(edit: impl FnOnce(&mut Rule)) -> Vec<String> {
        let mut r = example();
        edit(&mut r);
        fields(&r)
    }

    fn cond(json: &str) -> Condition {
        serde_json::from_str(json).unwrap()
    }

    fn action(json: &str) -> Action {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn the_contract_example_is_valid() {
        assert_eq!(validate(&example(), "USD"), Ok(()));
    }

    #[test]
    fn version_and_name() {
        assert_eq!(with(|r| r.version = 2), ["version"]);
        let mut r = example();
        r.name = "  ".into();
        assert_eq!(
            validate(&r, "USD").unwrap_err(),
            [FieldError::new("name", NAME_REQUIRED)]
        );
        assert_eq!(with(|r| r.name = "x".repeat(101)), ["name"]);
        assert_eq!(with(|r| r.name = "x".repeat(100)), Vec::<String>::new());
        assert_eq!(with(|r| r.name = "a\u{7}b".into()), ["name"]);
    }

    #[test]
    fn scope_fields() {
        assert_eq!(with(|r| r.org_id = "45x".into()), ["orgId"]);
        assert_eq!(with(|r| r.account_id = String::new()), ["accountId"]);
        assert_eq!(
            with(|r| r.campaign_ids = Some(vec!["1".into(), "1".into(), "x".into()])),
            ["campaignIds.1", "campaignIds.2"]
        );
        assert_eq!(
            with(|r| r.campaign_ids = Some(vec![
                "9223372036854775807".into(),
                "9223372036854775808".into()
            ])),
            ["campaignIds.1"],
            "past 2^63 is no id"
        );
    }

    #[test]
    fn groups_and_conditions_are_bounded() {
        assert_eq!(with(|r| r.conditions.groups.clear()), ["conditions.groups"]);
        assert_eq!(
            with(|r| {
                let g = r.conditions.groups[0].clone();
                r.conditions.groups = vec![g; 11];
            }),
            ["conditions.groups"]
        );
        assert_eq!(
            with(|r| r.conditions.groups[1].conditions.clear()),
            ["conditions.groups.1.conditions"]
        );
        assert_eq!(
            with(|r| {
                let c = r.conditions.groups[0].conditions[0].clone();
                r.conditions.groups[0].conditions = vec![c; 21];
            }),
            ["conditions.groups.0.conditions"]
        );
    }

    #[test]
    fn metric_conditions_read_the_catalog_at_the_level() {
        let set = |c: &str| with(|r| r.conditions.groups[1].conditions[0] = cond(c));
        assert_eq!(
            set(r#"{"type": "metric", "metric": "nope", "operator": "EQUALS", "value": "1"}"#),
            ["conditions.groups.1.conditions.0.metric"]
        );
        assert_eq!(
            set(r#"{"type": "metric", "metric": "taps", "operator": "EQUALS", "value": "abc"}"#),
            ["conditions.groups.1.conditions.0.value"]
        );
        assert_eq!(
            set(r#"{"type": "metric", "metric": "taps", "operator": "EQUALS", "value": "1.5"}"#),
            ["conditions.groups.1.conditions.0.value"],
            "counts are whole"
        );
        assert_eq!(
            set(
                r#"{"type": "metric", "metric": "localSpend", "operator": "EQUALS", "value": "1.555"}"#
            ),
            ["conditions.groups.1.conditions.0.value"],
            "money has the currency's digits"
        );
        assert!(
            set(r#"{"type": "metric", "metric": "ttr", "operator": "LESS_THAN", "value": "0.05"}"#)
                .is_empty()
        );
        assert!(
            set(r#"{"type": "metric", "metric": "popularity", "operator": "LESS_THAN", "value": "5"}"#)
                .is_empty()
        );
        // No popularity at CAMPAIGNS (and the example's KEYWORDS status values are wrong there).
        let mut r = example();
        r.level = RuleLevel::Campaigns;
        r.conditions.groups[1].conditions = vec![cond(
            r#"{"type": "metric", "metric": "popularity", "operator": "LESS_THAN", "value": "5"}"#,
        )];
        r.guardrails = Guardrails::default();
        assert_eq!(fields(&r), ["conditions.groups.1.conditions.0.metric"]);
        // JPY has no decimals.
        let mut r = example();
        r.guardrails = Guardrails::default();
        assert_eq!(validate(&r, "JPY"), Ok(()));
        r.conditions.groups[0].conditions[0] = cond(
            r#"{"type": "metric", "metric": "localSpend", "operator": "GREATER_THAN", "value": "20.5"}"#,
        );
        assert_eq!(
            validate(&r, "JPY").unwrap_err()[0].field,
            "conditions.groups.0.conditions.0.value"
        );
    }

    #[test]
    fn compare_status_name_tag_and_match_type() {
        let set = |c: &str| with(|r| r.conditions.groups[1].conditions[0] = cond(c));
        assert_eq!(
            set(
                r#"{"type": "compare", "metric": "avgCPA", "operator": "GREATER_THAN", "other": "budget", "coefficient": "1"}"#
            ),
            ["conditions.groups.1.conditions.0.other"]
        );
        assert!(
            set(r#"{"type": "compare", "metric": "avgCPT", "operator": "GREATER_THAN", "other": "bid", "coefficient": "1"}"#)
                .is_empty()
        );
        assert!(
            set(r#"{"type": "compare", "metric": "avgCPA", "operator": "GREATER_THAN", "other": "avgCPT", "coefficient": "2"}"#)
                .is_empty(),
            "another metric"
        );
        assert_eq!(
            set(
                r#"{"type": "compare", "metric": "avgCPA", "operator": "GREATER_THAN", "other": "cpaGoal", "coefficient": "0"}"#
            ),
            ["conditions.groups.1.conditions.0.coefficient"]
        );
        assert_eq!(
            set(r#"{"type": "status", "values": ["ENABLED"]}"#),
            ["conditions.groups.1.conditions.0.values.0"],
            "keywords are ACTIVE or PAUSED"
        );
        assert_eq!(
            set(r#"{"type": "status", "values": []}"#),
            ["conditions.groups.1.conditions.0.values"]
        );
        assert_eq!(
            set(r#"{"type": "name", "operator": "CONTAINS", "value": " "}"#),
            ["conditions.groups.1.conditions.0.value"]
        );
        assert_eq!(
            set(r#"{"type": "tag", "values": ["Brand", ""]}"#),
            ["conditions.groups.1.conditions.0.values.1"]
        );
        assert_eq!(
            set(r#"{"type": "matchType", "values": ["PHRASE"]}"#),
            ["conditions.groups.1.conditions.0.values.0"]
        );
        // `bid` is a keyword's; ad groups have `defaultBid`; no match type at ADGROUPS.
        let mut r = example();
        r.level = RuleLevel::Adgroups;
        r.guardrails = Guardrails::default();
        r.conditions.groups[1].conditions = vec![
            cond(
                r#"{"type": "compare", "metric": "avgCPT", "operator": "GREATER_THAN", "other": "bid", "coefficient": "1"}"#,
            ),
            cond(r#"{"type": "matchType", "values": ["EXACT"]}"#),
            cond(r#"{"type": "status", "values": ["ENABLED", "PAUSED"]}"#),
        ];
        assert_eq!(
            fields(&r),
            [
                "conditions.groups.1.conditions.0.other",
                "conditions.groups.1.conditions.1.type"
            ]
        );
        r.level = RuleLevel::Searchterms;
        r.actions = vec![action(r#"{"type": "addNegative", "where": "CAMPAIGN"}"#)];
        r.conditions.groups[1].conditions =
            vec![cond(r#"{"type": "status", "values": ["ACTIVE"]}"#)];
        assert_eq!(fields(&r), ["conditions.groups.1.conditions.0.type"]);
    }

    #[test]
    fn windows_and_frequencies() {
        assert_eq!(
            with(|r| r.window = Window::Last {
                days: 0,
                exclude_today: true
            }),
            ["window.days"]
        );
        assert_eq!(
            with(|r| r.window = Window::Last {
                days: 366,
                exclude_today: false
            }),
            ["window.days"]
        );
        assert!(
            with(|r| r.window = Window::Between {
                from_days_ago: 14,
                to_days_ago: 3
            })
            .is_empty()
        );
        assert_eq!(
            with(|r| r.window = Window::Between {
                from_days_ago: 3,
                to_days_ago: 14
            }),
            ["window.fromDaysAgo"]
        );
        assert_eq!(
            with(|r| r.window = Window::Between {
                from_days_ago: 3,
                to_days_ago: 0
            }),
            ["window.toDaysAgo"]
        );
        assert_eq!(
            with(|r| r.frequency = super::super::Frequency::Daily { hour: 24 }),
            ["frequency.hour"]
        );
    }

    #[test]
    fn actions_follow_the_table() {
        assert_eq!(with(|r| r.actions.clear()), ["actions"]);
        assert_eq!(
            with(|r| r.actions.push(action(r#"{"type": "pause"}"#))),
            ["actions.2.type"],
            "one of each type"
        );
        assert_eq!(
            with(|r| r.actions[0] = action(r#"{"type": "setBudget", "amount": "10"}"#)),
            ["actions.0.type"],
            "budgets are campaigns'"
        );
        assert_eq!(
            with(|r| r.actions[0] = action(r#"{"type": "setBid", "amount": "0"}"#)),
            ["actions.0.amount"]
        );
        assert_eq!(
            with(|r| r.actions[0] = action(r#"{"type": "setBid", "amount": "1.234"}"#)),
            ["actions.0.amount"]
        );
        assert!(
            with(|r| r.actions[0] =
                action(r#"{"type": "changeBid", "by": "AMOUNT", "value": "-0.10"}"#))
            .is_empty()
        );
        assert_eq!(
            with(|r| r.actions[0] =
                action(r#"{"type": "changeBid", "by": "PERCENT", "value": "0"}"#)),
            ["actions.0.value"]
        );
        assert_eq!(
            with(|r| r.actions[0] =
                action(r#"{"type": "changeBid", "by": "PERCENT", "value": "-100"}"#)),
            ["actions.0.value"]
        );
        assert_eq!(
            with(|r| r.actions[0] =
                action(r#"{"type": "bidToTarget", "target": "CPA", "maxStepPercent": "101"}"#)),
            ["actions.0.maxStepPercent"]
        );
        assert!(
            with(|r| r.actions[0] =
                action(r#"{"type": "bidToTarget", "target": "CPT", "amount": null}"#))
            .is_empty()
        );
        assert_eq!(
            with(|r| r.actions[1] = action(r#"{"type": "alert", "channels": []}"#)),
            ["actions.1.channels"]
        );
        assert_eq!(
            with(|r| r.actions[1] = action(
                r#"{"type": "alert", "channels": ["EMAIL"], "emails": ["ok@example.com", "nope"]}"#
            )),
            ["actions.1.emails.1"]
        );
        let mut r = example();
        r.level = RuleLevel::Searchterms;
        r.guardrails = Guardrails::default();
        r.conditions.groups.truncate(1);
        r.actions = vec![
            action(
                r#"{"type": "addKeyword", "campaignId": "1870001", "adGroupId": "2870001", "bid": "1.00"}"#,
            ),
            action(r#"{"type": "addNegative", "where": "AD_GROUP", "matchType": "BROAD"}"#),
        ];
        assert_eq!(validate(&r, "USD"), Ok(()));
        r.actions[0] = action(
            r#"{"type": "addKeyword", "campaignId": "999", "adGroupId": "x", "matchType": "PHRASE"}"#,
        );
        assert_eq!(
            fields(&r),
            [
                "actions.0.campaignId",
                "actions.0.adGroupId",
                "actions.0.matchType"
            ]
        );
        r.actions = vec![action(r#"{"type": "pause"}"#)];
        assert_eq!(
            fields(&r),
            ["actions.0.type"],
            "a search term has no status"
        );
    }

    #[test]
    fn guardrails_are_money_and_ranges() {
        assert_eq!(
            with(|r| {
                r.guardrails.min_bid = Some("5.00".into());
                r.guardrails.max_bid = Some("1.00".into());
            }),
            ["guardrails.maxBid"]
        );
        assert_eq!(
            with(|r| r.guardrails.max_bid = Some("-1".into())),
            ["guardrails.maxBid"]
        );
        assert_eq!(
            with(|r| r.guardrails.min_budget = Some("1.001".into())),
            ["guardrails.minBudget"]
        );
        assert_eq!(
            with(|r| r.guardrails.max_change_percent = Some("0".into())),
            ["guardrails.maxChangePercent"]
        );
        assert_eq!(
            with(|r| r.guardrails.max_change_percent = Some("1001".into())),
            ["guardrails.maxChangePercent"]
        );
        assert_eq!(
            with(|r| r.guardrails.max_entities = Some(0)),
            ["guardrails.maxEntities"]
        );
        assert_eq!(
            with(|r| r.guardrails.max_entities = Some(10_001)),
            ["guardrails.maxEntities"]
        );
        assert_eq!(
            with(|r| r.guardrails.max_change_share = Some(0)),
            ["guardrails.maxChangeShare"]
        );
        assert_eq!(
            with(|r| r.guardrails.max_change_share = Some(101)),
            ["guardrails.maxChangeShare"]
        );
        assert_eq!(
            with(|r| r.guardrails.min_data[0].metric = "avgCPA".into()),
            ["guardrails.minData.0.metric"],
            "counters only"
        );
        assert_eq!(
            with(|r| r.guardrails.min_data[0].value = "x".into()),
            ["guardrails.minData.0.value"]
        );
    }

    #[test]
    fn every_problem_is_answered_at_once() {
        let errors = with(|r| {
            r.name = String::new();
            r.window = Window::Last {
                days: 0,
                exclude_today: true,
            };
            r.guardrails.max_entities = Some(0);
        });
        assert_eq!(errors, ["name", "window.days", "guardrails.maxEntities"]);
    }
}
