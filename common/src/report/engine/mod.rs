//! The report pipeline, one file per step, each taking what the step before gave:
//!
//! 1. [`prepare`]: the query's row universe with each row's counters over the range, and
//!    what the filters and sort need for every row;
//! 2. [`filter_sort`]: the matching rows, those up to the asked page in order (off the
//!    async threads, cancellable);
//! 3. [`present`]: the page's rows, totals and graph points as answered (money floored,
//!    Growth-only columns locked, days not synced yet flagged), with [`conversions`]: the
//!    Conversions and Cohort columns from the attribution facts;
//! 4. [`run`](mod@run): the run itself — the steps in order with the totals, subtotals and the
//!    page's entities between them, timed by stage, repeated when a refresh swept the day
//!    blobs it read — and [`totals`] for callers other than the report route.

mod consistent;
mod conversions;
mod filter_sort;
mod prepare;
mod present;
mod rows;
mod run;
mod stages;

pub use conversions::RuleConversions;
pub use rows::{EntityRead, EntityRow, RowTotals, entity_rows, totals};
pub use run::{LockedGroup, Report, run, run_staged};
pub use stages::Stages;
