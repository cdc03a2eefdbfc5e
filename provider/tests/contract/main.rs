//! Contract tests: the real client against the sandbox over HTTP on loopback, with every
//! response body validated against the reference schema (object schemas closed).

mod access;
mod ads;
mod appstore_connect;
mod core;
mod faults;
mod history;
mod insights;
mod mmp;
mod oauth;
mod reports;
mod schema;
mod suggester;
mod support;
mod validation;
