//! The report engine: the one place every table, the rules and the suggester read metrics
//! from (`POST /api/asa/reports` serves it; other routes call [`totals`]).
//!
//! A report is a level ([`Level`]) of one synced campaign group (or of the whole account /
//! workspace for ORGS and ACCOUNTS), over an inclusive range of days, narrowed by
//! [`Filter`]s, sorted, paged, with totals over all matching rows and optionally one graph
//! point per day. The pipeline ([`engine`]):
//!
//! 1. the row universe: the entities of the level in scope (campaign / ad group), not
//!    deleted, plus deleted ones that have metrics in the range (marked `deleted`);
//!    (ids, parents and the deleted flag only, in one native query);
//! 2. each row's counters over the range from the day blobs
//!    ([`crate::store::report_facts::range`]: exact for any range, at most two checkpoints
//!    and a few daily blobs), joined to the universe by id in one pass;
//! 3. filters, totals (derived metrics from the summed counters, never averaged), sort
//!    (nulls last, ties by id; only the rows up to the asked page are put in order), page;
//!    names, statuses and the level's columns are loaded for the page only unless a filter
//!    or the sort needs them for every row;
//! 4. money floored to the currency's digits ([`currency`](crate::money::currency)); Growth-only columns locked
//!    unless the workspace's [`plan`] allows them;
//! 5. ACCOUNTS and ORGS over several currencies: per-currency subtotals and graph money, and
//!    money converted to a reporting currency at stored reference rates ([`mixed`]); what is
//!    not synced yet flagged rather than shown as zeros ([`sync_state`]).
//!
//! Filtering and sorting run off the async threads (`spawn_blocking`) and stop when the
//! caller's [`Cancel`] is set (the API sets it when the client goes away).

pub mod catalog;
mod engine;
pub mod filter;
mod json;
pub mod mixed;
mod query;
pub mod sync_state;
pub mod web_catalog;

use std::sync::{
    Arc,
    atomic::{AtomicBool, Ordering},
};

pub use catalog::{Level, Metric};
pub use engine::{
    EntityRead, EntityRow, LockedGroup, Report, RowTotals, RuleConversions, Stages, entity_rows,
    run, run_staged, totals,
};
pub use filter::{Filter, FilterIn};
pub use mixed::{Conversion, Converted};
pub use query::{DateRange, Query, ReportBody, SortIn, SortOrder};

use crate::store::report_entities::{EntityScope, SyncOrg};

/// An invalid input field, answered as 400 with the spec's envelope.
pub use crate::field_error::FieldError;
/// The report engine's in-process caches over one database (`engines::Engines::reports`).
pub use crate::store::report_facts::cache::Caches;

/// Why a report has no answer.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// Bad input (400 with the fields).
    #[error("invalid report request")]
    Invalid(Vec<FieldError>),
    /// The caller went away.
    #[error("report cancelled")]
    Cancelled,
    /// Syncs kept replacing the report's data while it was read, more times than a read is
    /// repeated (503: try again).
    #[error("report data changed while it was read")]
    Changing,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl ReportError {
    fn field(field: &str, message: &str) -> ReportError {
        ReportError::Invalid(vec![FieldError::new(field, message)])
    }
}

/// Set when the report's caller is gone; the engine checks it between steps and inside
/// its loops.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn new() -> Cancel {
        Cancel::default()
    }
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
    fn check(&self) -> Result<(), ReportError> {
        if self.is_cancelled() {
            Err(ReportError::Cancelled)
        } else {
            Ok(())
        }
    }
}

/// Who asks and about what: the caller's workspace, the connection (`accountId`) and, for
/// levels below ORGS, the synced campaign group (`orgId`).
#[derive(Debug, Clone)]
pub struct Context {
    pub workspace_id: String,
    pub account_id: String,
    /// The synced campaign group; None for ACCOUNTS and ORGS (and for an org not synced
    /// yet, whose report is empty).
    pub org: Option<SyncOrg>,
    /// What the workspace's plan grants of the columns (`plan::Plan::columns`).
    pub columns: catalog::ColumnAccess,
}

/// The scope of a report below the org: one campaign or one ad group.
pub type Scope = EntityScope;
