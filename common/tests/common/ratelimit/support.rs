//! Fixtures for the rate-limiter tests: one shared store per test on each backend.
//!
//! `store_tests!` turns each test body into one test per backend: `memory` and `sqlite`
//! always run; `postgres` runs on a fresh database on the server at `TEST_DATABASE_URL` and
//! `redis` under a unique key prefix at `TEST_REDIS_URL`. Under `CI=true` a missing variable
//! fails the test; elsewhere the variant says so and passes.

use searchdeck_common::{
    Backend, Db,
    ids::new_id,
    ratelimit::{DbStore, RateLimitSettings, RateLimiter, RedisStore, SharedStore},
    test_support::{BackendName, TestDatabase, backend_url},
};

/// Which store a fixture runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Memory,
    Sqlite,
    Postgres,
    Redis,
}

impl BackendName for Kind {
    fn from_backend_name(name: &str) -> Kind {
        match name {
            "memory" => Kind::Memory,
            other => match Backend::from_backend_name(other) {
                Backend::Sqlite => Kind::Sqlite,
                Backend::Postgres => Kind::Postgres,
                Backend::Redis => Kind::Redis,
            },
        }
    }
}

/// Runs each body once per store (through the shared `per_backend!`).
#[macro_export]
macro_rules! store_tests {
    ($(async fn $name:ident($fx:ident: Fixture) $body:block)*) => {
        $(
            async fn $name(kind: Kind) {
                let Some($fx) = Fixture::new(kind).await else {
                    return;
                };
                $body
            }
            searchdeck_common::per_backend!([memory, sqlite, postgres, redis] $name);
        )*
    };
}

/// A shared store for one test; each [`Fixture::store`] call opens its own connection, as
/// another process would.
pub struct Fixture {
    pub kind: Kind,
    memory: Option<SharedStore>,
    url: String,
    prefix: String,
    _dir: Option<tempfile::TempDir>,
    /// This test's PostgreSQL database, dropped with the fixture.
    pg: Option<TestDatabase>,
}

/// The variable's value; under `CI=true` a missing one is a failure, elsewhere a skip.
pub fn required_env(name: &str) -> Option<String> {
    backend_url(name)
}

impl Fixture {
    /// A fresh store, or None when its server is not configured (outside CI).
    pub async fn new(kind: Kind) -> Option<Fixture> {
        let mut fx = Fixture {
            kind,
            memory: None,
            url: String::new(),
            prefix: format!("sd-test:{}:{}:", std::process::id(), new_id()),
            _dir: None,
            pg: None,
        };
        match kind {
            Kind::Memory => fx.memory = Some(SharedStore::memory()),
            Kind::Sqlite => {
                let dir = tempfile::tempdir().unwrap();
                fx.url = format!("sqlite://{}?mode=rwc", dir.path().join("rl.db").display());
                fx._dir = Some(dir);
                Db::connect_url(&fx.url)
                    .await
                    .unwrap()
                    .migrate()
                    .await
                    .unwrap();
            }
            Kind::Postgres => {
                let database =
                    TestDatabase::migrated(&required_env("TEST_DATABASE_URL")?, "sd_rl").await;
                fx.url = database.url.clone();
                fx.pg = Some(database);
                Db::connect_url(&fx.url)
                    .await
                    .unwrap()
                    .migrate()
                    .await
                    .unwrap();
            }
            Kind::Redis => fx.url = required_env("TEST_REDIS_URL")?,
        }
        Some(fx)
    }

    /// A handle on the shared store with its own connection.
    pub async fn store(&self) -> SharedStore {
        match self.kind {
            Kind::Memory => self.memory.clone().unwrap(),
            Kind::Sqlite | Kind::Postgres => {
                SharedStore::Database(DbStore::new(Db::connect_url(&self.url).await.unwrap()))
            }
            Kind::Redis => {
                SharedStore::Redis(RedisStore::connect(&self.url, &self.prefix).await.unwrap())
            }
        }
    }

    /// A limiter on its own connection to the shared store ("another process").
    pub async fn limiter(&self, settings: RateLimitSettings) -> RateLimiter {
        RateLimiter::new(self.store().await, settings)
    }

    /// Moves the stored arrival time of `key` forward, as a process on a host whose clock
    /// runs ahead would leave it. None on the in-memory store, which has one clock.
    pub async fn push_tat_forward(&self, key: &str, micros: i64) -> Option<()> {
        match self.kind {
            Kind::Memory => None,
            Kind::Sqlite | Kind::Postgres => {
                let db = Db::connect_url(&self.url).await.unwrap();
                let done =
                    sqlx::query("UPDATE rate_limits SET tat_us = tat_us + $1 WHERE key = $2")
                        .bind(micros)
                        .bind(key)
                        .execute(&db.pool)
                        .await
                        .unwrap();
                assert_eq!(done.rows_affected(), 1);
                Some(())
            }
            Kind::Redis => {
                let client = redis::Client::open(self.url.as_str()).unwrap();
                let mut conn = client.get_multiplexed_async_connection().await.unwrap();
                let _: i64 = redis::cmd("HINCRBY")
                    .arg(format!("{}{key}", self.prefix))
                    .arg("tat")
                    .arg(micros)
                    .query_async(&mut conn)
                    .await
                    .unwrap();
                Some(())
            }
        }
    }
}
