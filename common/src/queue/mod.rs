//! The job queue: the [`Job`] trait every payload declares its kind with, the enqueue side
//! used by the API and the scheduler over apalis with the backend picked from `QUEUE_URL`
//! (SQLite, PostgreSQL or Redis), and the transactional [`outbox`] that relays jobs caused
//! by database writes.
//!
//! Every job travels as one JSON [`Envelope`] (`{id, kind, taskId, payload}`) on a single
//! apalis queue; the worker decodes it and dispatches by kind. Retries, rate-limit
//! snoozes and the attempt cap are handled by our own layer (see [`RetryPolicy`] and the
//! `job_runs` table), not by apalis' store-level retries, because those differ per backend
//! (no backoff on SQL stores, a hard-coded 25 attempts on Redis, orphans re-run without a
//! cap).

mod client;
mod error;
mod job;
pub mod outbox;
mod retry;
mod settings;
#[cfg(feature = "test-jobs")]
pub mod testing;

pub use client::{EnqueueOptions, Enqueued, Queue, Store, new_job_id};
pub use error::JobError;
pub use job::{DecodeError, Envelope, Job};
pub use retry::RetryPolicy;
pub use settings::QueueSettings;
