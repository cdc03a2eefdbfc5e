//! The store conformance suite: every store implementation, on every backend.
//!
//! Each case runs on SQLite always and on PostgreSQL when `TEST_DATABASE_URL` is set (under
//! `CI=true` a missing URL fails). The report facts run on each backend's native pool, the
//! area stores over the `Any` pool, so one suite holds both backends to the same behaviour.
//!
//! The cases live in one file per store or store family (`<store>_cases.rs`) and are listed
//! once below, so each runs as `store::sqlite::<case>` and `store::postgres::<case>`; the day
//! rows every facts case builds on are here.

mod rules_cases;
use rules_cases::{campaigns_report_shows_rules_and_goals, rules_attachments_limits_and_lists};
mod optimizations_cases;
use optimizations_cases::optimizations_alerts_and_slack;
mod rule_runs_cases;
use rule_runs_cases::{
    rule_runs_given_up_end_failed_once, rule_runs_plan_once_results_and_schedule,
};
mod negative_lists_cases;
use negative_lists_cases::{
    negative_lists_terms_places_and_records, product_ads_join_creatives_pages_and_scope,
};
mod facts_cases;
use facts_cases::{
    facts_refresh_follows_restatements_and_backfilled_history,
    facts_sum_exactly_for_every_range_and_scope, facts_write_large_batches_and_daily_series,
};
mod fact_blobs_cases;
use fact_blobs_cases::{
    facts_blobs_stay_exact_through_restatements_backfills_and_deletions,
    facts_reads_see_one_generation_while_a_refresh_runs,
};
mod report_caches_cases;
use report_caches_cases::{
    report_caches_follow_writes_of_other_processes,
    reports_during_back_to_back_refreshes_show_one_state,
    rule_attributes_follow_edits_of_other_processes,
};
mod users_cases;
use users_cases::{
    recovery_codes_are_single_use, recovery_codes_die_after_wrong_guesses,
    users_sessions_and_workspaces,
};
mod tasks_cases;
use tasks_cases::{store_functions_compose_in_one_transaction, tasks_are_scoped_and_finish_once};
mod fx_cases;
use fx_cases::{
    fx_rates_are_the_latest_on_or_before_a_day,
    reports_over_currencies_give_subtotals_and_convert_at_stored_rates,
};
mod suggester_cases;
use suggester_cases::suggester_results_timings_defaults_and_places;
mod creation_cases;
use creation_cases::creation_entities_are_recorded_once_per_job;
mod pull_cases;
use pull_cases::pulls_replace_their_days_and_keep_their_status;
mod app_store_connect_cases;
use app_store_connect_cases::app_store_sales_replace_their_days;
mod spend_cases;
use spend_cases::last_month_spend_is_memoised_until_new_synced_data;

use searchdeck_common::{
    Db,
    store::report_facts::{Counters, DayRow, FactLevel},
    test_support::{MigratedDb, connected_org},
};
use time::{Date, Month};

async fn sqlite() -> MigratedDb {
    MigratedDb::sqlite().await
}

async fn postgres() -> Option<MigratedDb> {
    MigratedDb::postgres("sd_store").await
}

/// Runs each listed case as `sqlite::<case>` and `postgres::<case>`.
macro_rules! conformance {
    ($($case:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test]
            async fn $case() {
                let f = super::sqlite().await;
                super::$case(&f.db).await;
            })*
        }
        mod postgres {
            $(#[tokio::test]
            async fn $case() {
                if let Some(f) = super::postgres().await {
                    super::$case(&f.db).await;
                }
            })*
        }
    };
}

conformance!(
    rule_attributes_follow_edits_of_other_processes,
    rule_runs_plan_once_results_and_schedule,
    rule_runs_given_up_end_failed_once,
    facts_sum_exactly_for_every_range_and_scope,
    facts_refresh_follows_restatements_and_backfilled_history,
    facts_write_large_batches_and_daily_series,
    facts_blobs_stay_exact_through_restatements_backfills_and_deletions,
    facts_reads_see_one_generation_while_a_refresh_runs,
    report_caches_follow_writes_of_other_processes,
    reports_during_back_to_back_refreshes_show_one_state,
    users_sessions_and_workspaces,
    recovery_codes_are_single_use,
    recovery_codes_die_after_wrong_guesses,
    tasks_are_scoped_and_finish_once,
    store_functions_compose_in_one_transaction,
    fx_rates_are_the_latest_on_or_before_a_day,
    reports_over_currencies_give_subtotals_and_convert_at_stored_rates,
    suggester_results_timings_defaults_and_places,
    negative_lists_terms_places_and_records,
    product_ads_join_creatives_pages_and_scope,
    creation_entities_are_recorded_once_per_job,
    rules_attachments_limits_and_lists,
    optimizations_alerts_and_slack,
    campaigns_report_shows_rules_and_goals,
    last_month_spend_is_memoised_until_new_synced_data,
    pulls_replace_their_days_and_keep_their_status,
    app_store_sales_replace_their_days,
);

fn day(d: u8) -> Date {
    Date::from_calendar_date(2026, Month::November, d).unwrap()
}

/// A synced campaign group (the facts' foreign key) of a new workspace's connection.
async fn org(db: &Db, email: &str) -> i64 {
    connected_org(db, email).await.2
}

fn fact(org_key: i64, level: FactLevel, d: u8, entity: i64, seed: i64) -> DayRow {
    let mut counters = Counters::default();
    for (i, c) in counters.0.iter_mut().enumerate() {
        *c = (seed * 31 + i as i64 * 7 + d as i64 * 3) % 97;
    }
    counters.0[10] = seed * 1_000_003 + d as i64;
    DayRow {
        org_key,
        level,
        day: day(d),
        entity_id: entity,
        campaign_id: 10 + entity % 2,
        ad_group_id: 20 + entity % 3,
        counters,
    }
}
