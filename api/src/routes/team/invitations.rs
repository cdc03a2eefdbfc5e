//! Invitations (contract `docs/api/team.md` "Invitations"): inviting by email with a role
//! (`POST team/one/{email}/{role}`, the code emailed through the outbox), the link it
//! carries, accepting a code (`POST team/checkCode`) and what a signed-out visitor with the
//! link is offered (`POST team/invitation`).

use axum::{Json, extract::State, http::StatusCode, response::IntoResponse};
use rand::Rng;
use searchdeck_common::{
    email::OutgoingEmail,
    ids::{new_id, now_ms},
    store::{self, activity::notifications, team::NewInvitation},
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    ALREADY_A_MEMBER, CODE_EXPIRED, CODE_INVALID, CODE_OTHER_EMAIL, CODE_USED, INVITATION_CODE_LEN,
    INVITATION_TTL_MS, InvitationItem, ONLY_OWNER_MAKES_OWNER, invitation_item, notify, parse_role,
    role_name, secs, stored_role,
};
use crate::{
    access::{Manager, Member},
    domain::{Email, REQUIRED},
    envelope::{self, Envelope, SUCCESS_MESSAGE},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath},
    recovery::CODE_ALPHABET,
    session::{CurrentUser, Role, hash_token},
    state::AppState,
};

/// A fresh invitation code.
pub(super) fn new_code() -> String {
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
