//! The cohort-maturity check: a Cohort metric (`roasD7`, `revenueD7`) is judged only on
//! installs at least N full days old, so a rule naming it needs a window that reaches back
//! to such a day; a window entirely younger would never have data to act on, and the rule
//! would silently never match.

use super::*;
use crate::attribution::conversions::{COHORT_DAYS, cohort_index, cohort_label};
use crate::rules::named;

impl Check<'_> {
    pub(super) fn cohorts(&mut self, rule: &Rule) {
        let oldest = named::oldest_day_ago(rule);
        for (field, metric) in named::named(rule) {
            let (Some(i), Some(label)) = (cohort_index(metric), cohort_label(metric)) else {
                continue;
            };
            let age = COHORT_DAYS[i];
            if oldest < age + 1 {
                self.err(
                    field,
                    format!(
                        "{label} is judged on installs at least {age} days old: choose a window \
                         that starts {} or more days ago",
                        age + 1
                    ),
                );
            }
        }
    }
}
