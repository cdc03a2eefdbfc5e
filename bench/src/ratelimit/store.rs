//! The shared store of one benchmark run: a fresh SQLite file, a PostgreSQL database whose
//! `rate_limits` row for the key is cleared before and after, or Redis under a prefix of
//! its own (its keys deleted afterwards).

use std::path::PathBuf;

use anyhow::Context;
use searchdeck_common::Db;
use searchdeck_common::ratelimit::{DbStore, RedisStore, SharedStore};
use serde::{Deserialize, Serialize};

/// Which shared store the processes use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    Redis,
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Redis => "redis",
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }
}

/// Where a child process finds the shared state.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoreSpec {
    pub backend: Backend,
    pub url: String,
    /// Redis key prefix.
    pub prefix: String,
}

impl StoreSpec {
    /// Opens the store as one process would (its own connections).
    pub async fn open(&self) -> anyhow::Result<SharedStore> {
        Ok(match self.backend {
            Backend::Redis => {
                SharedStore::Redis(RedisStore::connect(&self.url, &self.prefix).await?)
            }
            Backend::Sqlite | Backend::Postgres => {
                SharedStore::Database(DbStore::new(Db::connect_url(&self.url).await?))
            }
        })
    }
}

/// A store prepared for one run; [`Prepared::cleanup`] removes what the run left.
pub struct Prepared {
    pub spec: StoreSpec,
    key: String,
    temp_dir: Option<PathBuf>,
}

impl Prepared {
    /// Prepares `backend` at `url` (a temporary SQLite file when `url` is `None` for SQLite)
    /// with no state for `key`.
    pub async fn prepare(backend: Backend, url: Option<String>, key: &str) -> anyhow::Result<Self> {
        let tag = format!(
            "{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)?
                .as_millis()
        );
        let mut temp_dir = None;
        let url = match (backend, url) {
            (Backend::Sqlite, None) => {
                let dir = std::env::temp_dir().join(format!("searchdeck-bench-{tag}"));
                std::fs::create_dir_all(&dir)?;
                let url = format!("sqlite://{}?mode=rwc", dir.join("ratelimit.db").display());
                temp_dir = Some(dir);
                url
            }
            (_, Some(url)) => url,
            (b, None) => anyhow::bail!("--store-url is needed for the {} backend", b.name()),
        };
        let prefix = format!("searchdeck:bench:{tag}:");
        let prepared = Prepared {
            spec: StoreSpec {
                backend,
                url,
                prefix,
            },
            key: key.to_string(),
            temp_dir,
        };
        if backend != Backend::Redis {
            let db = Db::connect_url(&prepared.spec.url)
                .await
                .with_context(|| format!("opening the {} database", backend.name()))?;
            db.migrate().await?;
            prepared.clear(&db).await?;
            db.pool.close().await;
        }
        Ok(prepared)
    }

    async fn clear(&self, db: &Db) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM rate_limits WHERE key = $1")
            .bind(&self.key)
            .execute(&db.pool)
            .await?;
        Ok(())
    }

    /// Removes the run's state (errors are ignored: the benchmark's figures are what count).
    pub async fn cleanup(self) {
        match self.spec.backend {
            Backend::Redis => {
                if let Ok(client) = redis::Client::open(self.spec.url.as_str())
                    && let Ok(mut conn) = client.get_multiplexed_async_connection().await
                {
                    // The account key and the children's credential keys.
                    let names: Vec<String> = redis::cmd("KEYS")
                        .arg(format!("{}*", self.spec.prefix))
                        .query_async(&mut conn)
                        .await
                        .unwrap_or_default();
                    if !names.is_empty() {
                        let _: Result<i64, _> =
                            redis::cmd("DEL").arg(names).query_async(&mut conn).await;
                    }
                }
            }
            Backend::Postgres => {
                if let Ok(db) = Db::connect_url(&self.spec.url).await {
                    let _ = self.clear(&db).await;
                    db.pool.close().await;
                }
            }
            Backend::Sqlite => {}
        }
        if let Some(dir) = self.temp_dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}
