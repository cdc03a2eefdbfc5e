//! The API's integration tests, in one test binary (`--test api`): every suite is a module of
//! it, so the shared harness compiles once and the workspace with its dependencies (axum,
//! sqlx, the sandbox, …) links once instead of once per suite — on a fresh clone's two cores
//! that was most of the test build's time (docs/benchmarks.md, "The test suite's time").
//!
//! - `common`: `TestApp`, the real router over a fresh database per test, and
//!   `backend_tests!` (one test per backend).
//! - `harness`: a test app whose provider is an in-process sandbox (`Connected`), the steps
//!   of both connect paths, `sandbox_tests!`, and the waits the sandbox suites share.
//! - one module per suite; a test's name starts with its suite (`sync::…`, `bulk::…`), which
//!   is what `.config/nextest.toml` and a single suite's run filter on:
//!   `cargo nextest run -p searchdeck-api --all-features --test api -E 'test(/^sync::/)'`.
//!
//! A new suite is a directory `api/tests/api/<suite>/` (its root `mod.rs`, reaching the
//! harness as `crate::common` and `crate::harness`) and one `mod <suite>;` line here. A
//! directory `api/tests/<suite>/main.rs` would still build and run, as a binary of its own
//! that links the whole workspace again.

#[macro_use]
mod common;
#[macro_use]
mod harness;

mod access;
mod accounts;
mod activity;
mod app_store_connect;
mod attribution;
mod auth;
mod benchmarks;
mod bulk;
mod campaigns;
mod creation;
mod domain;
mod edits;
mod hardening;
mod lists_pages;
mod outside_changes;
mod plans;
mod platform;
mod presets;
mod reports;
mod rule_runs;
mod rules;
mod snapshots;
mod suggester;
mod sync;
mod team;
