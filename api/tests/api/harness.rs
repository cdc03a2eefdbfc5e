//! The sandbox suites' harness: a test app whose provider is a sandbox started in-process on
//! a random port, the steps of both connect paths as a user takes them, and the waits the
//! suites share: a connection synced (its entities, or entities and reports) and a task
//! finished.

use std::{
    sync::Mutex,
    time::{Duration, Instant},
};

use crate::common::{TestApp, TestResponse};
use axum::{
    body::Body,
    http::{Method, Request, StatusCode, header},
};
use searchdeck_sandbox::{Sandbox, SandboxConfig};
use secrecy::ExposeSecret;
use serde_json::{Value, json};

/// A test app whose provider is a fresh sandbox; every answer it gives is kept so a test can
/// check that no secret ever left the server.
pub struct Connected {
    pub app: TestApp,
    pub sandbox: String,
    pub http: reqwest::Client,
    seen: Mutex<Vec<String>>,
}

pub async fn start_sandbox() -> String {
    start_sandbox_with(SandboxConfig::default()).await
}

/// [`start_sandbox`] with a configuration of its own (a clock behind ours, faults).
pub async fn start_sandbox_with(config: SandboxConfig) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = searchdeck_sandbox::app(Sandbox::new(config));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

/// Runs each body once per backend, with a sandbox.
#[macro_export]
macro_rules! sandbox_tests {
    ($(async fn $name:ident($t:ident: Connected) $body:block)*) => {
        $(
            mod $name {
                use super::*;
                async fn run($t: Connected) $body
                #[tokio::test]
                async fn sqlite() {
                    let base = start_sandbox().await;
                    let app = TestApp::sqlite_with(&args(&base)).await;
                    run(Connected::new(app, base)).await
                }
                #[tokio::test]
                async fn postgres() {
                    let base = start_sandbox().await;
                    if let Some(app) = TestApp::postgres_with(&args(&base)).await {
                        run(Connected::new(app, base)).await
                    }
                }
            }
        )*
    };
}

pub fn args(base: &str) -> Vec<String> {
    vec!["--provider-base-url".into(), base.into()]
}

/// workspace, Apple Ads user, sealed private key, refresh token, access token.
type SealedRow = (String, i64, Option<String>, Option<String>, Option<String>);

const BOUNDARY: &str = "searchdeck-test-boundary";

/// How long a sync or a task may take before a wait gives up (a debug build on a busy
/// machine), and how often the waits look.
const SYNC_WAIT: Duration = Duration::from_secs(600);
const POLL: Duration = Duration::from_millis(100);

impl Connected {
    pub fn new(app: TestApp, sandbox: String) -> Connected {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        Connected {
            app,
            sandbox,
            http,
            seen: Mutex::new(Vec::new()),
        }
    }

    fn keep(&self, res: TestResponse) -> TestResponse {
        self.seen.lock().unwrap().push(res.json.to_string());
        res
    }

    pub async fn get(&self, path: &str, cookie: &str) -> TestResponse {
        self.keep(self.app.get(path, Some(cookie)).await)
    }

    pub async fn call(
        &self,
        method: Method,
        path: &str,
        body: Value,
        cookie: &str,
    ) -> TestResponse {
        self.keep(
            self.app
                .request(method, path, Some(body), Some(cookie))
                .await,
        )
    }

    pub async fn multipart(
        &self,
        path: &str,
        fields: &[(&str, &str)],
        cookie: &str,
    ) -> TestResponse {
        let mut body = String::new();
        for (name, value) in fields {
            body.push_str(&format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            ));
        }
        body.push_str(&format!("--{BOUNDARY}--\r\n"));
        let req = Request::builder()
            .method(Method::POST)
            .uri(path)
            .header(header::HOST, "localhost:8080")
            .header("x-searchdeck-client", "web")
            .header(header::COOKIE, format!("sd_session={cookie}"))
            .header(
                header::CONTENT_TYPE,
                format!("multipart/form-data; boundary={BOUNDARY}"),
            )
            .body(Body::from(body))
            .unwrap();
        self.keep(self.app.send(req).await)
    }

    pub async fn owner(&self) -> String {
        self.app.register(&self.app.email(), "long password").await
    }

    /// The key-pair path up to the user's part at Apple: our public key, registered with the
    /// sandbox, which answers clientId, teamId and keyId.
    pub async fn registered_key(&self, cookie: &str) -> Value {
        let res = self
            .call(Method::POST, "/api/account/getPublicKey", json!({}), cookie)
            .await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let pem = res.json["result"]["publicKey"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----"), "{pem}");
        let ids: Value = self
            .http
            .post(format!("{}/sandbox/keys", self.sandbox))
            .body(pem)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        ids
    }

    pub async fn create(&self, cookie: &str, name: &str, ids: &Value) -> TestResponse {
        let field = |k: &str| ids[k].as_str().unwrap().to_string();
        let (client, team, key) = (field("clientId"), field("teamId"), field("keyId"));
        self.multipart(
            "/api/account/create",
            &[
                ("name", name),
                ("clientId", &client),
                ("teamId", &team),
                ("keyId", &key),
            ],
            cookie,
        )
        .await
    }

    /// Opens the popup's page and answers it with `decision`; returns the redirect's query.
    pub async fn consent(&self, cookie: &str, name: &str, decision: &str) -> Vec<(String, String)> {
        let res = self
            .get(&format!("/api/account/urlOauth?accountName={name}"), cookie)
            .await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let url = reqwest::Url::parse(res.json["result"]["url"].as_str().unwrap()).unwrap();
        assert!(url.as_str().starts_with(&self.sandbox), "{url}");
        let mut form: Vec<(String, String)> = url
            .query_pairs()
            .into_owned()
            .filter(|(k, _)| ["client_id", "redirect_uri", "state"].contains(&k.as_str()))
            .collect();
        form.push(("decision".into(), decision.into()));
        let answer = self
            .http
            .post(format!("{}/auth/oauth2/authorize", self.sandbox))
            .form(&form)
            .send()
            .await
            .unwrap();
        let location = answer.headers()[reqwest::header::LOCATION]
            .to_str()
            .unwrap();
        assert!(location.contains("/oauth_v2?"), "{location}");
        reqwest::Url::parse(location)
            .unwrap()
            .query_pairs()
            .into_owned()
            .collect()
    }

    /// What the web app's oauth page sends back: the popup's query, form-encoded.
    pub async fn oauth(&self, cookie: &str, pairs: &[(String, String)]) -> TestResponse {
        let query = serde_urlencoded_pairs(pairs);
        self.get(&format!("/api/account/oauth?{query}"), cookie)
            .await
    }

    /// Connects a key-pair account named `name` and waits until its entity sync finished: the
    /// first `sync-account` task done, without an error (campaigns, ad groups, keywords and
    /// the rest stored; the reports may still be syncing). Returns the account's id.
    pub async fn connect_until_entities_synced(&self, owner: &str, name: &str) -> String {
        let account_id = self.connect_key_pair(owner, name).await;
        let deadline = Instant::now() + SYNC_WAIT;
        while Instant::now() < deadline {
            let (done, failed): (i64, Option<String>) = sqlx::query_as(
                "SELECT finish, error FROM tasks WHERE kind = 'sync-account' ORDER BY created_at LIMIT 1",
            )
            .fetch_optional(&self.app.state.db.pool)
            .await
            .unwrap()
            .unwrap_or((0, None));
            assert!(failed.is_none(), "the entity sync failed: {failed:?}");
            if done == 1 {
                return account_id;
            }
            tokio::time::sleep(POLL).await;
        }
        panic!("the entity sync did not complete within {SYNC_WAIT:?}");
    }

    /// Connects a key-pair account named `name` and waits until its whole first sync is done:
    /// `accounts.last_synced_at` set, which the sync stamps at the end of its reports
    /// (entities, then reports). Returns the account's id.
    pub async fn connect_until_reports_synced(&self, owner: &str, name: &str) -> String {
        let account_id = self.connect_key_pair(owner, name).await;
        let deadline = Instant::now() + SYNC_WAIT;
        while Instant::now() < deadline {
            let at: Option<i64> =
                sqlx::query_scalar("SELECT last_synced_at FROM accounts WHERE id = $1")
                    .bind(&account_id)
                    .fetch_one(&self.app.state.db.pool)
                    .await
                    .unwrap();
            if at.is_some() {
                return account_id;
            }
            tokio::time::sleep(POLL).await;
        }
        panic!("the sync did not complete within {SYNC_WAIT:?}");
    }

    /// The key-pair path end to end: a key registered with the sandbox, an account named
    /// `name` created with it (which queues its first sync). Returns the account's id.
    async fn connect_key_pair(&self, owner: &str, name: &str) -> String {
        let ids = self.registered_key(owner).await;
        let res = self.create(owner, name, &ids).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        res.json["result"]["item"]["_id"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// Polls `/api/tasks/{id}` as `cookie`'s user until the task finished; returns the task.
    pub async fn task_finished(&self, cookie: &str, id: &str) -> Value {
        let deadline = Instant::now() + SYNC_WAIT;
        while Instant::now() < deadline {
            let res = self.get(&format!("/api/tasks/{id}"), cookie).await;
            assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
            let task = res.json["result"]["item"].clone();
            if task["finish"] == true {
                return task;
            }
            tokio::time::sleep(POLL).await;
        }
        panic!("task {id} did not finish within {SYNC_WAIT:?}");
    }

    pub async fn count(&self, table: &str) -> i64 {
        sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}")))
            .fetch_one(&self.app.state.db.pool)
            .await
            .unwrap()
    }

    /// The connection's secrets, opened from the database (and checked to be sealed there).
    pub async fn stored_secrets(&self) -> Vec<String> {
        let rows: Vec<SealedRow> = sqlx::query_as(
            "SELECT workspace_id, provider_user_id, private_key_sealed, refresh_token_sealed, \
             access_token_sealed FROM accounts",
        )
        .fetch_all(&self.app.state.db.pool)
        .await
        .unwrap();
        let mut secrets = Vec::new();
        for (workspace, user, private, refresh, access) in rows {
            for (field, sealed) in [
                ("private_key", private),
                ("refresh_token", refresh),
                ("access_token", access),
            ] {
                let Some(sealed) = sealed else { continue };
                assert!(sealed.starts_with("v1:"), "{field} is sealed");
                let context = format!("account:{workspace}:{user}:{field}");
                let open = self.app.state.secrets.open_str(&context, &sealed).unwrap();
                assert!(!sealed.contains(open.expose_secret()));
                secrets.push(open.expose_secret().to_string());
            }
        }
        secrets
    }

    /// No answer so far carried a stored secret or any private key.
    pub async fn assert_no_secret_answered(&self) {
        let secrets = self.stored_secrets().await;
        assert!(!secrets.is_empty(), "a connection with secrets is stored");
        let seen = self.seen.lock().unwrap();
        for body in seen.iter() {
            assert!(
                !body.contains("PRIVATE KEY"),
                "a private key was answered: {body}"
            );
            for secret in &secrets {
                let probe = secret.lines().nth(1).unwrap_or(secret);
                assert!(!body.contains(probe), "a secret was answered: {body}");
            }
        }
    }
}

fn serde_urlencoded_pairs(pairs: &[(String, String)]) -> String {
    let mut url = reqwest::Url::parse("http://x/").unwrap();
    url.query_pairs_mut().extend_pairs(pairs);
    url.query().unwrap_or_default().to_string()
}

pub fn pair(pairs: &[(String, String)], key: &str) -> String {
    pairs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}
