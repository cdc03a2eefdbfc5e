//! Test harness for the queue tests: a fresh app database and queue per test on each
//! backend (`searchdeck_common::per_backend!`). PostgreSQL and Redis run when
//! `TEST_DATABASE_URL` / `TEST_REDIS_URL` are set; with `CI=true` a missing URL fails the
//! test instead of skipping it. `Backend::Redis` means the queue on Redis and the
//! application database on SQLite.

use std::{
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use clap::Parser;
pub use searchdeck_common::Backend as Kind;
use searchdeck_common::{
    Config, ConfigArgs, Db, ids,
    queue::{Queue, QueueSettings, Store, testing},
    test_support::{TestDatabase, backend_url, copy_sqlite_template},
};
use sqlx::Row;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    config: ConfigArgs,
}

/// One test's world: app database, queue and the environment a child worker needs.
pub struct TestEnv {
    /// The data directory, removed with the test.
    _dir: tempfile::TempDir,
    pub config: Config,
    pub db: Db,
    pub queue: Queue,
    pub settings: QueueSettings,
    pub env: Vec<(String, String)>,
    pub workspace_id: String,
    /// This test's own PostgreSQL database, dropped with it.
    _pg_database: Option<TestDatabase>,
}

impl TestEnv {
    /// A fresh world, or `None` when the backend is not available (outside CI).
    pub async fn new(kind: Kind) -> Option<TestEnv> {
        TestEnv::with_provider(kind, None).await
    }

    /// [`TestEnv::new`] whose provider (in-process workers and child workers alike) is the
    /// API at `provider_base_url` (e.g. an in-process sandbox).
    pub async fn with_provider(kind: Kind, provider_base_url: Option<&str>) -> Option<TestEnv> {
        TestEnv::build(kind, provider_base_url, |_| {}).await
    }

    /// [`TestEnv::new`] with the queue's test settings changed by `tweak` (for in-process and
    /// child workers alike), e.g. a heartbeat long enough that what a test rules out cannot
    /// happen by the clock within its bound.
    pub async fn with_settings(
        kind: Kind,
        tweak: impl FnOnce(&mut QueueSettings),
    ) -> Option<TestEnv> {
        TestEnv::build(kind, None, tweak).await
    }

    async fn build(
        kind: Kind,
        provider_base_url: Option<&str>,
        tweak: impl FnOnce(&mut QueueSettings),
    ) -> Option<TestEnv> {
        let dir = tempfile::tempdir().unwrap();
        let suffix = &ids::new_id()[20..];
        let sqlite_file = dir.path().join("app.db");
        // A copy of the migrated template: the migrations below only check it.
        copy_sqlite_template(&sqlite_file).await;
        let sqlite_url = format!("sqlite://{}?mode=rwc", sqlite_file.display());
        let mut pg_database = None;
        let (database_url, queue_url) = match kind {
            Kind::Sqlite => (sqlite_url.clone(), sqlite_url),
            Kind::Postgres => {
                let database =
                    TestDatabase::migrated(&backend_url("TEST_DATABASE_URL")?, "sd_queue").await;
                let url = database.url.clone();
                pg_database = Some(database);
                (url.clone(), url)
            }
            Kind::Redis => (sqlite_url, backend_url("TEST_REDIS_URL")?),
        };
        let queue_name = format!("sdtest-{suffix}");
        let mut settings = QueueSettings::for_tests(&queue_name);
        tweak(&mut settings);
        let mut args = vec![
            "t",
            "--data-dir",
            dir.path().to_str().unwrap(),
            "--database-url",
            &database_url,
            "--queue-url",
            &queue_url,
            "--worker-concurrency",
            "2",
        ];
        if let Some(base) = provider_base_url {
            args.extend(["--provider-base-url", base]);
        }
        let cli = Cli::parse_from(args);
        let config = cli.config.resolve().unwrap();
        let db = Db::connect(&config).await.unwrap();
        db.migrate().await.unwrap();
        testing::create_test_tables(&db).await.unwrap();
        let queue = Queue::connect_with(&queue_url, settings.clone())
            .await
            .unwrap();
        let workspace_id = ids::new_id();
        sqlx::query("INSERT INTO workspaces (id, name, created_at) VALUES ($1, 'test', $2)")
            .bind(&workspace_id)
            .bind(ids::now_ms())
            .execute(&db.pool)
            .await
            .unwrap();
        let mut env: Vec<(String, String)> = vec![
            ("DATABASE_URL".into(), database_url),
            ("QUEUE_URL".into(), queue_url),
            (
                "SEARCHDECK_DATA_DIR".into(),
                dir.path().display().to_string(),
            ),
            ("SEARCHDECK_WORKER_CONCURRENCY".into(), "2".into()),
            ("SEARCHDECK_QUEUE_NAME".into(), queue_name),
            (
                "SEARCHDECK_QUEUE_POLL_MS".into(),
                settings.poll_interval.as_millis().to_string(),
            ),
            (
                "SEARCHDECK_QUEUE_HEARTBEAT_MS".into(),
                settings.heartbeat_interval.as_millis().to_string(),
            ),
            (
                "SEARCHDECK_QUEUE_MISSED_HEARTBEATS".into(),
                settings.missed_heartbeats.to_string(),
            ),
            (
                "SEARCHDECK_QUEUE_RETRY_BASE_MS".into(),
                settings.retry_base_delay.as_millis().to_string(),
            ),
            (
                "SEARCHDECK_QUEUE_RETRY_MAX_MS".into(),
                settings.retry_max_delay.as_millis().to_string(),
            ),
        ];
        if let Some(base) = provider_base_url {
            env.push(("PROVIDER_BASE_URL".into(), base.into()));
        }
        Some(TestEnv {
            _dir: dir,
            config,
            db,
            queue,
            settings,
            env,
            workspace_id,
            _pg_database: pg_database,
        })
    }

    /// Starts an in-process worker pool; drop or send on the returned handle to stop it.
    pub fn start_worker(&self) -> InProcessWorker {
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let config = self.config.clone();
        let db = self.db.clone();
        let queue = self.queue.clone();
        let handle = tokio::spawn(async move {
            searchdeck_workers::run_with(&config, db, queue, async move {
                let _ = rx.await;
            })
            .await
        });
        InProcessWorker {
            stop: Some(tx),
            handle: Some(handle),
        }
    }

    /// Spawns the test worker binary and waits until it is connected.
    pub fn spawn_worker(&self, extra_env: &[(&str, &str)]) -> Child {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_searchdeck-test-worker"));
        cmd.envs(self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .envs(extra_env.iter().copied())
            .env_remove("SMTP_URL")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        let mut child = cmd.spawn().expect("spawn test worker");
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        std::io::BufRead::read_line(&mut out, &mut line).unwrap();
        assert_eq!(line.trim(), "ready", "test worker did not start");
        child
    }

    /// A task record in the test workspace.
    pub async fn new_task(&self) -> String {
        searchdeck_common::store::tasks::create(
            &self.db.pool,
            searchdeck_common::tasks::NewTask {
                workspace_id: &self.workspace_id,
                user_id: None,
                kind: "test",
                message: "Queued",
                total_steps: 2,
                account_id: None,
                org_id: None,
            },
        )
        .await
        .unwrap()
    }

    /// `(finish, error, attempts)` of a task record.
    pub async fn task_state(&self, id: &str) -> (bool, Option<String>, i64) {
        let row = sqlx::query("SELECT finish, error, attempts FROM tasks WHERE id = $1")
            .bind(id)
            .fetch_one(&self.db.pool)
            .await
            .unwrap();
        (
            row.get::<i64, _>("finish") != 0,
            row.get("error"),
            row.get("attempts"),
        )
    }

    /// The store's status of a queued job (`Done`, `Killed`, … or Redis' set name).
    pub async fn store_status(&self, id: &str) -> Option<String> {
        match self.queue.store() {
            Store::Sqlite(pool) => sqlx::query_scalar("SELECT status FROM Jobs WHERE id = ?1")
                .bind(id)
                .fetch_optional(pool)
                .await
                .unwrap(),
            Store::Postgres(pool) => {
                sqlx::query_scalar("SELECT status FROM apalis.jobs WHERE id = $1")
                    .bind(id)
                    .fetch_optional(pool)
                    .await
                    .unwrap()
            }
            Store::Redis { conn, config } => {
                let mut conn = conn.clone();
                let meta = format!("{}:{id}", config.job_meta_hash());
                redis::cmd("HGET")
                    .arg(meta)
                    .arg("status")
                    .query_async(&mut conn)
                    .await
                    .unwrap()
            }
        }
    }

    /// The ids of every job the store holds for this queue.
    pub async fn job_ids(&self) -> Vec<String> {
        match self.queue.store() {
            Store::Sqlite(pool) => sqlx::query_scalar("SELECT id FROM Jobs WHERE job_type = ?1")
                .bind(&self.settings.queue_name)
                .fetch_all(pool)
                .await
                .unwrap(),
            Store::Postgres(pool) => {
                sqlx::query_scalar("SELECT id FROM apalis.jobs WHERE job_type = $1")
                    .bind(&self.settings.queue_name)
                    .fetch_all(pool)
                    .await
                    .unwrap()
            }
            Store::Redis { conn, config } => {
                let mut conn = conn.clone();
                redis::cmd("HKEYS")
                    .arg(config.job_data_hash())
                    .query_async(&mut conn)
                    .await
                    .unwrap()
            }
        }
    }

    /// Waits until every job of this queue has ended in the store (`Done`, `Failed` or
    /// `Killed`): from then on no run can start, so a check that nothing more ran (no
    /// second run, no retry past the cap) waits for this instead of for a while.
    pub async fn queue_settled(&self) {
        let limit = Duration::from_secs(30);
        let start = Instant::now();
        loop {
            let mut open = Vec::new();
            for id in self.job_ids().await {
                let status = self.store_status(&id).await;
                if !matches!(status.as_deref(), Some("Done" | "Failed" | "Killed")) {
                    open.push((id, status));
                }
            }
            if open.is_empty() {
                return;
            }
            assert!(
                start.elapsed() < limit,
                "jobs of the queue still open after {limit:?}: {open:?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Every job the store holds for this queue (payloads and results), as text.
    pub async fn queue_dump(&self) -> String {
        let rows: Vec<String> = match self.queue.store() {
            Store::Sqlite(pool) => sqlx::query_scalar(
                "SELECT CAST(job AS TEXT) || ' ' || COALESCE(last_result, '') FROM Jobs WHERE job_type = ?1",
            )
            .bind(&self.settings.queue_name)
            .fetch_all(pool)
            .await
            .unwrap(),
            Store::Postgres(pool) => sqlx::query_scalar(
                "SELECT convert_from(job, 'UTF8') || ' ' || COALESCE(last_result::text, '') \
                 FROM apalis.jobs WHERE job_type = $1",
            )
            .bind(&self.settings.queue_name)
            .fetch_all(pool)
            .await
            .unwrap(),
            Store::Redis { conn, config } => {
                let mut conn = conn.clone();
                let values: Vec<Vec<u8>> = redis::cmd("HVALS")
                    .arg(config.job_data_hash())
                    .query_async(&mut conn)
                    .await
                    .unwrap();
                values
                    .iter()
                    .map(|v| String::from_utf8_lossy(v).into_owned())
                    .collect()
            }
        };
        rows.join("\n")
    }

    /// The message of a task record.
    pub async fn task_message(&self, id: &str) -> String {
        sqlx::query_scalar("SELECT message FROM tasks WHERE id = $1")
            .bind(id)
            .fetch_one(&self.db.pool)
            .await
            .unwrap()
    }

    /// Names of the workers registered with the store.
    pub async fn worker_names(&self) -> Vec<String> {
        match self.queue.store() {
            Store::Sqlite(pool) => {
                sqlx::query_scalar("SELECT id FROM Workers WHERE worker_type = ?1")
                    .bind(&self.settings.queue_name)
                    .fetch_all(pool)
                    .await
                    .unwrap()
            }
            Store::Postgres(pool) => {
                sqlx::query_scalar("SELECT id FROM apalis.workers WHERE worker_type = $1")
                    .bind(&self.settings.queue_name)
                    .fetch_all(pool)
                    .await
                    .unwrap()
            }
            Store::Redis { conn, config } => {
                let mut conn = conn.clone();
                redis::cmd("ZRANGE")
                    .arg(config.workers_set())
                    .arg(0)
                    .arg(-1)
                    .query_async(&mut conn)
                    .await
                    .unwrap()
            }
        }
    }
}

/// A worker pool running inside the test process.
pub struct InProcessWorker {
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    handle: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
}

impl InProcessWorker {
    /// Stops it gracefully and waits.
    pub async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        let res = tokio::time::timeout(Duration::from_secs(20), self.handle.take().unwrap()).await;
        res.expect("worker stops in time").unwrap().unwrap();
    }
}

impl Drop for InProcessWorker {
    fn drop(&mut self) {
        if let Some(h) = &self.handle {
            h.abort();
        }
    }
}

/// Polls `check` until it returns `Some`, or panics after `limit`.
pub async fn eventually<T, F, Fut>(limit: Duration, what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let start = Instant::now();
    loop {
        if let Some(v) = check().await {
            return v;
        }
        if start.elapsed() > limit {
            panic!("timed out after {limit:?} waiting for {what}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Sends a signal to a child process.
pub fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .arg(format!("-{sig}"))
        .arg(child.id().to_string())
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{sig} failed");
}
