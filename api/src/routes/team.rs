//! The team of a workspace (contract `docs/api/team.md`; spec §2 settings team, §6 roles):
//! owners and admins list the members with their role and last activity and the pending
//! invitations (`team/all`), invite by email with a role (`POST team/one/{email}/{role}`,
//! the code emailed through the outbox), change roles (`PATCH team/one/{id}`, `team/many`),
//! remove members or revoke invitations (`DELETE team/one/{member|invitation}/{id}`,
//! `team/many`) and write to a teammate (`POST emails/one/{email}`). Any signed-in user
//! accepts an invitation sent to their email (`POST team/checkCode`), lists the roles
//! (`permission/all`) and the workspace's members (`users/all`).
//!
//! The role rules hold on every route: an admin cannot change or remove an owner nor make
//! one; the last owner cannot leave, be removed or be demoted (counted inside the
//! transaction, under the workspace's lock); bulk changes are all or nothing. Removing a
//! member ends their sessions in the workspace in the same transaction. Every change is one
//! activity-log notification (tag `team`, key `team:<new id>`) written with it.

use std::collections::HashSet;

use axum::{Json, extract::State, http::StatusCode, response::IntoResponse};
use rand::Rng;
use searchdeck_common::{
    email::OutgoingEmail,
    ids::{new_id, now_ms},
    store::{
        self, notifications,
        team::{Invitation, NewInvitation, TeamMember},
    },
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{InWorkspace, ManageRoles, Manager, Member, TeamEntry, Teammate, WorkspaceResource},
    domain::{Email, REQUIRED},
    envelope::{self, Envelope, Items, SUCCESS_MESSAGE},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiPath},
    input::{CONTROL_CHARACTERS, DUPLICATE, has_control},
    recovery::CODE_ALPHABET,
    route,
    session::{CurrentUser, Role, hash_token},
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(all))
        .routes(route!(invite))
        .routes(route!(change_role))
        .routes(route!(change_roles))
        .routes(route!(check_code))
        .routes(route!(offer))
        .routes(route!(remove))
        .routes(route!(remove_many))
        .routes(route!(permissions))
        .routes(route!(users))
        .routes(route!(send_message))
}

/// How long an invitation stays valid.
pub const INVITATION_TTL_MS: i64 = 7 * 24 * 60 * 60 * 1000;
/// Letters of an invitation code (of the recovery codes' alphabet: about 100 bits).
pub const INVITATION_CODE_LEN: usize = 20;
/// Ids of one bulk change, at most.
pub const TEAM_IDS_MAX: usize = 200;

/// 403: an admin touching an owner.
pub const ADMIN_VS_OWNER: &str = "An admin cannot change an owner";
/// 403: an admin making an owner.
pub const ONLY_OWNER_MAKES_OWNER: &str = "Only an owner can make an owner";
/// 409: the change would leave the workspace without an owner.
pub const LAST_OWNER: &str = "LAST_OWNER";
/// 409: the email is already a member.
pub const ALREADY_A_MEMBER: &str = "ALREADY_A_MEMBER";
/// 400 `code`: no such invitation (or revoked, or replaced by a resend).
pub const CODE_INVALID: &str = "This invitation code is not valid";
/// 400 `code`: used already.
pub const CODE_USED: &str = "This invitation has already been used";
/// 400 `code`: expired.
pub const CODE_EXPIRED: &str = "This invitation has expired";
/// 400 `code`: sent to someone else.
pub const CODE_OTHER_EMAIL: &str = "This invitation was sent to another email address";

const ROLES: &[&str] = &["owner", "admin", "writer", "reader"];

/// A role as the screen shows it (spec §6: writer is Editor, reader is Viewer).
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Owner => "Owner",
        Role::Admin => "Admin",
        Role::Writer => "Editor",
        Role::Reader => "Viewer",
    }
}

fn parse_role(field: &str, raw: &str) -> ApiResult<Role> {
    let r = crate::domain::one_of(field, raw, ROLES).map_err(|e| ApiError::validation(vec![e]))?;
    Ok(Role::parse(r).unwrap_or(Role::Reader))
}

/// A stored role (the schema admits the four only).
fn stored_role(raw: &str) -> Role {
    Role::parse(raw).unwrap_or(Role::Reader)
}

fn secs(ms: i64) -> i64 {
    ms.div_euclid(1000)
}

/// A member as `team/all` lists them.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemberItem {
    /// The member's user id.
    pub id: String,
    pub email: String,
    pub full_name: String,
    pub role: Role,
    /// The member's last request in this workspace (Unix seconds), null without a live
    /// session here.
    pub last_active: Option<i64>,
    /// When they joined (Unix seconds).
    pub joined_at: i64,
    /// Whether this is the caller.
    pub you: bool,
}

fn member_item(m: TeamMember, caller: &CurrentUser) -> MemberItem {
    MemberItem {
        you: m.user_id == caller.user_id,
        role: stored_role(&m.role),
        last_active: m.last_active.map(secs),
        joined_at: secs(m.joined_at),
        id: m.user_id,
        email: m.email,
        full_name: m.full_name,
    }
}

/// An unused invitation: pending, or expired within the last 30 days (`expired`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvitationItem {
    pub id: String,
    pub email: String,
    pub role: Role,
    /// The inviter's email (null once they are gone).
    pub invited_by: Option<String>,
    /// Unix seconds.
    pub created_at: i64,
    pub expires_at: i64,
    /// Whether it has expired (its code no longer works; resend or revoke it).
    pub expired: bool,
}

fn invitation_item(i: Invitation, now: i64) -> InvitationItem {
    InvitationItem {
        expired: i.expires_at <= now,
        role: stored_role(&i.role),
        created_at: secs(i.created_at),
        expires_at: secs(i.expires_at),
        id: i.id,
        email: i.email,
        invited_by: i.invited_by,
    }
}

/// The members and unused invitations.
#[derive(Debug, Serialize, ToSchema)]
pub struct TeamList {
    pub items: Vec<MemberItem>,
    pub invitations: Vec<InvitationItem>,
}

/// The members (oldest first) with role and last activity, and the unused invitations
/// (newest first): pending ones and those expired within the last 30 days, marked
/// `expired` (the clean-up deletes them after that). Owners and admins.
#[utoipa::path(get, path = "/api/team/all", operation_id = "team_all", tag = "team",
    responses((status = 200, description = "The team", body = Envelope<TeamList>)))]
pub async fn all(State(state): State<AppState>, user: Manager) -> ApiResult<impl IntoResponse> {
    let members = store::team::members(&state.db.pool, &user.workspace_id).await?;
    let now = now_ms();
    let listed_after = now - store::team::EXPIRED_KEPT_MS;
    let invitations = store::team::unused(&state.db.pool, &user.workspace_id, listed_after).await?;
    Ok(envelope::ok(TeamList {
        items: members.into_iter().map(|m| member_item(m, &user)).collect(),
        invitations: invitations
            .into_iter()
            .map(|i| invitation_item(i, now))
            .collect(),
    }))
}

/// Writes a team notification in `ex`'s transaction: by `caller`, `action` CREATE, UPDATE or
/// DELETE, with `title`.
async fn notify(
    ex: &mut sqlx::AnyConnection,
    caller: &CurrentUser,
    action: &str,
    title: String,
) -> Result<String, sqlx::Error> {
    let source_name = notifications::member_name(&mut *ex, &caller.user_id)
        .await?
        .map_or_else(|| caller.email.clone(), |(name, _)| name);
    let n = notifications::NewNotification {
        workspace_id: caller.workspace_id.clone(),
        key: format!("team:{}", new_id()),
        tag: notifications::TAG_TEAM,
        kind: notifications::TYPE_CHANGE,
        title,
        action: action.into(),
        target: "MEMBER".into(),
        source: notifications::SOURCE_USER,
        source_name,
        user_id: Some(caller.user_id.clone()),
        email: Some(caller.email.clone()),
        rule_id: None,
        account_id: None,
        org_id: None,
        undo_of: None,
        created_at: secs(now_ms()),
    };
    notifications::record(ex, &n).await
}

/// A fresh invitation code.
fn new_code() -> String {
    let mut rng = rand::rng();
    (0..INVITATION_CODE_LEN)
        .map(|_| CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())] as char)
        .collect()
}

/// The invitation email's text.
fn invitation_body(
    public_url: &str,
    inviter: &str,
    workspace: &str,
    role: Role,
    email: &str,
    code: &str,
) -> String {
    let base = public_url.trim_end_matches('/');
    format!(
        "{inviter} invited you to join {workspace} on Searchdeck as {role}.\n\n\
         Open {link} and sign in or register with {email}, or enter the \
         code {code}. It is valid for 7 days and can be used once.\n\
         If you did not expect it, ignore this email.",
        role = role_name(role),
        link = invitation_link(base, email, code),
    )
}

/// The link of an invitation email: the web app's `/invite` screen (frontend
/// `features/team`), with the invited email (to prefill sign-in or register) and the code
/// last, so the code ends the link.
pub fn invitation_link(base: &str, email: &str, code: &str) -> String {
    let query = form_urlencoded::Serializer::new(String::new())
        .append_pair("email", email)
        .append_pair("code", code)
        .finish();
    format!("{}/invite?{query}", base.trim_end_matches('/'))
}

/// Invites `{a}` (an email) with role `{b}`: stores the invitation (replacing an unused one,
/// pending or expired, for the same email: a resend) and emails its code. Owners and admins; only an owner
/// invites an owner.
#[utoipa::path(post, path = "/api/team/one/{a}/{b}", tag = "team",
    params(("a" = String, Path, description = "The email address to invite"),
           ("b" = String, Path, description = "The role: owner, admin, writer or reader")),
    responses((status = 201, description = "The invitation, emailed", body = Envelope<envelope::Item<InvitationItem>>),
              (status = 400, description = "Not an email (a) or not a role (b)", body = ErrorBody),
              (status = 409, description = "ALREADY_A_MEMBER: the email is a member already", body = ErrorBody)))]
pub async fn invite(
    State(state): State<AppState>,
    user: Manager,
    ApiPath((a, b)): ApiPath<(String, String)>,
) -> ApiResult<impl IntoResponse> {
    let email = Email::parse(&a).map_err(|m| ApiError::field("a", m))?;
    let role = parse_role("b", &b)?;
    if role == Role::Owner && user.role != Role::Owner {
        return Err(ApiError::status(
            StatusCode::FORBIDDEN,
            ONLY_OWNER_MAKES_OWNER,
        ));
    }
    let pool = &state.db.pool;
    if store::team::is_member_email(pool, &user.workspace_id, email.as_str()).await? {
        return Err(ApiError::status(StatusCode::CONFLICT, ALREADY_A_MEMBER));
    }
    let (code, id, now) = (new_code(), new_id(), now_ms());
    let code_hash = hash_token(&code);
    let mut tx = searchdeck_common::db::begin_write(pool).await?;
    store::team::lock_workspace(&mut *tx, &user.workspace_id).await?;
    let row = NewInvitation {
        id: &id,
        workspace_id: &user.workspace_id,
        email: email.as_str(),
        role: role.as_str(),
        code_hash: &code_hash,
        invited_by: &user.user_id,
        now,
        expires_at: now + INVITATION_TTL_MS,
    };
    store::team::replace_unused(&mut tx, row).await?;
    let title = format!("{} invited as {}", email.as_str(), role_name(role));
    notify(&mut tx, &user, "CREATE", title).await?;
    let inviter = notifications::member_name(&mut *tx, &user.user_id)
        .await?
        .map_or_else(|| user.email.clone(), |(name, _)| name);
    let workspace = store::workspaces::name(&mut *tx, &user.workspace_id)
        .await?
        .unwrap_or_default();
    let stored = store::team::unused_one(&mut *tx, &user.workspace_id, &id, now)
        .await?
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("invitation {id} not stored")))?;
    tx.commit().await?;
    let message = OutgoingEmail {
        to: email.as_str().to_string(),
        subject: format!("Invitation to {workspace} on Searchdeck"),
        body: invitation_body(
            &state.config.public_url,
            &inviter,
            &workspace,
            role,
            email.as_str(),
            &code,
        ),
    };
    state.send_email(message).await?;
    tracing::info!(invitation.id = %id, "team invitation sent");
    Ok((
        StatusCode::CREATED,
        Json(Envelope {
            status: 201,
            message: SUCCESS_MESSAGE.into(),
            result: envelope::Item {
                item: invitation_item(stored, now),
            },
        }),
    ))
}

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
fn check_may_change(
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
async fn check_owner_left(ex: &mut sqlx::AnyConnection, workspace_id: &str) -> ApiResult<()> {
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
struct Changed {
    count: u64,
    revoked_invitations: Vec<String>,
}

/// Revokes the unused invitations `member` sent that they may no longer send: all of them
/// when removed (`new_role` None) or demoted to a role that cannot invite, the owner
/// invitations when an owner becomes an admin. Returns the invited emails.
async fn revoke_invitations_of(
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
fn with_revoked(title: String, revoked: &[String]) -> String {
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

/// `{"deleted": n, "revokedInvitations": [emails]}`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Deleted {
    pub deleted: u64,
    /// The unused invitations the removed members had sent, revoked with them (their
    /// emails; empty when revoking an invitation).
    pub revoked_invitations: Vec<String>,
}

/// Checks a bulk id list (1–200 distinct non-blank ids without control characters).
fn check_ids(ids: &[String]) -> ApiResult<()> {
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
async fn members_named(
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

/// `{"code": "…"}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeBody {
    /// The invitation code from the email.
    pub code: String,
}

/// An invitation code as sent: trimmed and upper-cased; a blank one is a field error.
fn code_of(raw: &str) -> Result<String, ApiError> {
    let code = raw.trim().to_ascii_uppercase();
    if code.is_empty() {
        return Err(ApiError::field("code", REQUIRED));
    }
    Ok(code)
}

/// Why a found invitation can no longer be used at `now` (used, expired), if it cannot.
fn unusable(inv: &store::team::Invitation, now: i64) -> Option<&'static str> {
    if inv.used_at.is_some() {
        Some(CODE_USED)
    } else if inv.expires_at <= now {
        Some(CODE_EXPIRED)
    } else {
        None
    }
}

/// The workspace joined.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Joined {
    pub workspace_id: String,
    pub workspace_name: String,
    pub role: Role,
}

/// Accepts an invitation sent to the caller's email: the code is used up and the caller
/// becomes a member of its workspace with its role (the session stays where it is).
#[utoipa::path(post, path = "/api/team/checkCode", operation_id = "accept_invitation", tag = "team", request_body = CodeBody,
    responses((status = 200, description = "The workspace joined", body = Envelope<Joined>),
              (status = 400, description = "The code is not valid, used, expired or sent to another email", body = ErrorBody),
              (status = 429, description = "Too many wrong codes; try again later", body = ErrorBody),
              (status = 409, description = "ALREADY_A_MEMBER: the caller is a member already", body = ErrorBody)))]
pub async fn check_code(
    State(state): State<AppState>,
    user: Member,
    crate::extract::ClientIp(ip): crate::extract::ClientIp,
    ApiJson(body): ApiJson<CodeBody>,
) -> ApiResult<impl IntoResponse> {
    let code = code_of(&body.code)?;
    // Wrong codes are throttled as wrong passwords are: per user strictly, per address
    // loosely; a code that is found gives its slots back.
    let per_user = state
        .throttles
        .invitation_user
        .attempt(user.user_id.clone())?;
    let per_ip = state.throttles.code_ip.attempt(ip)?;
    let pool = &state.db.pool;
    let invalid = |m: &str| ApiError::field("code", m);
    let now = now_ms();
    let Some(inv) = store::team::by_code_hash(pool, &hash_token(&code)).await? else {
        return Err(invalid(CODE_INVALID));
    };
    per_user.succeeded();
    per_ip.succeeded();
    if let Some(why) = unusable(&inv, now) {
        return Err(invalid(why));
    }
    if inv.email != user.email {
        return Err(invalid(CODE_OTHER_EMAIL));
    }
    if store::team::member(pool, &inv.workspace_id, &user.user_id)
        .await?
        .is_some()
    {
        return Err(ApiError::status(StatusCode::CONFLICT, ALREADY_A_MEMBER));
    }
    let role = stored_role(&inv.role);
    let mut tx = searchdeck_common::db::begin_write(pool).await?;
    store::team::lock_workspace(&mut *tx, &inv.workspace_id).await?;
    if !store::team::consume(&mut *tx, &inv.id, &user.user_id, now).await? {
        return Err(invalid(CODE_USED));
    }
    store::workspaces::add_member(
        &mut *tx,
        &inv.workspace_id,
        &user.user_id,
        role.as_str(),
        now,
    )
    .await?;
    // The notification is the invitation's workspace's, by the member who joined.
    let joined = CurrentUser {
        workspace_id: inv.workspace_id.clone(),
        role,
        ..user.user().clone()
    };
    let title = format!("{} joined as {}", user.email, role_name(role));
    notify(&mut tx, &joined, "CREATE", title).await?;
    let workspace_name = store::workspaces::name(&mut *tx, &inv.workspace_id)
        .await?
        .unwrap_or_default();
    tx.commit().await?;
    Ok(envelope::ok(Joined {
        workspace_id: inv.workspace_id,
        workspace_name,
        role,
    }))
}

/// `{"email": "…", "code": "…"}`: the two halves of an invitation link.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InvitationLink {
    /// The invited email, as the link carries it.
    #[schema(format = Email, max_length = 254)]
    pub email: String,
    /// The invitation code from the email: letters and digits, case-insensitive, spaces
    /// around it trimmed.
    #[schema(pattern = "^ *[A-Za-z0-9]+ *$")]
    pub code: String,
}

/// What an invitation offers, for the invite screen before its reader has signed in.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvitationOffer {
    /// The workspace the invitation joins.
    pub workspace_name: String,
    /// Who sent it: their name, else their email; null once they are gone.
    pub inviter: Option<String>,
    pub role: Role,
    /// Until when it can be used (unix seconds, as the invitations list answers it).
    pub expires_at: i64,
}

/// What the invitation of a link offers — the workspace, who sent it, the role — so that the
/// invite screen names them before its reader signs in or registers. Anyone may ask, with the
/// link's email and code both right (a wrong pair answers as an unknown code, saying nothing
/// of the invitation); wrong codes are throttled per address as `team/checkCode`'s are.
/// Nothing changes: accepting is `team/checkCode`, signed in. A lookup, so an invitation not
/// found is 404 and one used or expired 410, each with the code's message.
#[utoipa::path(post, path = "/api/team/invitation", operation_id = "invitation_offer", tag = "team", request_body = InvitationLink,
    responses((status = 200, description = "What the invitation offers", body = Envelope<InvitationOffer>),
              (status = 400, description = "No code, or not an email", body = ErrorBody),
              (status = 404, description = "No invitation with this code for this email: 'This invitation code is not valid'", body = ErrorBody),
              (status = 410, description = "Used or expired: 'This invitation has already been used', 'This invitation has expired'", body = ErrorBody),
              (status = 429, description = "Too many wrong codes; try again later", body = ErrorBody)))]
pub async fn offer(
    State(state): State<AppState>,
    crate::extract::ClientIp(ip): crate::extract::ClientIp,
    ApiJson(body): ApiJson<InvitationLink>,
) -> ApiResult<impl IntoResponse> {
    let code = code_of(&body.code)?;
    let email = Email::parse(&body.email).map_err(|m| ApiError::field("email", m))?;
    let per_ip = state.throttles.code_ip.attempt(ip)?;
    let pool = &state.db.pool;
    let found = store::team::by_code_hash(pool, &hash_token(&code)).await?;
    let Some(inv) = found.filter(|inv| inv.email == email.as_str()) else {
        return Err(ApiError::status(StatusCode::NOT_FOUND, CODE_INVALID));
    };
    per_ip.succeeded();
    if let Some(why) = unusable(&inv, now_ms()) {
        return Err(ApiError::status(StatusCode::GONE, why));
    }
    let workspace_name = store::workspaces::name(pool, &inv.workspace_id)
        .await?
        .unwrap_or_default();
    let inviter = match (inv.invited_by_name, inv.invited_by) {
        (Some(name), _) if !name.trim().is_empty() => Some(name),
        (_, email) => email,
    };
    Ok(envelope::ok(InvitationOffer {
        workspace_name,
        inviter,
        role: stored_role(&inv.role),
        expires_at: secs(inv.expires_at),
    }))
}

/// A role and what it may do.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Permission {
    pub role: Role,
    /// Owner, Admin, Editor or Viewer.
    pub name: &'static str,
    pub can_edit: bool,
    pub can_manage_team: bool,
    pub can_manage_owners: bool,
}

/// The roles and the caller's own.
#[derive(Debug, Serialize, ToSchema)]
pub struct Permissions {
    pub items: Vec<Permission>,
    pub current: Role,
}

/// The roles, what each may do, and the caller's role. Any member.
#[utoipa::path(get, path = "/api/permission/all", tag = "team",
    responses((status = 200, description = "The roles", body = Envelope<Permissions>)))]
pub async fn permissions(user: Member) -> ApiResult<impl IntoResponse> {
    use crate::access::{EditRoles, Policy};
    let items = [Role::Owner, Role::Admin, Role::Writer, Role::Reader]
        .into_iter()
        .map(|role| Permission {
            role,
            name: role_name(role),
            can_edit: EditRoles::ROLES.contains(&role),
            can_manage_team: ManageRoles::ROLES.contains(&role),
            can_manage_owners: role == Role::Owner,
        })
        .collect();
    Ok(envelope::ok(Permissions {
        items,
        current: user.role,
    }))
}

/// A member as any member sees them.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TeammateItem {
    pub id: String,
    pub email: String,
    pub full_name: String,
    pub role: Role,
}

/// The workspace's members, oldest first. Any member.
#[utoipa::path(get, path = "/api/users/all", tag = "team",
    responses((status = 200, description = "The members", body = Envelope<Items<TeammateItem>>)))]
pub async fn users(State(state): State<AppState>, user: Member) -> ApiResult<impl IntoResponse> {
    let members = store::team::members(&state.db.pool, &user.workspace_id).await?;
    Ok(envelope::items(
        members
            .into_iter()
            .map(|m| TeammateItem {
                role: stored_role(&m.role),
                id: m.user_id,
                email: m.email,
                full_name: m.full_name,
            })
            .collect(),
    ))
}

/// `{"name": "Bob", "text": "…"}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MessageBody {
    /// The greeting's name (1–100 characters).
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
    /// The message (1–5,000 characters).
    #[schema(min_length = 1, max_length = 5000)]
    pub text: String,
}

/// `{"status": "ok"}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Sent {
    pub status: &'static str,
}

/// Checks a message field: trimmed, 1 to `max` characters, no control characters other than
/// line breaks where `breaks`.
fn message_field(
    errors: &mut Vec<FieldError>,
    field: &str,
    raw: &str,
    max: usize,
    breaks: bool,
) -> String {
    let value = raw.trim();
    if value.is_empty() {
        errors.push(FieldError::new(field, REQUIRED));
    } else if value.chars().count() > max {
        errors.push(FieldError::new(field, format!("At most {max} characters")));
    } else if has_control(value, breaks) {
        errors.push(FieldError::new(field, CONTROL_CHARACTERS));
    }
    value.to_string()
}

/// Emails a message to a member or a pending invitee of the workspace (no other address:
/// 404). Owners and admins.
#[utoipa::path(post, path = "/api/emails/one/{email}", tag = "team", request_body = MessageBody,
    params(("email" = String, Path, description = "A member's or a pending invitee's email")),
    responses((status = 202, description = "The email is queued", body = Envelope<Sent>),
              (status = 400, description = "Not an email, or a bad name or text", body = ErrorBody),
              (status = 404, description = "No member or pending invitee has this email", body = ErrorBody)))]
pub async fn send_message(
    State(state): State<AppState>,
    user: Manager,
    ApiPath(email): ApiPath<String>,
    ApiJson(body): ApiJson<MessageBody>,
) -> ApiResult<impl IntoResponse> {
    let to = Email::parse(&email).map_err(|m| ApiError::field("email", m))?;
    let mut errors = Vec::new();
    let name = message_field(&mut errors, "name", &body.name, 100, false);
    let text = message_field(&mut errors, "text", &body.text, 5_000, true);
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let pool = &state.db.pool;
    let known = store::team::is_member_email(pool, &user.workspace_id, to.as_str()).await?
        || store::team::is_invited(pool, &user.workspace_id, to.as_str(), now_ms()).await?;
    if !known {
        return Err(ApiError::not_found(Teammate::NAME));
    }
    let sender = notifications::member_name(pool, &user.user_id)
        .await?
        .map_or_else(|| user.email.clone(), |(name, _)| name);
    let message = OutgoingEmail {
        to: to.as_str().to_string(),
        subject: format!("{sender} sent you a message on Searchdeck"),
        body: format!(
            "Hi {name},\n\n{text}\n\n— {sender} ({email}), through Searchdeck",
            email = user.email
        ),
    };
    state.send_email(message).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(Envelope {
            status: 202,
            message: SUCCESS_MESSAGE.into(),
            result: Sent { status: "ok" },
        }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_long_and_of_the_alphabet() {
        let c = new_code();
        assert_eq!(c.len(), INVITATION_CODE_LEN);
        assert!(c.bytes().all(|b| CODE_ALPHABET.contains(&b)));
        assert_ne!(new_code(), c);
    }

    #[test]
    fn the_link_carries_the_email_and_ends_with_the_code() {
        assert_eq!(
            invitation_link("https://app.example/", "bob+1@example.com", "ABCD"),
            "https://app.example/invite?email=bob%2B1%40example.com&code=ABCD"
        );
    }

    #[test]
    fn bulk_ids_are_checked() {
        assert!(check_ids(&[]).is_err());
        assert!(check_ids(&["a".into(), "a".into()]).is_err());
        assert!(check_ids(&[" ".into()]).is_err());
        let many: Vec<String> = (0..=TEAM_IDS_MAX).map(|i| i.to_string()).collect();
        assert!(check_ids(&many).is_err());
        assert!(check_ids(&["a".into(), "b".into()]).is_ok());
    }
}
