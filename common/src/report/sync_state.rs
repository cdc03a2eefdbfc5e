//! Which of a report's data is stored yet, so that a table shows "Syncing" rather than
//! zeros that look like data (docs/sync-and-jobs.md). `sync-reports` stores a campaign
//! group's levels one after the other, each with its day blobs refreshed and a checkpoint
//! (`sync_orgs.metrics_job = "<job id>:<level code>"`), and marks the group synced
//! (`metrics_synced_at`, `metrics_through`) when its last level is in. A report reads what
//! is stored at that moment, so a group's numbers show as soon as its level is in, while
//! the groups, levels and days still to come are flagged:
//!
//! - a level of a group is stored once the group was synced, or once the running first
//!   sync checkpointed that level or a later one;
//! - a day is stored for a group whose level is stored, up to its `metrics_through` (all
//!   days of the window while the first sync runs).

use time::{Date, macros::format_description};

use crate::store::{report_entities::SyncOrg, report_facts::FactLevel};

/// Whether the metrics of `level` of `org` are stored.
pub fn level_stored(org: &SyncOrg, level: FactLevel) -> bool {
    if org.metrics_synced_at.is_some() {
        return true;
    }
    org.metrics_job
        .as_deref()
        .and_then(|m| m.rsplit_once(':'))
        .and_then(|(_, code)| code.parse::<i64>().ok())
        .is_some_and(|code| code >= level.code())
}

/// Whether `day` of `level` of `org` is stored.
pub fn day_stored(org: &SyncOrg, level: FactLevel, day: Date) -> bool {
    level_stored(org, level)
        && org
            .metrics_through
            .as_deref()
            .and_then(|d| Date::parse(d, format_description!("[year]-[month]-[day]")).ok())
            .is_none_or(|through| day <= through)
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    fn org(job: Option<&str>, synced: bool, through: Option<&str>) -> SyncOrg {
        SyncOrg {
            org_key: 1,
            account_id: "a".into(),
            org_id: 1,
            currency: Some("USD".into()),
            time_zone: None,
            entities_synced_at: None,
            metrics_through: through.map(str::to_string),
            metrics_from: None,
            metrics_synced_at: synced.then_some(1),
            metrics_job: job.map(str::to_string),
        }
    }

    #[test]
    fn a_first_sync_stores_levels_one_by_one() {
        let fresh = org(None, false, None);
        assert!(!level_stored(&fresh, FactLevel::Campaign));
        let campaigns_in = org(Some("job-1:1"), false, None);
        assert!(level_stored(&campaigns_in, FactLevel::Campaign));
        assert!(!level_stored(&campaigns_in, FactLevel::AdGroup));
        assert!(day_stored(
            &campaigns_in,
            FactLevel::Campaign,
            date!(2026 - 11 - 26)
        ));
        let done = org(Some("job-1:done"), true, Some("2026-11-25"));
        assert!(level_stored(&done, FactLevel::Keyword));
        assert!(day_stored(&done, FactLevel::Keyword, date!(2026 - 11 - 25)));
        assert!(!day_stored(
            &done,
            FactLevel::Keyword,
            date!(2026 - 11 - 26)
        ));
        // A later sync's checkpoints do not hide what the first one stored.
        let resyncing = org(Some("job-2:1"), true, Some("2026-11-25"));
        assert!(level_stored(&resyncing, FactLevel::Ad));
    }
}
