//! `send-email`: sends one stored email by reference. The queue only ever holds the id of
//! an `emails` row (see [`crate::email::enqueue`]); the row is deleted once the message is
//! out, so neither the queue nor the database keeps a recovery code after delivery.

use serde::{Deserialize, Serialize};

use crate::queue::Job;

/// Payload of the send-email job.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SendEmail {
    /// Id of the `emails` row to send.
    pub email_id: String,
}

impl Job for SendEmail {
    const KIND: &'static str = "send-email";
    const MAX_ATTEMPTS: u32 = 5;
    type Progress = ();
}
