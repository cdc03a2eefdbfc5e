//! The database layer: one connection pool over SQLite or PostgreSQL, picked by URL.
//!
//! Queries are written once in portable SQL (`$1` placeholders, `ON CONFLICT`, `RETURNING`)
//! and run through sqlx's `Any` driver, so handlers never branch on the backend. The schema
//! keeps to types both engines share: text ids, `BIGINT` Unix-millisecond timestamps,
//! `BIGINT` 0/1 flags and JSON stored as text. Each backend has its own migrations folder.
//!
//! Where portable SQL does not pay — the `Any` driver cannot decode PostgreSQL `NUMERIC`
//! (what `SUM` over `BIGINT` returns), dates or arrays, and has no `UNNEST`/`COPY` bulk
//! writes — a store sits behind a trait with one implementation per backend over the
//! native pool in [`Db::native`] (see [`crate::store::report_facts`]).

use std::{str::FromStr, time::Duration};

use secrecy::ExposeSecret;
use sqlx::{
    AnyPool, Executor, PgPool, SqlitePool,
    any::AnyPoolOptions,
    migrate::Migrator,
    postgres::PgPoolOptions,
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
};

use crate::config::{Backend, Config};

/// Errors that may carry database contention, for [`Db::retry_busy`].
pub trait AsBusy {
    /// Whether this error is contention worth retrying.
    fn is_busy(&self) -> bool;
}

impl AsBusy for sqlx::Error {
    fn is_busy(&self) -> bool {
        Db::is_busy(self)
    }
}

impl AsBusy for anyhow::Error {
    fn is_busy(&self) -> bool {
        self.chain()
            .any(|e| e.downcast_ref::<sqlx::Error>().is_some_and(Db::is_busy))
    }
}

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("migrations/postgres");

/// Creates the SQLite file readable by its owner only (0600), or tightens an existing one,
/// before SQLite opens it; SQLite gives its `-wal` and `-shm` files the same mode. The
/// database holds password hashes and session digests.
fn owner_only(path: &std::path::Path) -> std::io::Result<()> {
    let name = path.to_string_lossy();
    if name.is_empty() || name == ":memory:" || name.starts_with("file::memory:") {
        return Ok(());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(path)?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}

/// Begins a transaction that writes. On SQLite it is `BEGIN IMMEDIATE`: the write lock is
/// taken up front, waiting for it with the busy timeout, instead of upgrading a read
/// snapshot at the first write, an upgrade that fails at once (SQLITE_BUSY, which the busy
/// timeout does not wait out) whenever another writer — a sync storing pages — committed
/// since the transaction's first read. PostgreSQL: a plain `BEGIN`.
pub async fn begin_write(pool: &AnyPool) -> sqlx::Result<sqlx::Transaction<'static, sqlx::Any>> {
    if pool.connect_options().database_url.scheme() == "sqlite" {
        pool.begin_with("BEGIN IMMEDIATE").await
    } else {
        pool.begin().await
    }
}

/// A handle on the application database: its pools and backend, nothing of the engines
/// above it (what they keep in memory is in [`Engines`](crate::Engines)).
#[derive(Clone, Debug)]
pub struct Db {
    /// The portable pool every area store uses.
    pub pool: AnyPool,
    pub backend: Backend,
    /// The same database through its native driver, for backend-specific stores.
    pub native: Native,
}

/// A native pool on the application database (connections open on first use).
#[derive(Clone, Debug)]
pub enum Native {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

impl Db {
    /// [`begin_write`] on this database's pool.
    pub async fn begin_write(&self) -> sqlx::Result<sqlx::Transaction<'static, sqlx::Any>> {
        begin_write(&self.pool).await
    }

    /// Opens a pool for the configured database (creating the SQLite file when needed).
    pub async fn connect(config: &Config) -> anyhow::Result<Db> {
        if config.database_backend == Backend::Sqlite {
            config.ensure_data_dir()?;
        }
        Db::connect_url(config.database_url.expose_secret()).await
    }

    /// Opens a pool for a `sqlite://` or `postgres://` URL.
    pub async fn connect_url(url: &str) -> anyhow::Result<Db> {
        sqlx::any::install_default_drivers();
        let backend = match Backend::of_url(url) {
            Some(b @ (Backend::Sqlite | Backend::Postgres)) => b,
            _ => anyhow::bail!("unsupported database URL scheme"),
        };
        let options = AnyPoolOptions::new().acquire_timeout(Duration::from_secs(10));
        let (pool, native) = match backend {
            Backend::Sqlite => {
                // Create the file (and turn WAL on, which persists in the file) before the
                // `Any` pool opens it; every pooled connection then enables foreign keys and
                // waits on a busy database instead of failing.
                let opts = SqliteConnectOptions::from_str(url)?
                    .create_if_missing(true)
                    .journal_mode(SqliteJournalMode::Wal)
                    .foreign_keys(true);
                owner_only(opts.get_filename())?;
                let conn = sqlx::ConnectOptions::connect(&opts).await?;
                sqlx::Connection::close(conn).await.ok();
                let native = SqlitePoolOptions::new()
                    .max_connections(4)
                    .acquire_timeout(Duration::from_secs(10))
                    .connect_lazy_with(
                        opts.busy_timeout(Duration::from_secs(5))
                            .synchronous(SqliteSynchronous::Normal),
                    );
                let pool = options
                    .max_connections(8)
                    .after_connect(|conn, _| {
                        Box::pin(async move {
                            conn.execute(
                                "PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; \
                                 PRAGMA synchronous = NORMAL;",
                            )
                            .await?;
                            Ok(())
                        })
                    })
                    .connect(url)
                    .await?;
                (pool, Native::Sqlite(native))
            }
            _ => {
                let pool = options.max_connections(16).connect(url).await?;
                let native = PgPoolOptions::new()
                    .max_connections(8)
                    .acquire_timeout(Duration::from_secs(10))
                    .connect_lazy(url)?;
                (pool, Native::Postgres(native))
            }
        };
        Ok(Db {
            pool,
            backend,
            native,
        })
    }

    /// Applies every pending migration of this backend.
    pub async fn migrate(&self) -> anyhow::Result<()> {
        let migrator = match self.backend {
            Backend::Sqlite => &SQLITE_MIGRATIONS,
            _ => &POSTGRES_MIGRATIONS,
        };
        migrator.run(&self.pool).await?;
        Ok(())
    }

    /// Whether an error is transient contention worth retrying: SQLite's "database is
    /// locked" (`SQLITE_BUSY` / `SQLITE_LOCKED`, also past the busy timeout or on a stale
    /// snapshot), PostgreSQL's serialization failure or deadlock.
    pub fn is_busy(err: &sqlx::Error) -> bool {
        let sqlx::Error::Database(e) = err else {
            return false;
        };
        let code = e.code();
        let sqlite = code
            .as_deref()
            .and_then(|c| c.parse::<i64>().ok())
            .is_some_and(|c| matches!(c & 0xff, 5 | 6));
        let postgres = matches!(code.as_deref(), Some("40001" | "40P01"));
        sqlite || postgres || e.message().contains("database is locked")
    }

    /// Runs a write (usually a whole transaction) and runs it again, a few times with a
    /// growing pause, when it fails with [`Db::is_busy`] contention; other errors and the
    /// last busy error are returned as they are.
    pub async fn retry_busy<T, E, F, Fut>(mut write: F) -> Result<T, E>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, E>>,
        E: AsBusy,
    {
        const ATTEMPTS: u32 = 5;
        let mut pause = Duration::from_millis(20);
        for attempt in 1.. {
            match write().await {
                Err(e) if attempt < ATTEMPTS && e.is_busy() => {
                    tracing::debug!(attempt, "database busy: retrying the write");
                    let jitter = Duration::from_millis(rand::random_range(0..20));
                    tokio::time::sleep(pause + jitter).await;
                    pause *= 2;
                }
                other => return other,
            }
        }
        unreachable!("the loop returns")
    }

    /// A short fingerprint of this backend's migrations (versions and checksums): test
    /// suites key their migrated template databases on it.
    pub fn migrations_fingerprint(backend: Backend) -> String {
        use sha2::Digest;
        let migrator = match backend {
            Backend::Sqlite => &SQLITE_MIGRATIONS,
            _ => &POSTGRES_MIGRATIONS,
        };
        let mut hash = sha2::Sha256::new();
        for m in migrator.iter() {
            hash.update(m.version.to_le_bytes());
            hash.update(&m.checksum);
        }
        hex::encode(&hash.finalize()[..6])
    }

    /// Whether an error is a unique-constraint violation (for mapping to field errors).
    pub fn is_unique_violation(err: &sqlx::Error) -> bool {
        match err {
            sqlx::Error::Database(e) => e.is_unique_violation(),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[tokio::test]
    async fn the_sqlite_file_is_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("app.db");
        let db = Db::connect_url(&format!("sqlite://{}?mode=rwc", file.display()))
            .await
            .unwrap();
        db.migrate().await.unwrap();
        for name in ["app.db", "app.db-wal"] {
            let mode = std::fs::metadata(dir.path().join(name))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600, "{name} is {mode:o}");
        }
    }

    #[tokio::test]
    async fn busy_writes_are_retried_until_the_lock_is_released() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("busy.db").display());
        let db = Db::connect_url(&url).await.unwrap();
        sqlx::query("CREATE TABLE t (x BIGINT)")
            .execute(&db.pool)
            .await
            .unwrap();
        // A second connection holds the write lock; this one does not wait inside SQLite,
        // so every write fails with SQLITE_BUSY until the lock goes.
        let mut holder = db.pool.acquire().await.unwrap();
        sqlx::query("BEGIN IMMEDIATE")
            .execute(&mut *holder)
            .await
            .unwrap();
        let mut writer = db.pool.acquire().await.unwrap();
        sqlx::query("PRAGMA busy_timeout = 0")
            .execute(&mut *writer)
            .await
            .unwrap();
        let err = sqlx::query("INSERT INTO t VALUES (1)")
            .execute(&mut *writer)
            .await
            .unwrap_err();
        let writer = std::sync::Arc::new(tokio::sync::Mutex::new(writer));
        assert!(Db::is_busy(&err), "{err}");
        let release = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(60)).await;
            sqlx::query("COMMIT").execute(&mut *holder).await.unwrap();
        });
        let tries = std::sync::atomic::AtomicUsize::new(0);
        Db::retry_busy(|| {
            tries.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let writer = writer.clone();
            async move {
                let mut conn = writer.lock().await;
                sqlx::query("INSERT INTO t VALUES (1)")
                    .execute(&mut **conn)
                    .await
            }
        })
        .await
        .expect("retried past the lock");
        release.await.unwrap();
        assert!(tries.into_inner() > 1, "the first write met the lock");
        let wrapped: anyhow::Error = err.into();
        assert!(
            wrapped.is_busy(),
            "busy errors are found inside anyhow chains"
        );
    }
}
