//! Shared foundations of every Searchdeck role: typed configuration, the database layer and
//! its migrations, the email sender, background-task records, the job queue, the shared
//! Apple Ads rate limiter and encryption of stored secrets.

pub mod config;
pub mod countries;
pub mod db;
pub mod email;
pub mod engines;
pub mod field_error;
pub mod fx;
pub mod ids;
pub mod jobs;
pub mod money;
pub mod plan;
pub mod queue;
pub mod ratelimit;
pub mod report;
pub mod retry;
pub mod rules;
pub mod secrets;
pub mod store;
pub mod stored_credentials;
pub mod suggester;
pub mod tasks;
#[cfg(feature = "test-support")]
pub mod test_support;

pub use config::{Backend, Config, ConfigArgs};
pub use db::Db;
pub use engines::Engines;
pub use field_error::FieldError;
