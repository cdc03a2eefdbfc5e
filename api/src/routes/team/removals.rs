//! Removing members or revoking invitations (contract `docs/api/team.md`; `DELETE
//! team/one/{member|invitation}/{id}`, `team/many`): a removed member's sessions in the
//! workspace end and the unused invitations they sent are revoked, in one transaction with
//! its notification, under the role rules of the area, all or nothing.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    ids::now_ms,
    store::{self, activity::notifications, team::TeamMember},
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    members::{
        Changed, check_ids, check_may_change, check_owner_left, members_named,
        revoke_invitations_of, with_revoked,
    },
    notify,
};
use crate::{
    access::{InWorkspace, ManageRoles, Manager, TeamEntry, WorkspaceResource},
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath},
    session::CurrentUser,
    state::AppState,
};

/// `{"deleted": n, "revokedInvitations": [emails]}`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Deleted {
    pub deleted: u64,
    /// The unused invitations the removed members had sent, revoked with them (their
    /// emails; empty when revoking an invitation).
    pub revoked_invitations: Vec<String>,
}

/// Removes `members` (and their sessions in the workspace, and the unused invitations they
/// sent) in one transaction with its notification.
async fn remove_members(
    state: &AppState,
    caller: &CurrentUser,
    members: &[TeamMember],
) -> ApiResult<Changed> {
    for m in members {
        check_may_change(caller, m, None)?;
    }
    let mut tx = state.db.begin_write().await?;
    store::team::lock_workspace(&mut *tx, &caller.workspace_id).await?;
    let mut removed = Vec::new();
    let mut revoked = Vec::new();
    // Their open sessions' next request says who removed them from which workspace.
    let workspace = store::workspaces::name(&mut *tx, &caller.workspace_id)
        .await?
        .unwrap_or_default();
    let by = notifications::member_name(&mut *tx, &caller.user_id)
        .await?
        .map_or_else(|| caller.email.clone(), |(name, _)| name);
    let now = now_ms();
    for m in members {
        store::sessions::note_removal(
            &mut tx,
            &caller.workspace_id,
            &m.user_id,
            &workspace,
            &by,
            now,
        )
        .await?;
        if store::team::remove_member(&mut tx, &caller.workspace_id, &m.user_id).await? {
            revoked.extend(revoke_invitations_of(&mut tx, caller, m, None).await?);
            removed.push(m);
        }
    }
    check_owner_left(&mut tx, &caller.workspace_id).await?;
    let title = if let [one] = removed.as_slice() {
        Some(format!("{} removed", one.email))
    } else {
        (!removed.is_empty()).then(|| format!("{} members removed", removed.len()))
    };
    if let Some(title) = title {
        notify(&mut tx, caller, "DELETE", with_revoked(title, &revoked)).await?;
    }
    tx.commit().await?;
    Ok(Changed {
        count: removed.len() as u64,
        revoked_invitations: revoked,
    })
}

/// Removes a member (`{a}` = `member`, `{b}` their user id; their sessions in the workspace
/// end at once) or revokes an unused invitation, pending or expired (`{a}` = `invitation`,
/// `{b}` its id). Owners
/// and admins; an admin cannot remove an owner; the last owner cannot leave.
#[utoipa::path(delete, path = "/api/team/one/{a}/{b}", operation_id = "remove_member", tag = "team",
    params(("a" = String, Path, description = "What b is: member or invitation"),
           ("b" = String, Path, description = "A member's user id or an invitation's id")),
    responses((status = 200, description = "Removed or revoked", body = Envelope<Deleted>),
              (status = 400, description = "a is neither member nor invitation, or not what b names", body = ErrorBody),
              (status = 409, description = "LAST_OWNER: the workspace would have no owner", body = ErrorBody)))]
pub async fn remove(
    State(state): State<AppState>,
    entry: InWorkspace<TeamEntry, ManageRoles>,
    ApiPath((a, _b)): ApiPath<(String, String)>,
) -> ApiResult<impl IntoResponse> {
    let kind = crate::domain::one_of("a", &a, &["member", "invitation"])
        .map_err(|e| ApiError::validation(vec![e]))?;
    let caller = entry.caller.user();
    let deleted = match (kind, entry.item) {
        ("member", TeamEntry::Member(m)) => remove_members(&state, caller, &[m]).await?,
        ("invitation", TeamEntry::Invitation(i)) => {
            let mut tx = state.db.begin_write().await?;
            store::team::lock_workspace(&mut *tx, &caller.workspace_id).await?;
            let listed_after = now_ms() - store::team::EXPIRED_KEPT_MS;
            if !store::team::revoke(&mut *tx, &caller.workspace_id, &i.id, listed_after).await? {
                return Err(ApiError::not_found(TeamEntry::NAME));
            }
            notify(
                &mut tx,
                caller,
                "DELETE",
                format!("Invitation of {} revoked", i.email),
            )
            .await?;
            tx.commit().await?;
            Changed {
                count: 1,
                revoked_invitations: Vec::new(),
            }
        }
        _ => {
            return Err(ApiError::field("a", "Does not name what b is"));
        }
    };
    Ok(envelope::ok(Deleted {
        deleted: deleted.count,
        revoked_invitations: deleted.revoked_invitations,
    }))
}

/// `{"ids": […]}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct IdsBody {
    /// Member user ids (1–200, distinct).
    #[schema(min_items = 1, max_items = 200)]
    pub ids: Vec<String>,
}

/// Removes every named member, all or nothing, under the rules of `team/one/member/{id}`.
#[utoipa::path(delete, path = "/api/team/many", tag = "team", request_body = IdsBody,
    responses((status = 200, description = "How many were removed", body = Envelope<Deleted>),
              (status = 400, description = "Bad ids", body = ErrorBody),
              (status = 404, description = "An id is no member of the workspace", body = ErrorBody),
              (status = 409, description = "LAST_OWNER: the workspace would have no owner", body = ErrorBody)))]
pub async fn remove_many(
    State(state): State<AppState>,
    user: Manager,
    ApiJson(body): ApiJson<IdsBody>,
) -> ApiResult<impl IntoResponse> {
    check_ids(&body.ids)?;
    let members = members_named(&state, &user, &body.ids).await?;
    let removed = remove_members(&state, &user, &members).await?;
    Ok(envelope::ok(Deleted {
        deleted: removed.count,
        revoked_invitations: removed.revoked_invitations,
    }))
}
