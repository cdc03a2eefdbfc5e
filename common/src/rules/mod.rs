//! Automated rules (issue 24, contract `docs/api/rules.md`): the typed, versioned rule
//! schema the API stores and the browser mirrors ([`schema`]). Validation, evaluation over
//! the report engine's rows, action planning with guardrails and due times build on it in
//! sibling modules.

pub mod evaluate;
pub mod named;
pub mod plan;
pub mod run;
pub mod schedule;
pub mod validate;
pub mod window;

/// The rule document (schema v1), which the store keeps whole.
pub use crate::store::rules::schema::{self, *};
