//! `test` (cargo feature `test-jobs`): the queue's own tests' job, which misbehaves on
//! demand and records its effect idempotently.

use serde::{Deserialize, Serialize};

use crate::queue::Job;

/// Payload of the test-only job: records its effect under `key` and misbehaves on demand.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct TestJob {
    /// Idempotency key of the effect row.
    pub key: String,
    /// Sleep this long before recording the effect.
    pub sleep_ms: u64,
    /// Sleep in this many steps, checking for cancellation between them.
    pub steps: u32,
    /// Fail with a retryable error on the first `fail_runs` runs.
    pub fail_runs: u32,
    /// Fail permanently.
    pub permanent: bool,
    /// Answer "rate limited" on the first `rate_limited_runs` runs.
    pub rate_limited_runs: u32,
    /// After those, fail with SQLite's "database is locked" on the next `busy_runs` runs.
    #[serde(default)]
    pub busy_runs: u32,
    /// The `retry_after` of those answers, in seconds.
    pub retry_after_secs: u64,
    /// Attempt cap for this job (default 3).
    pub max_attempts: Option<u32>,
}

/// Progress of the test job: steps done so far.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestProgress {
    pub steps_done: u32,
}

impl Job for TestJob {
    const KIND: &'static str = "test";
    type Progress = TestProgress;

    fn max_attempts(&self) -> u32 {
        self.max_attempts.unwrap_or(Self::MAX_ATTEMPTS)
    }
}
