//! The error a job handler returns, which decides what happens to the job next.

use std::time::Duration;

/// How a job run failed.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// Worth trying again later (5xx, timeouts, a database hiccup): retried with
    /// exponential backoff until the kind's attempt cap.
    #[error("{0:#}")]
    Retryable(anyhow::Error),
    /// The provider asked us to slow down: the job is re-scheduled after `retry_after`
    /// without spending an attempt.
    #[error("rate limited, retry after {retry_after:?}: {source:#}")]
    RateLimited {
        retry_after: Duration,
        source: anyhow::Error,
    },
    /// Will never succeed (bad input, target rejected it): fails the job at once.
    #[error("{0:#}")]
    Permanent(anyhow::Error),
    /// The user asked the task to stop and the job stopped at a check: the task ends as
    /// stopped, without an error, and the job is not retried.
    #[error("stopped on request")]
    Cancelled,
}

impl JobError {
    /// A retryable error from anything error-like.
    pub fn retryable(err: impl Into<anyhow::Error>) -> JobError {
        JobError::Retryable(err.into())
    }

    /// A permanent error from anything error-like.
    pub fn permanent(err: impl Into<anyhow::Error>) -> JobError {
        JobError::Permanent(err.into())
    }
}

/// Unclassified errors (database, I/O) are retryable.
impl From<anyhow::Error> for JobError {
    fn from(err: anyhow::Error) -> JobError {
        JobError::Retryable(err)
    }
}

impl From<sqlx::Error> for JobError {
    fn from(err: sqlx::Error) -> JobError {
        JobError::Retryable(err.into())
    }
}
