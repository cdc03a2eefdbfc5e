//! `fetch-rates`: the periodic download of the daily reference exchange rates (ECB
//! `eurofxref` format) from the configured feed into `fx_rates`.

use serde::{Deserialize, Serialize};

use crate::queue::Job;

/// Payload of the rates download: the period it was scheduled for (for logs only).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FetchRates {
    #[serde(default)]
    pub period: String,
}

impl Job for FetchRates {
    const KIND: &'static str = "fetch-rates";
    const MAX_ATTEMPTS: u32 = 5;
    type Progress = ();
}
