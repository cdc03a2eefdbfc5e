//! Read and unread marks (`PATCH accountsActions/notifications/{type}`, `…/all`) for the calling member.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    Db,
    store::activity::notifications::{self},
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    access::Member,
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath},
    state::AppState,
};

/// `{"ids": [...]}` (1–500 notification ids); without `ids`, every notification.
#[derive(Debug, Deserialize, ToSchema)]
pub struct MarkBody {
    #[schema(min_items = 1, max_items = 500)]
    pub ids: Option<Vec<String>>,
}

/// `{"updated": n}`: how many changed state.
#[derive(Debug, Serialize, ToSchema)]
pub struct Marked {
    pub updated: u64,
}

/// Whether `{type}` marks read (`read`) or unread (`unread`).
fn read_of(kind: &str) -> ApiResult<bool> {
    match kind {
        "read" => Ok(true),
        "unread" => Ok(false),
        _ => Err(ApiError::field("type", "One of read, unread")),
    }
}

/// Marks the caller's workspace's notifications `ids` read (or unread) for the caller;
/// another workspace's or unknown ids are ignored. Without `ids`: every notification.
#[utoipa::path(patch, path = "/api/accountsActions/notifications/{type}", tag = "activity",
    params(("type" = String, Path, description = "`read` or `unread`", pattern = "^(read|unread)$")),
    request_body = MarkBody,
    responses((status = 200, description = "How many notifications changed state", body = Envelope<Marked>),
              (status = 400, description = "Invalid type or ids", body = ErrorBody)))]
pub async fn mark(
    State(state): State<AppState>,
    user: Member,
    ApiPath(kind): ApiPath<String>,
    ApiJson(body): ApiJson<MarkBody>,
) -> ApiResult<impl IntoResponse> {
    let read = read_of(&kind)?;
    let updated = match body.ids {
        None => mark_everything(&state, &user, read).await?,
        Some(ids) => {
            if ids.is_empty() || ids.len() > 500 {
                return Err(ApiError::field("ids", "Between 1 and 500 ids"));
            }
            let ids: Vec<String> = ids
                .into_iter()
                .filter(|id| !crate::input::has_control(id, false))
                .collect();
            let (pool, user, ids) = (&state.db.pool, &user, &ids);
            // Reads then writes: on SQLite a concurrent writer can end the transaction busy.
            Db::retry_busy(move || async move {
                let mut tx = searchdeck_common::db::begin_write(pool).await?;
                let n = notifications::mark(&mut tx, &user.workspace_id, &user.user_id, ids, read)
                    .await?;
                tx.commit().await?;
                Ok::<_, sqlx::Error>(n)
            })
            .await?
        }
    };
    Ok(envelope::ok(Marked { updated }))
}

async fn mark_everything(state: &AppState, user: &Member, read: bool) -> ApiResult<u64> {
    let pool = &state.db.pool;
    let n = Db::retry_busy(move || async move {
        let mut tx = searchdeck_common::db::begin_write(pool).await?;
        let n = notifications::mark_all(&mut tx, &user.workspace_id, &user.user_id, read).await?;
        tx.commit().await?;
        Ok::<_, sqlx::Error>(n)
    })
    .await?;
    Ok(n)
}

/// Marks every notification of the workspace read (or unread) for the caller.
#[utoipa::path(patch, path = "/api/accountsActions/notifications/{type}/all", tag = "activity",
    params(("type" = String, Path, description = "`read` or `unread`", pattern = "^(read|unread)$")),
    responses((status = 200, description = "How many notifications changed state", body = Envelope<Marked>),
              (status = 400, description = "Invalid type", body = ErrorBody)))]
pub async fn mark_all(
    State(state): State<AppState>,
    user: Member,
    ApiPath(kind): ApiPath<String>,
) -> ApiResult<impl IntoResponse> {
    let read = read_of(&kind)?;
    let updated = mark_everything(&state, &user, read).await?;
    Ok(envelope::ok(Marked { updated }))
}
