//! The team's members and invitations as resources of the caller's workspace
//! (docs/api/team.md): a member is addressed by their user id (`team/one/{id}`), and
//! `team/one/{a}/{b}`'s `{b}` names a member or an invitation. Another workspace's
//! id answers 404 exactly like a missing one.

use searchdeck_common::{
    Db,
    ids::now_ms,
    store::team::{self, Invitation, TeamMember},
};

use super::WorkspaceResource;

/// A member of the caller's workspace.
#[derive(Debug)]
pub struct Teammate(pub TeamMember);

impl WorkspaceResource for Teammate {
    const NAME: &'static str = "Member";
    const KIND: &'static str = "team-member";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        Ok(team::member(&db.pool, workspace_id, id)
            .await?
            .map(Teammate))
    }
}

/// What `{b}` of `team/one/{a}/{b}` names in the caller's workspace: a member (by user id)
/// or an unused invitation, pending or expired but still listed (by its id).
#[derive(Debug)]
pub enum TeamEntry {
    Member(TeamMember),
    Invitation(Invitation),
}

impl WorkspaceResource for TeamEntry {
    const NAME: &'static str = "Member";
    const KIND: &'static str = "team-entry";
    const PARAM: &'static str = "b";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        if let Some(m) = team::member(&db.pool, workspace_id, id).await? {
            return Ok(Some(TeamEntry::Member(m)));
        }
        Ok(
            team::unused_one(&db.pool, workspace_id, id, now_ms() - team::EXPIRED_KEPT_MS)
                .await?
                .map(TeamEntry::Invitation),
        )
    }
}
