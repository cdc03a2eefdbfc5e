//! The team of a workspace (contract `docs/api/team.md`; docs/product.md#2-url-paths-and-access
//! settings team, docs/product.md#6-roles-and-route-limits): owners and admins list the members
//! with their role and last activity and the pending invitations (`team/all`), invite by email with
//! a role (`POST team/one/{email}/{role}`, the code emailed through the outbox), change roles
//! (`PATCH team/one/{id}`, `team/many`), remove members or revoke invitations
//! (`DELETE team/one/{member|invitation}/{id}`, `team/many`) and write to a teammate
//! (`POST emails/one/{email}`). Any signed-in user accepts an invitation sent to their email
//! (`POST team/checkCode`), lists the roles (`permission/all`) and the workspace's members
//! (`users/all`).
//!
//! The role rules hold on every route: an admin cannot change or remove an owner nor make
//! one; the last owner cannot leave, be removed or be demoted (counted inside the
//! transaction, under the workspace's lock); bulk changes are all or nothing. Removing a
//! member ends their sessions in the workspace in the same transaction. Every change is one
//! activity-log notification (tag `team`, key `team:<new id>`) written with it.

pub mod admin;
mod invitations;
mod members;
mod removals;
mod teammates;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    ids::{new_id, now_ms},
    store::{
        self,
        activity::notifications,
        team::{Invitation, TeamMember},
    },
};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::Manager,
    envelope::{self, Envelope},
    error::{ApiError, ApiResult},
    route,
    session::{CurrentUser, Role},
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(all))
        .routes(route!(invitations::invite))
        .routes(route!(members::change_role))
        .routes(route!(members::change_roles))
        .routes(route!(invitations::check_code))
        .routes(route!(invitations::offer))
        .routes(route!(removals::remove))
        .routes(route!(removals::remove_many))
        .routes(route!(teammates::permissions))
        .routes(route!(teammates::users))
        .routes(route!(teammates::send_message))
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

/// A role as the screen shows it (docs/product.md#6-roles-and-route-limits: writer is Editor,
/// reader is Viewer).
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

#[cfg(test)]
mod tests {
    use super::{
        invitations::{invitation_link, new_code},
        members::check_ids,
        *,
    };
    use crate::recovery::CODE_ALPHABET;

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
