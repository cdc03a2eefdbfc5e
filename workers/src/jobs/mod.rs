//! Job handlers, one module per kind, and [`register`]: the one place every kind the
//! worker runs is listed. A new kind is a payload type in `searchdeck_common::jobs`
//! implementing `Job`, a [`Handler`](crate::Handler) impl here, and one line below.

pub mod apply_negative_lists;
pub mod bulk_edit;
mod cleanup;
pub mod collect_keywords;
pub mod creation;
mod deliver_alert;
pub mod fetch_rates;
pub mod pull_app_store_sales;
pub mod pull_attribution;
pub mod refresh_popularity;
pub mod run_rule;
mod send_email;
pub mod sync;
#[cfg(feature = "test-jobs")]
mod test_job;
pub mod undo_notification;

use searchdeck_common::jobs;

use crate::registry::Registry;

pub use cleanup::cleanup;

/// Registers every job kind of Searchdeck.
pub fn register(registry: &mut Registry) {
    registry
        .add::<jobs::SendEmail>()
        .add::<jobs::Cleanup>()
        .add::<jobs::FetchRates>()
        .add::<jobs::RefreshPopularity>()
        .add::<jobs::SyncAccount>()
        .add::<jobs::SyncReports>()
        .add::<jobs::BulkEdit>()
        .add::<jobs::CollectKeywords>()
        .add::<jobs::ApplyNegativeLists>()
        .add::<jobs::CreateCampaigns>()
        .add::<jobs::CopyCampaigns>()
        .add::<jobs::DeliverAlert>()
        .add::<jobs::RunRule>()
        .add::<jobs::UndoRuleRun>()
        .add::<jobs::UndoNotification>()
        .add::<jobs::PullAttribution>()
        .add::<jobs::PullAppStoreSales>();
    #[cfg(feature = "test-jobs")]
    registry.add::<jobs::TestJob>();
}

/// A registry with every kind.
pub fn registry() -> Registry {
    let mut registry = Registry::default();
    register(&mut registry);
    registry
}
