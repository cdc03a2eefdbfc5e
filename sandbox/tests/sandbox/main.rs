//! The sandbox's integration tests, in one test binary (`--test sandbox`): each suite is a
//! module over the shared `support` client, so the crate links once instead of once per suite
//! (docs/benchmarks.md, "The test suite's time"). A new suite is a file here and one `mod`
//! line below.

mod support;

mod change_history;
mod clock_and_journal;
mod rate_limits;
mod report_pages;
mod set_metrics;
mod suggester_truth;
