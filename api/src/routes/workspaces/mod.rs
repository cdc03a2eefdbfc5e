//! The caller's workspaces (contract `docs/api/team.md`, "Workspaces"): a user who accepted
//! invitations belongs to several, each with its own role, active account and activity. The
//! header lists them (`GET workspaces/all`) and moves the caller's session to another one
//! (`POST workspaces/switch`), after which every call answers for that workspace.
//!
//! The session row carries the workspace (`sessions.workspace_id`), so switching moves the
//! caller's own session, in one statement that also checks the membership: a workspace the
//! caller does not belong to answers 404 exactly like one that does not exist. It changes
//! no workspace's things, only the caller's own session, so every member may switch.
//!
//! A switch also records the workspace as the user's last one (`users.last_workspace_id`):
//! their next sign-in opens it while they are still a member there. Saved options
//! (`options/front`) follow the session's workspace, personal ones aside.
//!
//! A workspace has a name of its own — "<name>'s workspace" at sign-up — which invitations,
//! the header and the switcher show; owners and admins rename it (`PATCH
//! workspaces/current`, Settings › General).

use crate::routes::users::item::{self as user, UserItem};
use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{Manager, Member},
    envelope::{self, Envelope, Item, Items},
    error::{ApiError, ApiResult, ErrorBody},
    extract::ApiJson,
    route,
    session::Role,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(all))
        .routes(route!(switch))
        .routes(route!(rename))
}

/// Longest workspace name, in characters.
pub const NAME_MAX: usize = 100;

/// `{"name": "…"}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RenameBody {
    /// 1–100 characters, not blank (trimmed).
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
}

/// Renames the caller's current workspace (owners and admins): what invitations, the header
/// and the workspace switcher show. Answers the workspace.
#[utoipa::path(patch, path = "/api/workspaces/current", tag = "team", request_body = RenameBody,
    responses((status = 200, description = "The workspace renamed", body = Envelope<Item<WorkspaceItem>>),
              (status = 400, description = "name blank or over 100 characters", body = ErrorBody)))]
pub async fn rename(
    State(state): State<AppState>,
    caller: Manager,
    ApiJson(body): ApiJson<RenameBody>,
) -> ApiResult<impl IntoResponse> {
    let name = body.name.trim();
    if name.is_empty() {
        return Err(ApiError::field("name", crate::domain::REQUIRED));
    }
    if name.chars().count() > NAME_MAX {
        return Err(ApiError::field(
            "name",
            &format!("At most {NAME_MAX} characters"),
        ));
    }
    store::workspaces::rename(&state.db.pool, &caller.workspace_id, name).await?;
    tracing::info!(workspace.id = %caller.workspace_id, "workspace renamed");
    Ok(envelope::item(WorkspaceItem {
        id: caller.workspace_id.clone(),
        name: name.to_string(),
        role: caller.role,
        current: true,
    }))
}

/// 404: not a workspace of the caller.
pub const WORKSPACE: &str = "Workspace";

/// One workspace of the caller.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceItem {
    pub id: String,
    pub name: String,
    /// The caller's role there.
    pub role: Role,
    /// Whether the caller's session is in it.
    pub current: bool,
}

/// The workspaces the caller belongs to, in the order they joined them, the session's one
/// marked `current`. Any member.
#[utoipa::path(get, path = "/api/workspaces/all", operation_id = "all_workspaces", tag = "team",
    responses((status = 200, description = "The caller's workspaces", body = Envelope<Items<WorkspaceItem>>)))]
pub async fn all(State(state): State<AppState>, user: Member) -> ApiResult<impl IntoResponse> {
    let rows = store::workspaces::of_user(&state.db.pool, &user.user_id).await?;
    Ok(envelope::items(
        rows.into_iter()
            .map(|w| WorkspaceItem {
                current: w.id == user.workspace_id,
                role: Role::parse(&w.role).unwrap_or(Role::Reader),
                id: w.id,
                name: w.name,
            })
            .collect(),
    ))
}

/// `{"workspaceId": "…"}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SwitchBody {
    /// A workspace the caller belongs to (an id of `workspaces/all`; not blank).
    #[schema(pattern = "^[0-9A-Za-z_-]+$")]
    pub workspace_id: String,
}

/// Moves the caller's session to another of their workspaces and answers the user item
/// there (its role, connections and spend); the next sign-in opens this workspace.
/// Switching to the current workspace moves nothing. Any member; 404 for a workspace the caller does not belong to.
#[utoipa::path(post, path = "/api/workspaces/switch", tag = "team", request_body = SwitchBody,
    responses((status = 200, description = "The user in the workspace switched to", body = Envelope<Item<UserItem>>),
              (status = 400, description = "workspaceId missing or blank", body = ErrorBody),
              (status = 404, description = "Workspace not found: not one of the caller's", body = ErrorBody)))]
pub async fn switch(
    State(state): State<AppState>,
    caller: Member,
    ApiJson(body): ApiJson<SwitchBody>,
) -> ApiResult<impl IntoResponse> {
    let target = body.workspace_id.trim();
    if target.is_empty() {
        return Err(ApiError::field("workspaceId", crate::domain::REQUIRED));
    }
    if target != caller.workspace_id
        && !store::sessions::move_to_workspace(&state.db.pool, &caller.session_id, target).await?
    {
        return Err(ApiError::not_found(WORKSPACE));
    }
    store::users::set_last_workspace(&state.db.pool, &caller.user_id, target).await?;
    tracing::info!(user.id = %caller.user_id, workspace.id = %target, "workspace switched");
    Ok(envelope::item(
        user::load(&state, &caller.user_id, target).await?,
    ))
}
