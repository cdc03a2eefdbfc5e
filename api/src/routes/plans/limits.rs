//! The plan's limits (docs/api/plans.md "Limits per plan"; the one table
//! `searchdeck_common::plan::LIMITS`) checked in the transaction that creates the limited
//! thing, after the workspace's row is locked: of two concurrent creations the second
//! waits for the first to commit and counts what it made or reserved, so no two both pass.
//! The automated rules' checks (`routes/rules`) take the same lock.
//!
//! Each check answers 403 `LIMIT_HAS_BEEN_REACHED` with a `meta.type`
//! (docs/product.md#8-limit-reached). What the checks count is counted here ([`app_usage`],
//! [`group_campaigns`], and the rules' store counts), and [`usage`] answers the same counts for the
//! Subscription page.

use searchdeck_common::{
    jobs::CreationProgress,
    plan::Plan,
    store::{self, campaign_views, synced::SyncOrg},
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};

/// The task kinds that make campaigns (their progress is docs/product.md#3-creation-progress).
pub const CREATION_KINDS: [&str; 2] = ["create-campaigns", "copy-campaigns"];

/// Serialises the workspace's limited creations from here to the end of `conn`'s
/// transaction (a write of the workspace's row).
pub async fn lock(conn: &mut sqlx::AnyConnection, workspace_id: &str) -> ApiResult<()> {
    store::rules::lock_workspace(&mut *conn, workspace_id).await?;
    Ok(())
}

/// 403 `AVAILABLEAPPS` or `AVAILABLEDEVS` when the apps or developers synced for the
/// workspace already reach `plan`'s limits: no connection or campaign group may be added.
/// Apps arrive with a connection's syncs, after it was added, so the connection that takes
/// the workspace past a limit is allowed and the next one is refused.
pub async fn check_apps(
    conn: &mut sqlx::AnyConnection,
    plan: Plan,
    workspace_id: &str,
) -> ApiResult<()> {
    let (apps, developers) = app_usage(&mut *conn, workspace_id).await?;
    match plan.app_limits().reached(apps, developers) {
        Some(kind) => Err(ApiError::limit_reached(kind)),
        None => Ok(()),
    }
}

/// The distinct apps and developers synced for the workspace's connections.
pub async fn app_usage(
    conn: &mut sqlx::AnyConnection,
    workspace_id: &str,
) -> ApiResult<(u64, u64)> {
    let (apps, developers) = store::catalog::usage(&mut *conn, workspace_id).await?;
    Ok((count(apps), count(developers)))
}

fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// The campaigns campaign group `org` holds for its limit: those not deleted plus those the
/// creations and copies still running there will make ([`reserved_campaigns`]).
pub async fn group_campaigns(
    conn: &mut sqlx::AnyConnection,
    workspace_id: &str,
    org: &SyncOrg,
) -> ApiResult<u64> {
    let existing = count(campaign_views::campaign_count(&mut *conn, org.org_key).await?);
    let reserved = reserved_campaigns(conn, workspace_id, &org.account_id, org.org_id).await?;
    Ok(existing + reserved)
}

/// What the workspace uses of each limit of `plan::LIMITS` (`plan/current`'s `usage`),
/// counted as the checks count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = PlanUsage)]
pub struct Usage {
    /// Distinct App Store apps synced for the workspace's connections.
    pub apps: u64,
    /// Distinct developers of those apps.
    pub developers: u64,
    /// The campaigns of the workspace's fullest campaign group (the limit is per campaign
    /// group), running creations' campaigns included.
    pub campaigns: u64,
    /// Always null: the keyword-group limit is per creation, nothing stands against it.
    #[schema(value_type = Option<u64>)]
    pub keyword_groups: Option<u64>,
    /// The workspace's automated rules.
    pub rules: u64,
    /// Distinct campaigns with at least one rule attached.
    pub rules_campaigns: u64,
}

/// The workspace's [`Usage`] now.
pub async fn usage(conn: &mut sqlx::AnyConnection, workspace_id: &str) -> ApiResult<Usage> {
    let (apps, developers) = app_usage(&mut *conn, workspace_id).await?;
    let mut campaigns = 0;
    for org in store::synced::orgs_of_workspace(&mut *conn, workspace_id).await? {
        campaigns = campaigns.max(group_campaigns(&mut *conn, workspace_id, &org).await?);
    }
    let rules = count(store::rules::count(&mut *conn, workspace_id).await?);
    let rules_campaigns = store::rules::attached_campaigns(&mut *conn, workspace_id)
        .await?
        .len() as u64;
    Ok(Usage {
        apps,
        developers,
        campaigns,
        keyword_groups: None,
        rules,
        rules_campaigns,
    })
}

/// The campaigns the creations and copies still running in campaign group `org_id` of
/// connection `account_id` will make (their Creation progress: total less created; the
/// created are in the synced tables already).
pub async fn reserved_campaigns(
    conn: &mut sqlx::AnyConnection,
    workspace_id: &str,
    account_id: &str,
    org_id: i64,
) -> ApiResult<u64> {
    let running = store::tasks::unfinished_in_org(
        &mut *conn,
        workspace_id,
        account_id,
        org_id,
        &CREATION_KINDS,
    )
    .await?;
    Ok(running
        .into_iter()
        .filter_map(|t| serde_json::from_value::<CreationProgress>(t.details).ok())
        .map(|p| p.campaigns_total.saturating_sub(p.campaigns_created))
        .sum())
}

/// 403 `AVAILABLECAMPAIGNS` or `AVAILABLETARGETINGKEYWORDSGROUPS` when a creation of
/// `new_campaigns` campaigns and `new_groups` ad groups, beside `existing` campaigns of the
/// group (synced and reserved), passes `plan`'s limits.
pub fn check_creation(
    plan: Plan,
    existing: u64,
    new_campaigns: u64,
    new_groups: u64,
) -> ApiResult<()> {
    match plan
        .creation_limits()
        .exceeded(existing, new_campaigns, new_groups)
    {
        Some(kind) => Err(ApiError::limit_reached(kind)),
        None => Ok(()),
    }
}
