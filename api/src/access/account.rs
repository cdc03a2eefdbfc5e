//! The Apple Ads connections ("accounts") of the caller's workspace as resources: addressed
//! by the `id` path parameter ([`Account`]) or by the `accountId` query ([`QueriedAccount`]),
//! which the report, campaign and app routes use.

use searchdeck_common::{
    Db,
    store::{self, accounts::AccountRow},
};

use super::WorkspaceResource;

/// A connection of the caller's workspace, addressed by the `id` path parameter.
#[derive(Debug)]
pub struct Account(pub AccountRow);

/// A connection of the caller's workspace, addressed by the `accountId` query parameter.
#[derive(Debug)]
pub struct QueriedAccount(pub AccountRow);

impl WorkspaceResource for Account {
    const NAME: &'static str = "Account";
    const KIND: &'static str = "account";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        Ok(store::accounts::in_workspace(&db.pool, workspace_id, id)
            .await?
            .map(Account))
    }
}

impl WorkspaceResource for QueriedAccount {
    const NAME: &'static str = "Account";
    const KIND: &'static str = "account";
    const PARAM: &'static str = "accountId";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        Ok(store::accounts::in_workspace(&db.pool, workspace_id, id)
            .await?
            .map(QueriedAccount))
    }
}
