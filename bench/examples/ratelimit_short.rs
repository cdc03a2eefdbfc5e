//! The rate-limit benchmark in a short form (`cargo run --release -p searchdeck-bench
//! --example ratelimit_short`): three OS processes (this executable, re-run as children) share one sandbox ad account limited to 20 requests/s for a few
//! seconds through the shared limiter on SQLite (and Redis when `TEST_REDIS_URL` is set).
//! Margins are wider than the benchmark's target (≥ 0.85, ≤ 2 % 429s) for busy machines.
//! The same executable is the parent and, with `SEARCHDECK_BENCH_CHILD` set, a child. An
//! example rather than a `cargo bench` target so the test build compiles (and lints) it.

use searchdeck_bench::ratelimit::{self as bench, Backend, BenchOptions, Launcher};

const CHILD: &str = "SEARCHDECK_BENCH_CHILD";

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    if std::env::var_os(CHILD).is_some() {
        if let Err(e) = runtime.block_on(bench::child::main()) {
            eprintln!("benchmark child: {e:#}");
            std::process::exit(1);
        }
        return;
    }
    if std::env::args().any(|a| a == "--list") {
        println!("three_processes_share_one_account: test");
        return;
    }
    let mut backends = vec![(Backend::Sqlite, None)];
    if let Ok(url) = std::env::var("TEST_REDIS_URL") {
        backends.push((Backend::Redis, Some(url)));
    }
    for (backend, store_url) in backends {
        let started = std::time::Instant::now();
        let options = BenchOptions {
            processes: 3,
            limit: 20,
            seconds: 4.0,
            backend,
            store_url,
            concurrency: 3,
        };
        let launcher = Launcher {
            exe: std::env::current_exe().expect("test executable"),
            args: Vec::new(),
            envs: vec![(CHILD.into(), "1".into())],
        };
        let outcome = runtime
            .block_on(bench::ratelimit(options, &launcher))
            .expect("benchmark runs");
        println!("{outcome}");
        println!("({:.1} s)", started.elapsed().as_secs_f64());
        assert!(outcome.achieved_ratio() >= 0.85, "{outcome}");
        assert!(outcome.rate_limited_share() <= 0.02, "{outcome}");
        assert_eq!(outcome.total.errors, 0, "{outcome}");
    }
    println!("test three_processes_share_one_account ... ok");
}
