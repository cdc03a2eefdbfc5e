//! `run-rule` and `undo-rule-run` (docs/api/rules.md "A run", "Scheduling"; handlers in
//! `searchdeck_workers::jobs::run_rule`). The scheduler enqueues `run-rule` for a rule's
//! latest due time (trigger SCHEDULE, period = that time), the API for "Run now" (trigger
//! MANUAL, period `manual:<task id>`); the uniqueness key `rule:<rule>:<period>` keeps it to
//! one job per period, and the run's natural key (rule, period) to one plan however often
//! the job runs. `rule` is a rule id, or `optimization:<account>:<org>:<campaign>` for a
//! campaign's goal optimisation run as its built-in rule.

use serde::{Deserialize, Serialize};

use crate::queue::Job;

/// Payload of `run-rule`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RunRule {
    /// A rule id, or an optimisation key (`store::rule_runs::optimization_key`).
    pub rule: String,
    /// The due time (`2026-11-27T06:00:00Z`) or `manual:<task id>`.
    pub period: String,
    /// SCHEDULE or MANUAL.
    pub trigger: String,
    /// Who asked (MANUAL), for the run and its change records.
    #[serde(default)]
    pub user_id: Option<String>,
    #[serde(default)]
    pub user_email: Option<String>,
}

impl Job for RunRule {
    const KIND: &'static str = "run-rule";
    const MAX_ATTEMPTS: u32 = 5;
    type Progress = RunRuleProgress;

    fn unique_key(&self) -> Option<String> {
        Some(format!("rule:{}:{}", self.rule, self.period))
    }
}

/// Payload of `undo-rule-run`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct UndoRuleRun {
    pub workspace_id: String,
    /// The run to undo.
    pub run_id: String,
    #[serde(default)]
    pub user_id: Option<String>,
    #[serde(default)]
    pub user_email: Option<String>,
}

impl Job for UndoRuleRun {
    const KIND: &'static str = "undo-rule-run";
    const MAX_ATTEMPTS: u32 = 5;
    type Progress = RunRuleProgress;

    fn unique_key(&self) -> Option<String> {
        Some(format!("undo-rule-run:{}", self.run_id))
    }
}

/// Progress and result of both jobs: the run and its counts.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunRuleProgress {
    pub run_id: Option<String>,
    pub status: Option<String>,
    pub matched: u64,
    pub applied: u64,
    pub refused: u64,
    pub skipped: u64,
}
