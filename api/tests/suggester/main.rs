//! The keyword suggester through the real router against an in-process sandbox, on SQLite
//! and PostgreSQL: the collection (`collection`) and the apps, competitors and estimates
//! around it (`apps`). One test binary, one link.

#[path = "../common/mod.rs"]
mod common;
#[path = "../accounts/harness.rs"]
#[expect(
    dead_code,
    reason = "the accounts suite's harness; this suite uses part of it"
)]
mod harness;

mod apps;
mod collection;
