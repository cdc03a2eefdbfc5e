//! `TestApp`: the real router over a real, fresh database per test.
//!
//! `backend_tests!` turns each test body into one test per backend (through the shared
//! `searchdeck_common::per_backend!`): `…::sqlite` always runs, on a copy of a migrated
//! template file; `…::postgres` runs against
//! a database cloned from a migrated template on the server at `TEST_DATABASE_URL`, and
//! fails under `CI=true` when that variable is missing (elsewhere it says so and passes).
//! A test that leaves a failed job in the queue fails when its `TestApp` is dropped.

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
    test_support::{TestDatabase, backend_url, copy_sqlite_template},
};
use secrecy::ExposeSecret;
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

pub use searchdeck_common::Backend as TestBackend;

/// Runs each `async fn`-like body once per database backend.
#[macro_export]
macro_rules! backend_tests {
    ($(async fn $name:ident($app:ident: TestApp) $body:block)*) => {
        $(
            async fn $name(backend: TestBackend) {
                let Some($app) = TestApp::on(backend).await else {
                    return;
                };
                $body
            }
            searchdeck_common::per_backend!([sqlite, postgres] $name);
        )*
    };
}

pub struct TestApp {
    pub state: AppState,
    /// Where the queue lives (the test's own database), for the failed-job check.
    queue_url: String,
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

fn config(dir: &std::path::Path, database_url: Option<&str>, extra: &[String]) -> Config {
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
    args.extend_from_slice(extra);
    Cli::parse_from(args).config.resolve().expect("test config")
}

impl TestApp {
    pub async fn new(backend: TestBackend) -> TestApp {
        TestApp::on(backend)
            .await
            .expect("TEST_DATABASE_URL is set")
    }

    /// An app on `backend`, or None (outside CI) when its server is not configured.
    pub async fn on(backend: TestBackend) -> Option<TestApp> {
        TestApp::on_with(backend, &[]).await
    }

    /// Like [`TestApp::on`], with extra command-line settings (`--flag value`).
    pub async fn on_with(backend: TestBackend, extra: &[String]) -> Option<TestApp> {
        match backend {
            TestBackend::Sqlite => Some(TestApp::build(None, extra).await),
            TestBackend::Postgres => TestApp::postgres_with(extra).await,
            TestBackend::Redis => panic!("the API's tests run on SQLite and PostgreSQL"),
        }
    }

    /// Like [`TestApp::new`] for SQLite, with extra command-line settings (`--flag value`).
    pub async fn sqlite_with(extra: &[String]) -> TestApp {
        TestApp::build(None, extra).await
    }

    /// An app on a fresh PostgreSQL database with extra command-line settings, or None
    /// (outside CI) when no server is configured.
    pub async fn postgres_with(extra: &[String]) -> Option<TestApp> {
        let base = backend_url("TEST_DATABASE_URL")?;
        Some(TestApp::build(Some(TestDatabase::migrated(&base, "sd_api").await), extra).await)
    }

    async fn build(pg: Option<TestDatabase>, extra: &[String]) -> TestApp {
        // Warnings and errors of the app (a 500's cause) go to the test's captured output,
        // which the runner shows when the test fails; `RUST_LOG` widens it.
        let _ = tracing_subscriber::fmt()
            .with_test_writer()
            .with_env_filter(
                tracing_subscriber::EnvFilter::try_from_default_env()
                    .unwrap_or_else(|_| "warn".into()),
            )
            .try_init();
        let dir = tempfile::tempdir().expect("temp dir");
        let config = config(dir.path(), pg.as_ref().map(|d| d.url.as_str()), extra);
        if pg.is_none() {
            // The embedded default (`<data dir>/searchdeck.db`), migrated already.
            copy_sqlite_template(&dir.path().join("searchdeck.db")).await;
        }
        let db = Db::connect(&config).await.expect("connect");
        // A check only: the copy (or the PostgreSQL clone) holds every migration.
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
        let queue_url = config.queue_url.expose_secret().to_string();
        let state = AppState::new(db, config, queue).await.expect("app state");
        let router = searchdeck_api::app(state.clone());
        TestApp {
            queue_url,
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
        // As the web app's client: every call carries X-Searchdeck-Client.
        let mut req = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, "localhost:8080")
            .header("x-searchdeck-client", "web");
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

/// Jobs of the test queue that failed for good (`Killed` is how the runner ends them).
async fn failed_jobs(queue_url: &str) -> Vec<String> {
    let table = if queue_url.starts_with("postgres") {
        "apalis.jobs"
    } else {
        "Jobs"
    };
    let sql = format!(
        "SELECT id FROM {table} WHERE job_type = 'test' AND status IN ('Killed', 'Failed')"
    );
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(queue_url)
        .await
        .expect("open the test queue");
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .fetch_all(&pool)
        .await
        .expect("read the test queue")
}

impl TestApp {
    /// The URL of the test's queue (tests that look at queued jobs themselves).
    pub fn queue_url(&self) -> &str {
        &self.queue_url
    }

    /// Gives `workspace_id` a running Growth trial (goal optimisation, Growth-only columns).
    pub async fn growth_trial(&self, workspace_id: &str) {
        use searchdeck_common::plan::derive::{DAY_MS, Purchase, TrialKind};
        let now = searchdeck_common::ids::now_ms();
        let trial = Purchase {
            id: searchdeck_common::ids::new_id(),
            name: "growth".into(),
            free: false,
            trial: true,
            full: true,
            organization: true,
            trial_kind: Some(TrialKind::Growth),
            suggester: true,
            payment_failed: false,
            started_at: now - DAY_MS,
            off_account_time: Some(now + 29 * DAY_MS),
        };
        searchdeck_common::store::purchases::insert(&self.state.db.pool, workspace_id, &trial, now)
            .await
            .unwrap();
    }
}

impl Drop for TestApp {
    /// Stops the worker and fails the test if it left a failed job in the queue.
    fn drop(&mut self) {
        self.workers.cancel();
        if std::thread::panicking() {
            return;
        }
        let url = self.queue_url.clone();
        // Drop cannot await: a helper thread with its own runtime reads the queue.
        let failed = std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime")
                .block_on(failed_jobs(&url))
        })
        .join()
        .expect("failed-job check");
        assert!(
            failed.is_empty(),
            "the test left {} failed job(s) in the queue: {failed:?}",
            failed.len()
        );
    }
}
