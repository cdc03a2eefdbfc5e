//! The contract-test harness: a sandbox on loopback, a registered key, a client whose
//! observer records every response, and validation of them all against the reference.

use std::sync::{Arc, Mutex};

use searchdeck_provider::{Client, ClientConfig, Credentials, KeyPair, RetryPolicy};
use searchdeck_sandbox::{Sandbox, SandboxConfig};
use serde_json::{Value, json};

use crate::schema;

pub type Seen = Arc<Mutex<Vec<(String, String, u16, Value)>>>;

pub struct Harness {
    pub base: String,
    pub seen: Seen,
    pub client: Client,
    pub key: KeyPair,
    pub ids: (String, String, String),
}

/// A sandbox over the default world with a registered key and a client for it.
pub async fn start() -> Harness {
    start_with(SandboxConfig::default()).await
}

/// Like [`start`] over a sandbox started with `config`.
pub async fn start_with(config: SandboxConfig) -> Harness {
    let sandbox = Sandbox::new(config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        axum::serve(listener, searchdeck_sandbox::app(sandbox))
            .await
            .unwrap()
    });
    let key = KeyPair::generate();
    let ids = register(&base, json!({ "publicKey": key.public_pem() })).await;
    let seen: Seen = Arc::default();
    let client = client(&base, &seen, &ids, key.clone());
    Harness {
        base,
        seen,
        client,
        key,
        ids,
    }
}

/// A client for `ids` signing with `key`, recording responses into `seen`.
pub fn client(base: &str, seen: &Seen, ids: &(String, String, String), key: KeyPair) -> Client {
    client_with(base, seen, ids, key, RetryPolicy::default())
}

/// [`client`] with its own retry policy.
pub fn client_with(
    base: &str,
    seen: &Seen,
    ids: &(String, String, String),
    key: KeyPair,
    retry: RetryPolicy,
) -> Client {
    let mut config = ClientConfig::sandbox(base);
    config.retry = retry;
    client_from(config, seen, ids, key)
}

/// A client built from `config` (limiter, retry policy) recording responses into `seen`.
pub fn client_from(
    mut config: ClientConfig,
    seen: &Seen,
    ids: &(String, String, String),
    key: KeyPair,
) -> Client {
    let sink = seen.clone();
    config.observer = Some(Arc::new(move |m: &str, p: &str, s: u16, b: &Value| {
        sink.lock()
            .unwrap()
            .push((m.into(), p.into(), s, b.clone()))
    }));
    let credentials = Credentials::ClientCredentials {
        client_id: ids.0.clone(),
        team_id: ids.1.clone(),
        key_id: ids.2.clone(),
        key,
    };
    Client::new(config, credentials).unwrap()
}

/// Validates every recorded response against the reference; answers how many.
pub fn validate_all(seen: &Seen) -> usize {
    let reference = schema::Reference::load();
    let seen = seen.lock().unwrap();
    for (method, path, status, body) in seen.iter() {
        reference.check(method, path, *status, body);
    }
    seen.len()
}

/// Registers a key through `POST /sandbox/keys` with `body` (`publicKey`, optionally
/// `adAccountIds`, `readOnly`); answers its `(clientId, teamId, keyId)`.
pub async fn register(base: &str, body: Value) -> (String, String, String) {
    let ids: Value = reqwest::Client::new()
        .post(format!("{base}/sandbox/keys"))
        .json(&body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = |k: &str| ids[k].as_str().unwrap().to_string();
    (id("clientId"), id("teamId"), id("keyId"))
}

/// `timeRange` from `days` ago to today in the sandbox's (UTC) calendar.
pub fn range(days_back: i64, days: i64, granularity: Option<&str>) -> Value {
    let today = time::OffsetDateTime::now_utc().date();
    let start = today - time::Duration::days(days_back);
    let end = start + time::Duration::days(days - 1);
    serde_json::json!({ "start": start.to_string(), "end": end.to_string(), "timeZone": "ORTZ", "granularity": granularity })
}

/// Sum of an integer metric over report rows.
pub fn sum(rows: &[Value], metric: &str) -> u64 {
    rows.iter()
        .map(|r| r["totalMetrics"][metric].as_u64().unwrap())
        .sum()
}
