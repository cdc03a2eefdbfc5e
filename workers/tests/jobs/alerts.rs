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
    let sent = eventually(Duration::from_secs(30), "the alerts delivered", || async {
        let posted = store::alerts::get(&env.db.pool, "al-1")
            .await
            .unwrap()?
            .slack_sent_at;
        let emails = sender.outbox().await.unwrap();
        (posted.is_some() && emails.len() >= 3).then_some(emails)
    })
    .await;
    // Let the jobs end and their rows be updated.
    tokio::time::sleep(Duration::from_millis(500)).await;
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
