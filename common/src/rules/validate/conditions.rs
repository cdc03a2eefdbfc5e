//! The checks of a rule's conditions: the metric and its value at the rule's level, a
//! comparison with an entity amount, statuses, names, tags and match types.

use super::*;

impl Check<'_> {
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

    pub(super) fn condition(&mut self, at: &str, c: &Condition, level: RuleLevel) {
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
}
