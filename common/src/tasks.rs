//! Background-task records: the progress a browser polls while a job runs.
//!
//! Each job enqueued on behalf of a user gets a row here (spec §3 "Background task":
//! message, step, totalSteps, finish, error) plus kind-specific details as JSON (for
//! example the creation progress of campaigns). The rows, their types and the percent rule
//! live in [`crate::store::tasks`] (re-exported here); reads are always scoped to a
//! workspace. This module adds what spans two stores: a task created with its job.

pub use crate::store::tasks::{NewTask, TaskRecord, percent};
use crate::{
    Db,
    queue::{
        Job,
        outbox::{self, OutboxOptions},
    },
    store,
};

/// Records a new task and writes its job to the outbox in one transaction, so the task
/// exists exactly when its job will run (see [`crate::queue::outbox`]). Returns the task's
/// id; relay the outbox afterwards (`outbox::relay_once`) for a prompt start.
pub async fn create_with_job<J: Job>(
    db: &Db,
    task: NewTask<'_>,
    job: &J,
) -> Result<String, sqlx::Error> {
    Ok(create_with_job_ids(db, task, job).await?.task)
}

/// The ids [`create_with_job_ids`] returns.
#[derive(Debug, Clone)]
pub struct TaskAndJob {
    /// The task's id.
    pub task: String,
    /// The job's id (its outbox row's, which the queue keeps).
    pub job: String,
}

/// [`create_with_job`], returning the job's id as well: what a caller needs to follow the
/// job itself (e.g. the provider ids it records), since any worker may relay and remove its
/// outbox row as soon as the transaction commits.
pub async fn create_with_job_ids<J: Job>(
    db: &Db,
    task: NewTask<'_>,
    job: &J,
) -> Result<TaskAndJob, sqlx::Error> {
    let mut tx = db.begin_write().await?;
    let task_id = store::tasks::create(&mut *tx, task).await?;
    let options = OutboxOptions {
        task_id: Some(task_id.clone()),
        ..Default::default()
    };
    let job_id = outbox::push(&mut *tx, job, options).await?;
    tx.commit().await?;
    Ok(TaskAndJob {
        task: task_id,
        job: job_id,
    })
}
