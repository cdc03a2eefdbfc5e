//! `refresh-popularity`: the weekly refresh of Apple's search popularity
//! (`store::popularity`) for the texts of every synced keyword and search term, per
//! storefront of their campaigns, that is missing or older than 7 days.

use serde::{Deserialize, Serialize};

use crate::queue::Job;

/// Payload of the refresh: the period it was scheduled for (for logs only).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RefreshPopularity {
    #[serde(default)]
    pub period: String,
}

impl Job for RefreshPopularity {
    const KIND: &'static str = "refresh-popularity";
    const MAX_ATTEMPTS: u32 = 5;
    type Progress = ();
}
