//! Revenue and attribution (migrations `20261208000000_attribution.sql` and
//! `20261210000000_attribution_pull.sql`; contract `docs/api/attribution.md`): the
//! workspace's provider integrations and their postback tokens ([`integrations`]), the
//! attributed events as received ([`events`]), their sums by entity, install day and event
//! name that the reports read ([`facts`]), the event names seen with what each counts as
//! ([`names`]), the reporting-API pulls with their sealed tokens ([`pulls`]) and the install
//! days whose facts they replaced ([`pulled`]). The ingest's order of writes (link to the
//! install, store once, sum) is `searchdeck_common::attribution::ingest`'s.

pub mod events;
pub mod facts;
pub mod integrations;
pub mod names;
pub mod pulled;
pub mod pulls;
