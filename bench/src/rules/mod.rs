//! `searchdeck bench rules`: one automated rule over a large campaign group (issue 24's
//! benchmark, part 1). Seeds the `bench reports` campaign group (`--keywords`, default
//! 100,000, × `--days` days of metrics, default 60; `--keep` reuses a kept seed of the same
//! size) on SQLite and, with `--database-url`, on PostgreSQL, then times:
//!
//! - `rule_evaluate_30d`: a whole evaluation of a rule over every keyword of every campaign
//!   with a 30-day window (`searchdeck_common::rules::run::evaluate`: the report engine's
//!   read for rules, the conditions — spend above a value AND no installs, OR a CPA above
//!   5 × the CPT (a conversion rate under 20 %, about half of the seeded keywords) —, the
//!   minimum data, and the plan of a 10 % bid cut of the 1,000 largest spenders, the other
//!   matches listed as over the entity limit), exactly what `run-rule`, preview and
//!   backtest call;
//! - `entity_rows_30d`: the report engine's read alone (`report::entity_rows`), and of it
//!   `rule_attributes_30d`, the keywords' attributes (text, status, match type, bid) as the
//!   rule reads them (`store::report_facts::cache::rule_attributes`: cached while the group's
//!   entities are unchanged), beside `rule_attributes_uncached`, the same read from the
//!   database (`rule_entities`, what each evaluation paid before the cache); the rest of the
//!   read is the counters the report page reads too;
//! - `rule_conditions_30d`: the evaluation alone over the rows read (conditions, minData,
//!   the plan and its items: `rules::run::evaluate_rows`);
//! - `report_keywords_30d`: the report engine's own KEYWORDS page over the same 30 days
//!   (sorted by spend, page of 50), as `bench reports` times it,
//!
//! and prints p50/p95 of each and the ratio of the rule's p95 to the report's (`--json`: one
//! JSON object per case). The target: the rule at most 200 ms.
//!
//! Part 2 of the benchmark, 1,000 rules due in the same minute across 50 sandbox ad
//! accounts run by the scheduler and the workers within the provider's rate limits, is
//! [`scheduled`] (`--part scheduled`; both parts run by default).

mod evaluate;
pub mod scheduled;

use clap::Args;

use evaluate::bench_backend;

/// Which parts of `bench rules` run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Part {
    /// One rule over the large campaign group (part 1).
    Evaluate,
    /// Many rules across sandbox ad accounts within their rate limits (part 2, [`scheduled`]).
    Scheduled,
    /// Both, in that order.
    Both,
}

/// Options of `searchdeck bench rules`.
#[derive(Debug, Clone, Args)]
pub struct RulesBenchArgs {
    /// The parts to run.
    #[arg(long, value_enum, default_value = "both")]
    pub part: Part,
    /// The scheduled part's size and limit.
    #[command(flatten)]
    pub scheduled: scheduled::ScheduledArgs,
    /// Also run on PostgreSQL: a server URL (a database `searchdeck_bench_<pid>` is created
    /// on it and dropped afterwards).
    #[arg(long)]
    pub database_url: Option<String>,
    /// Keywords in the campaign group.
    #[arg(long, default_value_t = 100_000)]
    pub keywords: i64,
    /// Days of metrics per keyword (at least 30).
    #[arg(long, default_value_t = 60)]
    pub days: i64,
    /// Timed runs per case (after two warm-ups).
    #[arg(long, default_value_t = 20)]
    pub iterations: usize,
    /// Skip SQLite (PostgreSQL only).
    #[arg(long)]
    pub no_sqlite: bool,
    /// One JSON object per case instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Keep the seeded databases under this name (as `bench reports --keep`; the seeds of
    /// both benchmarks are the same when `--keywords` and `--days` are).
    #[arg(long)]
    pub keep: Option<String>,
}
/// Runs the benchmark: the parts `args.part` names, each on SQLite and (with
/// `--database-url`) PostgreSQL.
pub async fn run_bench(args: RulesBenchArgs) -> anyhow::Result<()> {
    let args = &args;
    let scratch = crate::scratch::Scratch {
        name: args
            .keep
            .clone()
            .unwrap_or_else(|| format!("rules_{}", std::process::id())),
        sqlite: !args.no_sqlite,
        postgres: args.database_url.as_deref(),
        keep: args.keep.is_some(),
        quiet: args.json,
    };
    // The scheduled part's databases are its own and never kept: its rules must be the only
    // ones scheduled.
    let own = crate::scratch::Scratch {
        name: format!("rules_scheduled_{}", std::process::id()),
        keep: false,
        ..scratch
    };
    if args.part != Part::Scheduled {
        anyhow::ensure!(
            args.days >= 30,
            "--days must be at least 30 (the rule's window)"
        );
        crate::scratch::each_backend(&scratch, |backend, db| async move {
            bench_backend(backend, &db, args).await
        })
        .await?;
    }
    if args.part != Part::Evaluate {
        crate::scratch::each_backend(&own, |backend, db| async move {
            scheduled::run(backend, &db, &args.scheduled, args.json).await
        })
        .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole benchmark at a tiny scale, on SQLite and on PostgreSQL when configured: the
    /// rule reads every keyword over its 30-day window and the report agrees on the count.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn runs_and_checks_itself_at_a_small_scale() {
        run_bench(RulesBenchArgs {
            part: Part::Evaluate,
            scheduled: Default::default(),
            database_url: searchdeck_common::test_support::backend_url("TEST_DATABASE_URL"),
            keywords: 300,
            days: 35,
            iterations: 1,
            no_sqlite: false,
            json: true,
            keep: None,
        })
        .await
        .unwrap();
    }

    /// The scheduled part at a small scale (12 rules over 3 ad accounts at 4 requests per
    /// second each), on SQLite and on PostgreSQL when configured: the scheduler enqueues
    /// every rule, the workers run each to `DONE` with every matched ad group raised at the
    /// sandbox. Its figures (429s, the limiter's use) are printed, not asserted: they are
    /// timings, which a shared test machine stretches.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn scheduled_rules_run_within_the_limits_at_a_small_scale() {
        run_bench(RulesBenchArgs {
            part: Part::Scheduled,
            scheduled: scheduled::ScheduledArgs {
                rules: 12,
                accounts: 3,
                requests_per_second: 4,
                concurrency: 16,
                timeout_seconds: 300,
            },
            database_url: searchdeck_common::test_support::backend_url("TEST_DATABASE_URL"),
            keywords: 0,
            days: 0,
            iterations: 1,
            no_sqlite: false,
            json: false,
            keep: None,
        })
        .await
        .unwrap();
    }
}
