//! `sync-reports`: DAILY metrics of every level (campaigns, ad groups, keywords, search
//! terms, ads) of each selected campaign group of a connection, in the ad account's time
//! zone (`timeZone: ORTZ`), into `asa_day_metrics` through `replace_days`.
//!
//! Windows, per campaign group, all relative to `end` = the ad account's own today (the date
//! in its `timeZone`, [`account_today`]), the last day Apple reports for it:
//! - the first sync fetches the last 90 days (`end - 89 ..= end`): DAILY reports may start at
//!   most 90 days back (reference `TimeRange`);
//! - every later sync re-fetches the trailing 30 days (`end - 30 ..= end`), which Apple
//!   restates, reaching back to the newest stored day when the last sync is older (never
//!   past the 90-day limit);
//! - older history is a step of the same job (no third kind): each run backfills the
//!   [`BACKFILL_DAYS`] days before the oldest stored one, newest first, down to two years back
//!   or the first campaign's start. DAILY granularity cannot reach past 90 days, so each of
//!   those days is one report *without* granularity over that single day (its rows' totals
//!   are that day's metrics), which the reference allows for any date. At one sync every
//!   3 h, two years of history arrive in about a week without delaying recent data.
//!
//! The windows of a group are decided from its stored state and the state is written once
//! the group is done, with the job's id: a job run again after its worker died skips the
//! groups it finished and fetches the same days for the others, so it ends with the same
//! rows as an uninterrupted run. Each day of a slice of days of a level is stored by one
//! `replace_days` (one transaction) once the whole slice is fetched: a retried page
//! duplicates nothing, a restated day replaces the old.
//!
//! Requests: campaign reports need no filter; the other levels require a `campaignId`
//! filter, given as `IN` over at most [`CAMPAIGNS_PER_REQUEST`] campaigns; pages of 5,000
//! rows (the reference's `RequestPagination` maximum). Keyword, search-term and ad levels are
//! fetched in slices of [`FINE_SLICE_DAYS`] days; a slice's rows wait for their day writes
//! in a temporary file, not in memory ([`slice`]).

mod fetch;
mod slice;

use searchdeck_common::{
    ids,
    jobs::{SyncReports, SyncReportsProgress},
    queue::JobError,
    store::{
        self,
        synced::{self, metrics::Level},
    },
};
use time::{Date, Duration, OffsetDateTime, UtcOffset, macros::format_description};

use self::{fetch::Fetcher, slice::store_slice};
use super::{connection, record_failure};
use crate::wire::job_error;
use crate::{Done, Handler, JobContext, Runtime};

/// Largest report page (`RequestPagination`: maximum 5000).
pub const REPORT_PAGE: u64 = 5000;
/// Days of the first sync (DAILY reports start at most 90 days back).
pub const FIRST_DAYS: i64 = 90;
/// Days re-fetched by every later sync (Apple restates them).
pub const TRAILING_DAYS: i64 = 30;
/// Older days backfilled per run.
pub const BACKFILL_DAYS: i64 = 7;
/// How far back history goes.
pub const HISTORY_DAYS: i64 = 730;
/// Campaigns named in one report request's `campaignId IN` filter.
pub const CAMPAIGNS_PER_REQUEST: usize = 100;
/// Days per request of the keyword, search-term and ad levels.
pub const FINE_SLICE_DAYS: i64 = 15;

fn day(d: Date) -> String {
    d.to_string()
}

fn parse_day(s: &str) -> Option<Date> {
    Date::parse(s.get(..10)?, format_description!("[year]-[month]-[day]")).ok()
}

/// The report path of a level (`/reports/apps/{path}/query`), also its name in logs (and so
/// in the phases `searchdeck bench sync` reads from them).
pub fn path(level: Level) -> &'static str {
    match level {
        Level::Campaign => "campaigns",
        Level::AdGroup => "adgroups",
        Level::Keyword => "keywords",
        Level::SearchTerm => "searchterms",
        Level::Ad => "ads",
    }
}

fn slice_days(level: Level) -> i64 {
    match level {
        Level::Campaign | Level::AdGroup => FIRST_DAYS,
        _ => FINE_SLICE_DAYS,
    }
}

/// The ad account's today at `now`: the date in its time zone (an IANA name, as Apple's
/// `timeZone`), which is where its DAILY reports end. An unknown zone counts as UTC.
pub fn account_today(now: OffsetDateTime, time_zone: Option<&str>) -> Date {
    let offset = time_zone.and_then(|name| {
        let zone = match jiff::tz::TimeZone::get(name) {
            Ok(zone) => zone,
            Err(e) => {
                tracing::warn!(time_zone = name, error = %e, "unknown ad account time zone; using UTC");
                return None;
            }
        };
        let at = jiff::Timestamp::from_second(now.unix_timestamp()).ok()?;
        UtcOffset::from_whole_seconds(zone.to_offset(at).seconds()).ok()
    });
    now.to_offset(offset.unwrap_or(UtcOffset::UTC)).date()
}

/// The days one run fetches for a group: the DAILY window and the backfilled days.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub window: (Date, Date),
    /// Older single days, newest first.
    pub backfill: Vec<Date>,
}

/// What to fetch given the stored range (`from`, `through`) and the floor of history.
pub fn plan(end: Date, from: Option<Date>, through: Option<Date>, floor: Option<Date>) -> Plan {
    let oldest_daily = end - Duration::days(FIRST_DAYS - 1);
    let start = match through {
        None => oldest_daily,
        Some(t) => (end - Duration::days(TRAILING_DAYS))
            .min(t)
            .max(oldest_daily),
    };
    let history_floor = (end - Duration::days(HISTORY_DAYS - 1)).max(floor.unwrap_or(Date::MIN));
    let oldest_stored = from.map_or(start, |f| f.min(start));
    let mut backfill = Vec::new();
    let mut d = oldest_stored - Duration::days(1);
    while backfill.len() < BACKFILL_DAYS as usize && d >= history_floor {
        backfill.push(d);
        d -= Duration::days(1);
    }
    Plan {
        window: (start, end),
        backfill,
    }
}

impl Handler for SyncReports {
    /// The sync is given up: the connection's data is not arriving ([`record_failure`]).
    async fn gave_up(&self, runtime: &Runtime, reason: &str) {
        record_failure(runtime, &self.account_id, reason).await;
    }

    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<SyncReportsProgress>, JobError> {
        let db = &ctx.runtime.db;
        let Some(account) = connection(db, &self.account_id).await? else {
            return Ok(Done::message("Connection removed"));
        };
        let client = ctx.runtime.provider_for(&account)?;
        let selected: Vec<_> = store::accounts::orgs(&db.pool, &account.id)
            .await?
            .into_iter()
            .filter(|o| o.selected)
            .collect();
        let mut progress = SyncReportsProgress::default();
        let total_steps = (selected.len().max(1) * Level::ALL.len()) as i64 + 1;
        for (i, org) in selected.iter().enumerate() {
            let org_key = synced::ensure_org(
                &db.pool,
                &account.id,
                org.org_id,
                org.currency.as_deref(),
                org.time_zone.as_deref(),
            )
            .await?;
            let state = synced::org(&db.pool, org_key).await?;
            // The ad account's today, by its time zone and the provider's clock (the `Date`
            // of this answer): the newest day Apple reports for it.
            let details = client.ad_account(org.org_id).await.map_err(job_error)?;
            let time_zone = details
                .timezone
                .as_deref()
                .or(state.as_ref().and_then(|s| s.time_zone.as_deref()))
                .or(org.time_zone.as_deref());
            let now = client.server_time().unwrap_or_else(OffsetDateTime::now_utc);
            let end = account_today(now, time_zone);
            // How far this very job got with the group before its worker died: finished
            // levels are kept, not fetched again (the plan below comes from the state written
            // when the group is done, so it is the same as the first run's).
            let done_through = state
                .as_ref()
                .and_then(|s| s.metrics_job.as_deref())
                .and_then(|m| m.strip_prefix(ctx.job_id.as_str()))
                .and_then(|m| m.strip_prefix(':'))
                .map(|m| {
                    if m == "done" {
                        i64::MAX
                    } else {
                        m.parse().unwrap_or(0)
                    }
                })
                .unwrap_or(0);
            if done_through == i64::MAX {
                continue;
            }
            let floor = synced::earliest_campaign_day(&db.pool, org_key).await?;
            let plan = plan(
                end,
                state
                    .as_ref()
                    .and_then(|s| s.metrics_from.as_deref())
                    .and_then(parse_day),
                state
                    .as_ref()
                    .and_then(|s| s.metrics_through.as_deref())
                    .and_then(parse_day),
                floor.as_deref().and_then(parse_day),
            );
            let campaigns = synced::campaign_ids(&db.pool, org_key).await?;
            let mut fetcher = Fetcher {
                client: client.as_ref(),
                db,
                org_id: org.org_id,
                org_key,
                campaigns: &campaigns,
                progress: std::mem::take(&mut progress),
            };
            for (l, level) in Level::ALL.into_iter().enumerate() {
                ctx.check_cancelled()?;
                if level.code() <= done_through {
                    continue;
                }
                let step = (i * Level::ALL.len() + l) as i64;
                let started = std::time::Instant::now();
                let (requests_before, rows_before) =
                    (fetcher.progress.requests, fetcher.progress.rows);
                ctx.progress(
                    &format!("Syncing metrics of {}: {}", org.display_name, path(level)),
                    step,
                    total_steps,
                    Some(&fetcher.progress),
                )
                .await;
                if level != Level::Campaign && campaigns.is_empty() {
                    // No campaign, no rows: clear the window all the same.
                    let (from, to) = plan.window;
                    synced::metrics::replace_days(
                        &db.pool,
                        org_key,
                        level,
                        &day(from),
                        &day(to),
                        &[],
                    )
                    .await?;
                    store::report_facts::refresh(db, org_key, level, from).await?;
                    continue;
                }
                let (start, end) = plan.window;
                let mut from = start;
                while from <= end {
                    let to = (from + Duration::days(slice_days(level) - 1)).min(end);
                    let rows = fetcher.fetch(level, from, to, true).await?;
                    fetcher.progress.rows += rows.rows();
                    store_slice(db, org_key, level, rows).await?;
                    from = to + Duration::days(1);
                    ctx.check_cancelled()?;
                }
                for &d in &plan.backfill {
                    let rows = fetcher.fetch(level, d, d, false).await?;
                    fetcher.progress.rows += rows.rows();
                    store_slice(db, org_key, level, rows).await?;
                    ctx.check_cancelled()?;
                }
                // The day blobs the reports read, refreshed once per level from the window's
                // first day (before the checkpoint, so a worker killed in between redoes the
                // level and its refresh). The backfilled days all precede the stored ones:
                // the refresh prepends them by itself, without rewriting the days between.
                let refresh_started = std::time::Instant::now();
                store::report_facts::refresh(db, org_key, level, start).await?;
                let refresh_ms = refresh_started.elapsed().as_millis() as u64;
                let marker = format!("{}:{}", ctx.job_id, level.code());
                synced::set_metrics_checkpoint(&db.pool, org_key, &marker).await?;
                tracing::info!(
                    org_id = org.org_id,
                    level = path(level),
                    from = %plan.window.0,
                    through = %plan.window.1,
                    backfilled = plan.backfill.len(),
                    requests = fetcher.progress.requests - requests_before,
                    rows = fetcher.progress.rows - rows_before,
                    ms = started.elapsed().as_millis() as u64,
                    refresh_ms,
                    "metrics level synced"
                );
            }
            progress = fetcher.progress;
            let oldest = plan.backfill.last().copied().unwrap_or(plan.window.0);
            synced::set_metrics_synced(
                &db.pool,
                org_key,
                &day(oldest),
                &day(plan.window.1),
                ids::now_ms() / 1000,
                &format!("{}:done", ctx.job_id),
            )
            .await?;
        }
        synced::set_last_synced(&db.pool, &account.id, ids::now_ms()).await?;
        tracing::info!(
            account_id = %account.id,
            requests = progress.requests,
            rows = progress.rows,
            "metrics synced"
        );
        Ok(Done::with_progress("Sync completed", progress))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn an_ad_accounts_today_is_the_date_in_its_time_zone() {
        let at = |s: &str| {
            OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).unwrap()
        };
        let early = at("2026-11-23T03:00:00Z");
        assert_eq!(
            account_today(early, Some("America/Los_Angeles")),
            date!(2026 - 11 - 22)
        );
        assert_eq!(
            account_today(early, Some("Europe/Berlin")),
            date!(2026 - 11 - 23)
        );
        assert_eq!(
            account_today(at("2026-11-23T20:00:00Z"), Some("Asia/Tokyo")),
            date!(2026 - 11 - 24)
        );
        // Daylight saving time: 07:30 UTC is 00:30 in Los Angeles in July (UTC-7).
        assert_eq!(
            account_today(at("2026-07-01T07:30:00Z"), Some("America/Los_Angeles")),
            date!(2026 - 07 - 01)
        );
        // Unknown or missing zones count as UTC.
        assert_eq!(
            account_today(early, Some("Mars/Olympus")),
            date!(2026 - 11 - 23)
        );
        assert_eq!(account_today(early, None), date!(2026 - 11 - 23));
    }

    #[test]
    fn first_sync_takes_90_days_then_30_and_backfills_older_days_newest_first() {
        let end = date!(2026 - 06 - 30);
        let first = plan(end, None, None, None);
        assert_eq!(first.window, (date!(2026 - 04 - 02), end));
        assert_eq!(first.backfill.first(), Some(&date!(2026 - 04 - 01)));
        assert_eq!(first.backfill.len(), BACKFILL_DAYS as usize);
        let later = plan(end, Some(date!(2026 - 03 - 26)), Some(end), None);
        assert_eq!(later.window, (date!(2026 - 05 - 31), end));
        assert_eq!(later.backfill[0], date!(2026 - 03 - 25));
        // A long pause reaches back to the newest stored day, within the DAILY limit.
        let paused = plan(
            end,
            Some(date!(2026 - 03 - 01)),
            Some(date!(2026 - 05 - 01)),
            None,
        );
        assert_eq!(paused.window.0, date!(2026 - 05 - 01));
        let very_old = plan(
            end,
            Some(date!(2025 - 01 - 01)),
            Some(date!(2025 - 02 - 01)),
            None,
        );
        assert_eq!(very_old.window.0, date!(2026 - 04 - 02));
        // No history before the first campaign.
        let floor = plan(end, None, None, Some(date!(2026 - 03 - 30)));
        assert_eq!(
            floor.backfill,
            vec![
                date!(2026 - 04 - 01),
                date!(2026 - 03 - 31),
                date!(2026 - 03 - 30)
            ]
        );
    }
}
