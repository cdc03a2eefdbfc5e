//! What the engines keep in memory between calls over one database: the report engine's
//! caches (decoded day blobs, row universes, rule attributes; `store::report_facts::cache`)
//! and the plan's memo of last month's spend (`plan::spend`, "The memo"). Both are bounded
//! and validated against the database on every use, so several processes over one database
//! each keep their own. The API state and the worker runtime own one [`Engines`] each,
//! beside their [`Db`], which holds pools and the backend only.
//!
//! The report engine takes [`Engines::reports`] as it is; the plan, which reads last
//! month's spend through the report engine, takes both, which [`Engines::plan`] and
//! [`Engines::standing`] pass for it.

use crate::{
    Db,
    plan::{self, Plan, derive::Standing, spend},
    report::{self, ReportError},
};

/// The engines' in-process state over one database (cheap to clone: shared).
#[derive(Debug, Clone, Default)]
pub struct Engines {
    /// The report engine's caches.
    pub reports: report::Caches,
    /// Last month's spend per workspace, which free plans depend on.
    pub spend: spend::Memo,
}

impl Engines {
    /// The plan of `workspace_id` now ([`plan::current`]).
    pub async fn plan(&self, db: &Db, workspace_id: &str) -> Result<Plan, ReportError> {
        plan::current(db, &self.reports, &self.spend, workspace_id).await
    }

    /// Where `workspace_id` stands at `now` (ms) ([`plan::standing`]).
    pub async fn standing(
        &self,
        db: &Db,
        workspace_id: &str,
        now: i64,
    ) -> Result<Standing, ReportError> {
        plan::standing(db, &self.reports, &self.spend, workspace_id, now).await
    }

    /// Last month's spend of `workspace_id` in US dollars at `now` ([`spend::last_month_usd`]).
    pub async fn last_month_usd(
        &self,
        db: &Db,
        workspace_id: &str,
        now: i64,
    ) -> Result<rust_decimal::Decimal, ReportError> {
        spend::last_month_usd(db, &self.reports, &self.spend, workspace_id, now).await
    }
}
