//! The common crate's integration tests, in one test binary (`--test common`): the store
//! conformance suites, the rate limiter on every store, secrets, email and the migrations,
//! each a module, so the crate with its dependencies (sqlx, redis, lettre, …) links once
//! instead of once per suite (docs/benchmarks.md, "The test suite's time").
//!
//! A test's name starts with its suite (`store::sqlite::…`, `ratelimit::…`), which is what
//! `.config/nextest.toml` and a single suite's run filter on:
//! `cargo nextest run -p searchdeck-common --all-features --test common -E 'test(/^store::/)'`.
//! A new suite is a file (or a directory with a `mod.rs`) here and one `mod` line below.

mod change_history;
mod changes;
mod email;
mod migrations;
mod notifications;
mod presets;
mod purchases;
mod ratelimit;
mod secrets;
mod store;
mod suggester_store;
mod synced;
mod tags;
mod team;
