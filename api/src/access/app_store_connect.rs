//! App Store Connect connections as resources of the caller's workspace (path `{id}` of
//! `users/one/connect/appStore/{id}…`): another workspace's id answers 404 exactly like a
//! missing one.

use searchdeck_common::{
    Db,
    store::{self, app_store_connect::Connection},
};

use super::WorkspaceResource;

/// An App Store Connect connection of the caller's workspace.
#[derive(Debug)]
pub struct AppStoreConnection(pub Connection);

impl WorkspaceResource for AppStoreConnection {
    const NAME: &'static str = "App Store Connect connection";
    const KIND: &'static str = "app_store_connection";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        Ok(
            store::app_store_connect::in_workspace(&db.pool, workspace_id, id)
                .await?
                .map(AppStoreConnection),
        )
    }
}
