//! The keyword suggester through the real router against an in-process sandbox, on SQLite
//! and PostgreSQL: the collection (`collection`) and the apps, competitors and estimates
//! around it (`apps`).

mod apps;
mod collection;
