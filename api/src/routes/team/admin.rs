//! Operator tools over workspace memberships, behind the binary's `searchdeck members`
//! subcommands: listing a user's workspaces with their roles, and setting a member's role
//! from the server's shell, on the same database the server uses (also while it runs), for
//! the operator. Owners and admins manage their team themselves through the team routes
//! (`routes::team`, docs/api/team.md), which also hold the role rules (the last owner, an
//! admin and the owners); this operator tool is above them.

use searchdeck_common::Db;
use sqlx::Row;

use crate::{domain::Email, session::Role};

/// One membership of a user: the workspace and the role there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Membership {
    pub workspace_id: String,
    pub workspace_name: String,
    pub role: Role,
}

/// A role set by [`set_role`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoleChange {
    /// The normalised email of the member.
    pub email: String,
    pub workspace_id: String,
    pub workspace_name: String,
    pub previous: Role,
    pub role: Role,
}

/// Why a membership command did nothing.
#[derive(Debug, thiserror::Error)]
pub enum MembersError {
    #[error("invalid email: {0}")]
    InvalidEmail(&'static str),
    #[error("no user has the email {0}")]
    NoSuchUser(String),
    #[error("{email} is not a member of workspace {workspace}")]
    NotAMember { email: String, workspace: String },
    #[error("{email} belongs to several workspaces ({list}): name one with --workspace")]
    SeveralWorkspaces { email: String, list: String },
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// The user with `email` (normalised as at sign-up) and their memberships, oldest first
/// (the first is the workspace a login starts in).
pub async fn memberships(db: &Db, email: &str) -> Result<(String, Vec<Membership>), MembersError> {
    let email = Email::parse(email).map_err(MembersError::InvalidEmail)?;
    let email = email.as_str().to_string();
    let rows = sqlx::query(
        "SELECT m.workspace_id, w.name, m.role FROM users u \
         JOIN memberships m ON m.user_id = u.id JOIN workspaces w ON w.id = m.workspace_id \
         WHERE u.email = $1 ORDER BY m.created_at, m.workspace_id",
    )
    .bind(&email)
    .fetch_all(&db.pool)
    .await?;
    if rows.is_empty() {
        let known: Option<String> = sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
            .bind(&email)
            .fetch_optional(&db.pool)
            .await?;
        if known.is_none() {
            return Err(MembersError::NoSuchUser(email));
        }
    }
    let list = rows
        .into_iter()
        .map(|r| {
            let role: String = r.try_get("role")?;
            Ok(Membership {
                workspace_id: r.try_get("workspace_id")?,
                workspace_name: r.try_get("name")?,
                // The schema admits the four roles only.
                role: Role::parse(&role).unwrap_or(Role::Reader),
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    Ok((email, list))
}

/// Gives the user with `email` the role `role` in `workspace` (a workspace id), or in their
/// only workspace when `workspace` is None. The user's sessions in that workspace take the
/// new role with their next request.
pub async fn set_role(
    db: &Db,
    email: &str,
    workspace: Option<&str>,
    role: Role,
) -> Result<RoleChange, MembersError> {
    let (email, list) = memberships(db, email).await?;
    let chosen = match workspace {
        Some(id) => list.iter().find(|m| m.workspace_id == id.trim()),
        None if list.len() > 1 => {
            let list = list
                .iter()
                .map(|m| format!("{} {}", m.workspace_id, m.workspace_name))
                .collect::<Vec<_>>()
                .join(", ");
            return Err(MembersError::SeveralWorkspaces { email, list });
        }
        None => list.first(),
    };
    let Some(chosen) = chosen.cloned() else {
        return Err(MembersError::NotAMember {
            email,
            workspace: workspace.unwrap_or_default().trim().to_string(),
        });
    };
    let (pool, workspace_id, email_ref) = (&db.pool, &chosen.workspace_id, &email);
    Db::retry_busy(move || async move {
        sqlx::query(
            "UPDATE memberships SET role = $3 WHERE workspace_id = $1 \
             AND user_id = (SELECT id FROM users WHERE email = $2)",
        )
        .bind(workspace_id)
        .bind(email_ref)
        .bind(role.as_str())
        .execute(pool)
        .await
    })
    .await?;
    Ok(RoleChange {
        email,
        workspace_id: chosen.workspace_id,
        workspace_name: chosen.workspace_name,
        previous: chosen.role,
        role,
    })
}

#[cfg(test)]
mod tests {
    use searchdeck_common::{
        ids::{new_id, now_ms},
        store::{self, users::NewUser},
        test_support::MigratedDb,
    };

    use super::*;

    /// A user with a workspace of their own, as sign-up makes them: (user id, workspace id).
    async fn signed_up(db: &Db, email: &str) -> (String, String) {
        let (user_id, workspace_id, now) = (new_id(), new_id(), now_ms());
        let user = NewUser {
            id: &user_id,
            email,
            password_hash: "h",
            full_name: "Ann",
            source: "",
            now,
        };
        store::users::insert(&db.pool, user).await.unwrap();
        store::workspaces::insert(&db.pool, &workspace_id, "Ann's", now)
            .await
            .unwrap();
        store::workspaces::add_member(&db.pool, &workspace_id, &user_id, "owner", now)
            .await
            .unwrap();
        (user_id, workspace_id)
    }

    async fn role_of(db: &Db, user_id: &str, workspace_id: &str) -> String {
        store::users::member(&db.pool, user_id, workspace_id)
            .await
            .unwrap()
            .unwrap()
            .role
    }

    #[tokio::test]
    async fn sets_the_role_of_a_member_of_one_workspace() {
        let f = MigratedDb::sqlite().await;
        let (ann, own) = signed_up(&f.db, "ann@example.com").await;
        // The email is normalised as at sign-up.
        let change = set_role(&f.db, "  Ann@Example.COM ", None, Role::Reader)
            .await
            .unwrap();
        assert_eq!(change.email, "ann@example.com");
        assert_eq!(change.workspace_id, own);
        assert_eq!(change.workspace_name, "Ann's");
        assert_eq!((change.previous, change.role), (Role::Owner, Role::Reader));
        assert_eq!(role_of(&f.db, &ann, &own).await, "reader");
        // Setting it again changes nothing and says it was already so.
        let again = set_role(&f.db, "ann@example.com", Some(&own), Role::Reader)
            .await
            .unwrap();
        assert_eq!(again.previous, Role::Reader);
    }

    #[tokio::test]
    async fn touches_only_the_named_workspace_and_member() {
        let f = MigratedDb::sqlite().await;
        let (ann, own) = signed_up(&f.db, "ann@example.com").await;
        let (bob, bobs) = signed_up(&f.db, "bob@example.com").await;
        store::workspaces::add_member(&f.db.pool, &bobs, &ann, "writer", now_ms() + 1)
            .await
            .unwrap();
        let (_, list) = memberships(&f.db, "ann@example.com").await.unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].workspace_id, own, "the oldest membership first");
        // Two workspaces: the command needs to be told which.
        let err = set_role(&f.db, "ann@example.com", None, Role::Admin)
            .await
            .unwrap_err();
        assert!(
            matches!(err, MembersError::SeveralWorkspaces { .. }),
            "{err}"
        );
        assert!(err.to_string().contains(&bobs), "{err}");
        set_role(&f.db, "ann@example.com", Some(&bobs), Role::Admin)
            .await
            .unwrap();
        assert_eq!(role_of(&f.db, &ann, &bobs).await, "admin");
        assert_eq!(role_of(&f.db, &ann, &own).await, "owner");
        assert_eq!(role_of(&f.db, &bob, &bobs).await, "owner");
    }

    #[tokio::test]
    async fn refuses_unknown_users_and_workspaces() {
        let f = MigratedDb::sqlite().await;
        signed_up(&f.db, "ann@example.com").await;
        let (_, bobs) = signed_up(&f.db, "bob@example.com").await;
        let err = set_role(&f.db, "nobody@example.com", None, Role::Reader)
            .await
            .unwrap_err();
        assert!(matches!(err, MembersError::NoSuchUser(ref e) if e == "nobody@example.com"));
        let err = set_role(&f.db, "ann@example.com", Some(&bobs), Role::Reader)
            .await
            .unwrap_err();
        assert!(matches!(err, MembersError::NotAMember { .. }), "{err}");
        let err = set_role(&f.db, "not an email", None, Role::Reader)
            .await
            .unwrap_err();
        assert!(matches!(err, MembersError::InvalidEmail(_)), "{err}");
    }
}
