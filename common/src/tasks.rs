//! Background-task records: the progress a browser polls while a job runs.
//!
//! Each job enqueued on behalf of a user gets a row here (spec §3 "Background task":
//! message, step, totalSteps, finish, error) plus kind-specific details as JSON (for
//! example the creation progress of campaigns). The rows are read and written by
//! [`crate::store::tasks`]; reads are always scoped to a workspace.

use serde::Serialize;

use crate::{
    Db,
    queue::{
        Job,
        outbox::{self, OutboxOptions},
    },
    store,
};

/// A task as the API returns it.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TaskRecord {
    pub id: String,
    pub kind: String,
    /// The connection the task works for (a sync or bulk edit of one account), else null.
    pub account_id: Option<String>,
    /// The campaign group (Apple's org id) the task works in, else null (a sync covers
    /// every campaign group of its connection).
    #[serde(default, with = "crate::ids::string_id::option")]
    #[schema(value_type = Option<String>)]
    pub org_id: Option<i64>,
    pub message: String,
    pub step: i64,
    pub total_steps: i64,
    pub finish: bool,
    pub error: Option<String>,
    /// Progress in percent, per spec §4.
    pub percent: i64,
    /// Kind-specific progress (e.g. groupsCreated / groupsTotal).
    #[schema(value_type = Object)]
    pub details: serde_json::Value,
    pub created_at: String,
    pub updated_at: String,
}

/// Progress in percent: 0 at step 0, 100 when finished or errored, otherwise
/// round(step / (totalSteps + 1) * 100), capped at 99 while running.
pub fn percent(step: i64, total_steps: i64, finish: bool, errored: bool) -> i64 {
    if finish || errored {
        100
    } else if step <= 0 {
        0
    } else {
        // A step past the announced total never reads as done before the task says so.
        (((step as f64 / (total_steps.max(0) as f64 + 1.0)) * 100.0).round() as i64).min(99)
    }
}

/// Who a new task belongs to and what it is.
#[derive(Debug, Clone)]
pub struct NewTask<'a> {
    pub workspace_id: &'a str,
    pub user_id: Option<&'a str>,
    pub kind: &'a str,
    pub message: &'a str,
    pub total_steps: i64,
    /// The connection the task works for, if one.
    pub account_id: Option<&'a str>,
    /// The campaign group it works in, if one.
    pub org_id: Option<i64>,
}

/// Records a new task and writes its job to the outbox in one transaction, so the task
/// exists exactly when its job will run (see [`crate::queue::outbox`]). Returns the task's
/// id; relay the outbox afterwards (`outbox::relay_once`) for a prompt start.
pub async fn create_with_job<J: Job>(
    db: &Db,
    task: NewTask<'_>,
    job: &J,
) -> Result<String, sqlx::Error> {
    let mut tx = db.pool.begin().await?;
    let id = store::tasks::create(&mut *tx, task).await?;
    let options = OutboxOptions {
        task_id: Some(id.clone()),
        ..Default::default()
    };
    outbox::push(&mut *tx, job, options).await?;
    tx.commit().await?;
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::percent;

    #[test]
    fn percent_follows_the_spec_formula() {
        assert_eq!(percent(0, 5, false, false), 0);
        assert_eq!(percent(1, 1, false, false), 50);
        assert_eq!(percent(2, 4, false, false), 40);
        assert_eq!(percent(3, 0, false, false), 99);
        assert_eq!(percent(0, 5, true, false), 100);
        assert_eq!(percent(1, 5, false, true), 100);
    }
}
