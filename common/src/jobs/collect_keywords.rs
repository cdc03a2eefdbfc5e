//! `collect-keywords`: the keyword suggester's collection for one app and country (issue 22;
//! `POST /api/phrase/getListByShuffleTitlesPopularities/{adamId}` enqueues it with its task,
//! handler and collector in `searchdeck_workers::jobs::collect_keywords`). The payload is
//! the checked search ([`Search`]) plus who asked and where: the connection and campaign
//! group whose Apple Ads suggestions, popularity and synced data the collection reads.

use serde::{Deserialize, Serialize};

use crate::queue::Job;
use crate::suggester::{CollectProgress, Search};

/// Payload of `collect-keywords`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CollectKeywords {
    pub workspace_id: String,
    pub user_id: Option<String>,
    /// The connection whose credentials the Apple Ads calls use.
    pub account_id: String,
    /// The campaign group (Apple's org id): its suggestions, search terms and keywords.
    #[serde(with = "crate::ids::string_id")]
    pub org_id: i64,
    /// The app explored (App Store adam id).
    #[serde(with = "crate::ids::string_id")]
    pub adam_id: i64,
    pub search: Search,
    /// When the route queued it (ms): the run's duration, for timings, counts from here.
    pub queued_at: i64,
}

impl Job for CollectKeywords {
    const KIND: &'static str = "collect-keywords";
    // A retry starts the collection again (nothing is kept before it finishes); a provider
    // outage gets a few backed-off chances before the task says 'Something went wrong'.
    const MAX_ATTEMPTS: u32 = 5;
    type Progress = CollectProgress;
}
