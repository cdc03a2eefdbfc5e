//! What every member may read and do with the team: the roles (`permission/all`), the
//! workspace's members (`users/all`) and a message to one of them
//! (`POST emails/one/{email}`).

use axum::{Json, extract::State, http::StatusCode, response::IntoResponse};
use searchdeck_common::{
    email::OutgoingEmail,
    ids::now_ms,
    store::{self, activity::notifications},
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{role_name, stored_role};
use crate::{
    access::{ManageRoles, Manager, Member, Teammate, WorkspaceResource},
    domain::{Email, REQUIRED},
    envelope::{self, Envelope, Items, SUCCESS_MESSAGE},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiPath},
    input::{CONTROL_CHARACTERS, has_control},
    session::Role,
    state::AppState,
};

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
