//! Job handlers, one module per kind, and [`dispatch`]: the one place that registers every
//! kind of the catalogue. The `match` is exhaustive, so a new kind in
//! `searchdeck_common::queue::Job` does not compile until it has a handler here.

mod cleanup;
mod send_email;
#[cfg(feature = "test-jobs")]
mod test_job;

use searchdeck_common::queue::{Job, JobError};

use crate::runner::JobContext;

pub use cleanup::cleanup;

/// Runs a job with its kind's handler.
pub async fn dispatch(job: &Job, ctx: &JobContext) -> Result<(), JobError> {
    match job {
        Job::SendEmail(email) => send_email::run(email, ctx).await,
        Job::Cleanup(payload) => cleanup::run(payload, ctx).await,
        #[cfg(feature = "test-jobs")]
        Job::Test(payload) => test_job::run(payload, ctx).await,
    }
}
