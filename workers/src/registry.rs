//! The registry of job kinds: each payload type that implements [`Handler`] is added once
//! (in [`crate::jobs::register`]) and the runner looks kinds up here by name.

use std::collections::HashMap;

use futures::future::BoxFuture;
use searchdeck_common::queue::{DecodeError, Envelope, Job, JobError};
use serde_json::Value;

use crate::context::{Done, JobContext, JobRun, Runtime};

/// A job type the worker can run: its payload's [`Job`] declaration plus the handler.
pub trait Handler: Job {
    /// Runs the job once. Return `Ok` when done (a job whose target is gone logs and
    /// returns `Ok`), [`JobError`] otherwise; check [`JobContext::check_cancelled`] between
    /// steps if the job can be stopped.
    fn run(
        &self,
        ctx: &JobContext<Self>,
    ) -> impl Future<Output = Result<Done<Self::Progress>, JobError>> + Send;

    /// Called once when the job is given up for good — a permanent error, its attempts
    /// spent on errors, or its last attempts lost with their workers — with the reason the
    /// task shows: a job that leaves a record in progress (a rule run `APPLYING`) ends it
    /// here, so nothing shows as running forever. Errors are the hook's to log. The default
    /// does nothing.
    fn gave_up(&self, runtime: &Runtime, reason: &str) -> impl Future<Output = ()> + Send {
        let _ = (runtime, reason);
        async {}
    }
}

/// The outcome of a run that ended well: the task's message and its details.
pub(crate) struct Finished {
    pub message: String,
    pub details: Option<Value>,
}

/// A decoded job, its type erased.
pub(crate) trait Runnable: Send + Sync {
    fn max_attempts(&self) -> u32;
    fn run(&self, run: JobRun) -> BoxFuture<'_, Result<Finished, JobError>>;
    fn gave_up<'a>(&'a self, runtime: &'a Runtime, reason: &'a str) -> BoxFuture<'a, ()>;
}

impl<J: Handler> Runnable for J {
    fn max_attempts(&self) -> u32 {
        Job::max_attempts(self)
    }

    fn run(&self, run: JobRun) -> BoxFuture<'_, Result<Finished, JobError>> {
        Box::pin(async move {
            let ctx = JobContext::<J>::new(run);
            let done = Handler::run(self, &ctx).await?;
            Ok(Finished {
                message: done.message,
                details: done
                    .progress
                    .as_ref()
                    .and_then(|p| serde_json::to_value(p).ok()),
            })
        })
    }

    fn gave_up<'a>(&'a self, runtime: &'a Runtime, reason: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(Handler::gave_up(self, runtime, reason))
    }
}

type Decode = fn(&Envelope) -> Result<Box<dyn Runnable>, DecodeError>;

fn decode<J: Handler>(envelope: &Envelope) -> Result<Box<dyn Runnable>, DecodeError> {
    Ok(Box::new(envelope.payload_as::<J>()?))
}

/// Every kind this worker runs, by name.
#[derive(Default)]
pub struct Registry {
    kinds: HashMap<&'static str, Decode>,
}

impl Registry {
    /// Adds the job type `J`. Panics when its kind name is taken by another type.
    pub fn add<J: Handler>(&mut self) -> &mut Registry {
        let previous = self.kinds.insert(J::KIND, decode::<J>);
        assert!(
            previous.is_none(),
            "job kind {:?} registered twice",
            J::KIND
        );
        self
    }

    /// Whether `kind` is registered.
    pub fn knows(&self, kind: &str) -> bool {
        self.kinds.contains_key(kind)
    }

    /// Decodes an envelope's payload with its kind's type.
    pub(crate) fn decode(&self, envelope: &Envelope) -> Result<Box<dyn Runnable>, DecodeError> {
        let decode = self
            .kinds
            .get(envelope.kind.as_str())
            .ok_or_else(|| DecodeError::UnknownKind(envelope.kind.clone()))?;
        decode(envelope)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_registered_once_and_unknown_kinds_are_refused() {
        let registry = crate::jobs::registry();
        for kind in [
            "send-email",
            "cleanup",
            "sync-account",
            "sync-reports",
            "bulk-edit",
        ] {
            assert!(registry.knows(kind), "{kind}");
        }
        let unknown = Envelope::decode(&serde_json::json!({"id": "x", "kind": "nope"})).unwrap();
        assert!(matches!(
            registry.decode(&unknown),
            Err(DecodeError::UnknownKind(_))
        ));
    }
}
