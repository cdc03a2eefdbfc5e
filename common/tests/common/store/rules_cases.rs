//! Conformance cases of `store::rules` (run on both backends by the `store` suite): rules
//! stored, attached to campaigns within the plan's limits and listed, and the campaigns
//! report's `rules` and `optimizationTypes` columns they feed.

use searchdeck_common::{
    Db,
    plan::Plan,
    report::{self, Cancel, Context, ReportBody},
    rules::Rule,
    store::{
        self,
        optimizations::Optimization,
        rules::{RuleFilter, RuleRef},
    },
    test_support::connected_org,
};
use serde_json::json;

fn rule(id: &str, account_id: &str, name: &str, created_at: i64) -> Rule {
    let mut r: Rule = serde_json::from_value(json!({
        "name": name, "accountId": account_id, "orgId": "42", "level": "CAMPAIGNS",
        "conditions": {"operator": "AND", "groups": [{"operator": "AND", "conditions": [
            {"type": "metric", "metric": "taps", "operator": "GREATER_THAN", "value": "1"}]}]},
        "window": {"type": "last", "days": 7}, "frequency": {"type": "hourly"},
        "actions": [{"type": "pause"}]
    }))
    .unwrap();
    r.id = id.into();
    r.created_by = Some("ann@example.com".into());
    r.created_at = created_at;
    r.updated_at = created_at;
    r
}

async fn campaign(db: &Db, org_key: i64, id: i64, name: &str) {
    sqlx::query(
        "INSERT INTO asa_campaigns (org_key, id, name, status, synced_at) VALUES ($1, $2, $3, 'ENABLED', 1)",
    )
    .bind(org_key)
    .bind(id)
    .bind(name)
    .execute(&db.pool)
    .await
    .unwrap();
}

pub async fn rules_attachments_limits_and_lists(db: &Db) {
    let (ws, account, _) = connected_org(db, "rules@example.com").await;
    let (other_ws, other_account, _) = connected_org(db, "rules-other@example.com").await;
    let pool = &db.pool;
    store::rules::insert(pool, &ws, None, &rule("r1", &account, "First", 10), 42)
        .await
        .unwrap();
    store::rules::insert(pool, &ws, None, &rule("r2", &account, "Second", 20), 42)
        .await
        .unwrap();
    store::rules::insert(
        pool,
        &other_ws,
        None,
        &rule("x1", &other_account, "Theirs", 30),
        42,
    )
    .await
    .unwrap();
    assert_eq!(store::rules::count(pool, &ws).await.unwrap(), 2);
    assert!(
        store::rules::get(pool, &ws, "x1").await.unwrap().is_none(),
        "scoped"
    );

    let mut tx = pool.begin().await.unwrap();
    for c in [100, 200, 300] {
        store::rules::attach(&mut *tx, "r1", c, 1).await.unwrap();
    }
    store::rules::attach(&mut *tx, "r1", 100, 2).await.unwrap();
    store::rules::attach(&mut *tx, "r2", 200, 1).await.unwrap();
    store::rules::attach(&mut *tx, "x1", 900, 1).await.unwrap();
    tx.commit().await.unwrap();

    // The list: newest first, with the org's currency; filters narrow it.
    let all = store::rules::list(pool, &ws, &RuleFilter::default())
        .await
        .unwrap();
    let ids: Vec<&str> = all.iter().map(|r| r.rule.id.as_str()).collect();
    assert_eq!(ids, ["r2", "r1"]);
    assert_eq!(all[0].rule.currency.as_deref(), Some("USD"));
    assert_eq!(all[0].rule.created_by.as_deref(), Some("ann@example.com"));
    let ws_ref = ws.as_str();
    let only = |f: RuleFilter| async move {
        store::rules::list(pool, ws_ref, &f)
            .await
            .unwrap()
            .into_iter()
            .map(|r| r.rule.id)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        only(RuleFilter {
            campaign_id: Some(300),
            ..Default::default()
        })
        .await,
        ["r1"]
    );
    assert_eq!(
        only(RuleFilter {
            org_id: Some(7),
            ..Default::default()
        })
        .await,
        Vec::<String>::new()
    );
    assert_eq!(
        only(RuleFilter {
            account_id: Some(account.clone()),
            org_id: Some(42),
            campaign_id: Some(200)
        })
        .await,
        ["r2", "r1"]
    );
    assert_eq!(
        store::rules::links(pool, &ws).await.unwrap(),
        [
            ("r1".to_string(), 100, true),
            ("r1".to_string(), 200, true),
            ("r1".to_string(), 300, true),
            ("r2".to_string(), 200, true)
        ]
    );
    assert_eq!(
        store::rules::attached_campaigns(pool, &ws).await.unwrap(),
        [100, 200, 300]
    );

    // Toggle, detach, keep only some, and the rules of one campaign.
    assert!(store::rules::toggle(pool, "r1", 200, false).await.unwrap());
    assert!(!store::rules::toggle(pool, "r1", 999, false).await.unwrap());
    assert_eq!(
        store::rules::campaigns(pool, "r1").await.unwrap(),
        [(100, true), (200, false), (300, true)]
    );
    assert_eq!(
        store::rules::rules_of_campaigns(pool, &ws, &account, 42, &[200, 900])
            .await
            .unwrap(),
        [
            (
                200,
                RuleRef {
                    id: "r1".into(),
                    name: "First".into(),
                    enabled: false
                }
            ),
            (
                200,
                RuleRef {
                    id: "r2".into(),
                    name: "Second".into(),
                    enabled: true
                }
            ),
        ],
        "another workspace's rule of campaign 900 is not ours"
    );
    assert!(store::rules::detach(pool, "r1", 300).await.unwrap());
    assert!(!store::rules::detach(pool, "r1", 300).await.unwrap());
    assert_eq!(
        store::rules::detach_except(pool, "r1", &[200])
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        store::rules::campaigns(pool, "r1").await.unwrap(),
        [(200, false)]
    );
    assert_eq!(
        store::rules::detach_campaign_except(pool, &ws, 200, &["r2".to_string()])
            .await
            .unwrap(),
        1
    );
    assert_eq!(store::rules::campaigns(pool, "r1").await.unwrap(), []);
    assert_eq!(
        store::rules::detach_campaign_except(pool, &other_ws, 200, &[])
            .await
            .unwrap(),
        0,
        "scoped"
    );
    assert_eq!(
        store::rules::detach_except(pool, "r2", &[]).await.unwrap(),
        1
    );

    // Replace: disabled, then enabled again moves enabled_at to now.
    let mut r1 = store::rules::get(pool, &ws, "r1").await.unwrap().unwrap();
    assert_eq!(r1.enabled_at, 10);
    r1.rule.enabled = false;
    r1.rule.name = "Renamed".into();
    assert!(
        store::rules::replace(pool, &ws, &r1.rule, 42, 50)
            .await
            .unwrap()
    );
    let stored = store::rules::get(pool, &ws, "r1").await.unwrap().unwrap();
    assert_eq!(
        (
            stored.rule.name.as_str(),
            stored.rule.enabled,
            stored.enabled_at,
            stored.rule.updated_at
        ),
        ("Renamed", false, 10, 50)
    );
    r1.rule.enabled = true;
    assert!(
        store::rules::replace(pool, &ws, &r1.rule, 42, 60)
            .await
            .unwrap()
    );
    assert_eq!(
        store::rules::get(pool, &ws, "r1")
            .await
            .unwrap()
            .unwrap()
            .enabled_at,
        60
    );
    assert!(
        store::rules::replace(pool, &ws, &r1.rule, 42, 70)
            .await
            .unwrap()
    );
    assert_eq!(
        store::rules::get(pool, &ws, "r1")
            .await
            .unwrap()
            .unwrap()
            .enabled_at,
        60,
        "enabled already"
    );
    assert!(
        !store::rules::replace(pool, &other_ws, &r1.rule, 42, 70)
            .await
            .unwrap(),
        "scoped"
    );

    // Delete many: only the workspace's.
    let ids = ["r1".to_string(), "x1".to_string(), "r2".to_string()];
    assert_eq!(
        store::rules::existing(pool, &ws, &ids).await.unwrap(),
        ["r1", "r2"]
    );
    assert_eq!(store::rules::delete_many(pool, &ws, &ids).await.unwrap(), 2);
    assert_eq!(store::rules::count(pool, &ws).await.unwrap(), 0);
    assert_eq!(store::rules::count(pool, &other_ws).await.unwrap(), 1);
}

/// The campaigns report shows each row's attached rules and, on a Growth plan, its goal
/// optimisation; on Pro the optimisation is locked (null, listed in `locked`).
pub async fn campaigns_report_shows_rules_and_goals(db: &Db) {
    let (ws, account, org_key) = connected_org(db, "columns@example.com").await;
    let pool = &db.pool;
    campaign(db, org_key, 501, "Brand").await;
    campaign(db, org_key, 502, "Generic").await;
    campaign(db, org_key, 503, "Gone").await;
    sqlx::query("UPDATE asa_campaigns SET deleted = 1 WHERE org_key = $1 AND id = 503")
        .bind(org_key)
        .execute(pool)
        .await
        .unwrap();
    assert_eq!(
        store::campaign_views::campaign_count(pool, org_key)
            .await
            .unwrap(),
        2,
        "the campaign limit counts the group's campaigns not deleted"
    );
    assert_eq!(
        store::campaign_views::campaign_count(pool, org_key + 1_000)
            .await
            .unwrap(),
        0
    );
    store::rules::insert(
        pool,
        &ws,
        None,
        &rule("c1", &account, "Pause losers", 1),
        42,
    )
    .await
    .unwrap();
    store::rules::attach(pool, "c1", 501, 1).await.unwrap();
    sqlx::query("UPDATE asa_campaigns SET body = '{\"id\": 501}' WHERE id = 501")
        .execute(pool)
        .await
        .unwrap();
    assert_eq!(
        store::synced::campaign_bodies(pool, org_key, &[501, 502, 999])
            .await
            .unwrap(),
        [(501, Some(r#"{"id": 501}"#.to_string())), (502, None)],
        "the bodies the sync compares with"
    );
    store::optimizations::set(
        pool,
        &Optimization {
            workspace_id: ws.clone(),
            account_id: account.clone(),
            org_id: 42,
            campaign_id: 502,
            kind: "CPA_GOAL".into(),
            target_micros: Some(2_500_000),
            cohort_days: None,
            max_step_percent: 15,
            created_by_email: None,
            enabled_at: 1,
            updated_at: 1,
        },
    )
    .await
    .unwrap();
    let q = ReportBody {
        level: Some("CAMPAIGNS".into()),
        start_date: Some("2026-01-01".into()),
        end_date: Some("2026-01-02".into()),
        ..ReportBody::default()
    }
    .parse()
    .unwrap();
    for plan in [Plan::Growth, Plan::ProFree] {
        let ctx = Context {
            workspace_id: ws.clone(),
            org: store::report_entities::sync_org_of(pool, &account, 42)
                .await
                .unwrap(),
            account_id: account.clone(),
            columns: plan.columns(),
        };
        let r = report::run(db, &Default::default(), &ctx, &q, &Cancel::new())
            .await
            .unwrap();
        let row = |id: &str| {
            r.items
                .iter()
                .find(|i| i["campaignId"] == json!(id))
                .unwrap_or_else(|| panic!("campaign {id} in {:?}", r.items))
                .clone()
        };
        assert_eq!(
            row("501")["rules"],
            json!([{"id": "c1", "name": "Pause losers", "enabled": true}])
        );
        assert_eq!(row("502")["rules"], json!(null));
        assert_eq!(row("501")["optimizationTypes"], json!(null));
        if plan == Plan::Growth {
            assert_eq!(
                row("502")["optimizationTypes"],
                json!({"type": "CPA_GOAL", "target": "2.50", "currency": "USD", "cohortDay": null, "maxStepPercent": 15})
            );
            assert!(!r.locked.contains(&"optimizationTypes".to_string()));
        } else {
            assert_eq!(row("502")["optimizationTypes"], json!(null));
            assert!(r.locked.contains(&"optimizationTypes".to_string()));
        }
    }
}
