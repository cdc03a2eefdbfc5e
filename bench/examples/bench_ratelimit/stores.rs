//! Fresh shared stores for a benchmark run: a temporary SQLite file, a new PostgreSQL
//! database (dropped afterwards), a unique Redis key prefix, or process memory.

use std::str::FromStr;

use searchdeck_common::{
    Db,
    ratelimit::{DbStore, RedisStore, SharedStore},
};

/// Which shared store the instances use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BenchBackend {
    Memory,
    Sqlite,
    Postgres,
    Redis,
}

impl BenchBackend {
    pub fn name(self) -> &'static str {
        match self {
            BenchBackend::Memory => "memory",
            BenchBackend::Sqlite => "sqlite",
            BenchBackend::Postgres => "postgres",
            BenchBackend::Redis => "redis",
        }
    }

    /// The URL from the environment: `TEST_DATABASE_URL`/`DATABASE_URL` for PostgreSQL,
    /// `TEST_REDIS_URL`/`REDIS_URL` for Redis, falling back to the local servers.
    pub fn default_url(self) -> Option<String> {
        let env = |names: &[&str]| names.iter().find_map(|n| std::env::var(n).ok());
        match self {
            BenchBackend::Postgres => Some(
                env(&["TEST_DATABASE_URL", "DATABASE_URL"])
                    .filter(|u| u.starts_with("postgres"))
                    .unwrap_or_else(|| "postgres://root@127.0.0.1:5432/test".into()),
            ),
            BenchBackend::Redis => Some(
                env(&["TEST_REDIS_URL", "REDIS_URL"])
                    .unwrap_or_else(|| "redis://127.0.0.1:6379".into()),
            ),
            _ => None,
        }
    }
}

impl FromStr for BenchBackend {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "memory" => Ok(BenchBackend::Memory),
            "sqlite" => Ok(BenchBackend::Sqlite),
            "postgres" => Ok(BenchBackend::Postgres),
            "redis" => Ok(BenchBackend::Redis),
            other => Err(format!(
                "unknown backend {other}: memory|sqlite|postgres|redis"
            )),
        }
    }
}

/// A store made for one run.
pub struct PreparedStore {
    backend: BenchBackend,
    url: String,
    prefix: String,
    memory: Option<SharedStore>,
    _dir: Option<tempfile::TempDir>,
    pg: Option<(String, String)>,
}

impl PreparedStore {
    /// Creates the store (migrated, empty).
    pub async fn prepare(backend: BenchBackend, url: Option<String>) -> anyhow::Result<Self> {
        let url = url.or_else(|| backend.default_url()).unwrap_or_default();
        let tag = format!(
            "{}_{}",
            std::process::id(),
            searchdeck_common::ids::new_id()
        );
        let mut store = PreparedStore {
            backend,
            url,
            prefix: format!("sd-bench:{tag}:"),
            memory: None,
            _dir: None,
            pg: None,
        };
        match backend {
            BenchBackend::Memory => store.memory = Some(SharedStore::memory()),
            BenchBackend::Redis => {}
            BenchBackend::Sqlite => {
                let dir = tempfile::tempdir()?;
                store.url = format!(
                    "sqlite://{}?mode=rwc",
                    dir.path().join("bench.db").display()
                );
                store._dir = Some(dir);
                Db::connect_url(&store.url).await?.migrate().await?;
            }
            BenchBackend::Postgres => {
                let name = format!("sd_bench_{tag}");
                let admin = Db::connect_url(&store.url).await?;
                sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                    .execute(&admin.pool)
                    .await?;
                admin.pool.close().await;
                let (server, _) = store
                    .url
                    .rsplit_once('/')
                    .ok_or_else(|| anyhow::anyhow!("the PostgreSQL URL must name a database"))?;
                let database_url = format!("{server}/{name}");
                let base = std::mem::replace(&mut store.url, database_url);
                store.pg = Some((base, name));
                Db::connect_url(&store.url).await?.migrate().await?;
            }
        }
        Ok(store)
    }

    /// A handle with its own connection, as one process would hold.
    pub async fn open(&self) -> anyhow::Result<SharedStore> {
        open(self.backend, &self.url, &self.prefix)
            .await
            .map(|s| self.memory.clone().unwrap_or(s))
    }

    /// Arguments of a child process that runs one instance against this store.
    pub fn child_args(
        &self,
        server: &str,
        start_ms: u64,
        seconds: f64,
        concurrency: usize,
    ) -> Vec<String> {
        [
            "child",
            "--server",
            server,
            "--backend",
            self.backend.name(),
            "--store-url",
            &self.url,
            "--prefix",
            &self.prefix,
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([
            "--start-ms".into(),
            start_ms.to_string(),
            "--seconds".into(),
            seconds.to_string(),
            "--concurrency".into(),
            concurrency.to_string(),
        ])
        .collect()
    }

    /// Drops the PostgreSQL database (the SQLite directory goes with `self`).
    pub async fn cleanup(mut self) {
        if let Some((base, name)) = self.pg.take()
            && let Ok(admin) = Db::connect_url(&base).await
        {
            let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
            let _ = sqlx::query(sqlx::AssertSqlSafe(sql))
                .execute(&admin.pool)
                .await;
        }
    }
}

/// Opens a store of `backend` at `url` (Redis keys under `prefix`).
pub async fn open(backend: BenchBackend, url: &str, prefix: &str) -> anyhow::Result<SharedStore> {
    Ok(match backend {
        BenchBackend::Memory => SharedStore::memory(),
        BenchBackend::Sqlite | BenchBackend::Postgres => {
            SharedStore::Database(DbStore::new(Db::connect_url(url).await?))
        }
        BenchBackend::Redis => SharedStore::Redis(RedisStore::connect(url, prefix).await?),
    })
}
