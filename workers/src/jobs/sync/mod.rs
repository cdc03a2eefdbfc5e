//! The sync of a connection's campaign groups: [`account`] (`sync-account`: every entity,
//! then the reports) and [`reports`] (`sync-reports`: the daily metrics), with what both
//! ask of the connection: whether it still exists ([`connection`]) and recording a sync
//! given up on it ([`record_failure`]).

pub mod account;
pub mod reports;

use searchdeck_common::{
    ids,
    queue::JobError,
    store::{self, accounts::AccountRow, synced},
};

use crate::Runtime;

/// Records a given-up sync of connection `account_id` on it (`accounts.sync_failed_at`):
/// until a later sync stores its data, the workspace's members see the appleDataIssues
/// banner (docs/api/plans.md "Banners"). Errors are logged.
pub async fn record_failure(runtime: &Runtime, account_id: &str, reason: &str) {
    tracing::warn!(account_id = %account_id, reason, "sync given up; the provider's data is not arriving");
    if let Err(e) =
        store::accounts::record_sync_failure(&runtime.db.pool, account_id, ids::now_ms()).await
    {
        tracing::error!(account_id = %account_id, error = %e, "could not record the sync's failure");
    }
}

/// The connection of a sync job, or None when it was deleted meanwhile (its schedule is
/// then removed too).
pub async fn connection(
    ctx_db: &searchdeck_common::Db,
    account_id: &str,
) -> Result<Option<AccountRow>, JobError> {
    let row = store::accounts::by_id(&ctx_db.pool, account_id).await?;
    if row.is_none() {
        synced::delete_schedule(&ctx_db.pool, account_id).await?;
    }
    Ok(row)
}
