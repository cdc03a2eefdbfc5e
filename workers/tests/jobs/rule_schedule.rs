//! The scheduler's rule triggers (docs/api/rules.md "Scheduling"), at fixed clock readings:
//! two schedulers ticking at once enqueue a rule's period once; a scheduler down over due
//! times enqueues only the latest period on return; a rule does not fire before its first
//! due time after it was enabled; a running scheduler sends a period to the queue once, not
//! on every tick. On every backend (see `support`).

use searchdeck_common::{
    queue::Enqueued,
    rules::{Rule, schedule::parse_period},
    store,
    test_support::connected_org,
};
use searchdeck_scheduler::{RuleTriggers, tick_rules};

use crate::support::{Kind, TestEnv};

searchdeck_common::per_backend!([sqlite, postgres, redis]
    two_schedulers_enqueue_a_rule_period_once,
    a_scheduler_back_from_downtime_enqueues_only_the_latest_period,
    a_rule_waits_for_its_first_due_time_after_enabling,
    a_running_scheduler_sends_a_period_to_the_queue_once,
);

/// Unix seconds of an RFC 3339 instant.
fn at(text: &str) -> i64 {
    parse_period(text).unwrap()
}

/// A rule daily at 06:00 (UTC: the group has no time zone), enabled at `enabled_at`, with
/// one campaign.
async fn daily_rule(env: &TestEnv, enabled_at: i64) -> String {
    let (workspace, account, _) = connected_org(
        &env.db,
        &format!("{}@example.com", searchdeck_common::ids::new_id()),
    )
    .await;
    let mut rule: Rule = serde_json::from_value(serde_json::json!({
        "name": "Daily", "accountId": account, "orgId": "42", "level": "KEYWORDS",
        "conditions": {"operator": "AND", "groups": [{"operator": "AND", "conditions": [
            {"type": "metric", "metric": "taps", "operator": "GREATER_THAN", "value": "1"}]}]},
        "window": {"type": "last", "days": 7},
        "frequency": {"type": "daily", "hour": 6},
        "actions": [{"type": "pause"}]
    }))
    .unwrap();
    rule.id = searchdeck_common::ids::new_id();
    rule.created_at = enabled_at;
    rule.updated_at = enabled_at;
    store::rules::insert(&env.db.pool, &workspace, None, &rule, 42)
        .await
        .unwrap();
    store::rules::attach(&env.db.pool, &rule.id, 1870001, enabled_at)
        .await
        .unwrap();
    rule.id
}

/// The periods enqueued as new jobs by one tick at `now`, for rule `id`.
async fn new_periods(env: &TestEnv, id: &str, now: i64) -> Vec<String> {
    tick_rules(&env.db, &env.queue, now)
        .await
        .unwrap()
        .into_iter()
        .filter(|(job, r)| job.rule == id && matches!(r.as_ref().unwrap(), Enqueued::New(_)))
        .map(|(job, _)| job.period)
        .collect()
}

async fn two_schedulers_enqueue_a_rule_period_once(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let id = daily_rule(&env, at("2026-11-01T00:00:00Z")).await;
    let now = at("2026-11-27T07:00:00Z");
    let (a, b) = tokio::join!(
        tick_rules(&env.db, &env.queue, now),
        tick_rules(&env.db, &env.queue, now)
    );
    let mine = |r: Vec<(searchdeck_common::jobs::RunRule, anyhow::Result<Enqueued>)>| {
        r.into_iter().find(|(j, _)| j.rule == id).unwrap()
    };
    let (ja, ra) = mine(a.unwrap());
    let (jb, rb) = mine(b.unwrap());
    assert_eq!(ja.period, "2026-11-27T06:00:00Z");
    assert_eq!(ja, jb);
    let new = [ra.unwrap(), rb.unwrap()]
        .iter()
        .filter(|r| matches!(r, Enqueued::New(_)))
        .count();
    assert_eq!(new, 1);
    // A later tick in the same period is a duplicate.
    assert!(
        new_periods(&env, &id, at("2026-11-27T23:59:00Z"))
            .await
            .is_empty()
    );
}

async fn a_scheduler_back_from_downtime_enqueues_only_the_latest_period(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let id = daily_rule(&env, at("2026-11-01T00:00:00Z")).await;
    assert_eq!(
        new_periods(&env, &id, at("2026-11-24T07:00:00Z")).await,
        ["2026-11-24T06:00:00Z"]
    );
    // Down from the 24th to the 27th: three due times passed; only the 27th's runs.
    assert_eq!(
        new_periods(&env, &id, at("2026-11-27T09:30:00Z")).await,
        ["2026-11-27T06:00:00Z"]
    );
    assert!(
        new_periods(&env, &id, at("2026-11-27T09:31:00Z"))
            .await
            .is_empty()
    );
}

async fn a_rule_waits_for_its_first_due_time_after_enabling(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let id = daily_rule(&env, at("2026-11-27T09:00:00Z")).await;
    assert!(
        new_periods(&env, &id, at("2026-11-27T09:00:01Z"))
            .await
            .is_empty()
    );
    assert!(
        new_periods(&env, &id, at("2026-11-28T05:59:59Z"))
            .await
            .is_empty()
    );
    assert_eq!(
        new_periods(&env, &id, at("2026-11-28T06:00:00Z")).await,
        ["2026-11-28T06:00:00Z"]
    );
    // Without an enabled campaign it is not triggered at all.
    sqlx::query("UPDATE rule_campaigns SET enabled = 0 WHERE rule_id = $1")
        .bind(&id)
        .execute(&env.db.pool)
        .await
        .unwrap();
    assert!(
        new_periods(&env, &id, at("2026-11-29T06:00:00Z"))
            .await
            .is_empty()
    );
}

async fn a_running_scheduler_sends_a_period_to_the_queue_once(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let id = daily_rule(&env, at("2026-11-01T00:00:00Z")).await;
    let mut triggers = RuleTriggers::default();
    let sent = |r: Vec<(searchdeck_common::jobs::RunRule, anyhow::Result<Enqueued>)>| {
        r.into_iter()
            .filter(|(j, _)| j.rule == id)
            .map(|(j, r)| (j.period, matches!(r.unwrap(), Enqueued::New(_))))
            .collect::<Vec<_>>()
    };
    let first = triggers
        .tick(&env.db, &env.queue, at("2026-11-27T07:00:00Z"))
        .await
        .unwrap();
    assert_eq!(sent(first), [("2026-11-27T06:00:00Z".to_string(), true)]);
    // Later ticks in the period do not ask the queue again.
    for later in ["2026-11-27T07:00:15Z", "2026-11-27T23:59:00Z"] {
        let again = triggers.tick(&env.db, &env.queue, at(later)).await.unwrap();
        assert!(sent(again).is_empty(), "sent again at {later}");
    }
    // Another scheduler (without this one's memory) is answered a duplicate.
    let other = tick_rules(&env.db, &env.queue, at("2026-11-27T08:00:00Z"))
        .await
        .unwrap();
    assert_eq!(sent(other), [("2026-11-27T06:00:00Z".to_string(), false)]);
    // The next period is sent.
    let next = triggers
        .tick(&env.db, &env.queue, at("2026-11-28T06:00:00Z"))
        .await
        .unwrap();
    assert_eq!(sent(next), [("2026-11-28T06:00:00Z".to_string(), true)]);
}
