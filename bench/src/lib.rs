//! The benchmarks behind `searchdeck bench …` (built into the binary with `--features bench`),
//! kept out of the production crates: each module drives the public surface of the crate it
//! measures. How to run them and their latest figures: `docs/benchmarks.md`.
//!
//! - [`ratelimit`]: N processes sharing one rate-limited Apple Ads account (`bench ratelimit`);
//! - [`sandbox`]: the sandbox's reports, queries and latency over its large world (`bench sandbox`);
//! - [`auth`]: a sign-up and login burst against a `searchdeck serve` child (`bench auth`);
//! - [`reports`]: the report engine over 100,000 keywords × 365 days (`bench reports`);
//! - [`sync`]: a first sync of the large sandbox world through the real jobs (`bench sync`);
//! - [`suggester`]: the keyword suggester's collection against the sandbox, with recall
//!   against its ground truth (`bench suggester`);
//! - [`create`]: campaign creation against the sandbox, calls against the minimum and a
//!   killed run's extra calls (`bench create`);
//! - [`activity`]: the activity log's first page, search and type filter over 1,000,000
//!   change records, beside the same reads without the log's indexes (`bench activity`);
//! - [`rules`]: one automated rule over 100,000 keywords with a 30-day window, beside the
//!   report engine's own keyword query (`bench rules`);
//! - [`attribution`]: the KEYWORDS report with the Conversions and Cohort columns beside it
//!   without them, and the postbacks' ingest, exactly once under replays (`bench
//!   attribution`).

pub mod activity;
pub mod attribution;
pub mod auth;
pub mod create;
pub mod ratelimit;
pub mod reports;
pub mod rules;
pub mod sandbox;
pub mod scratch;
pub mod suggester;
pub mod sync;
