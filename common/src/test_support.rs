//! Helpers for the test suites of every crate (cargo feature `test-support`): the
//! per-backend test macro ([`per_backend!`](crate::per_backend)), backend URLs from the
//! environment, PostgreSQL databases created for one test (cloned from a migrated template)
//! and dropped with it, and SQLite files copied from a migrated template file.
//!
//! The templates are built once per set of migrations and kept (PostgreSQL: on the server;
//! SQLite: in the system's temporary directory) for every later test process: a test starts
//! on a migrated database for the price of a copy, not of its ~20 migrations.

use crate::{Backend, Db, queue::Queue, queue::QueueSettings, queue::Store};

/// Turns each `async fn name(backend: B)` into one test per listed backend: `name::sqlite`,
/// `name::postgres`, `name::redis` (`B` is [`Backend`] or a suite's own [`BackendName`]
/// type, e.g. with an in-memory variant). The function decides what a backend means for it
/// and returns early when [`backend_url`] says it is not configured.
///
/// ```ignore
/// searchdeck_common::per_backend!([sqlite, postgres, redis] retries_back_off, caps_hold);
/// ```
#[macro_export]
macro_rules! per_backend {
    ([$($backend:ident),+] $name:ident $(, $rest:ident)* $(,)?) => {
        mod $name {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $backend() {
                    super::$name($crate::test_support::BackendName::from_backend_name(
                        stringify!($backend),
                    ))
                    .await
                }
            )+
        }
        $crate::per_backend!([$($backend),+] $($rest),*);
    };
    ([$($backend:ident),+] $(,)?) => {};
}

/// A type naming the backends of a suite's tests, for [`per_backend!`](crate::per_backend).
pub trait BackendName {
    /// The backend a generated test's name stands for.
    fn from_backend_name(name: &str) -> Self;
}

impl BackendName for Backend {
    fn from_backend_name(name: &str) -> Backend {
        match name {
            "sqlite" => Backend::Sqlite,
            "postgres" => Backend::Postgres,
            "redis" => Backend::Redis,
            other => panic!("no backend is called {other:?}"),
        }
    }
}

/// The URL in `var`, or `None` outside CI when it is unset. Under `CI=true` a missing URL
/// fails the test: the PostgreSQL and Redis variants must run in CI, never silently skip.
pub fn backend_url(var: &str) -> Option<String> {
    match std::env::var(var) {
        Ok(v) if !v.trim().is_empty() => Some(v),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI=true but {var} is not set: this backend's tests must run in CI")
        }
        _ => {
            eprintln!("{var} not set: this backend's variant is not run");
            None
        }
    }
}

/// `postgres://host/db?opts` with the database name replaced by `name`.
pub fn with_database(url: &str, name: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map(|(b, q)| (b, Some(q)))
        .unwrap_or((url, None));
    let scheme_end = base.find("://").map(|i| i + 3).unwrap_or(0);
    let server = match base[scheme_end..].find('/') {
        Some(i) => &base[..scheme_end + i],
        None => base,
    };
    match query {
        Some(q) => format!("{server}/{name}?{q}"),
        None => format!("{server}/{name}"),
    }
}

/// A fresh PostgreSQL database on the server of an admin URL; dropped (with its open
/// connections) when this value is dropped.
#[derive(Debug)]
pub struct TestDatabase {
    /// URL of the new database.
    pub url: String,
    admin_url: String,
    name: String,
}

impl TestDatabase {
    /// Creates `<prefix>_<pid>_<random>` on the server of `admin_url`.
    pub async fn create(admin_url: &str, prefix: &str) -> TestDatabase {
        let name = format!("{prefix}_{}_{}", std::process::id(), crate::ids::new_id());
        let admin = sqlx::PgPool::connect(admin_url)
            .await
            .expect("connect to the PostgreSQL test server");
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&admin)
            .await
            .expect("create the test database");
        let mut conn = admin.acquire().await.expect("admin connection");
        relax_durability(&mut conn, &name).await;
        drop(conn);
        admin.close().await;
        TestDatabase {
            url: with_database(admin_url, &name),
            admin_url: admin_url.to_string(),
            name,
        }
    }
}

impl TestDatabase {
    /// A fresh database with every migration applied (the application's and the queue's),
    /// cloned from a template database that is migrated once per set of migrations and
    /// kept on the server for later runs.
    pub async fn migrated(admin_url: &str, prefix: &str) -> TestDatabase {
        let template = format!("sd_template_{}", template_fingerprint(Backend::Postgres));
        let admin = sqlx::PgPool::connect(admin_url)
            .await
            .expect("connect to the PostgreSQL test server");
        let mut conn = admin.acquire().await.expect("admin connection");
        // One process at a time builds the template or clones it (a template cannot be
        // cloned while another session is connected to it).
        sqlx::query("SELECT pg_advisory_lock(hashtext($1))")
            .bind(&template)
            .execute(&mut *conn)
            .await
            .expect("lock the template");
        let exists: bool =
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
                .bind(&template)
                .fetch_one(&mut *conn)
                .await
                .expect("look the template up");
        if !exists {
            build_template(&mut conn, admin_url, &template).await;
        }
        let name = format!("{prefix}_{}_{}", std::process::id(), crate::ids::new_id());
        let sql = format!("CREATE DATABASE {name} TEMPLATE {template}");
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&mut *conn)
            .await
            .expect("clone the template database");
        relax_durability(&mut conn, &name).await;
        sqlx::query("SELECT pg_advisory_unlock(hashtext($1))")
            .bind(&template)
            .execute(&mut *conn)
            .await
            .expect("unlock the template");
        drop(conn);
        admin.close().await;
        TestDatabase {
            url: with_database(admin_url, &name),
            admin_url: admin_url.to_string(),
            name,
        }
    }
}

/// A test database's commits do not wait for the WAL to reach the disk
/// (`synchronous_commit = off` for every session opened on it): a crash of the server could
/// lose the last commits of a database that is dropped anyway, and the suites' thousands of
/// small commits stop paying an fsync each. Atomicity, isolation and every constraint are
/// unchanged, so no test sees anything production would not.
async fn relax_durability(conn: &mut sqlx::PgConnection, name: &str) {
    let sql = format!("ALTER DATABASE {name} SET synchronous_commit = off");
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .execute(&mut *conn)
        .await
        .expect("set the test database's commit mode");
}

/// Creates `template` complete or not at all: migrated under a temporary name, renamed
/// when done (a run killed halfway leaves only the temporary one, dropped next time).
async fn build_template(conn: &mut sqlx::PgConnection, admin_url: &str, template: &str) {
    let building = format!("{template}_building");
    for sql in [
        format!("DROP DATABASE IF EXISTS {building} WITH (FORCE)"),
        format!("CREATE DATABASE {building}"),
    ] {
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&mut *conn)
            .await
            .expect("create the template database");
    }
    let url = with_database(admin_url, &building);
    let db = Db::connect_url(&url)
        .await
        .expect("connect to the template");
    db.migrate().await.expect("migrate the template");
    db.pool.close().await;
    let queue = Queue::connect_with(&url, QueueSettings::default())
        .await
        .expect("queue migrations on the template");
    if let Store::Postgres(pool) = queue.store() {
        pool.close().await;
    }
    drop(queue);
    let sql = format!("ALTER DATABASE {building} RENAME TO {template}");
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .execute(&mut *conn)
        .await
        .expect("publish the template database");
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let (admin_url, name) = (self.admin_url.clone(), self.name.clone());
        // Drop cannot await: a helper thread with its own runtime drops the database; FORCE
        // ends the connections the test still holds.
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                if let Ok(admin) = sqlx::PgPool::connect(&admin_url).await {
                    let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
                    let _ = sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&admin).await;
                }
            });
        })
        .join();
    }
}

/// The application's and the queue's migrations of `backend`, as one short hex string that
/// names a template database built with exactly them.
fn template_fingerprint(backend: Backend) -> String {
    use sha2::Digest;
    let queue = match backend {
        Backend::Sqlite => apalis_sqlite::SqliteStorage::migrations(),
        _ => apalis_postgres::PostgresStorage::migrations(),
    };
    let mut hash = sha2::Sha256::new();
    hash.update(Db::migrations_fingerprint(backend));
    for m in queue.iter() {
        hash.update(m.version.to_le_bytes());
        hash.update(&m.checksum);
    }
    hex::encode(&hash.finalize()[..6])
}

/// A migrated SQLite file (the application's and the queue's migrations) to copy: built
/// the first time a set of migrations is asked for, under the system's temporary
/// directory, and kept for later test processes. Built under a temporary name and renamed,
/// so a reader never sees half a template (two processes building at once both succeed).
pub async fn sqlite_template() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join("searchdeck-test-templates");
    let path = dir.join(format!(
        "sqlite-{}.db",
        template_fingerprint(Backend::Sqlite)
    ));
    if path.exists() {
        return path;
    }
    std::fs::create_dir_all(&dir).expect("template directory");
    let build = tempfile::tempdir_in(&dir).expect("template build directory");
    let url = format!("sqlite://{}", build.path().join("build.db").display());
    let db = Db::connect_url(&url)
        .await
        .expect("open the SQLite template");
    db.migrate().await.expect("migrate the SQLite template");
    let queue = Queue::connect_with(&url, QueueSettings::default())
        .await
        .expect("queue migrations on the SQLite template");
    if let Store::Sqlite(pool) = queue.store() {
        pool.close().await;
    }
    drop(queue);
    // One self-contained file, whatever is still in the write-ahead log.
    let packed = build.path().join("packed.db");
    let sql = format!("VACUUM INTO '{}'", packed.display());
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .execute(&db.pool)
        .await
        .expect("write the SQLite template");
    db.pool.close().await;
    std::fs::rename(&packed, &path).expect("publish the SQLite template");
    path
}

/// Copies the migrated SQLite template to `path` (owner-only, as the server creates it).
pub async fn copy_sqlite_template(path: &std::path::Path) {
    let template = sqlite_template().await;
    std::fs::copy(&template, path).expect("copy the SQLite template");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .expect("owner-only test database");
    }
}

/// A migrated database of either backend for a store suite, and what keeps it alive: the
/// SQLite file's temporary directory, or the throw-away PostgreSQL database.
pub struct MigratedDb {
    pub db: Db,
    _dir: Option<tempfile::TempDir>,
    _pg: Option<TestDatabase>,
}

impl MigratedDb {
    /// A migrated SQLite file in a temporary directory.
    pub async fn sqlite() -> MigratedDb {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("test.db");
        copy_sqlite_template(&file).await;
        let url = format!("sqlite://{}", file.display());
        let db = Db::connect_url(&url).await.expect("open SQLite");
        // Nothing to apply: it checks the copy holds every migration.
        db.migrate().await.expect("migrate");
        MigratedDb {
            db,
            _dir: Some(dir),
            _pg: None,
        }
    }

    /// A migrated PostgreSQL database named after `prefix`, when `TEST_DATABASE_URL` is set.
    pub async fn postgres(prefix: &str) -> Option<MigratedDb> {
        let base = backend_url("TEST_DATABASE_URL")?;
        let pg = TestDatabase::migrated(&base, prefix).await;
        let db = Db::connect_url(&pg.url).await.expect("connect PostgreSQL");
        db.migrate().await.expect("migrate");
        Some(MigratedDb {
            db,
            _dir: None,
            _pg: Some(pg),
        })
    }
}

/// A new user `email` owning a new workspace: (user id, workspace id).
pub async fn owner(db: &Db, email: &str) -> (String, String) {
    let (user_id, workspace_id, now) = (
        crate::ids::new_id(),
        crate::ids::new_id(),
        crate::ids::now_ms(),
    );
    let user = crate::store::users::NewUser {
        id: &user_id,
        email,
        password_hash: "h",
        full_name: "Ann",
        source: "",
        now,
    };
    crate::store::users::insert(&db.pool, user).await.unwrap();
    crate::store::workspaces::insert(&db.pool, &workspace_id, "W", now)
        .await
        .unwrap();
    crate::store::workspaces::add_member(&db.pool, &workspace_id, &user_id, "owner", now)
        .await
        .unwrap();
    (user_id, workspace_id)
}

/// A new workspace owned by `email`, its connection and that connection's synced campaign
/// group 42: (workspace id, account id, org key).
pub async fn connected_org(db: &Db, email: &str) -> (String, String, i64) {
    let (user_id, workspace_id) = owner(db, email).await;
    let account_id = crate::ids::new_id();
    let account = crate::store::accounts::NewAccount::without_credentials(
        &account_id,
        &workspace_id,
        &user_id,
        "c",
        crate::ids::now_ms(),
    );
    let account_id = crate::store::accounts::upsert(&db.pool, account)
        .await
        .unwrap();
    let org_key = crate::store::synced::ensure_org(&db.pool, &account_id, 42, Some("USD"), None)
        .await
        .unwrap();
    (workspace_id, account_id, org_key)
}

/// Marks the metrics of the campaign groups of `account_id` (or of group `org_key`) as
/// delivered and synced through yesterday at `now_s` (unix seconds), in time zone UTC: what
/// a finished metrics sync records when Apple's clock is ours. For suites that sync a
/// connection's entities only and let rules read the stored days as complete; a rule reads
/// both stamps (`rules::run::newest_complete_day`).
pub async fn metrics_delivered(
    db: &Db,
    account_id: Option<&str>,
    org_key: Option<i64>,
    now_s: i64,
) {
    let today = crate::rules::window::today(now_s, Some("UTC")).to_string();
    sqlx::query(
        "UPDATE sync_orgs SET metrics_synced_at = $3, metrics_through = $4, time_zone = 'UTC' \
         WHERE account_id = $1 OR org_key = $2",
    )
    .bind(account_id)
    .bind(org_key)
    .bind(now_s)
    .bind(today)
    .execute(&db.pool)
    .await
    .expect("mark the metrics delivered");
}

#[cfg(test)]
mod tests {
    #[test]
    fn database_name_is_replaced_keeping_options() {
        assert_eq!(
            super::with_database("postgres://u@h:5432/test", "x"),
            "postgres://u@h:5432/x"
        );
        assert_eq!(
            super::with_database("postgres://h/test?sslmode=disable", "x"),
            "postgres://h/x?sslmode=disable"
        );
    }
}
