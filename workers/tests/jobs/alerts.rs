//! `deliver-alert`: an alert's emails reach the outbox (the workspace's owners and admins,
//! or the alert's own recipients) and its Slack post reaches the workspace's webhook, a
//! loopback HTTP server here that fails the first post with a 500: the job retries, posts
//! once more, and sends no email twice.

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{Router, extract::State, http::StatusCode, routing::post};
use searchdeck_common::{
    email::EmailSender,
    ids::{new_id, now_ms},
    jobs::DeliverAlert,
    queue::outbox::{self, OutboxOptions},
    secrets::SecretBox,
    store::{self, alerts::NewAlert, users::NewUser},
    test_support::owner,
};
use serde_json::Value;

use crate::support::{Kind, TestEnv, eventually};
use crate::sync::{Connected, connected};

searchdeck_common::per_backend!([sqlite, postgres] alerts_reach_email_and_slack_retrying_a_failed_post);

/// What the webhook received, and how many posts it still fails.
#[derive(Default)]
struct Hook {
    posts: Vec<Value>,
    fail_next: usize,
}

async fn hook(State(hook): State<Arc<Mutex<Hook>>>, body: axum::Json<Value>) -> StatusCode {
    let mut h = hook.lock().unwrap();
    h.posts.push(body.0);
    if h.fail_next > 0 {
        h.fail_next -= 1;
        StatusCode::INTERNAL_SERVER_ERROR
    } else {
        StatusCode::OK
    }
}

/// A loopback webhook failing its first `fail` posts; its URL and what it received.
async fn webhook(fail: usize) -> (String, Arc<Mutex<Hook>>) {
    let state = Arc::new(Mutex::new(Hook {
        posts: Vec::new(),
        fail_next: fail,
    }));
    let app = Router::new()
        .route("/services/hook", post(hook))
        .with_state(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}/services/hook"), state)
}

/// Adds user `email` to `workspace_id` with `role`.
async fn member(env: &TestEnv, workspace_id: &str, email: &str, role: &str) {
    let id = new_id();
    store::users::insert(
        &env.db.pool,
        NewUser {
            id: &id,
            email,
            password_hash: "h",
            full_name: "M",
            source: "",
            now: now_ms(),
        },
    )
    .await
    .unwrap();
    store::workspaces::add_member(&env.db.pool, workspace_id, &id, role, now_ms())
        .await
        .unwrap();
}

/// Stores an alert and its delivery job in one transaction, as every raiser does.
async fn raise(env: &TestEnv, workspace_id: &str, id: &str, emails: Vec<String>, slack: bool) {
    let alert = NewAlert {
        id: id.into(),
        workspace_id: workspace_id.into(),
        kind: store::alerts::BUDGET_EXHAUSTED,
        cause_key: format!("test:{id}"),
        account_id: None,
        org_id: Some(42),
        campaign_id: Some(7),
        rule_id: None,
        run_id: None,
        title: "Budget exhausted: Brand US".into(),
        message: "Campaign Brand US spent its daily budget.".into(),
        emails,
        email: true,
        slack,
        created_at: now_ms() / 1000,
    };
    let mut tx = env.db.pool.begin().await.unwrap();
    assert!(store::alerts::insert(&mut *tx, &alert).await.unwrap());
    outbox::push(
        &mut *tx,
        &DeliverAlert {
            alert_id: id.into(),
        },
        OutboxOptions::default(),
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

async fn alerts_reach_email_and_slack_retrying_a_failed_post(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let (_, workspace_id) = owner(&env.db, "owner@example.com").await;
    member(&env, &workspace_id, "admin@example.com", "admin").await;
    member(&env, &workspace_id, "writer@example.com", "writer").await;
    let (url, received) = webhook(1).await;
    let secrets = SecretBox::from_config(&env.config).unwrap();
    let sealed = secrets.seal(&store::slack::context(&workspace_id), url.as_bytes());
    store::slack::set(&env.db.pool, &workspace_id, &sealed, None, 1)
        .await
        .unwrap();

    raise(&env, &workspace_id, "al-1", Vec::new(), true).await;
    raise(
        &env,
        &workspace_id,
        "al-2",
        vec!["ops@example.com".into()],
        false,
    )
    .await;
    let worker = env.start_worker();
    let sender = EmailSender::from_config(&env.config).unwrap();
    let sent = eventually(Duration::from_secs(120), "the alerts delivered", || async {
        let posted = store::alerts::get(&env.db.pool, "al-1")
            .await
            .unwrap()?
            .slack_sent_at;
        let emails = sender.outbox().await.unwrap();
        (posted.is_some() && emails.len() >= 3).then_some(emails)
    })
    .await;
    // The jobs have ended and their rows been updated.
    env.queue_settled().await;
    worker.stop().await;

    let mut to: Vec<&str> = sent.iter().map(|e| e.to.as_str()).collect();
    to.sort_unstable();
    assert_eq!(
        to,
        ["admin@example.com", "ops@example.com", "owner@example.com"],
        "owners and admins, or the alert's own recipients; each once although the Slack post was retried"
    );
    assert!(
        sent.iter()
            .all(|e| e.subject == "Searchdeck alert: Budget exhausted: Brand US")
    );
    assert!(sent[0].body.contains("spent its daily budget"));
    let posts = received.lock().unwrap().posts.clone();
    assert_eq!(posts.len(), 2, "the failed post and its retry: {posts:?}");
    assert_eq!(
        posts[1],
        serde_json::json!({"text": "*Budget exhausted: Brand US*\nCampaign Brand US spent its daily budget."})
    );
    let al2 = store::alerts::get(&env.db.pool, "al-2")
        .await
        .unwrap()
        .unwrap();
    assert!(
        al2.emailed_at.is_some() && al2.slack_sent_at.is_none(),
        "no Slack asked"
    );
    let runs: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM emails")
        .fetch_one(&env.db.pool)
        .await
        .unwrap();
    assert_eq!(runs, 0, "every queued email was sent and erased");
}

searchdeck_common::per_backend!([sqlite, postgres] the_sync_raises_an_alert_once_per_appearance_of_a_reason);

/// Runs one entity sync of `account_id` to its end.
async fn sync_once(env: &TestEnv, account_id: &str) {
    let task = searchdeck_workers::sandbox_account::queue_sync(&env.db, &env.queue, account_id)
        .await
        .unwrap();
    // A liveness wait, as `sync::entity_sync_done`'s: four full entity syncs of the sandbox's
    // world in one test, each beside a dozen other tests on 2 cores (one took over 120 s
    // when the suite's first wave started, 2026-12-02).
    let (_, error, _) = eventually(Duration::from_secs(300), "the entity sync", || async {
        let state = env.task_state(&task).await;
        state.0.then_some(state)
    })
    .await;
    assert_eq!(error, None, "the sync failed");
}

/// Sets what the sandbox holds campaign `id` back for.
async fn hold_back(sandbox: &str, id: i64, reasons: &[&str]) {
    let res = reqwest::Client::new()
        .put(format!("{sandbox}/sandbox/campaigns/{id}/systemStatus"))
        .json(&serde_json::json!({ "reasons": reasons }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::OK);
}

/// The alerts stored: (kind, campaign, cause), oldest first.
async fn alerts(env: &TestEnv) -> Vec<(String, i64, String)> {
    sqlx::query_as("SELECT kind, campaign_id, cause_key FROM alerts ORDER BY created_at, cause_key")
        .fetch_all(&env.db.pool)
        .await
        .unwrap()
}

async fn the_sync_raises_an_alert_once_per_appearance_of_a_reason(kind: Kind) {
    let Some(Connected {
        sandbox,
        env,
        account,
        ..
    }) = connected(kind).await
    else {
        return;
    };
    let worker = env.start_worker();
    sync_once(&env, &account).await;
    assert_eq!(alerts(&env).await, [], "a first sync raises nothing");
    let (org_id, campaign): (i64, i64) = sqlx::query_as(
        "SELECT o.org_id, c.id FROM asa_campaigns c JOIN sync_orgs o ON o.org_key = c.org_key \
         WHERE o.account_id = $1 AND c.deleted = 0 AND c.status = 'ENABLED' ORDER BY c.id LIMIT 1",
    )
    .bind(&account)
    .fetch_one(&env.db.pool)
    .await
    .unwrap();

    hold_back(
        &sandbox,
        campaign,
        &["LIFETIME_BUDGET_EXHAUSTED", "AD_GROUPS_MISSING"],
    )
    .await;
    sync_once(&env, &account).await;
    let first = alerts(&env).await;
    let kinds: Vec<(&str, i64)> = first.iter().map(|(k, c, _)| (k.as_str(), *c)).collect();
    assert_eq!(
        kinds,
        [
            ("AD_GROUP_MISSING", campaign),
            ("BUDGET_EXHAUSTED", campaign)
        ]
    );
    assert!(
        first[1]
            .2
            .starts_with(&format!("BUDGET_EXHAUSTED:{org_id}:{campaign}:")),
        "{first:?}"
    );
    let stored: String = sqlx::query_scalar("SELECT body FROM asa_campaigns WHERE id = $1")
        .bind(campaign)
        .fetch_one(&env.db.pool)
        .await
        .unwrap();
    assert!(
        stored.contains("\"ON_HOLD\""),
        "the sandbox answers the campaign held back: {stored}"
    );

    // Still there at the next sync: nothing new. Cleared, then back: raised again.
    sync_once(&env, &account).await;
    assert_eq!(alerts(&env).await, first, "a reason that stays raises once");
    hold_back(&sandbox, campaign, &[]).await;
    sync_once(&env, &account).await;
    assert_eq!(alerts(&env).await, first);
    // A later listing stamp (whole seconds) than the one that first saw it.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    hold_back(
        &sandbox,
        campaign,
        &["MONTHLY_BUDGET_EXHAUSTED", "PAUSED_BY_SYSTEM"],
    )
    .await;
    sync_once(&env, &account).await;
    let after: Vec<(String, i64)> = alerts(&env)
        .await
        .into_iter()
        .map(|(k, c, _)| (k, c))
        .collect();
    assert_eq!(
        after,
        [
            ("AD_GROUP_MISSING".to_string(), campaign),
            ("BUDGET_EXHAUSTED".to_string(), campaign),
            ("BUDGET_EXHAUSTED".to_string(), campaign),
            ("PAUSED_BY_SYSTEM".to_string(), campaign),
        ]
    );
    // Every alert has its delivery job, which delivered it (no members to email, no Slack).
    eventually(Duration::from_secs(120), "the deliveries", || async {
        let undelivered: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM alerts WHERE emailed_at IS NULL")
                .fetch_one(&env.db.pool)
                .await
                .unwrap();
        (undelivered == 0).then_some(())
    })
    .await;
    worker.stop().await;
}
