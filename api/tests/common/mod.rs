//! `TestApp`: the real router over a real, fresh database per test.
//!
//! `backend_tests!` turns each test body into one test per backend: `…::sqlite` always runs;
//! `…::postgres` runs against a new database on the server at `TEST_DATABASE_URL`, and
//! fails under `CI=true` when that variable is missing (elsewhere it says so and passes).

#![allow(dead_code)]

use std::sync::atomic::{AtomicU32, Ordering};

use axum::{
    Router,
    body::Body,
    http::{Method, Request, StatusCode, header},
};
use http_body_util::BodyExt;
use searchdeck_api::{session::Role, state::AppState};
use searchdeck_common::{
    Config, ConfigArgs, Db,
    email::EmailSender,
    ids::{new_id, now_ms},
    queue::{Queue, QueueSettings},
    test_support::{TestDatabase, backend_url},
};
use secrecy::ExposeSecret;
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TestBackend {
    Sqlite,
    Postgres,
}

/// Runs each `async fn`-like body once per backend.
#[macro_export]
macro_rules! backend_tests {
    ($(async fn $name:ident($app:ident: TestApp) $body:block)*) => {
        $(
            mod $name {
                use super::*;
                async fn run($app: TestApp) $body
                #[tokio::test]
                async fn sqlite() {
                    run(TestApp::new(TestBackend::Sqlite).await).await
                }
                #[tokio::test]
                async fn postgres() {
                    if let Some(app) = TestApp::postgres().await {
                        run(app).await
                    }
                }
            }
        )*
    };
}

pub struct TestApp {
    pub state: AppState,
    pub email: EmailSender,
    router: Router,
    workers: CancellationToken,
    _dir: tempfile::TempDir,
    /// This test's PostgreSQL database, dropped after the app (fields drop in order).
    _pg: Option<TestDatabase>,
}

/// An HTTP answer, its JSON body parsed.
#[derive(Debug)]
pub struct TestResponse {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub json: Value,
}

impl TestResponse {
    /// The value of the session cookie set by this response, if any.
    pub fn session_cookie(&self) -> Option<String> {
        self.headers
            .get_all(header::SET_COOKIE)
            .iter()
            .find_map(|v| {
                let v = v.to_str().ok()?;
                let pair = v.split(';').next()?;
                let (name, value) = pair.split_once('=')?;
                (name == "sd_session").then(|| value.to_string())
            })
    }

    pub fn set_cookie_header(&self) -> String {
        self.headers
            .get(header::SET_COOKIE)
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default()
    }

    pub fn message(&self) -> &str {
        self.json["message"].as_str().unwrap_or_default()
    }
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

fn config(dir: &std::path::Path, database_url: Option<&str>, extra: &[&str]) -> Config {
    use clap::Parser;
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        config: ConfigArgs,
    }
    let mut args = vec![
        "test".to_string(),
        "--data-dir".into(),
        dir.display().to_string(),
    ];
    if let Some(url) = database_url {
        args.push("--database-url".into());
        args.push(url.into());
    }
    args.push("--static-dir".into());
    args.push(dir.join("web").display().to_string());
    args.extend(extra.iter().map(|a| a.to_string()));
    Cli::parse_from(args).config.resolve().expect("test config")
}

impl TestApp {
    pub async fn new(backend: TestBackend) -> TestApp {
        match backend {
            TestBackend::Sqlite => TestApp::build(None, &[]).await,
            TestBackend::Postgres => TestApp::postgres().await.expect("TEST_DATABASE_URL is set"),
        }
    }

    /// A fresh PostgreSQL database, or None (outside CI) when no server is configured.
    pub async fn postgres() -> Option<TestApp> {
        let base = backend_url("TEST_DATABASE_URL")?;
        Some(TestApp::build(Some(TestDatabase::create(&base, "sd_api").await), &[]).await)
    }

    /// A SQLite app configured with extra command-line options (e.g. `--trusted-proxies`).
    pub async fn with_args(extra: &[&str]) -> TestApp {
        TestApp::build(None, extra).await
    }

    async fn build(pg: Option<TestDatabase>, extra: &[&str]) -> TestApp {
        let dir = tempfile::tempdir().expect("temp dir");
        let config = config(dir.path(), pg.as_ref().map(|d| d.url.as_str()), extra);
        let db = Db::connect(&config).await.expect("connect");
        db.migrate().await.expect("migrate");
        let email = EmailSender::from_config(&config).expect("email");
        // The queue lives in the test's own database, and a worker runs beside the router so
        // queued emails really go out.
        let queue = Queue::connect_with(
            config.queue_url.expose_secret(),
            QueueSettings::for_tests("test"),
        )
        .await
        .expect("queue");
        let workers = CancellationToken::new();
        tokio::spawn({
            let (config, db, queue, stop) =
                (config.clone(), db.clone(), queue.clone(), workers.clone());
            async move {
                searchdeck_workers::run_with(
                    &config,
                    db,
                    queue,
                    async move { stop.cancelled().await },
                )
                .await
            }
        });
        let state = AppState::new(db, config, queue);
        let router = searchdeck_api::app(state.clone());
        TestApp {
            state,
            email,
            workers,
            router,
            _dir: dir,
            _pg: pg,
        }
    }

    /// Sends a request with an optional JSON body and session cookie.
    pub async fn request(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
        cookie: Option<&str>,
    ) -> TestResponse {
        let mut req = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, "localhost:8080");
        if let Some(c) = cookie {
            req = req.header(header::COOKIE, format!("sd_session={c}"));
        }
        let req = match body {
            Some(b) => req
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(b.to_string())),
            None => req.body(Body::empty()),
        }
        .unwrap();
        self.send(req).await
    }

    /// Sends a prepared request.
    pub async fn send(&self, req: Request<Body>) -> TestResponse {
        let res = self
            .router
            .clone()
            .oneshot(req)
            .await
            .expect("router answers");
        let status = res.status();
        let headers = res.headers().clone();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        TestResponse {
            status,
            headers,
            json,
        }
    }

    pub async fn get(&self, path: &str, cookie: Option<&str>) -> TestResponse {
        self.request(Method::GET, path, None, cookie).await
    }

    pub async fn post(&self, path: &str, body: Value, cookie: Option<&str>) -> TestResponse {
        self.request(Method::POST, path, Some(body), cookie).await
    }

    /// Registers a new account (its own workspace, as owner) and returns its session token.
    pub async fn register(&self, email: &str, password: &str) -> String {
        let res = self
            .post(
                "/api/auth/register",
                serde_json::json!({"email": email, "password": password, "repeatPassword": password, "fullName": "Test User", "source": "test"}),
                None,
            )
            .await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        res.session_cookie()
            .expect("register sets the session cookie")
    }

    /// A unique email for this test process.
    pub fn email(&self) -> String {
        format!(
            "user{}-{}@example.com",
            COUNTER.fetch_add(1, Ordering::Relaxed),
            &new_id()[20..]
        )
    }

    /// Adds a new user with `role` to the workspace of `owner_cookie`'s user; returns a session.
    pub async fn member(&self, owner_cookie: &str, role: Role) -> String {
        let me = self.get("/api/auth/me", Some(owner_cookie)).await;
        let workspace_id = me.json["result"]["item"]["workspaceId"]
            .as_str()
            .unwrap()
            .to_string();
        let email = self.email();
        let other = self.register(&email, "member password").await;
        let other_id = self.get("/api/auth/me", Some(&other)).await.json["result"]["item"]["id"]
            .as_str()
            .unwrap()
            .to_string();
        sqlx::query("INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)")
            .bind(&workspace_id)
            .bind(&other_id)
            .bind(role.as_str())
            .bind(now_ms() - 1)
            .execute(&self.state.db.pool)
            .await
            .unwrap();
        sqlx::query("UPDATE sessions SET workspace_id = $2 WHERE user_id = $1")
            .bind(&other_id)
            .bind(&workspace_id)
            .execute(&self.state.db.pool)
            .await
            .unwrap();
        other
    }

    /// Waits (up to 10 s) until the worker has sent `n` emails, and returns them.
    pub async fn emails(&self, n: usize) -> Vec<searchdeck_common::email::OutgoingEmail> {
        for _ in 0..200 {
            let sent = self.email.outbox().await.unwrap();
            if sent.len() >= n {
                return sent;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!(
            "expected {n} emails, got {:?}",
            self.email.outbox().await.unwrap()
        );
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        self.workers.cancel();
    }
}
