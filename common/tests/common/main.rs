//! The common crate's integration tests, in one test binary (`--test common`): the store
//! conformance suites, the rate limiter on every store, secrets, email and the migrations,
//! each a module, so the crate with its dependencies (sqlx, redis, lettre, …) links once
//! instead of once per suite (docs/benchmarks.md, "The test suite's time").
//!
//! A test's name starts with its suite (`store::sqlite::…`, `ratelimit::…`), which is what
//! `.config/nextest.toml` and a single suite's run filter on:
//! `cargo nextest run -p searchdeck-common --all-features --test common -E 'test(/^store::/)'`.
//! A new suite is a file (or a directory with a `mod.rs`) here and one `mod` line below.

/// One store conformance suite: `conformance!("sd_prefix"; case, …)` runs each
/// `async fn case(db: &Db)` of the calling module as `sqlite::case` and `postgres::case`
/// (the latter on a fresh database named after the prefix, with `TEST_DATABASE_URL`).
/// Defined before the suites' `mod` lines, so every suite below can use it.
macro_rules! conformance {
    ($prefix:literal; $($case:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test]
            async fn $case() {
                let f = searchdeck_common::test_support::MigratedDb::sqlite().await;
                super::$case(&f.db).await;
            })*
        }
        mod postgres {
            $(#[tokio::test]
            async fn $case() {
                if let Some(f) = searchdeck_common::test_support::MigratedDb::postgres($prefix).await {
                    super::$case(&f.db).await;
                }
            })*
        }
    };
}

mod change_history;
mod changes;
mod email;
mod migrations;
mod notifications;
mod options;
mod presets;
mod purchases;
mod ratelimit;
mod secrets;
mod store;
mod suggester_store;
mod synced;
mod tags;
mod team;
