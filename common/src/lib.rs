//! What every Searchdeck role shares above the database: the engines (the report engine,
//! the rules, the plan, the keyword suggester), the job catalogue and the queue, the
//! background-task records, the email sender and the shared Apple Ads rate limiter.
//!
//! The layers below are crates of their own inside `common/` (docs/architecture.md, "The
//! layers"): `searchdeck-infra` (configuration, secrets, retry timing), `searchdeck-model`
//! (ids, money, FX, countries, keyword text, field errors) and `searchdeck-db` (the pools,
//! the migrations and every store). They are re-exported here under their old paths
//! (`searchdeck_common::store::…`), so the roles name one crate; the crate graph keeps the
//! lower layers from reaching up.

pub mod attribution;
pub mod email;
pub mod engines;
pub mod jobs;
pub mod plan;
pub mod queue;
pub mod ratelimit;
pub mod report;
pub mod rules;
pub mod suggester;
pub mod tasks;
#[cfg(feature = "test-support")]
pub mod test_support;
pub mod zones;

pub use searchdeck_db::{db, store, stored_credentials};
pub use searchdeck_infra::{config, retry, secrets};
pub use searchdeck_model::{countries, field_error, fx, ids, money};

pub use config::{Backend, Config, ConfigArgs};
pub use db::Db;
pub use engines::Engines;
pub use field_error::FieldError;
