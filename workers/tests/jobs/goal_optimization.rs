//! Goal optimisation end to end (issue 24; docs/api/rules.md "Goal optimisation"): a
//! campaign's CPT goal, stored as `PUT optimization/one/{id}` stores it, is picked up by the
//! scheduler's rule triggers (daily at 06:00 of the group's time zone, once per period), run
//! by a worker as the built-in rule, and moves the keywords' bids toward the target at the
//! sandbox by at most the optimisation's step: each move is in our synced rows and is one
//! change record of source `goal_optimization` carrying the run's id.

use std::{collections::HashMap, time::Duration};

use rust_decimal::Decimal;
use searchdeck_common::{
    ids,
    queue::Enqueued,
    store::{self, optimizations::Optimization, rule_runs},
};
use searchdeck_sandbox::{Sandbox, SandboxConfig};
use searchdeck_scheduler::tick_rules;

use crate::support::{Kind, eventually};
use crate::sync::{Connected, connected_to, first_usd_org, start_sync, synced};

/// The largest bid step per run of the optimisation.
const STEP_PERCENT: i64 = 10;

fn micros(text: &str) -> i64 {
    let d: Decimal = text.parse().unwrap();
    (d * Decimal::from(1_000_000)).try_into().unwrap()
}

async fn goal_optimization_runs_from_the_scheduler_to_the_provider(kind: Kind) {
    let sandbox = Sandbox::new(SandboxConfig::default());
    let Some(Connected { env, account, .. }) = connected_to(kind, sandbox.clone()).await else {
        return;
    };
    let worker = env.start_worker();
    start_sync(&env, &account).await;
    eventually(Duration::from_secs(300), "the first sync", || async {
        synced(&env, &account).await.then_some(())
    })
    .await;
    let (org_key, org_id, workspace) = first_usd_org(&env, &account).await;
    // The campaign with the most taps: its keywords have the data the rule asks for.
    let campaign: i64 = sqlx::query_scalar(
        "SELECT m.campaign_id FROM asa_day_metrics m WHERE m.org_key = $1 \
         GROUP BY m.campaign_id ORDER BY SUM(m.taps) DESC, m.campaign_id LIMIT 1",
    )
    .bind(org_key)
    .fetch_one(&env.db.pool)
    .await
    .unwrap();
    // Through yesterday complete, as after the nightly sync.
    searchdeck_common::test_support::metrics_delivered(
        &env.db,
        None,
        Some(org_key),
        ids::now_ms() / 1000,
    )
    .await;
    let before: HashMap<i64, i64> = sqlx::query_as(
        "SELECT id, bid_micros FROM asa_keywords WHERE org_key = $1 AND campaign_id = $2 \
         AND deleted = 0 AND bid_micros IS NOT NULL",
    )
    .bind(org_key)
    .bind(campaign)
    .fetch_all(&env.db.pool)
    .await
    .unwrap()
    .into_iter()
    .collect();

    // A CPT goal of one cent: every keyword with data is above it, so every move is a cut
    // as large as the step allows.
    let now = ids::now_ms() / 1000;
    let optimization = Optimization {
        workspace_id: workspace.clone(),
        account_id: account.clone(),
        org_id,
        campaign_id: campaign,
        kind: store::optimizations::CPT_GOAL.into(),
        target_micros: Some(10_000),
        cohort_days: None,
        max_step_percent: STEP_PERCENT,
        created_by_email: Some("owner@example.com".into()),
        enabled_at: now - 3 * 86_400,
        updated_at: now,
    };
    store::optimizations::set(&env.db.pool, &optimization)
        .await
        .unwrap();
    let run_key = rule_runs::optimization_key(&account, org_id, campaign);

    // The scheduler enqueues its latest due period once.
    let enqueued: Vec<_> = tick_rules(&env.db, &env.queue, now)
        .await
        .unwrap()
        .into_iter()
        .filter(|(job, _)| job.rule == run_key)
        .collect();
    assert_eq!(enqueued.len(), 1, "{enqueued:?}");
    let (job, result) = &enqueued[0];
    assert!(matches!(result, Ok(Enqueued::New(_))), "{result:?}");
    assert_eq!(job.trigger, "SCHEDULE");
    let again = tick_rules(&env.db, &env.queue, now + 60).await.unwrap();
    assert!(
        again
            .iter()
            .filter(|(j, _)| j.rule == run_key)
            .all(|(_, r)| matches!(r, Ok(Enqueued::Duplicate))),
        "a second tick in the period enqueued it again"
    );

    let run = eventually(
        Duration::from_secs(180),
        "the optimisation's run",
        || async {
            rule_runs::by_period(&env.db.pool, &run_key, &job.period)
                .await
                .unwrap()
                .filter(|r| {
                    [rule_runs::DONE, rule_runs::FAILED, rule_runs::SKIPPED]
                        .contains(&r.status.as_str())
                })
        },
    )
    .await;
    worker.stop().await;
    assert_eq!(
        (
            run.status.as_str(),
            run.source.as_str(),
            run.reason.as_deref()
        ),
        (
            rule_runs::DONE,
            store::activity::changes::GOAL_OPTIMIZATION,
            None
        )
    );
    assert!(run.applied >= 1, "nothing applied: {run:?}");
    assert_eq!(run.refused, 0, "{run:?}");

    let items = rule_runs::items(&env.db.pool, &run.id).await.unwrap();
    let applied: Vec<_> = items
        .iter()
        .filter(|i| i.result == rule_runs::ITEM_APPLIED)
        .collect();
    assert_eq!(applied.len() as i64, run.applied);
    let world = sandbox.world.read();
    for i in &applied {
        assert_eq!((i.level.as_str(), i.campaign_id), ("KEYWORD", campaign));
        let old = micros(i.old_value.as_deref().unwrap());
        let new = micros(i.new_value.as_deref().unwrap());
        assert_eq!(
            before.get(&i.entity_id),
            Some(&old),
            "keyword {}",
            i.entity_id
        );
        // A cut bounded by the step (and floored to the cent).
        let floor = old * (100 - STEP_PERCENT) / 100;
        assert!(
            new < old && new >= floor - 10_000,
            "keyword {}: {old} → {new}, more than {STEP_PERCENT} %",
            i.entity_id
        );
        let at_sandbox = world.keywords[&i.entity_id].bid.current();
        assert_eq!(at_sandbox, new, "keyword {} at the sandbox", i.entity_id);
        let ours: i64 = sqlx::query_scalar(
            "SELECT bid_micros FROM asa_keywords WHERE org_key = $1 AND id = $2",
        )
        .bind(org_key)
        .bind(i.entity_id)
        .fetch_one(&env.db.pool)
        .await
        .unwrap();
        assert_eq!(ours, new, "keyword {} here", i.entity_id);
    }
    // One change record per move, of the optimisation's source and run.
    let records: Vec<(i64, String, Option<String>, Option<String>)> = sqlx::query_as(
        "SELECT entity_id, job_id, old_value, new_value FROM change_records \
         WHERE source = 'goal_optimization' ORDER BY entity_id",
    )
    .fetch_all(&env.db.pool)
    .await
    .unwrap();
    assert_eq!(records.len(), applied.len(), "{records:?}");
    for (entity, job_id, old, new) in &records {
        assert_eq!(job_id, &run.id);
        let item = applied.iter().find(|i| i.entity_id == *entity).unwrap();
        assert_eq!(
            (old.as_deref().map(micros), new.as_deref().map(micros)),
            (
                item.old_value.as_deref().map(micros),
                item.new_value.as_deref().map(micros)
            )
        );
    }
}

searchdeck_common::per_backend!([sqlite, postgres] goal_optimization_runs_from_the_scheduler_to_the_provider);
