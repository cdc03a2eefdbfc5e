//! The job payloads of Searchdeck, one type per kind, each declaring its kind with
//! [`Job`](crate::queue::Job). The API and the scheduler build these; the worker runs them
//! (`searchdeck_workers::jobs`).

mod apply_negative_lists;
mod bulk_edit;
mod cleanup;
mod collect_keywords;
mod creation;
mod deliver_alert;
mod fetch_rates;
mod pull_app_store_sales;
mod pull_attribution;
mod refresh_popularity;
mod run_rule;
mod send_email;
mod sync;
#[cfg(feature = "test-jobs")]
mod test_job;
mod undo_notification;

pub use apply_negative_lists::{
    ApplyNegativeLists, ApplyProgress as ApplyNegativeListsProgress, PlaceError, PlaceRef, blocks,
};
pub use bulk_edit::{
    BulkEdit, BulkEditItem, BulkEditProgress, CREATED, DELETED, ItemResult,
    MAX_ITEMS as BULK_EDIT_MAX_ITEMS, NewNegative, Outcome, money_text,
};
pub use cleanup::Cleanup;
pub use collect_keywords::CollectKeywords;
pub use creation::{
    CampaignMapping, CopyCampaigns, CopySettings, CreateCampaigns, CreationPlan, CreationProgress,
    CreationScope, DISCOVERY_GROUP, GroupMapping, MAX_CAMPAIGNS as CREATION_MAX_CAMPAIGNS,
    MAX_GROUPS as CREATION_MAX_GROUPS, MAX_KEYWORDS as CREATION_MAX_KEYWORDS, MethodError,
    PlannedCampaign, PlannedCopy, PlannedDiscovery, PlannedGroup, PlannedKeyword, PlannedNegative,
    RejectedItem,
};
pub use deliver_alert::DeliverAlert;
pub use fetch_rates::FetchRates;
pub use pull_app_store_sales::{
    PullAppStoreSales, SALES_BACKFILL_DAYS, SALES_EVERY_MS, SALES_REFRESH_DAYS, sales_schedule_key,
};
pub use pull_attribution::{
    PULL_DAYS, PULL_EVERY_MS, PullAttribution, schedule_key as pull_schedule_key,
};
pub use refresh_popularity::RefreshPopularity;
pub use run_rule::{RunRule, RunRuleProgress, UndoRuleRun};
pub use send_email::SendEmail;
pub use sync::{SYNC_EVERY_MS, SyncAccount, SyncAccountProgress, SyncReports, SyncReportsProgress};
#[cfg(feature = "test-jobs")]
pub use test_job::{TestJob, TestProgress};
pub use undo_notification::{UndoNotification, UndoProgress, UndoSkipped};
