//! Background tasks the caller can poll (`tasks`, `tasks/{id}`).

use axum::{
    extract::{Path, State},
    response::IntoResponse,
};
use searchdeck_common::tasks::TaskRecord;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    envelope::{self, Envelope, Item, Items},
    error::{ApiError, ApiResult, ErrorBody},
    session::CurrentUser,
    state::AppState,
};

/// Finished tasks stay in the list for this long.
pub const RECENT_MS: i64 = 24 * 3600 * 1000;
/// At most this many tasks are listed.
pub const LIST_LIMIT: i64 = 50;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(one))
}

/// The caller's running tasks and those finished in the last 24 hours, newest first.
#[utoipa::path(get, path = "/api/tasks", tag = "tasks",
    responses((status = 200, description = "Tasks", body = Envelope<Items<TaskRecord>>),
              (status = 401, description = "Unauthorized", body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    user: CurrentUser,
) -> ApiResult<impl IntoResponse> {
    let tasks = state
        .db
        .tasks_for_user(&user.workspace_id, &user.user_id, RECENT_MS, LIST_LIMIT)
        .await?;
    Ok(envelope::items(tasks))
}

/// One task of the caller's workspace (another workspace's task answers 404).
#[utoipa::path(get, path = "/api/tasks/{id}", tag = "tasks", params(("id" = String, Path, description = "Task id")),
    responses((status = 200, description = "The task", body = Envelope<Item<TaskRecord>>),
              (status = 404, description = "Task not found", body = ErrorBody)))]
pub async fn one(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<impl IntoResponse> {
    let task = state
        .db
        .task_in_workspace(&user.workspace_id, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("Task"))?;
    Ok(envelope::item(task))
}
