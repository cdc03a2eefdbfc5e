//! `deliver-alert`: sends one stored alert (`store::alerts`) by email through the outbox
//! and to the workspace's Slack incoming webhook, as the alert asks. Pushed by whoever
//! raises the alert, in the transaction that stores it.

use serde::{Deserialize, Serialize};

use crate::queue::Job;

/// Payload of the deliver-alert job.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeliverAlert {
    /// Id of the `alerts` row to deliver.
    pub alert_id: String,
}

impl Job for DeliverAlert {
    const KIND: &'static str = "deliver-alert";
    const MAX_ATTEMPTS: u32 = 5;
    type Progress = ();
}
