//! Validation of a rule (schema version 1) exactly as `docs/api/rules.md` "A rule" states
//! it: every problem is a [`FieldError`] at the path the browser's form shows it under
//! (`name`, `conditions.groups.1.conditions.0.value`, `window.days`, `actions.0.amount`,
//! `guardrails.maxBid`), all of them at once. Metrics are the report catalog's at the rule's
//! level (`report::catalog`), money is checked by the one rule of typed money
//! ([`crate::money`]) in the rule's currency, and actions by the contract's table of levels.
//! The API calls [`validate`] before it stores a rule; the rules engine calls it on a rule
//! it previews. What needs the database (the connection, the org, the campaigns) is the
//! caller's to check.

mod actions;
mod cohorts;
mod conditions;
mod levels;
#[cfg(test)]
mod tests;

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

use levels::AMOUNTS;
pub use levels::{MetricRef, action_levels, metric_at, report_level, statuses};

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
    c.cohorts(rule);
    if c.errors.is_empty() {
        Ok(())
    } else {
        Err(c.errors)
    }
}
