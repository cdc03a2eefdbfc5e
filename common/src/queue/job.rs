//! What a job is: the [`Job`] trait every payload type implements, and the [`Envelope`] a
//! job travels in.
//!
//! A payload type declares everything the queue needs to know about its kind in one place:
//! the kind name, the attempt cap, an optional uniqueness key and the type of its
//! kind-specific progress. The worker registers a handler per type in one function
//! (`searchdeck_workers::jobs::register`); nothing else needs an edit for a new kind.
//!
//! An envelope is `{id, kind, taskId, payload}`: a stable id (kept across retries, so
//! attempts are counted per logical job), the kind name, the background-task record it
//! reports to (if any) and the payload as JSON.

use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::ids;

/// A job payload type: serde struct plus the declaration of its kind.
///
/// ```
/// use searchdeck_common::queue::Job;
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Ping { target: String }
/// impl Job for Ping {
///     const KIND: &'static str = "ping";
///     type Progress = ();
/// }
/// ```
pub trait Job: Serialize + DeserializeOwned + Send + Sync + 'static {
    /// The kind name stored in the queue (kebab-case, never renamed once jobs exist).
    const KIND: &'static str;
    /// Runs allowed in total (first run, retries and runs lost with crashed workers).
    const MAX_ATTEMPTS: u32 = 3;
    /// Kind-specific progress shown with the task record (`details`), e.g.
    /// `groupsCreated / groupsTotal`; `()` when the kind reports none.
    type Progress: Serialize + Send + Sync;

    /// At most one job per key is ever enqueued (e.g. one clean-up per period).
    fn unique_key(&self) -> Option<String> {
        None
    }

    /// The attempt cap of this particular job (defaults to the kind's).
    fn max_attempts(&self) -> u32 {
        Self::MAX_ATTEMPTS
    }
}

/// What is stored in the queue for every job.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Envelope {
    /// Stable id of the logical job (kept by retries and rate-limit snoozes).
    pub id: String,
    /// The kind name ([`Job::KIND`]).
    pub kind: String,
    /// The background-task record this job reports progress to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    /// The payload, decoded by the kind's handler.
    #[serde(default)]
    pub payload: serde_json::Value,
}

impl Envelope {
    /// A new envelope with a fresh id.
    pub fn new<J: Job>(job: &J, task_id: Option<String>) -> Result<Envelope, serde_json::Error> {
        Envelope::with_id(ids::new_id(), job, task_id)
    }

    /// An envelope with a given id (the outbox relays rows under their own ids).
    pub fn with_id<J: Job>(
        id: String,
        job: &J,
        task_id: Option<String>,
    ) -> Result<Envelope, serde_json::Error> {
        Ok(Envelope {
            id,
            kind: J::KIND.to_string(),
            task_id,
            payload: serde_json::to_value(job)?,
        })
    }

    /// Decodes a stored envelope (not yet its payload: see [`Envelope::payload_as`]).
    pub fn decode(value: &serde_json::Value) -> Result<Envelope, DecodeError> {
        serde_json::from_value(value.clone()).map_err(|e| DecodeError::BadPayload {
            kind: value
                .get("kind")
                .and_then(|k| k.as_str())
                .unwrap_or_default()
                .to_string(),
            reason: e.to_string(),
        })
    }

    /// The payload as the job type `J` (which must be this envelope's kind).
    pub fn payload_as<J: Job>(&self) -> Result<J, DecodeError> {
        if self.kind != J::KIND {
            return Err(DecodeError::UnknownKind(self.kind.clone()));
        }
        serde_json::from_value(self.payload.clone()).map_err(|e| DecodeError::BadPayload {
            kind: self.kind.clone(),
            reason: e.to_string(),
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Ping {
        to: String,
    }

    impl Job for Ping {
        const KIND: &'static str = "ping";
        type Progress = ();
    }

    #[test]
    fn envelope_round_trips_with_kind_and_payload() {
        let env = Envelope::new(&Ping { to: "a".into() }, Some("t1".into())).unwrap();
        let value = serde_json::to_value(&env).unwrap();
        assert_eq!(value["kind"], "ping");
        assert_eq!(value["taskId"], "t1");
        assert_eq!(value["payload"]["to"], "a");
        let back = Envelope::decode(&value).unwrap();
        assert_eq!(back, env);
        assert_eq!(back.payload_as::<Ping>().unwrap(), Ping { to: "a".into() });
    }

    #[test]
    fn other_kinds_and_bad_payloads_are_told_apart() {
        let other = Envelope::decode(&serde_json::json!({"id": "x", "kind": "nope"})).unwrap();
        assert!(
            matches!(other.payload_as::<Ping>(), Err(DecodeError::UnknownKind(k)) if k == "nope")
        );
        let bad = serde_json::json!({"id": "x", "kind": "ping", "payload": {"to": 5}});
        let bad = Envelope::decode(&bad).unwrap();
        assert!(matches!(
            bad.payload_as::<Ping>(),
            Err(DecodeError::BadPayload { .. })
        ));
        assert!(Envelope::decode(&serde_json::json!({"kind": 1})).is_err());
    }
}
