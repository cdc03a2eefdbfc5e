//! Background tasks the caller can poll (`tasks`, `tasks/{id}`).

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{Db, store, tasks::TaskRecord};
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{InWorkspace, Member, WorkspaceResource},
    envelope::{self, Envelope, Item, Items},
    error::ApiResult,
    route,
    state::AppState,
};

/// Finished tasks stay in the list for this long.
pub const RECENT_MS: i64 = 24 * 3600 * 1000;
/// At most this many tasks are listed.
pub const LIST_LIMIT: i64 = 50;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(list))
        .routes(route!(one))
}

impl WorkspaceResource for TaskRecord {
    const NAME: &'static str = "Task";
    const KIND: &'static str = "task";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        store::tasks::in_workspace(&db.pool, workspace_id, id).await
    }
}

/// The caller's running tasks and those finished in the last 24 hours, newest first.
#[utoipa::path(get, path = "/api/tasks", operation_id = "list_tasks", tag = "tasks",
    responses((status = 200, description = "Tasks", body = Envelope<Items<TaskRecord>>)))]
pub async fn list(State(state): State<AppState>, user: Member) -> ApiResult<impl IntoResponse> {
    let tasks = store::tasks::for_user(
        &state.db.pool,
        &user.workspace_id,
        &user.user_id,
        RECENT_MS,
        LIST_LIMIT,
    )
    .await?;
    Ok(envelope::items(tasks))
}

/// One task of the caller's workspace (another workspace's task answers 404).
#[utoipa::path(get, path = "/api/tasks/{id}", operation_id = "one_task", tag = "tasks", params(("id" = String, Path, description = "Task id")),
    responses((status = 200, description = "The task", body = Envelope<Item<TaskRecord>>)))]
pub async fn one(task: InWorkspace<TaskRecord>) -> impl IntoResponse {
    envelope::item(task.item)
}
