//! Background-task records ([`TaskRecord`]): created for a job, moved forward by its
//! runner, finished once, read by the workspace's members.

use serde::Serialize;
use sqlx::Row;

use super::Exec;
use crate::ids;

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
    /// Kind-specific progress (e.g. groupsCreated / groupsTotal): the schema of the task's
    /// `kind` (see TaskDetails), or `{}` before the task has reported any.
    #[schema(schema_with = details_schema)]
    pub details: serde_json::Value,
    /// Every message the task has shown, oldest first (the current one last): a screen
    /// polling now and then shows the phases it missed, in order.
    pub phases: Vec<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// The schema of [`TaskRecord::details`]: a reference to `TaskDetails`, the union of every
/// job kind's progress, which the jobs' layer defines (`searchdeck_common::tasks`) and the
/// API's document registers: the stores know no job.
fn details_schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::schema::RefBuilder::new()
        .ref_location_from_schema_name("TaskDetails")
        .description(Some(
            "Kind-specific progress (e.g. groupsCreated / groupsTotal): the schema of the task's\n\
             `kind` (see TaskDetails), or `{}` before the task has reported any.",
        ))
        .build()
        .into()
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

const COLUMNS: &str = "id, kind, account_id, org_id, message, step, total_steps, finish, error, progress, phases, created_at, updated_at";

/// SQL of `phases` with the new message (bound at `$message`, and JSON-encoded at `$json`)
/// appended when it differs from the current `message` (one dialect for SQLite and
/// PostgreSQL: the array is text).
fn append_phase(message: u8, json: u8) -> String {
    format!(
        "CASE WHEN message = ${message} OR length(phases) > {PHASES_MAX_CHARS} THEN phases \
         ELSE substr(phases, 1, length(phases) - 1) || CASE WHEN phases = '[]' THEN '' ELSE ',' END \
         || ${json} || ']' END"
    )
}

/// Past this many characters of phases, later ones are not kept.
const PHASES_MAX_CHARS: usize = 16_000;

fn from_row(row: &sqlx::any::AnyRow) -> Result<TaskRecord, sqlx::Error> {
    let step: i64 = row.try_get("step")?;
    let total_steps: i64 = row.try_get("total_steps")?;
    let finish = row.try_get::<i64, _>("finish")? != 0;
    let error: Option<String> = row.try_get("error")?;
    let details: String = row.try_get("progress")?;
    Ok(TaskRecord {
        id: row.try_get("id")?,
        kind: row.try_get("kind")?,
        account_id: row.try_get("account_id")?,
        org_id: row.try_get("org_id")?,
        message: row.try_get("message")?,
        step,
        total_steps,
        percent: percent(step, total_steps, finish, error.is_some()),
        finish,
        error,
        details: serde_json::from_str(&details).unwrap_or(serde_json::Value::Null),
        phases: serde_json::from_str(&row.try_get::<String, _>("phases")?).unwrap_or_default(),
        created_at: ids::rfc3339(row.try_get("created_at")?),
        updated_at: ids::rfc3339(row.try_get("updated_at")?),
    })
}

/// Records a new task and returns its id.
pub async fn create(ex: impl Exec<'_>, task: NewTask<'_>) -> Result<String, sqlx::Error> {
    let id = ids::new_id();
    let now = ids::now_ms();
    sqlx::query(
        "INSERT INTO tasks (id, workspace_id, user_id, kind, message, total_steps, created_at, updated_at, \
         account_id, org_id, phases) VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9, $10)",
    )
    .bind(&id)
    .bind(task.workspace_id)
    .bind(task.user_id)
    .bind(task.kind)
    .bind(task.message)
    .bind(task.total_steps)
    .bind(now)
    .bind(task.account_id)
    .bind(task.org_id)
    .bind(serde_json::json!([task.message]).to_string())
    .execute(ex)
    .await?;
    Ok(id)
}

/// Moves a running task forward. Finished tasks are never changed again.
pub async fn progress(
    ex: impl Exec<'_>,
    id: &str,
    message: &str,
    step: i64,
    total_steps: i64,
    details: Option<&serde_json::Value>,
) -> Result<(), sqlx::Error> {
    let sql = format!(
        "UPDATE tasks SET phases = {}, message = $2, step = $3, total_steps = $4, \
         progress = COALESCE($5, progress), updated_at = $6 WHERE id = $1 AND finish = 0",
        append_phase(2, 7)
    );
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .bind(message)
        .bind(step)
        .bind(total_steps)
        .bind(details.map(|d| d.to_string()))
        .bind(ids::now_ms())
        .bind(serde_json::Value::String(message.to_string()).to_string())
        .execute(ex)
        .await?;
    Ok(())
}

/// Counts one more attempt at running the task (retries after failures or crashes).
pub async fn attempt(ex: impl Exec<'_>, id: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE tasks SET attempts = attempts + 1, updated_at = $2 WHERE id = $1 RETURNING attempts",
    )
    .bind(id)
    .bind(ids::now_ms())
    .fetch_one(ex)
    .await
}

/// Marks a task finished, successfully (`error` None) or not. Returns false when it was
/// already finished, so a job run twice reports its outcome once.
pub async fn finish(
    ex: impl Exec<'_>,
    id: &str,
    message: &str,
    error: Option<&str>,
) -> Result<bool, sqlx::Error> {
    let now = ids::now_ms();
    let sql = format!(
        "UPDATE tasks SET phases = {}, finish = 1, message = $2, error = $3, step = CASE WHEN $3 IS NULL \
         THEN total_steps ELSE step END, updated_at = $4, finished_at = $4 WHERE id = $1 AND finish = 0",
        append_phase(2, 5)
    );
    let done = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .bind(message)
        .bind(error)
        .bind(now)
        .bind(serde_json::Value::String(message.to_string()).to_string())
        .execute(ex)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// One task of a workspace.
pub async fn in_workspace(
    ex: impl Exec<'_>,
    workspace_id: &str,
    id: &str,
) -> Result<Option<TaskRecord>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM tasks WHERE workspace_id = $1 AND id = $2");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(workspace_id)
        .bind(id)
        .fetch_optional(ex)
        .await?;
    row.as_ref().map(from_row).transpose()
}

/// The unfinished tasks of `kinds` in campaign group `org_id` of connection `account_id` of
/// `workspace_id`, oldest first (what running creations will still make: the campaign
/// limit counts it).
pub async fn unfinished_in_org(
    ex: impl Exec<'_>,
    workspace_id: &str,
    account_id: &str,
    org_id: i64,
    kinds: &[&str],
) -> Result<Vec<TaskRecord>, sqlx::Error> {
    if kinds.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT {COLUMNS} FROM tasks WHERE workspace_id = $1 AND account_id = $2 AND org_id = $3 \
         AND finish = 0 AND kind IN ({}) ORDER BY created_at, id",
        super::placeholders(4, kinds.len())
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(workspace_id)
        .bind(account_id)
        .bind(org_id);
    for kind in kinds {
        q = q.bind(*kind);
    }
    let rows = q.fetch_all(ex).await?;
    rows.iter().map(from_row).collect()
}

/// The caller's running tasks and those that finished in the last `recent_ms`,
/// newest first (the sidebar's background-tasks popover).
pub async fn for_user(
    ex: impl Exec<'_>,
    workspace_id: &str,
    user_id: &str,
    recent_ms: i64,
    limit: i64,
) -> Result<Vec<TaskRecord>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS} FROM tasks WHERE workspace_id = $1 AND user_id = $2 \
         AND (finish = 0 OR updated_at >= $3) ORDER BY created_at DESC, id DESC LIMIT $4"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(workspace_id)
        .bind(user_id)
        .bind(ids::now_ms() - recent_ms)
        .bind(limit)
        .fetch_all(ex)
        .await?;
    rows.iter().map(from_row).collect()
}

/// Sets the kind-specific progress of a running task without moving its step.
pub async fn set_details(
    ex: impl Exec<'_>,
    id: &str,
    details: &serde_json::Value,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE tasks SET progress = $2, updated_at = $3 WHERE id = $1 AND finish = 0")
        .bind(id)
        .bind(details.to_string())
        .bind(ids::now_ms())
        .execute(ex)
        .await?;
    Ok(())
}

/// Asks a running task of a workspace to stop; its job stops at its next check. Returns
/// false when the workspace has no running task with this id.
pub async fn request_cancel(
    ex: impl Exec<'_>,
    workspace_id: &str,
    id: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE tasks SET cancel_requested_at = $3, updated_at = $3 \
         WHERE workspace_id = $1 AND id = $2 AND finish = 0",
    )
    .bind(workspace_id)
    .bind(id)
    .bind(ids::now_ms())
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Stops a running task of a workspace at once: asks its job to stop and finishes the task
/// with `error` (also its message) and these final `details`, so the browser sees it
/// stopped without waiting for the job. Returns false when the workspace has no running
/// task with this id (a finished task is never changed).
pub async fn stop(
    ex: impl Exec<'_>,
    workspace_id: &str,
    id: &str,
    error: &str,
    details: &serde_json::Value,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE tasks SET cancel_requested_at = $3, updated_at = $3, finished_at = $3, finish = 1, \
         message = $4, error = $4, progress = $5 WHERE workspace_id = $1 AND id = $2 AND finish = 0",
    )
    .bind(workspace_id)
    .bind(id)
    .bind(ids::now_ms())
    .bind(error)
    .bind(details.to_string())
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The unfinished task of `workspace_id` working on `subject` (see [`claim_subject`]) and
/// when it last moved (unix ms).
pub async fn running_on(
    ex: impl Exec<'_>,
    workspace_id: &str,
    subject: &str,
) -> Result<Option<(String, i64)>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT id, updated_at FROM tasks WHERE workspace_id = $1 AND subject = $2 AND finish = 0",
    )
    .bind(workspace_id)
    .bind(subject)
    .fetch_optional(ex)
    .await?;
    row.map(|r| Ok((r.try_get("id")?, r.try_get("updated_at")?)))
        .transpose()
}

/// Marks task `id` as the one working on `subject`: a unique violation when another
/// unfinished task has it (the index `tasks_running_subject`).
pub async fn claim_subject(ex: impl Exec<'_>, id: &str, subject: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE tasks SET subject = $2 WHERE id = $1")
        .bind(id)
        .bind(subject)
        .execute(ex)
        .await?;
    Ok(())
}

/// [`claim_subject`] unless an unfinished task already works on `subject` (then nothing).
pub async fn claim_subject_if_free(
    ex: impl Exec<'_>,
    id: &str,
    subject: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE tasks SET subject = $2 WHERE id = $1 AND NOT EXISTS \
         (SELECT 1 FROM tasks t WHERE t.subject = $2 AND t.finish = 0)",
    )
    .bind(id)
    .bind(subject)
    .execute(ex)
    .await?;
    Ok(())
}

/// Lets go of the subject of task `id` (a task that stopped moving long ago no longer
/// holds its subject; it still finishes as its job decides).
pub async fn release_subject(ex: impl Exec<'_>, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE tasks SET subject = NULL WHERE id = $1")
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
}

/// Whether a stop has been asked for this task.
pub async fn cancel_requested(ex: impl Exec<'_>, id: &str) -> Result<bool, sqlx::Error> {
    let at: Option<Option<i64>> =
        sqlx::query_scalar("SELECT cancel_requested_at FROM tasks WHERE id = $1")
            .bind(id)
            .fetch_optional(ex)
            .await?;
    Ok(matches!(at, Some(Some(_))))
}

/// Deletes tasks that finished before `before`; returns how many.
pub async fn delete_finished(ex: impl Exec<'_>, before: i64) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("DELETE FROM tasks WHERE finish = 1 AND finished_at < $1")
        .bind(before)
        .execute(ex)
        .await?;
    Ok(done.rows_affected())
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
