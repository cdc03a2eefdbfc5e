//! The lowest layer of Searchdeck: typed configuration ([`Config`], from flags and the
//! environment), encryption of stored secrets ([`secrets`]) and the retry timing every
//! outbound call shares ([`retry`]). It knows nothing of the product's data.

pub mod config;
pub mod retry;
pub mod secrets;

pub use config::{Backend, Config, ConfigArgs};
