//! Who may call a route, stated by the handler's argument types.
//!
//! A handler takes one guard, and the type is the rule: [`Member`] (any signed-in role),
//! [`Editor`] (owner, admin, writer: whoever may change the workspace's things),
//! [`Manager`] (owner, admin: team and subscription), or [`InWorkspace<T>`] (a resource of
//! the caller's workspace, resolved from the request's id; another workspace's id answers
//! 404 exactly like a missing one). A request without a valid session gets 401, a role
//! outside the guard's gets 403 before the handler runs. Registering the handler with
//! [`route!`](crate::route) writes the same rule into the OpenAPI document (security scheme,
//! 401/403/404 answers), so the document cannot drift from the code.
//!
//! The resources routes share live here too: connections ([`Account`], [`QueriedAccount`]),
//! App Store apps ([`AppStoreId`], a public id, and [`CompetitorApp`], an app with
//! competitors saved in the workspace), an attribution provider's postback URL
//! ([`PostbackIntegration`], the one guard without a session: the URL's token), team members and invitations ([`Teammate`],
//! [`TeamEntry`]) and campaigns ([`Campaign`], [`CampaignOfAdGroup`], with [`ScopeQuery`] and [`pick`]
//! choosing among a campaign's synced copies).

mod account;
mod app_store;
mod app_store_connect;
mod campaign;
pub(crate) mod doc;
mod notification;
mod postback;
mod resource;
mod rule;
mod team;

use std::marker::PhantomData;

use axum::{extract::FromRequestParts, http::request::Parts};

pub use account::{Account, QueriedAccount};
pub use app_store::{
    AdamIdParam, AppStoreId, AppStoreParam, CompetitorApp, IdParam, NOT_AN_APP_STORE_ID,
    parse_app_store_id,
};
pub use app_store_connect::AppStoreConnection;
pub use campaign::{Campaign, CampaignOfAdGroup, ScopeQuery, campaign_by_id, first_campaign, pick};
pub(crate) use doc::error_body;
pub use doc::{Documented, HandlerDoc, SECURITY_SCHEME, document_routes};
pub use notification::StoredNotification;
pub use postback::{PostbackIntegration, UNKNOWN_POSTBACK_URL};
pub use resource::{InWorkspace, WorkspaceResource};
pub use rule::{StoredRule, StoredRun};
pub use team::{TeamEntry, Teammate};

use crate::{
    error::{ApiError, UNAUTHORIZED_MESSAGE},
    session::{self, CurrentUser, Role},
    state::AppState,
};

/// A set of roles a guard admits.
pub trait Policy: Send + Sync + 'static {
    /// The admitted roles.
    const ROLES: &'static [Role];
}

/// Every role of a workspace.
#[derive(Debug)]
pub struct AnyRole;
/// Roles that may change things (docs/product.md#6-roles-and-route-limits: owner, admin, writer).
#[derive(Debug)]
pub struct EditRoles;
/// Roles that may manage the team and subscription (owner, admin).
#[derive(Debug)]
pub struct ManageRoles;

impl Policy for AnyRole {
    const ROLES: &'static [Role] = &[Role::Owner, Role::Admin, Role::Writer, Role::Reader];
}
impl Policy for EditRoles {
    const ROLES: &'static [Role] = &[Role::Owner, Role::Admin, Role::Writer];
}
impl Policy for ManageRoles {
    const ROLES: &'static [Role] = &[Role::Owner, Role::Admin];
}

/// The signed-in caller, admitted by policy `P`; derefs to [`CurrentUser`].
#[derive(Debug)]
pub struct Caller<P: Policy = AnyRole> {
    user: CurrentUser,
    policy: PhantomData<P>,
}

/// Any signed-in member of the workspace.
pub type Member = Caller<AnyRole>;
/// A member who may change the workspace's things (owner, admin, writer).
pub type Editor = Caller<EditRoles>;
/// A member who may manage the team and subscription (owner, admin).
pub type Manager = Caller<ManageRoles>;

impl<P: Policy> Caller<P> {
    /// The caller as loaded from the session.
    pub fn user(&self) -> &CurrentUser {
        &self.user
    }

    /// Admits `user` if its role is one of `P`'s, else 403.
    pub fn admit(user: CurrentUser) -> Result<Caller<P>, ApiError> {
        if P::ROLES.contains(&user.role) {
            Ok(Caller {
                user,
                policy: PhantomData,
            })
        } else {
            Err(ApiError::forbidden())
        }
    }
}

impl<P: Policy> std::ops::Deref for Caller<P> {
    type Target = CurrentUser;
    fn deref(&self) -> &CurrentUser {
        &self.user
    }
}

impl<P: Policy> FromRequestParts<AppState> for Caller<P> {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let unauthorized = || ApiError::unauthorized(UNAUTHORIZED_MESSAGE);
        let token = session::token_of(&parts.headers).ok_or_else(unauthorized)?;
        let Some(user) = session::lookup(&state.db, &token).await? else {
            // A session ended by a removal says so (docs/api/team.md).
            return Err(session::ended(&state.db, &token).await?);
        };
        Caller::admit(user)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(role: Role) -> CurrentUser {
        CurrentUser {
            session_id: "s".into(),
            user_id: "u".into(),
            email: "a@example.com".into(),
            workspace_id: "w".into(),
            role,
        }
    }

    #[test]
    fn guards_admit_exactly_their_roles() {
        use Role::*;
        for (role, editor, manager) in [
            (Owner, true, true),
            (Admin, true, true),
            (Writer, true, false),
            (Reader, false, false),
        ] {
            assert!(Member::admit(user(role)).is_ok());
            assert_eq!(Editor::admit(user(role)).is_ok(), editor, "{role:?}");
            assert_eq!(Manager::admit(user(role)).is_ok(), manager, "{role:?}");
        }
    }
}
