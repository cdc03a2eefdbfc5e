//! Changing members' roles (contract `docs/api/team.md` "Roles"), one by one and in bulk
//! (`PATCH team/one/{id}`, `team/many`), under the role rules of the area (an admin never
//! touches an owner, the last owner stays), all or nothing; and the checks a removal makes
//! too (`removals`).

use std::collections::HashSet;

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use searchdeck_common::store::{self, team::TeamMember};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    ADMIN_VS_OWNER, LAST_OWNER, MemberItem, ONLY_OWNER_MAKES_OWNER, TEAM_IDS_MAX, member_item,
    notify, parse_role, role_name,
};
use crate::{
    access::{InWorkspace, ManageRoles, Manager, Teammate, WorkspaceResource},
    domain::REQUIRED,
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::ApiJson,
    input::{CONTROL_CHARACTERS, DUPLICATE, has_control},
    session::{CurrentUser, Role},
    state::AppState,
};

/// `{"role": "admin"}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RoleBody {
    /// owner, admin, writer or reader.
    #[schema(value_type = Role)]
    pub role: String,
}

/// Refuses `caller` changing or removing `target` (to `new_role`, for a role change) when a
/// rule forbids it: an admin touching an owner, or making one.
pub(super) fn check_may_change(
    caller: &CurrentUser,
    target: &TeamMember,
    new_role: Option<Role>,
) -> ApiResult<()> {
    if caller.role == Role::Owner {
        return Ok(());
    }
    if target.role == Role::Owner.as_str() {
        return Err(ApiError::status(StatusCode::FORBIDDEN, ADMIN_VS_OWNER));
    }
    if new_role == Some(Role::Owner) {
        return Err(ApiError::status(
            StatusCode::FORBIDDEN,
            ONLY_OWNER_MAKES_OWNER,
        ));
    }
    Ok(())
}

/// 409 `LAST_OWNER` when the transaction's changes left the workspace without an owner
/// (the caller drops the transaction, which rolls them back).
pub(super) async fn check_owner_left(
    ex: &mut sqlx::AnyConnection,
    workspace_id: &str,
) -> ApiResult<()> {
    if store::team::owners(&mut *ex, workspace_id).await? == 0 {
        return Err(ApiError::status(StatusCode::CONFLICT, LAST_OWNER));
    }
    Ok(())
}

/// Sets `members`' role to `role` in one transaction with its notification (and revokes
/// the invitations they may no longer send).
async fn set_roles(
    state: &AppState,
    caller: &CurrentUser,
    members: &[TeamMember],
    role: Role,
) -> ApiResult<Changed> {
    for m in members {
        check_may_change(caller, m, Some(role))?;
    }
    let mut tx = state.db.begin_write().await?;
    store::team::lock_workspace(&mut *tx, &caller.workspace_id).await?;
    let mut changed = Vec::new();
    let mut revoked = Vec::new();
    for m in members {
        if store::team::set_role(&mut *tx, &caller.workspace_id, &m.user_id, role.as_str()).await? {
            revoked.extend(revoke_invitations_of(&mut tx, caller, m, Some(role)).await?);
            changed.push(m);
        }
    }
    check_owner_left(&mut tx, &caller.workspace_id).await?;
    let title = if let [one] = changed.as_slice() {
        Some(format!(
            "Role of {} changed to {}",
            one.email,
            role_name(role)
        ))
    } else {
        (!changed.is_empty()).then(|| {
            format!(
                "{} members' roles changed to {}",
                changed.len(),
                role_name(role)
            )
        })
    };
    if let Some(title) = title {
        notify(&mut tx, caller, "UPDATE", with_revoked(title, &revoked)).await?;
    }
    tx.commit().await?;
    Ok(Changed {
        count: changed.len() as u64,
        revoked_invitations: revoked,
    })
}

/// What a role change or removal did: how many members it changed and the invitations they
/// had sent that it revoked (their emails).
pub(super) struct Changed {
    pub(super) count: u64,
    pub(super) revoked_invitations: Vec<String>,
}

/// Revokes the unused invitations `member` sent that they may no longer send: all of them
/// when removed (`new_role` None) or demoted to a role that cannot invite, the owner
/// invitations when an owner becomes an admin. Returns the invited emails.
pub(super) async fn revoke_invitations_of(
    tx: &mut sqlx::AnyConnection,
    caller: &CurrentUser,
    member: &TeamMember,
    new_role: Option<Role>,
) -> ApiResult<Vec<String>> {
    let roles: Option<&[&str]> = match new_role {
        None | Some(Role::Writer | Role::Reader) => None,
        Some(Role::Admin) => Some(&["owner"]),
        Some(Role::Owner) => return Ok(Vec::new()),
    };
    Ok(store::team::revoke_sent_by(tx, &caller.workspace_id, &member.user_id, roles).await?)
}

/// A notification title that also names the invitations revoked with the change.
pub(super) fn with_revoked(title: String, revoked: &[String]) -> String {
    match revoked {
        [] => title,
        [one] => format!("{title}; the invitation they sent to {one} revoked"),
        many => format!(
            "{title}; the {} invitations they sent revoked ({})",
            many.len(),
            many.join(", ")
        ),
    }
}

/// Sets member `{id}`'s role. Owners and admins; an admin cannot change an owner nor make
/// one; the last owner cannot be demoted.
#[utoipa::path(patch, path = "/api/team/one/{id}", tag = "team", request_body = RoleBody,
    params(("id" = String, Path, description = "The member's user id")),
    responses((status = 200, description = "The member with the new role", body = Envelope<envelope::Item<MemberItem>>),
              (status = 400, description = "Not a role", body = ErrorBody),
              (status = 409, description = "LAST_OWNER: the workspace would have no owner", body = ErrorBody)))]
pub async fn change_role(
    State(state): State<AppState>,
    target: InWorkspace<Teammate, ManageRoles>,
    ApiJson(body): ApiJson<RoleBody>,
) -> ApiResult<impl IntoResponse> {
    let role = parse_role("role", &body.role)?;
    let caller = target.caller.user();
    set_roles(&state, caller, std::slice::from_ref(&target.item.0), role).await?;
    // (The invitations the change revoked are in its activity entry and in team/all.)
    let now = store::team::member(&state.db.pool, &caller.workspace_id, &target.item.0.user_id)
        .await?
        .ok_or_else(|| ApiError::not_found(Teammate::NAME))?;
    Ok(envelope::item(member_item(now, caller)))
}

/// `{"ids": […], "role": "reader"}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RolesBody {
    /// Member user ids (1–200, distinct).
    #[schema(min_items = 1, max_items = 200)]
    pub ids: Vec<String>,
    /// owner, admin, writer or reader.
    #[schema(value_type = Role)]
    pub role: String,
}

/// `{"updated": n, "revokedInvitations": [emails]}`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Updated {
    pub updated: u64,
    /// The unused invitations the demoted members had sent that they may no longer send,
    /// revoked with the change (their emails).
    pub revoked_invitations: Vec<String>,
}

/// Checks a bulk id list (1–200 distinct non-blank ids without control characters).
pub(super) fn check_ids(ids: &[String]) -> ApiResult<()> {
    if ids.is_empty() {
        return Err(ApiError::field("ids", REQUIRED));
    }
    if ids.len() > TEAM_IDS_MAX {
        return Err(ApiError::field(
            "ids",
            &format!("At most {TEAM_IDS_MAX} ids"),
        ));
    }
    let mut seen = HashSet::new();
    let mut errors = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let field = format!("ids.{i}");
        if id.trim().is_empty() {
            errors.push(FieldError::new(&field, REQUIRED));
        } else if has_control(id, false) {
            errors.push(FieldError::new(&field, CONTROL_CHARACTERS));
        } else if !seen.insert(id.as_str()) {
            errors.push(FieldError::new(&field, DUPLICATE));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ApiError::validation(errors))
    }
}

/// The members named by `ids`, every one of them, or 404.
pub(super) async fn members_named(
    state: &AppState,
    caller: &CurrentUser,
    ids: &[String],
) -> ApiResult<Vec<TeamMember>> {
    let found = store::team::members_among(&state.db.pool, &caller.workspace_id, ids).await?;
    if found.len() != ids.len() {
        return Err(ApiError::not_found(Teammate::NAME));
    }
    Ok(found)
}

/// Sets every named member's role, all or nothing. Owners and admins, under the rules of
/// `team/one/{id}`.
#[utoipa::path(patch, path = "/api/team/many", tag = "team", request_body = RolesBody,
    responses((status = 200, description = "How many roles changed", body = Envelope<Updated>),
              (status = 400, description = "Bad ids or role", body = ErrorBody),
              (status = 404, description = "An id is no member of the workspace", body = ErrorBody),
              (status = 409, description = "LAST_OWNER: the workspace would have no owner", body = ErrorBody)))]
pub async fn change_roles(
    State(state): State<AppState>,
    user: Manager,
    ApiJson(body): ApiJson<RolesBody>,
) -> ApiResult<impl IntoResponse> {
    check_ids(&body.ids)?;
    let role = parse_role("role", &body.role)?;
    let members = members_named(&state, &user, &body.ids).await?;
    let changed = set_roles(&state, &user, &members, role).await?;
    Ok(envelope::ok(Updated {
        updated: changed.count,
        revoked_invitations: changed.revoked_invitations,
    }))
}
