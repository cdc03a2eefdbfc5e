//! How often and how patiently a job is retried: its kind's attempt cap over the queue's
//! [`Backoff`].

use std::time::Duration;

use crate::retry::Backoff;

use super::QueueSettings;

/// How often a job is tried and how long to wait between tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Runs allowed in total, counting the first one and runs lost to crashed workers.
    pub max_attempts: u32,
    /// Delays between runs.
    pub backoff: Backoff,
}

impl RetryPolicy {
    /// A job's cap (`Job::max_attempts`) with the queue's retry delays.
    pub fn new(max_attempts: u32, settings: &QueueSettings) -> RetryPolicy {
        RetryPolicy {
            max_attempts,
            backoff: Backoff {
                base: settings.retry_base_delay,
                max: settings.retry_max_delay,
            },
        }
    }

    /// The delay before the attempt after `attempt` (1-based).
    pub fn delay_after(&self, attempt: u32) -> Duration {
        self.backoff.delay_after(attempt)
    }

    /// Whether another attempt is allowed after `attempt` runs.
    pub fn may_retry(&self, attempt: u32) -> bool {
        attempt < self.max_attempts
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_cap_counts_every_run() {
        let p = super::RetryPolicy::new(10, &super::QueueSettings::default());
        assert!(p.may_retry(9));
        assert!(!p.may_retry(10));
    }
}
