//! "Sync now" for one connection (`POST account/sync/{id}`): a user who changed a bid in
//! Apple's own UI sees it in the tables and the activity log without waiting for the 3-hourly
//! sync. The sync is the periodic one (`sync-account`, then its reports), with a task in the
//! caller's background tasks like the first sync's; a request while a sync of the connection
//! runs joins it (the task's subject `sync:<account id>`), and a connection synced less than
//! [`SYNC_NOW_AFTER_MS`] ago answers 429 with when to try again.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    ids::now_ms,
    jobs::SyncAccount,
    tasks::{NewTask, Started},
};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{Account, EditRoles, InWorkspace},
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody},
    route,
    state::AppState,
};

/// A connection synced this recently is not synced again on request.
pub const SYNC_NOW_AFTER_MS: i64 = 2 * 60 * 1000;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(route!(sync_now))
}

/// The subject of a connection's sync tasks (one runs at a time per connection).
pub fn subject(account_id: &str) -> String {
    format!("sync:{account_id}")
}

/// `{"id": "<task id>", "joined": false}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SyncStarted {
    /// The sync's task (poll `tasks/{id}`).
    pub id: String,
    /// Whether a sync already running was joined.
    pub joined: bool,
}

/// Syncs the connection now: its entities, then its reports, as the periodic sync does.
/// Owners, admins and editors (who act on what they then see). A sync of it already running is joined; one finished less than 2 minutes ago
/// answers 429.
#[utoipa::path(post, path = "/api/account/sync/{id}", tag = "accounts",
    params(("id" = String, Path, description = "The connection")),
    responses((status = 200, description = "The sync's task, started or joined", body = Envelope<SyncStarted>),
              (status = 429, description = "Synced less than 2 minutes ago; try again later", body = ErrorBody)))]
pub async fn sync_now(
    State(state): State<AppState>,
    account: InWorkspace<Account, EditRoles>,
) -> ApiResult<impl IntoResponse> {
    let row = &account.item.0;
    let caller = &account.caller;
    let subject = subject(&row.id);
    // A running sync is joined whatever its age; only a new one is paced.
    let running =
        searchdeck_common::store::tasks::running_on(&state.db.pool, &caller.workspace_id, &subject)
            .await?;
    if running.is_none()
        && let Some(last) = row.last_synced_at
    {
        let wait = last + SYNC_NOW_AFTER_MS - now_ms();
        if wait > 0 {
            let seconds = (wait + 999) / 1000;
            return Err(ApiError::status(
                axum::http::StatusCode::TOO_MANY_REQUESTS,
                format!("This account was synced moments ago. Try again in {seconds} s"),
            ));
        }
    }
    let job = SyncAccount {
        account_id: row.id.clone(),
    };
    let started = state
        .start_or_join_task(
            &subject,
            NewTask {
                workspace_id: &caller.workspace_id,
                user_id: Some(&caller.user_id),
                kind: <SyncAccount as searchdeck_common::queue::Job>::KIND,
                message: "Syncing account",
                total_steps: 1,
                account_id: Some(&row.id),
                org_id: None,
            },
            &job,
        )
        .await
        .map_err(ApiError::from)?;
    Ok(envelope::ok(SyncStarted {
        joined: matches!(started, Started::Joined(_)),
        id: started.id().to_string(),
    }))
}
