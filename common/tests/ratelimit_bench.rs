//! The shared-limiter benchmark as a test: three limiter instances (tasks with their own
//! store connections) share one ad account against a strict local server for 10 s on each
//! backend. The full figures come from `cargo run -p searchdeck-common --example
//! bench_ratelimit`; this test guards against regressions with a margin for a busy machine.

#[allow(
    dead_code,
    reason = "shared with the example, which runs child processes too"
)]
#[path = "../examples/bench_ratelimit/harness.rs"]
mod harness;
mod ratelimit_support;
#[allow(dead_code, reason = "shared with the example")]
#[path = "../examples/bench_ratelimit/stores.rs"]
mod stores;

use harness::{BenchOptions, Runner, bench_shared};
use stores::BenchBackend;

async fn bench(backend: BenchBackend, store_url: Option<String>) {
    let outcome = bench_shared(
        BenchOptions {
            backend,
            processes: 3,
            limit: 20,
            seconds: 10.0,
            concurrency: 4,
            store_url,
        },
        Runner::InProcess,
    )
    .await
    .expect("benchmark runs");
    println!("{outcome}");
    assert!(outcome.achieved_ratio() >= 0.85, "{outcome}");
    assert!(outcome.rejected_share() <= 0.02, "{outcome}");
    assert_eq!(outcome.workers.errors, 0, "{outcome}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bench_memory() {
    bench(BenchBackend::Memory, None).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bench_sqlite() {
    bench(BenchBackend::Sqlite, None).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bench_postgres() {
    if let Some(url) = ratelimit_support::required_env("TEST_DATABASE_URL") {
        bench(BenchBackend::Postgres, Some(url)).await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bench_redis() {
    if let Some(url) = ratelimit_support::required_env("TEST_REDIS_URL") {
        bench(BenchBackend::Redis, Some(url)).await
    }
}
