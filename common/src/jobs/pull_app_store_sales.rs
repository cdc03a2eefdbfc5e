//! `pull-app-store-sales`: one read of an App Store Connect connection's daily Sales and
//! Trends summary (docs/api/app-store-connect.md "The job"): the last [`days`] complete
//! days (UTC) read again, each replacing the connection's rows of the day. Enqueued when the
//! key is connected (the backfill, [`SALES_BACKFILL_DAYS`]) and by the scheduler once a day
//! per connection through the `schedules` row [`sales_schedule_key`] names (the last
//! [`SALES_REFRESH_DAYS`] days: Apple restates a recent day now and then).
//!
//! [`days`]: PullAppStoreSales::days

use serde::{Deserialize, Serialize};

use crate::queue::Job;

/// Days the connect's backfill reads.
pub const SALES_BACKFILL_DAYS: u32 = 30;
/// Days each daily read covers.
pub const SALES_REFRESH_DAYS: u32 = 3;
/// How often the read is scheduled (ms): once a day.
pub const SALES_EVERY_MS: i64 = 24 * 3600 * 1000;

/// The `schedules` key of a connection's daily read.
pub fn sales_schedule_key(connection_id: &str) -> String {
    format!("app-store-sales:{connection_id}")
}

/// Payload of a read.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PullAppStoreSales {
    pub workspace_id: String,
    pub connection_id: String,
    /// Days back from yesterday (UTC) to read, yesterday included.
    pub days: u32,
}

impl Job for PullAppStoreSales {
    const KIND: &'static str = "pull-app-store-sales";
    const MAX_ATTEMPTS: u32 = 5;
    type Progress = ();
}
