//! Conformance cases of `store::tasks` (run on both backends by the `store` suite): a task is
//! seen only in its workspace, carries its connection and campaign group, finishes once and
//! keeps each message it showed; and store functions of several areas compose in one
//! transaction that rolls back whole.

use searchdeck_common::{Db, ids::now_ms, store, tasks::NewTask, test_support::owner};

/// A task of connection `connection-1`'s campaign group 4200000123.
fn scoped_task(workspace_id: &str) -> NewTask<'_> {
    NewTask {
        workspace_id,
        user_id: None,
        kind: "sync-reports",
        message: "Syncing metrics",
        total_steps: 1,
        account_id: Some("connection-1"),
        org_id: Some(4_200_000_123),
    }
}

pub async fn tasks_are_scoped_and_finish_once(db: &Db) {
    let (user_id, workspace_id) = owner(db, "task@example.com").await;
    let task = NewTask {
        workspace_id: &workspace_id,
        user_id: Some(&user_id),
        kind: "k",
        message: "Queued",
        total_steps: 3,
        account_id: None,
        org_id: None,
    };
    let id = store::tasks::create(&db.pool, task).await.unwrap();
    // A task of one connection and campaign group says so; the others say nothing.
    let scoped = NewTask {
        workspace_id: &workspace_id,
        user_id: None,
        kind: "sync-reports",
        message: "Syncing metrics",
        total_steps: 1,
        account_id: Some("connection-1"),
        org_id: Some(4_200_000_123),
    };
    let scoped = store::tasks::create(&db.pool, scoped).await.unwrap();
    let scope_of = |t: Option<searchdeck_common::tasks::TaskRecord>| {
        let t = t.unwrap();
        (t.account_id, t.org_id)
    };
    assert_eq!(
        scope_of(
            store::tasks::in_workspace(&db.pool, &workspace_id, &scoped)
                .await
                .unwrap()
        ),
        (Some("connection-1".to_string()), Some(4_200_000_123))
    );
    assert_eq!(
        scope_of(
            store::tasks::in_workspace(&db.pool, &workspace_id, &id)
                .await
                .unwrap()
        ),
        (None, None)
    );
    // The unfinished tasks of some kinds in one campaign group (running creations).
    let creation = store::tasks::create(
        &db.pool,
        NewTask {
            kind: "create-campaigns",
            message: "Creating campaigns...",
            ..scoped_task(&workspace_id)
        },
    )
    .await
    .unwrap();
    let in_org = |kinds: &'static [&'static str], org_id: i64| {
        let workspace_id = workspace_id.clone();
        async move {
            store::tasks::unfinished_in_org(&db.pool, &workspace_id, "connection-1", org_id, kinds)
                .await
                .unwrap()
                .into_iter()
                .map(|t| t.id)
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
        }
    };
    let both: &[&str] = &["create-campaigns", "sync-reports"];
    let mut two = vec![scoped.clone(), creation.clone()];
    two.sort();
    assert_eq!(in_org(both, 4_200_000_123).await, two);
    assert_eq!(
        in_org(&["create-campaigns"], 4_200_000_123).await,
        std::slice::from_ref(&creation)
    );
    assert!(in_org(both, 7).await.is_empty(), "another campaign group");
    assert!(in_org(&[], 4_200_000_123).await.is_empty());
    assert!(
        store::tasks::unfinished_in_org(&db.pool, "other", "connection-1", 4_200_000_123, both)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        store::tasks::finish(&db.pool, &creation, "Done", None)
            .await
            .unwrap()
    );
    assert_eq!(
        in_org(both, 4_200_000_123).await,
        std::slice::from_ref(&scoped),
        "finished: gone"
    );
    store::tasks::progress(
        &db.pool,
        &id,
        "Working",
        1,
        3,
        Some(&serde_json::json!({"n": 1})),
    )
    .await
    .unwrap();
    assert_eq!(store::tasks::attempt(&db.pool, &id).await.unwrap(), 1);
    let t = store::tasks::in_workspace(&db.pool, &workspace_id, &id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (
            t.message.as_str(),
            t.step,
            t.percent,
            t.details["n"].as_i64()
        ),
        ("Working", 1, 25, Some(1))
    );
    assert!(
        store::tasks::in_workspace(&db.pool, "other", &id)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store::tasks::finish(&db.pool, &id, "Done", None)
            .await
            .unwrap()
    );
    assert!(
        !store::tasks::finish(&db.pool, &id, "Again", Some("x"))
            .await
            .unwrap()
    );
    store::tasks::progress(&db.pool, &id, "Late", 2, 3, None)
        .await
        .unwrap();
    let list = store::tasks::for_user(&db.pool, &workspace_id, &user_id, 60_000, 10)
        .await
        .unwrap();
    assert_eq!(
        (
            list.len(),
            list[0].message.as_str(),
            list[0].step,
            list[0].finish
        ),
        (1, "Done", 3, true)
    );
    // Every message shown, in order, each once (a repeated progress adds none; a finished
    // task takes no more).
    let phases = store::tasks::in_workspace(&db.pool, &workspace_id, &id)
        .await
        .unwrap()
        .unwrap()
        .phases;
    let first = phases.first().cloned().unwrap_or_default();
    assert_eq!(
        phases[1..],
        ["Working".to_string(), "Done".to_string()],
        "{first} then…"
    );
    let quoted = store::tasks::create(
        &db.pool,
        NewTask {
            workspace_id: &workspace_id,
            user_id: Some(&user_id),
            kind: "test",
            message: "Starting \"now\"",
            total_steps: 3,
            account_id: None,
            org_id: None,
        },
    )
    .await
    .unwrap();
    for m in ["Step \\ one", "Step \\ one", "Step two", "Done"] {
        store::tasks::progress(&db.pool, &quoted, m, 1, 3, None)
            .await
            .unwrap();
    }
    let t = store::tasks::in_workspace(&db.pool, &workspace_id, &quoted)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        t.phases,
        ["Starting \"now\"", "Step \\ one", "Step two", "Done"]
    );
}

pub async fn store_functions_compose_in_one_transaction(db: &Db) {
    let (user_id, workspace_id) = owner(db, "tx@example.com").await;
    let mut tx = db.pool.begin().await.unwrap();
    store::users::set_password(&mut *tx, &user_id, "changed", now_ms())
        .await
        .unwrap();
    let options = store::options::Owner {
        user_id: &user_id,
        workspace_id: &workspace_id,
    };
    store::options::upsert(&mut *tx, options, "k", "1", 1, 1)
        .await
        .unwrap();
    let task = NewTask {
        workspace_id: &workspace_id,
        user_id: None,
        kind: "k",
        message: "",
        total_steps: 0,
        account_id: None,
        org_id: None,
    };
    store::tasks::create(&mut *tx, task).await.unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(
        store::users::password_hash(&db.pool, &user_id)
            .await
            .unwrap(),
        "h"
    );
    assert!(
        store::options::all(&db.pool, options)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        store::tasks::for_user(&db.pool, &workspace_id, &user_id, 60_000, 10)
            .await
            .unwrap()
            .is_empty()
    );
}
