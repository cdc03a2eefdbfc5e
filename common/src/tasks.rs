//! Background-task records: the progress a browser polls while a job runs.
//!
//! Each job enqueued on behalf of a user gets a row here (docs/product.md#3-background-task:
//! message, step, totalSteps, finish, error) plus kind-specific details as JSON (for
//! example the creation progress of campaigns). The rows, their types and the percent rule
//! live in [`crate::store::tasks`] (re-exported here); reads are always scoped to a
//! workspace. This module adds what spans two stores: a task created with its job.

pub use crate::store::tasks::{NewTask, TaskRecord, percent};
use serde::Serialize;

use crate::{
    Db,
    queue::{
        Job,
        outbox::{self, OutboxOptions},
    },
    store,
};

/// What a task's `details` hold, by its `kind` (each kind's job writes its own
/// `Job::Progress`): collect-keywords CollectProgress, create-campaigns and copy-campaigns
/// CreationProgress, bulk-edit BulkEditProgress, apply-negative-lists ApplyProgress,
/// run-rule and undo-rule-run RunRuleProgress, undo-notification UndoProgress, sync-account
/// SyncAccountProgress, sync-reports SyncReportsProgress, test TestProgress; NoDetails
/// (`{}`) before the task has reported any.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum TaskDetails {
    Collect(crate::suggester::keyword::CollectProgress),
    Creation(crate::jobs::CreationProgress),
    BulkEdit(crate::jobs::BulkEditProgress),
    ApplyNegativeLists(crate::jobs::ApplyNegativeListsProgress),
    RuleRun(crate::jobs::RunRuleProgress),
    Undo(crate::jobs::UndoProgress),
    SyncAccount(crate::jobs::SyncAccountProgress),
    SyncReports(crate::jobs::SyncReportsProgress),
    // The queue's own test job (feature `test-jobs`): not in a production build.
    #[cfg(feature = "test-jobs")]
    Test(crate::jobs::TestProgress),
    None(NoDetails),
}

/// The details of a task that has reported none yet: an empty object.
#[derive(Serialize)]
pub struct NoDetails {}

impl utoipa::PartialSchema for NoDetails {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .description(Some("No details reported yet: `{}`."))
            .max_properties(Some(0))
            .into()
    }
}

impl utoipa::ToSchema for NoDetails {}

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

/// What [`join_or_create_with_job`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Started {
    /// A new task (and its job): its id.
    New(String),
    /// The unfinished task already working on the subject: its id.
    Joined(String),
}

impl Started {
    /// The task's id, new or joined.
    pub fn id(&self) -> &str {
        match self {
            Started::New(id) | Started::Joined(id) => id,
        }
    }
}

/// A task that has not moved for this long no longer holds its subject (its job was lost;
/// it still ends as its job's give-up decides).
pub const SUBJECT_STALE_MS: i64 = 60 * 60 * 1000;

/// [`create_with_job`] for work on one `subject` (e.g. `rule:<id>`): when an unfinished task
/// of the workspace already works on it, answers that task instead, so a request repeated
/// while the first is queued or running joins it. Race-free on both backends: the subject is
/// claimed under the unique index of unfinished tasks' subjects, and the loser of a race
/// reads the winner.
pub async fn join_or_create_with_job<J: Job>(
    db: &Db,
    subject: &str,
    task: NewTask<'_>,
    job: &J,
) -> Result<Started, sqlx::Error> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        let mut tx = db.begin_write().await?;
        if let Some((id, moved_at)) =
            store::tasks::running_on(&mut *tx, task.workspace_id, subject).await?
        {
            if crate::ids::now_ms() - moved_at <= SUBJECT_STALE_MS {
                return Ok(Started::Joined(id));
            }
            store::tasks::release_subject(&mut *tx, &id).await?;
        }
        let task_id = store::tasks::create(&mut *tx, task.clone()).await?;
        match store::tasks::claim_subject(&mut *tx, &task_id, subject).await {
            Err(e)
                if attempt < 5
                    && e.as_database_error()
                        .is_some_and(|d| d.is_unique_violation()) =>
            {
                // Another request claimed it between the read and the write: join it.
                drop(tx);
                continue;
            }
            other => other?,
        }
        let options = OutboxOptions {
            task_id: Some(task_id.clone()),
            ..Default::default()
        };
        outbox::push(&mut *tx, job, options).await?;
        tx.commit().await?;
        return Ok(Started::New(task_id));
    }
}
