//! Conformance of the team store (`store::team`) on SQLite and, with `TEST_DATABASE_URL`,
//! PostgreSQL:
//!
//! - `members`: members with their last activity, role changes and the owners counted,
//!   removal ending the member's sessions in that workspace only.
//! - `invitations`: replaced by a resend, single use, expiring, revoked, scoped to their
//!   workspace; expired invitations listed for `EXPIRED_KEPT_MS`, then deleted by the
//!   clean-up's `delete_stale`.
//! - `workspaces`: a user's workspaces and a session moving between them
//!   (`store::workspaces::of_user`, `store::sessions::move_to_workspace`); sign-in opening
//!   the workspace last switched to (`users::for_login`).
//!
//! Every case runs as `team::sqlite::<case>` and `team::postgres::<case>`; the users,
//! workspaces, sessions and invitations they start from are made by the fixtures below.

mod members;
use members::{
    members_are_listed_with_role_and_last_activity,
    removal_ends_the_sessions_in_that_workspace_only, roles_change_and_owners_are_counted,
};
mod invitations;
use invitations::{
    expired_invitations_stay_listed_then_are_cleaned_up,
    invitations_are_revoked_within_their_workspace,
    invitations_are_single_use_expire_and_are_replaced,
};
mod workspaces;
use workspaces::{
    sessions_move_between_the_user_workspaces_only, sign_in_opens_the_last_workspace_while_a_member,
};

use searchdeck_common::{
    Db,
    ids::new_id,
    store::{self, sessions::NewSession, team::NewInvitation, users::NewUser},
};

conformance!("sd_team";
    members_are_listed_with_role_and_last_activity,
    roles_change_and_owners_are_counted,
    removal_ends_the_sessions_in_that_workspace_only,
    invitations_are_single_use_expire_and_are_replaced,
    invitations_are_revoked_within_their_workspace,
    sessions_move_between_the_user_workspaces_only,
    expired_invitations_stay_listed_then_are_cleaned_up,
    sign_in_opens_the_last_workspace_while_a_member,
);

/// A user; returns their id.
async fn user(db: &Db, email: &str, name: &str) -> String {
    let id = new_id();
    store::users::insert(
        &db.pool,
        NewUser {
            id: &id,
            email,
            password_hash: "h",
            full_name: name,
            source: "",
            now: 1,
        },
    )
    .await
    .unwrap();
    id
}

async fn workspace(db: &Db) -> String {
    let id = new_id();
    store::workspaces::insert(&db.pool, &id, "W", 1)
        .await
        .unwrap();
    id
}

async fn session(db: &Db, user_id: &str, workspace_id: &str, seen: i64) -> String {
    let (id, hash) = (new_id(), new_id());
    store::sessions::insert(
        &db.pool,
        NewSession {
            id: &id,
            token_hash: &hash,
            user_id,
            workspace_id,
            now: seen,
            expires_at: i64::MAX / 2,
        },
    )
    .await
    .unwrap();
    hash
}

fn invitation<'a>(
    ws: &'a str,
    email: &'a str,
    hash: &'a str,
    id: &'a str,
    by: &'a str,
) -> NewInvitation<'a> {
    NewInvitation {
        id,
        workspace_id: ws,
        email,
        role: "writer",
        code_hash: hash,
        invited_by: by,
        now: 1_000,
        expires_at: 2_000,
    }
}
