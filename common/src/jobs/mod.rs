//! The job payloads of Searchdeck, one type per kind, each declaring its kind with
//! [`Job`](crate::queue::Job). The API and the scheduler build these; the worker runs them
//! (`searchdeck_workers::jobs`).

mod apply_negative_lists;
mod bulk_edit;
mod cleanup;
mod collect_keywords;
mod fetch_rates;
mod refresh_popularity;
mod send_email;
mod sync;
#[cfg(feature = "test-jobs")]
mod test_job;

pub use apply_negative_lists::{
    ApplyNegativeLists, ApplyProgress as ApplyNegativeListsProgress, PlaceError, PlaceRef, blocks,
};
pub use bulk_edit::{
    BulkEdit, BulkEditItem, BulkEditProgress, CREATED, DELETED, ItemResult,
    MAX_ITEMS as BULK_EDIT_MAX_ITEMS, NewNegative, Outcome, money_text,
};
pub use cleanup::Cleanup;
pub use collect_keywords::CollectKeywords;
pub use fetch_rates::FetchRates;
pub use refresh_popularity::RefreshPopularity;
pub use send_email::SendEmail;
pub use sync::{SYNC_EVERY_MS, SyncAccount, SyncAccountProgress, SyncReports, SyncReportsProgress};
#[cfg(feature = "test-jobs")]
pub use test_job::{TestJob, TestProgress};
