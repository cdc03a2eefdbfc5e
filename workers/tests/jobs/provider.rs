//! The provider client in the worker runtime: every client built in one worker process
//! waits on the process's one rate limiter, so a 429 seen by one pauses the others.

use std::{sync::Arc, time::Duration};

use searchdeck_common::ratelimit::{RateLimitInfo, account_key};
use searchdeck_provider::{Credentials, KeyPair};
use searchdeck_workers::Runtime;

use crate::support::{Kind, TestEnv};

fn credentials(client_id: &str) -> Credentials {
    Credentials::ClientCredentials {
        client_id: client_id.into(),
        team_id: "team".into(),
        key_id: "key".into(),
        key: KeyPair::generate(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_of_one_worker_share_its_rate_limiter() {
    let env = TestEnv::new(Kind::Sqlite).await.unwrap();
    let runtime = Runtime::new(&env.config, env.db.clone(), env.queue.clone())
        .await
        .unwrap();
    let a = runtime.provider(credentials("client-a")).unwrap();
    let b = runtime.provider(credentials("client-b")).unwrap();
    assert!(Arc::ptr_eq(a.gate(), b.gate()), "one limiter per process");
    assert!(Arc::ptr_eq(a.gate(), runtime.gate()));
    assert!(Arc::ptr_eq(a.metrics(), b.metrics()));
    // A 429 answered to one client pauses the ad account for the other. The pause (30 s)
    // is long against the bounds below, so a loaded machine cannot blur them: the paused
    // account is still waiting after 1 s, another account is served well before the pause
    // would have ended (the store's round trip on a busy machine can take a second).
    let pause = Duration::from_secs(30);
    let paused = account_key("4242");
    let info = RateLimitInfo {
        status: 429,
        retry_after: Some(pause),
        ..RateLimitInfo::default()
    };
    a.gate().observe(&paused, &info).await;
    let waited = tokio::time::timeout(Duration::from_secs(1), b.gate().acquire(&paused)).await;
    assert!(waited.is_err(), "the other client waits out the pause");
    tokio::time::timeout(pause / 2, b.gate().acquire(&account_key("7")))
        .await
        .expect("other accounts are not paused")
        .unwrap();
}
