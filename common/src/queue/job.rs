//! The job catalogue: every job kind, its payload and its retry policy, in one enum.
//!
//! A job is stored as an [`Envelope`]: a stable id (kept across retries, so attempts are
//! counted per logical job), the kind name, the background-task record it reports to (if
//! any) and the kind's payload. Adding a kind means adding a variant here; the worker's
//! dispatch `match` then refuses to compile until the kind has a handler.

use serde::{Deserialize, Serialize};

use crate::{email::OutgoingEmail, ids};

use super::{QueueSettings, RetryPolicy};

/// Kind names as stored in the queue.
pub mod kinds {
    /// Sends one email (password-recovery codes).
    pub const SEND_EMAIL: &str = "send-email";
    /// Deletes expired sessions, spent recovery codes and old task records.
    pub const CLEANUP: &str = "cleanup";
    /// Test-only kind used by the queue's own tests.
    pub const TEST: &str = "test";

    /// Every kind this build knows.
    pub fn known(kind: &str) -> bool {
        matches!(kind, SEND_EMAIL | CLEANUP) || (cfg!(feature = "test-jobs") && kind == TEST)
    }
}

/// One job of a known kind with its payload.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", content = "payload", rename_all = "kebab-case")]
pub enum Job {
    /// Send an email through the configured sender.
    SendEmail(OutgoingEmail),
    /// The periodic clean-up of expired rows.
    Cleanup(CleanupJob),
    /// Test-only job (cargo feature `test-jobs`).
    #[cfg(feature = "test-jobs")]
    Test(TestJob),
}

/// Payload of the clean-up job: the period it was scheduled for (for logs only).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CleanupJob {
    #[serde(default)]
    pub period: String,
}

/// Payload of the test-only job: records its effect under `key` and misbehaves on demand.
#[cfg(feature = "test-jobs")]
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct TestJob {
    /// Idempotency key of the effect row.
    pub key: String,
    /// Sleep this long before recording the effect.
    pub sleep_ms: u64,
    /// Fail with a retryable error on the first `fail_runs` runs.
    pub fail_runs: u32,
    /// Fail permanently.
    pub permanent: bool,
    /// Answer "rate limited" on the first `rate_limited_runs` runs.
    pub rate_limited_runs: u32,
    /// The `retry_after` of those answers, in seconds.
    pub retry_after_secs: u64,
    /// Attempt cap for this job (default 3).
    pub max_attempts: Option<u32>,
}

impl Job {
    /// The kind name stored in the queue.
    pub fn kind(&self) -> &'static str {
        match self {
            Job::SendEmail(_) => kinds::SEND_EMAIL,
            Job::Cleanup(_) => kinds::CLEANUP,
            #[cfg(feature = "test-jobs")]
            Job::Test(_) => kinds::TEST,
        }
    }

    /// How often and how patiently this kind is retried.
    pub fn retry_policy(&self, settings: &QueueSettings) -> RetryPolicy {
        let max_attempts = match self {
            Job::SendEmail(_) => 5,
            Job::Cleanup(_) => 3,
            #[cfg(feature = "test-jobs")]
            Job::Test(t) => t.max_attempts.unwrap_or(3),
        };
        RetryPolicy {
            max_attempts,
            base_delay: settings.retry_base_delay,
            max_delay: settings.retry_max_delay,
        }
    }
}

/// What is stored in the queue for every job.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Envelope {
    /// Stable id of the logical job (kept by retries and rate-limit snoozes).
    pub id: String,
    /// The background-task record this job reports progress to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    #[serde(flatten)]
    pub job: Job,
}

impl Envelope {
    /// A new envelope with a fresh id.
    pub fn new(job: Job, task_id: Option<String>) -> Envelope {
        Envelope {
            id: ids::new_id(),
            task_id,
            job,
        }
    }
}

/// Why a stored job could not be decoded.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    #[error("unknown job kind {0:?}")]
    UnknownKind(String),
    #[error("undecodable {kind} job: {reason}")]
    BadPayload { kind: String, reason: String },
}

impl Envelope {
    /// Decodes a stored job, telling an unknown kind from a payload that does not fit.
    pub fn decode(value: &serde_json::Value) -> Result<Envelope, DecodeError> {
        let kind = value
            .get("kind")
            .and_then(|k| k.as_str())
            .unwrap_or_default()
            .to_string();
        if !kinds::known(&kind) {
            return Err(DecodeError::UnknownKind(kind));
        }
        serde_json::from_value(value.clone()).map_err(|e| DecodeError::BadPayload {
            kind,
            reason: e.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_round_trips_with_kind_tag() {
        let env = Envelope::new(
            Job::SendEmail(OutgoingEmail {
                to: "a@b.c".into(),
                subject: "s".into(),
                body: "b".into(),
            }),
            Some("t1".into()),
        );
        let value = serde_json::to_value(&env).unwrap();
        assert_eq!(value["kind"], "send-email");
        assert_eq!(value["taskId"], "t1");
        assert_eq!(value["payload"]["to"], "a@b.c");
        assert_eq!(Envelope::decode(&value).unwrap(), env);
    }

    #[test]
    fn unknown_kinds_and_bad_payloads_are_told_apart() {
        let unknown = serde_json::json!({"id": "x", "kind": "nope", "payload": {}});
        assert!(
            matches!(Envelope::decode(&unknown), Err(DecodeError::UnknownKind(k)) if k == "nope")
        );
        let bad = serde_json::json!({"id": "x", "kind": "send-email", "payload": {"to": 5}});
        assert!(matches!(
            Envelope::decode(&bad),
            Err(DecodeError::BadPayload { .. })
        ));
    }
}
