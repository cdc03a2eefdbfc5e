//! `pull-attribution`: one pull of a provider's reporting API for a workspace
//! (docs/api/attribution.md "Pull"): the install days of the last [`PULL_DAYS`] complete
//! days (UTC) read again, each replacing that provider's facts of the day. Enqueued when
//! the user sets the token (the backfill) and by the scheduler once a day per (workspace,
//! provider) through the `schedules` row [`schedule_key`] names.

use serde::{Deserialize, Serialize};

use crate::queue::Job;

/// Days one pull covers: cohorts mature for 30 days (the D30 column), so each daily
/// refresh reads them all again, and the first pull backfills as many.
pub const PULL_DAYS: u32 = 30;

/// How often a pull is scheduled (ms): once a day.
pub const PULL_EVERY_MS: i64 = 24 * 3600 * 1000;

/// The `schedules` key of a workspace's daily pull of `provider`; the scheduler enqueues
/// one job per day under `schedule:<key>:<day start>`.
pub fn schedule_key(workspace_id: &str, provider: &str) -> String {
    format!("attribution-pull:{workspace_id}:{provider}")
}

/// Payload of a pull.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PullAttribution {
    pub workspace_id: String,
    /// The provider's wire name (`appsflyer`).
    pub provider: String,
    /// Days back from yesterday (UTC) to read, yesterday included.
    #[serde(default = "default_days")]
    pub days: u32,
}

fn default_days() -> u32 {
    PULL_DAYS
}

impl Job for PullAttribution {
    const KIND: &'static str = "pull-attribution";
    const MAX_ATTEMPTS: u32 = 5;
    type Progress = ();
}
