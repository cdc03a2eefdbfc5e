//! Searchdeck's database layer: the handle on either backend's pools ([`Db`], with the
//! migrations) and the stores ([`store`]), which hold every SQL statement of the product,
//! and the connections' stored credentials ([`stored_credentials`]). It knows no engine, job
//! or route: the report engine, the rules, the plan and the jobs read and write through it
//! (`searchdeck-common`), never the other way, and the crate graph keeps it so.

pub mod db;
pub mod store;
pub mod stored_credentials;

pub use db::Db;

// The layers below, under the names the stores use (`crate::ids`, `crate::config`, …).
use searchdeck_infra::{config, secrets};
use searchdeck_model::{fx, ids, text};
