//! Shared foundations of every Searchdeck role: typed configuration, the database layer and
//! its migrations, the email sender, background-task records and the job queue.

pub mod config;
pub mod db;
pub mod email;
pub mod ids;
pub mod queue;
pub mod ratelimit;
pub mod secrets;
pub mod tasks;

pub use config::{Backend, Config, ConfigArgs};
pub use db::Db;
