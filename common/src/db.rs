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
//! native pool in [`Db::native`] (see [`crate::store::metrics`]).

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

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("migrations/postgres");

/// A handle on the application database.
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
