//! Conformance of the change-record store (`store::activity::changes`) on SQLite and, with
//! `TEST_DATABASE_URL`, PostgreSQL: records listed per workspace newest first and filtered by
//! time, source, level and entity; a bulk-edit job's item recorded once however often the job
//! retries; removing the member or the connection keeps the record, deleting the workspace
//! removes it.

use searchdeck_common::{
    Db,
    ids::{new_id, now_ms},
    store::{
        self,
        activity::changes::{self, Filter, NewChange},
        users::NewUser,
    },
};

conformance!("sd_changes";
    records_are_listed_newest_first_and_filtered,
    a_retried_job_records_each_item_once,
    records_outlive_the_member_and_the_connection,
);

/// A workspace with one member and one connection: (workspace, user, account).
pub(crate) async fn workspace(db: &Db) -> (String, String, String) {
    let (user, ws, account) = (new_id(), new_id(), new_id());
    let email = format!("{user}@example.com");
    let now = now_ms();
    store::users::insert(
        &db.pool,
        NewUser {
            id: &user,
            email: &email,
            password_hash: "h",
            full_name: "",
            source: "",
            now,
        },
    )
    .await
    .unwrap();
    store::workspaces::insert(&db.pool, &ws, "W", now)
        .await
        .unwrap();
    store::workspaces::add_member(&db.pool, &ws, &user, "owner", now)
        .await
        .unwrap();
    store::accounts::upsert(
        &db.pool,
        store::accounts::NewAccount {
            name: "A",
            method: "oauth",
            refresh_token_sealed: Some("v1:x"),
            ..store::accounts::NewAccount::without_credentials(&account, &ws, &user, "c", now)
        },
    )
    .await
    .unwrap();
    (ws, user, account)
}

pub(crate) fn change(
    (ws, user, account): &(String, String, String),
    level: &'static str,
    entity_id: i64,
    field: &str,
    at: i64,
) -> NewChange {
    NewChange {
        id: new_id(),
        workspace_id: ws.clone(),
        user_id: Some(user.clone()),
        user_email: Some("editor@example.com".into()),
        account_id: Some(account.clone()),
        org_id: 100,
        level,
        entity_id,
        campaign_id: 11,
        ad_group_id: (level != "CAMPAIGN").then_some(111),
        entity_name: format!("entity {entity_id}"),
        campaign_name: "Alpha".into(),
        field: field.into(),
        old_value: Some("1".into()),
        new_value: Some("2.5".into()),
        currency: Some("USD".into()),
        source: changes::MANUAL,
        job_id: None,
        notification_id: None,
        created_at: at,
    }
}

/// The records `f` selects (at most 100).
async fn list(db: &Db, f: Filter<'_>) -> Result<Vec<changes::ChangeRow>, sqlx::Error> {
    changes::list(&db.pool, &f, 100).await
}

/// (entity id, field, time) of each record.
fn keys(rows: &[changes::ChangeRow]) -> Vec<(i64, String, i64)> {
    rows.iter()
        .map(|r| (r.entity_id, r.field.clone(), r.created_at))
        .collect()
}

async fn records_are_listed_newest_first_and_filtered(db: &Db) {
    let w = workspace(db).await;
    let other = workspace(db).await;
    let mut auto = change(&w, "KEYWORD", 1001, "cptBid", 300);
    auto.source = "auto_rules";
    auto.user_id = None;
    for c in [
        change(&w, "CAMPAIGN", 11, "dailyBudget", 100),
        change(&w, "CAMPAIGN", 11, "status", 200),
        auto,
        change(&other, "CAMPAIGN", 11, "status", 150),
    ] {
        assert!(
            changes::insert(&mut db.pool.acquire().await.unwrap(), &c)
                .await
                .unwrap()
        );
    }
    let base = Filter {
        workspace_id: &w.0,
        ..Default::default()
    };
    assert_eq!(
        keys(&list(db, base.clone()).await.unwrap()),
        [
            (1001, "cptBid".into(), 300),
            (11, "status".into(), 200),
            (11, "dailyBudget".into(), 100)
        ],
        "the workspace's records, newest first"
    );
    let window = Filter {
        from: Some(150),
        to: Some(300),
        ..base.clone()
    };
    assert_eq!(
        keys(&list(db, window).await.unwrap()),
        [(11, "status".into(), 200)]
    );
    let manual = Filter {
        source: Some(changes::MANUAL),
        ..base.clone()
    };
    assert_eq!(list(db, manual).await.unwrap().len(), 2);
    let keyword = Filter {
        level: Some("KEYWORD"),
        entity_id: Some(1001),
        ..base.clone()
    };
    let rows = list(db, keyword).await.unwrap();
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    assert_eq!(
        (
            r.source,
            r.user_id.as_deref(),
            r.ad_group_id,
            r.old_value.as_deref(),
            r.new_value.as_deref(),
            r.currency.as_deref()
        ),
        (
            "auto_rules",
            None,
            Some(111),
            Some("1"),
            Some("2.5"),
            Some("USD")
        )
    );
    let limited = changes::list(&db.pool, &base, 1).await.unwrap();
    assert_eq!(keys(&limited), [(1001, "cptBid".into(), 300)]);
}

async fn a_retried_job_records_each_item_once(db: &Db) {
    let w = workspace(db).await;
    let with_job = |field: &str, job: &str| {
        let mut c = change(&w, "KEYWORD", 1001, field, 100);
        c.job_id = Some(job.into());
        c
    };
    assert!(
        changes::insert(
            &mut db.pool.acquire().await.unwrap(),
            &with_job("cptBid", "job-1")
        )
        .await
        .unwrap()
    );
    assert!(
        !changes::insert(
            &mut db.pool.acquire().await.unwrap(),
            &with_job("cptBid", "job-1")
        )
        .await
        .unwrap(),
        "a retry records nothing more"
    );
    assert!(
        changes::insert(
            &mut db.pool.acquire().await.unwrap(),
            &with_job("status", "job-1")
        )
        .await
        .unwrap()
    );
    assert!(
        changes::insert(
            &mut db.pool.acquire().await.unwrap(),
            &with_job("cptBid", "job-2")
        )
        .await
        .unwrap(),
        "another job records again"
    );
    // Quick edits (no job) record every time.
    assert!(
        changes::insert(
            &mut db.pool.acquire().await.unwrap(),
            &change(&w, "KEYWORD", 1001, "cptBid", 100)
        )
        .await
        .unwrap()
    );
    assert!(
        changes::insert(
            &mut db.pool.acquire().await.unwrap(),
            &change(&w, "KEYWORD", 1001, "cptBid", 100)
        )
        .await
        .unwrap()
    );
    let f = Filter {
        workspace_id: &w.0,
        ..Default::default()
    };
    assert_eq!(changes::list(&db.pool, &f, 100).await.unwrap().len(), 5);
}

async fn records_outlive_the_member_and_the_connection(db: &Db) {
    let w = workspace(db).await;
    assert!(
        changes::insert(
            &mut db.pool.acquire().await.unwrap(),
            &change(&w, "AD_GROUP", 111, "cpaGoal", 100)
        )
        .await
        .unwrap()
    );
    sqlx::query("DELETE FROM accounts WHERE id = $1")
        .bind(&w.2)
        .execute(&db.pool)
        .await
        .unwrap();
    sqlx::query("DELETE FROM users WHERE id = $1")
        .bind(&w.1)
        .execute(&db.pool)
        .await
        .unwrap();
    let f = Filter {
        workspace_id: &w.0,
        ..Default::default()
    };
    let rows = changes::list(&db.pool, &f, 100).await.unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (
            rows[0].user_id.as_deref(),
            rows[0].account_id.as_deref(),
            rows[0].user_email.as_deref()
        ),
        (None, None, Some("editor@example.com"))
    );
    sqlx::query("DELETE FROM workspaces WHERE id = $1")
        .bind(&w.0)
        .execute(&db.pool)
        .await
        .unwrap();
    assert!(changes::list(&db.pool, &f, 100).await.unwrap().is_empty());
}
