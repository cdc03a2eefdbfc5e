//! Conformance cases of `store::optimizations`, `store::alerts` and `store::slack` (run on
//! both backends by the `store` suite): goal optimisation per campaign, the alerts it and the
//! rules raise, and the workspace's Slack webhook.

use searchdeck_common::{
    Db,
    store::{self, alerts::NewAlert, optimizations::Optimization},
    test_support::connected_org,
};

pub async fn optimizations_alerts_and_slack(db: &Db) {
    let (ws, account, _) = connected_org(db, "goals@example.com").await;
    let (other_ws, _, _) = connected_org(db, "goals-other@example.com").await;
    let pool = &db.pool;
    let goal = |campaign_id: i64, kind: &str, target: Option<i64>, now: i64| Optimization {
        workspace_id: ws.clone(),
        account_id: account.clone(),
        org_id: 42,
        campaign_id,
        kind: kind.into(),
        target_micros: target,
        cohort_days: None,
        max_step_percent: 20,
        created_by_email: Some("ann@example.com".into()),
        enabled_at: now,
        updated_at: now,
    };
    store::optimizations::set(pool, &goal(1, "CPA_GOAL", None, 10))
        .await
        .unwrap();
    store::optimizations::set(pool, &goal(2, "CPT_GOAL", Some(1_500_000), 10))
        .await
        .unwrap();
    // Same type again keeps enabled_at; another type restarts it.
    store::optimizations::set(pool, &goal(1, "CPA_GOAL", Some(2_500_000), 20))
        .await
        .unwrap();
    let one = store::optimizations::get(pool, &ws, &account, 42, 1)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (one.target_micros, one.enabled_at, one.updated_at),
        (Some(2_500_000), 10, 20)
    );
    store::optimizations::set(pool, &goal(1, "CPT_GOAL", Some(100_000), 30))
        .await
        .unwrap();
    assert_eq!(
        store::optimizations::get(pool, &ws, &account, 42, 1)
            .await
            .unwrap()
            .unwrap()
            .enabled_at,
        30
    );
    assert_eq!(
        store::optimizations::list(pool, &ws, None, None)
            .await
            .unwrap()
            .len(),
        2
    );
    assert_eq!(
        store::optimizations::list(pool, &ws, Some(&account), Some(7))
            .await
            .unwrap()
            .len(),
        0
    );
    assert_eq!(
        store::optimizations::list(pool, &other_ws, None, None)
            .await
            .unwrap()
            .len(),
        0
    );
    let of: Vec<i64> = store::optimizations::of_campaigns(pool, &ws, &account, 42, &[2, 3])
        .await
        .unwrap()
        .iter()
        .map(|o| o.campaign_id)
        .collect();
    assert_eq!(of, [2]);
    assert!(
        !store::optimizations::delete(pool, &ws, &account, 42, 2, Some("CPA_GOAL"))
            .await
            .unwrap(),
        "another type"
    );
    assert!(
        store::optimizations::delete(pool, &ws, &account, 42, 2, Some("CPT_GOAL"))
            .await
            .unwrap()
    );
    assert!(
        store::optimizations::delete(pool, &ws, &account, 42, 1, None)
            .await
            .unwrap()
    );
    assert!(
        store::optimizations::list(pool, &ws, None, None)
            .await
            .unwrap()
            .is_empty()
    );

    // Alerts: one per cause; listed newest first, by campaign; dismissed for the workspace.
    let alert = |id: &str, cause: &str, campaign: Option<i64>, at: i64| NewAlert {
        id: id.into(),
        workspace_id: ws.clone(),
        kind: store::alerts::BUDGET_EXHAUSTED,
        cause_key: cause.into(),
        account_id: Some(account.clone()),
        org_id: Some(42),
        campaign_id: campaign,
        rule_id: None,
        run_id: None,
        title: "Budget exhausted".into(),
        message: "Campaign C spent its budget".into(),
        emails: vec!["ops@example.com".into()],
        email: true,
        slack: false,
        created_at: at,
    };
    assert!(
        store::alerts::insert(pool, &alert("a1", "k1", Some(1), 10))
            .await
            .unwrap()
    );
    assert!(
        !store::alerts::insert(pool, &alert("a1b", "k1", Some(1), 11))
            .await
            .unwrap(),
        "one per cause"
    );
    assert!(
        store::alerts::insert(pool, &alert("a2", "k2", Some(2), 20))
            .await
            .unwrap()
    );
    assert!(
        store::alerts::insert(pool, &alert("a3", "k3", None, 30))
            .await
            .unwrap()
    );
    let ids =
        |rows: Vec<store::alerts::AlertRow>| rows.into_iter().map(|a| a.id).collect::<Vec<_>>();
    assert_eq!(
        ids(store::alerts::list(pool, &ws, None).await.unwrap()),
        ["a3", "a2", "a1"]
    );
    assert_eq!(
        ids(store::alerts::list(pool, &ws, Some(&[1, 2])).await.unwrap()),
        ["a2", "a1"]
    );
    assert_eq!(
        ids(store::alerts::list(pool, &ws, Some(&[])).await.unwrap()),
        Vec::<String>::new()
    );
    assert!(
        store::alerts::list(pool, &other_ws, None)
            .await
            .unwrap()
            .is_empty()
    );
    let a1 = store::alerts::get(pool, "a1").await.unwrap().unwrap();
    assert_eq!(
        (a1.emails.clone(), a1.email, a1.slack, a1.emailed_at),
        (vec!["ops@example.com".to_string()], true, false, None)
    );
    store::alerts::mark_emailed(pool, "a1", 40).await.unwrap();
    store::alerts::mark_slack_sent(pool, "a1", 41)
        .await
        .unwrap();
    let a1 = store::alerts::get(pool, "a1").await.unwrap().unwrap();
    assert_eq!((a1.emailed_at, a1.slack_sent_at), (Some(40), Some(41)));
    let both = ["a1".to_string(), "a2".to_string(), "zz".to_string()];
    assert_eq!(
        store::alerts::dismiss(pool, &other_ws, &both, 50)
            .await
            .unwrap(),
        0,
        "scoped"
    );
    assert_eq!(
        store::alerts::open_ids(pool, &ws, &both).await.unwrap(),
        ["a1", "a2"]
    );
    assert_eq!(
        store::alerts::dismiss(pool, &ws, &both, 50).await.unwrap(),
        2
    );
    assert_eq!(
        store::alerts::dismiss(pool, &ws, &both, 51).await.unwrap(),
        0,
        "once"
    );
    assert_eq!(
        ids(store::alerts::list(pool, &ws, None).await.unwrap()),
        ["a3"]
    );
    assert_eq!(
        store::alerts::get(pool, "a1")
            .await
            .unwrap()
            .unwrap()
            .dismissed_at,
        Some(50)
    );

    // Who receives a workspace's alerts: its owners and admins.
    let (writer, _) = searchdeck_common::test_support::owner(db, "writer@example.com").await;
    store::workspaces::add_member(pool, &ws, &writer, "writer", 1)
        .await
        .unwrap();
    let (admin, _) = searchdeck_common::test_support::owner(db, "admin@example.com").await;
    store::workspaces::add_member(pool, &ws, &admin, "admin", 1)
        .await
        .unwrap();
    assert_eq!(
        store::workspaces::manager_emails(pool, &ws).await.unwrap(),
        ["admin@example.com", "goals@example.com"]
    );

    // The Slack webhook: set, replaced, cleared; per workspace.
    assert_eq!(store::slack::sealed(pool, &ws).await.unwrap(), None);
    store::slack::set(pool, &ws, "sealed-1", Some("ann@example.com"), 1)
        .await
        .unwrap();
    store::slack::set(pool, &ws, "sealed-2", None, 2)
        .await
        .unwrap();
    assert_eq!(
        store::slack::sealed(pool, &ws).await.unwrap().as_deref(),
        Some("sealed-2")
    );
    assert_eq!(store::slack::sealed(pool, &other_ws).await.unwrap(), None);
    assert!(store::slack::clear(pool, &ws).await.unwrap());
    assert!(!store::slack::clear(pool, &ws).await.unwrap());
    assert_ne!(store::slack::context(&ws), store::slack::context(&other_ws));
}
