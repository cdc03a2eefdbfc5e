//! `sync-account` and `sync-reports`: the jobs that keep a connection's Apple Ads data in
//! our database (handlers in `searchdeck_workers::jobs::sync_account` / `sync_reports`).
//!
//! `sync-account` lists every entity of each selected campaign group of the connection,
//! then enqueues `sync-reports`, which fetches DAILY metrics of every level. Both are
//! enqueued on connect (through the task outbox) and every [`SYNC_EVERY_MS`] by the
//! scheduler from the connection's `schedules` row (`store::synced::set_schedule`).

use serde::{Deserialize, Serialize};

use crate::queue::Job;

/// How often the scheduler syncs each connection (3 h).
pub const SYNC_EVERY_MS: i64 = 3 * 3600 * 1000;

/// Payload of `sync-account`: the connection to sync.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SyncAccount {
    pub account_id: String,
}

/// Progress of `sync-account`: campaign groups done, entities stored so far.
#[derive(Debug, Clone, Default, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SyncAccountProgress {
    pub orgs_done: u32,
    pub orgs_total: u32,
    pub entities: u64,
}

impl Job for SyncAccount {
    const KIND: &'static str = "sync-account";
    const MAX_ATTEMPTS: u32 = 5;
    type Progress = SyncAccountProgress;
}

/// Payload of `sync-reports`: the connection whose metrics to sync.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SyncReports {
    pub account_id: String,
}

/// Progress of `sync-reports`: report requests made, metric rows stored.
#[derive(Debug, Clone, Default, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SyncReportsProgress {
    pub requests: u64,
    pub rows: u64,
}

impl Job for SyncReports {
    const KIND: &'static str = "sync-reports";
    // Runs lost with a dead worker count as attempts; a long sync on a busy machine may lose
    // a few, and every run is idempotent and resumes where the last one finished a group.
    const MAX_ATTEMPTS: u32 = 10;
    type Progress = SyncReportsProgress;
}
