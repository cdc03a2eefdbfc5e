//! Notifications of the activity log as resources of the caller's workspace (path `{id}` of
//! `accountsActions/{id}/…`): another workspace's id answers 404 exactly like a missing one.

use searchdeck_common::{
    Db,
    store::{self, activity::notifications::NotificationRow},
};

use super::WorkspaceResource;

/// A notification of the caller's workspace.
#[derive(Debug)]
pub struct StoredNotification(pub NotificationRow);

impl WorkspaceResource for StoredNotification {
    const NAME: &'static str = "Notification";
    const KIND: &'static str = "notification";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        Ok(
            store::activity::notifications::get(&db.pool, workspace_id, id)
                .await?
                .map(StoredNotification),
        )
    }
}
