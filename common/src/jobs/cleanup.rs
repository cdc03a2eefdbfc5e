//! `cleanup`: the periodic removal of expired sessions, spent recovery codes, old task
//! records, old attempt counters and sent emails.

use serde::{Deserialize, Serialize};

use crate::queue::Job;

/// Payload of the clean-up job: the period it was scheduled for (for logs only).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Cleanup {
    #[serde(default)]
    pub period: String,
}

impl Job for Cleanup {
    const KIND: &'static str = "cleanup";
    const MAX_ATTEMPTS: u32 = 3;
    type Progress = ();
}
