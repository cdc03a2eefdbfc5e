//! The worker's integration tests, one binary: queue semantics, the scheduler, the outbox,
//! cancellation, emails by reference, alert delivery (email and Slack), the provider clients
//! of the worker runtime and the
//! search-popularity refresh. Each
//! runs on SQLite, PostgreSQL and Redis where the backend matters (see `support`).

mod alerts;
mod bulk_edit;
mod cancel;
mod creation;
mod email;
mod goal_optimization;
mod outbox;
mod popularity;
mod provider;
mod queue;
mod rates;
mod rule_run;
mod rule_run_ends;
mod rule_schedule;
mod scheduler;
mod support;
mod sync;
