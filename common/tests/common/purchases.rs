//! Conformance of the purchases store (`store::purchases`) on SQLite and, with
//! `TEST_DATABASE_URL`, PostgreSQL: flags and ends round-trip, newest first per workspace,
//! each trial kind once per workspace (the database refuses a second), a failed payment
//! marked, purchases going with their workspace; and the plan derived from what is stored.
//! Also the connections' sync states the appleDataIssues banner reads
//! (`store::accounts::record_sync_failure`, `sync_states`).

use searchdeck_common::{
    Db,
    ids::{new_id, now_ms},
    plan::{
        self, Plan,
        derive::{DAY_MS, PRO_TRIAL_MS, Purchase, TrialKind},
    },
    store::{self, accounts::SyncState, purchases, users::NewUser},
};

conformance!("sd_purchases";
    purchases_round_trip_newest_first_per_workspace,
    each_trial_kind_is_had_once_per_workspace,
    a_failed_payment_is_marked_and_purchases_go_with_the_workspace,
    the_plan_follows_the_stored_purchases,
    sync_failures_and_syncs_are_read_per_workspace,
);

async fn workspace(db: &Db) -> String {
    let ws = new_id();
    store::workspaces::insert(&db.pool, &ws, "Acme", now_ms())
        .await
        .unwrap();
    ws
}

fn pro_trial(now: i64) -> Purchase {
    Purchase {
        id: new_id(),
        name: "pro".into(),
        free: false,
        trial: true,
        full: false,
        organization: false,
        trial_kind: Some(TrialKind::Pro),
        suggester: true,
        payment_failed: false,
        started_at: now,
        off_account_time: Some(now + PRO_TRIAL_MS),
    }
}

fn growth(now: i64) -> Purchase {
    Purchase {
        id: new_id(),
        name: "growth".into(),
        free: false,
        trial: false,
        full: true,
        organization: true,
        trial_kind: None,
        suggester: false,
        payment_failed: false,
        started_at: now,
        off_account_time: None,
    }
}

async fn purchases_round_trip_newest_first_per_workspace(db: &Db) {
    let (a, b) = (workspace(db).await, workspace(db).await);
    let now = now_ms();
    let trial = pro_trial(now - 20 * DAY_MS);
    let bought = growth(now - DAY_MS);
    purchases::insert(&db.pool, &a, &trial, now).await.unwrap();
    purchases::insert(&db.pool, &a, &bought, now).await.unwrap();
    assert_eq!(purchases::all(&db.pool, &a).await.unwrap(), [bought, trial]);
    assert!(purchases::all(&db.pool, &b).await.unwrap().is_empty());
}

async fn each_trial_kind_is_had_once_per_workspace(db: &Db) {
    let (a, b) = (workspace(db).await, workspace(db).await);
    let now = now_ms();
    purchases::insert(&db.pool, &a, &pro_trial(now), now)
        .await
        .unwrap();
    let again = purchases::insert(&db.pool, &a, &pro_trial(now + 1), now).await;
    assert!(
        again.as_ref().is_err_and(Db::is_unique_violation),
        "{again:?}"
    );
    // Another kind, and the same kind in another workspace, are fine; paid plans repeat.
    let pre = Purchase {
        trial_kind: Some(TrialKind::Pre),
        ..pro_trial(now + 2)
    };
    purchases::insert(&db.pool, &a, &pre, now).await.unwrap();
    purchases::insert(&db.pool, &b, &pro_trial(now), now)
        .await
        .unwrap();
    purchases::insert(&db.pool, &a, &growth(now), now)
        .await
        .unwrap();
    purchases::insert(&db.pool, &a, &growth(now + 3), now)
        .await
        .unwrap();
    assert_eq!(purchases::all(&db.pool, &a).await.unwrap().len(), 4);
}

async fn a_failed_payment_is_marked_and_purchases_go_with_the_workspace(db: &Db) {
    let a = workspace(db).await;
    let now = now_ms();
    let p = growth(now);
    purchases::insert(&db.pool, &a, &p, now).await.unwrap();
    assert!(
        purchases::set_payment_failed(&db.pool, &a, &p.id, true)
            .await
            .unwrap()
    );
    assert!(
        !purchases::set_payment_failed(&db.pool, "elsewhere", &p.id, true)
            .await
            .unwrap()
    );
    assert!(purchases::all(&db.pool, &a).await.unwrap()[0].payment_failed);
    sqlx::query("DELETE FROM workspaces WHERE id = $1")
        .bind(&a)
        .execute(&db.pool)
        .await
        .unwrap();
    assert!(purchases::all(&db.pool, &a).await.unwrap().is_empty());
}

async fn the_plan_follows_the_stored_purchases(db: &Db) {
    let a = workspace(db).await;
    let now = now_ms();
    let engines = searchdeck_common::Engines::default();
    assert_eq!(engines.plan(db, &a).await.unwrap(), Plan::ProFree);
    let trial = pro_trial(now - DAY_MS);
    purchases::insert(&db.pool, &a, &trial, now).await.unwrap();
    assert_eq!(engines.plan(db, &a).await.unwrap(), Plan::ProTrial);
    let after = engines.standing(db, &a, now + PRO_TRIAL_MS).await.unwrap();
    assert_eq!(after.plan, Plan::ProFree);
    assert_eq!(after.ended.map(|p| p.id), Some(trial.id));
}

async fn sync_failures_and_syncs_are_read_per_workspace(db: &Db) {
    let (user, now) = (new_id(), now_ms());
    let email = format!("{user}@example.com");
    let new_user = NewUser {
        id: &user,
        email: &email,
        password_hash: "h",
        full_name: "",
        source: "",
        now,
    };
    store::users::insert(&db.pool, new_user).await.unwrap();
    let (a, b) = (workspace(db).await, workspace(db).await);
    let connect = |ws: String, provider_user_id: i64| {
        let (db, user) = (db.clone(), user.clone());
        async move {
            let id = new_id();
            let account = store::accounts::NewAccount {
                provider_user_id,
                ..store::accounts::NewAccount::without_credentials(&id, &ws, &user, "c", now)
            };
            store::accounts::upsert(&db.pool, account).await.unwrap()
        }
    };
    let (first, _second, other) = (
        connect(a.clone(), 1).await,
        connect(a.clone(), 2).await,
        connect(b.clone(), 1).await,
    );
    let fresh = SyncState {
        last_synced_at: None,
        sync_failed_at: None,
        delivered_through: None,
    };
    assert_eq!(
        store::accounts::sync_states(&db.pool, &a).await.unwrap(),
        [fresh.clone(), fresh.clone()]
    );
    store::synced::set_last_synced(&db.pool, &first, now - 10)
        .await
        .unwrap();
    store::accounts::record_sync_failure(&db.pool, &first, now)
        .await
        .unwrap();
    store::accounts::record_sync_failure(&db.pool, &other, now - 5)
        .await
        .unwrap();
    let mut states = store::accounts::sync_states(&db.pool, &a).await.unwrap();
    states.sort_by_key(|s| s.sync_failed_at);
    assert_eq!(
        states,
        [
            fresh.clone(),
            SyncState {
                last_synced_at: Some(now - 10),
                sync_failed_at: Some(now),
                delivered_through: None,
            }
        ]
    );
    assert!(plan::prompts::data_issues(&states, now));
    assert_eq!(
        store::accounts::sync_states(&db.pool, &b).await.unwrap(),
        [SyncState {
            last_synced_at: None,
            sync_failed_at: Some(now - 5),
            delivered_through: None,
        }]
    );
    // Apple's newest served day per selected campaign group: the connection reports the group
    // furthest behind; a group no longer selected, or not synced yet, does not count.
    let group = |org_id: i64, selected: bool, zone: &str| store::accounts::OrgRow {
        org_id,
        display_name: format!("Group {org_id}"),
        currency: Some("USD".into()),
        time_zone: Some(zone.into()),
        permission: "ADMIN".into(),
        selected,
    };
    for (org_id, selected, zone, through) in [
        (11, true, "UTC", Some("2026-11-30")),
        (12, true, "Asia/Tokyo", Some("2026-11-28")),
        (13, false, "UTC", Some("2026-11-01")),
        (14, true, "UTC", None),
    ] {
        store::accounts::upsert_org(&db.pool, &first, &group(org_id, selected, zone), now)
            .await
            .unwrap();
        let key = store::synced::ensure_org(&db.pool, &first, org_id, Some("USD"), Some(zone))
            .await
            .unwrap();
        if let Some(day) = through {
            store::synced::set_metrics_synced(&db.pool, key, "2026-11-01", day, now / 1000, "job")
                .await
                .unwrap();
        }
    }
    let states = store::accounts::sync_states(&db.pool, &a).await.unwrap();
    let first_state = states
        .iter()
        .find(|s| s.last_synced_at == Some(now - 10))
        .expect("the first connection");
    assert_eq!(
        first_state.delivered_through,
        Some(("2026-11-28".to_string(), Some("Asia/Tokyo".to_string())))
    );
    assert_eq!(states.len(), 2, "one state per connection: {states:?}");
}
