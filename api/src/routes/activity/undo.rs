//! Undoing a notification's changes (`POST accountsActions/{id}/undo`): the `undo-notification`
//! job sets back what the entry changed, once.

use axum::{Json, extract::State, http::StatusCode, response::IntoResponse};
use searchdeck_common::{
    jobs::UndoNotification,
    store::{
        self,
        activity::notifications::{self},
        tasks::NewTask,
    },
};
use serde::Serialize;
use utoipa::ToSchema;

use super::list::undoable;
use crate::{
    access::{EditRoles, InWorkspace, StoredNotification},
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody},
    state::AppState,
};

/// `{"taskId": "…"}`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UndoStarted {
    pub task_id: String,
}

/// Undoes a notification (job `undo-notification`): a rule run's through the rules' own
/// undo, any other by setting each entity back where it still has the notification's new
/// value. Editors only.
#[utoipa::path(post, path = "/api/accountsActions/{id}/undo", operation_id = "undo_notification", tag = "activity",
    params(("id" = String, Path, description = "Notification id")),
    responses((status = 202, description = "The undo is queued: its task id", body = Envelope<UndoStarted>),
              (status = 400, description = "NOT_UNDOABLE: nothing in it can be set back", body = ErrorBody),
              (status = 409, description = "ALREADY_UNDONE: it was undone", body = ErrorBody)))]
pub async fn undo(
    State(state): State<AppState>,
    n: InWorkspace<StoredNotification, EditRoles>,
) -> ApiResult<impl IntoResponse> {
    let row = &n.item.0;
    if row.undone_by.is_some() || already_undone(&state, row).await? {
        return Err(ApiError::status(StatusCode::CONFLICT, "ALREADY_UNDONE"));
    }
    let groups = notifications::groups(&state.db.pool, std::slice::from_ref(&row.id)).await?;
    if !undoable(row, &groups) {
        return Err(ApiError::bad_request("NOT_UNDOABLE"));
    }
    let job = UndoNotification {
        workspace_id: n.caller.workspace_id.clone(),
        notification_id: row.id.clone(),
        user_id: Some(n.caller.user_id.clone()),
        user_email: Some(n.caller.email.clone()),
    };
    let task_id = state
        .start_task(
            NewTask {
                workspace_id: &n.caller.workspace_id,
                user_id: Some(&n.caller.user_id),
                kind: "undo-notification",
                message: "Undoing...",
                total_steps: 1,
                account_id: row.account_id.as_deref(),
                org_id: row.org_id,
            },
            &job,
        )
        .await
        .map_err(ApiError::from)?;
    Ok((
        StatusCode::ACCEPTED,
        Json(Envelope {
            status: 202,
            message: envelope::SUCCESS_MESSAGE.into(),
            result: UndoStarted { task_id },
        }),
    ))
}

/// Whether a rule run's notification was undone through the rules' own undo (which writes
/// no notification when it restored nothing).
async fn already_undone(state: &AppState, row: &notifications::NotificationRow) -> ApiResult<bool> {
    let Some(run_id) = row.key.strip_prefix("rule-run:") else {
        return Ok(false);
    };
    let Some(run) = store::rule_runs::get(&state.db.pool, &row.workspace_id, run_id).await? else {
        return Ok(false);
    };
    Ok(run.undone_by.is_some()
        || store::rule_runs::by_period(&state.db.pool, &run.rule_key, &format!("undo:{run_id}"))
            .await?
            .is_some())
}
