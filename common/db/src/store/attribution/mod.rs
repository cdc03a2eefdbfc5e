//! Revenue and attribution (migration `20261208000000_attribution.sql`; contract
//! `docs/api/attribution.md`): the workspace's provider integrations and their postback
//! tokens ([`integrations`]), the attributed events as received ([`events`]), their sums by
//! entity, install day and event name that the reports read ([`facts`]), and the event names
//! seen with what each counts as ([`names`]). The ingest's order of writes (link to the
//! install, store once, sum) is `searchdeck_common::attribution::ingest`'s.

pub mod events;
pub mod facts;
pub mod integrations;
pub mod names;
