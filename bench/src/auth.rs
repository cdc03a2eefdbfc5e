//! `searchdeck bench auth`: password hashing under a sign-up and login burst.
//!
//! Starts `searchdeck serve` as a child process on a temporary data directory and free
//! ports (its memory is measured apart from the load generator), then fires N concurrent
//! registrations and M logins spread over S seconds while `/health` is polled every 25 ms.
//! Prints the status counts (5xx above all), the server's peak resident memory (`VmHWM`) and
//! its memory after going idle, `/health` p50/p95 under load, and throughput. Targets: no
//! 5xx, peak RSS under 500 MB, `/health` p95 under 50 ms.
//!
//! By default every request carries its own `X-Forwarded-For` address and the server trusts
//! 127.0.0.1 as its proxy, so the run measures the hashing pool rather than the per-address
//! sign-up limit; `--one-address` sends everything from one address instead.

use std::{
    collections::BTreeMap,
    path::PathBuf,
    process::Stdio,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::Context;
use serde_json::json;

/// Options of `searchdeck bench auth`.
#[derive(Debug, Clone, clap::Args)]
pub struct AuthBenchArgs {
    /// Registrations fired at once.
    #[arg(long, default_value_t = 200)]
    pub registrations: usize,
    /// Logins (of the registered accounts) spread evenly over `--login-seconds`.
    #[arg(long, default_value_t = 200)]
    pub logins: usize,
    #[arg(long, default_value_t = 2.0)]
    pub login_seconds: f64,
    /// Send every request from one client address (exercises the sign-up limit instead).
    #[arg(long)]
    pub one_address: bool,
    /// Server executable to start with `serve` (default: this executable).
    #[arg(long)]
    pub server: Option<PathBuf>,
}

/// Latency percentile (0–100) of a list of durations, in milliseconds.
fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

/// A memory figure of `/proc/<pid>/status` in MiB (Linux only).
fn proc_mib(pid: u32, field: &str) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

/// Outcome of one request: its status (0 for a transport error) and duration.
type Outcome = (u16, Duration);

async fn timed(req: reqwest::RequestBuilder) -> Outcome {
    let started = Instant::now();
    let status = match req.send().await {
        Ok(res) => {
            let status = res.status().as_u16();
            let _ = res.bytes().await;
            status
        }
        Err(_) => 0,
    };
    (status, started.elapsed())
}

fn report(name: &str, outcomes: &[Outcome], wall: Duration) -> usize {
    let mut by_status: BTreeMap<u16, usize> = BTreeMap::new();
    for (status, _) in outcomes {
        *by_status.entry(*status).or_default() += 1;
    }
    let mut times: Vec<Duration> = outcomes.iter().map(|(_, d)| *d).collect();
    times.sort();
    let errors = outcomes
        .iter()
        .filter(|(s, _)| *s >= 500 || *s == 0)
        .count();
    println!(
        "{name:<14} {n} requests in {wall:.2?} ({rate:.1}/s)  statuses {by_status:?}  \
         latency p50 {p50:.0} ms p95 {p95:.0} ms max {max:.0} ms",
        n = outcomes.len(),
        rate = outcomes.len() as f64 / wall.as_secs_f64(),
        p50 = percentile(&times, 50.0),
        p95 = percentile(&times, 95.0),
        max = percentile(&times, 100.0),
    );
    errors
}

/// Runs the benchmark and prints its figures.
pub async fn run(args: AuthBenchArgs) -> anyhow::Result<()> {
    let exe = match &args.server {
        Some(p) => p.clone(),
        None => std::env::current_exe()?,
    };
    let dir = std::env::temp_dir().join(format!("searchdeck-bench-auth-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let (port, sandbox_port) = (free_port()?, free_port()?);
    let log = std::fs::File::create(dir.join("serve.log"))?;
    let mut child = tokio::process::Command::new(&exe)
        .arg("serve")
        .env("SEARCHDECK_DATA_DIR", &dir)
        .env("SEARCHDECK_BIND", format!("127.0.0.1:{port}"))
        .env(
            "SEARCHDECK_SANDBOX_BIND",
            format!("127.0.0.1:{sandbox_port}"),
        )
        .env("SEARCHDECK_TRUSTED_PROXIES", "127.0.0.1")
        .env("RUST_LOG", "warn")
        .env_remove("DATABASE_URL")
        .env_remove("QUEUE_URL")
        .env_remove("REDIS_URL")
        .env_remove("SMTP_URL")
        .stdout(Stdio::from(log.try_clone()?))
        .stderr(Stdio::from(log))
        .kill_on_drop(true)
        .spawn()
        .with_context(|| format!("starting {} serve", exe.display()))?;
    let pid = child.id().context("server pid")?;
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(512)
        .timeout(Duration::from_secs(60))
        .build()?;
    let ready = Instant::now();
    while client.get(format!("{base}/health")).send().await.is_err() {
        anyhow::ensure!(
            ready.elapsed() < Duration::from_secs(60),
            "server did not start; see {}",
            dir.display()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let idle_before = proc_mib(pid, "VmRSS:").unwrap_or(f64::NAN);
    println!(
        "server: {} serve (pid {pid}), SQLite in {}, RSS at start {idle_before:.0} MiB",
        exe.display(),
        dir.display()
    );

    // Background samplers: /health latency and resident memory.
    let stop = Arc::new(AtomicBool::new(false));
    let peak_kib = Arc::new(AtomicU64::new(0));
    let health = tokio::spawn({
        let (client, base, stop) = (client.clone(), base.clone(), stop.clone());
        async move {
            let mut samples = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                samples.push(timed(client.get(format!("{base}/health"))).await);
                tokio::time::sleep(Duration::from_millis(25)).await;
            }
            samples
        }
    });
    let memory = tokio::spawn({
        let (stop, peak) = (stop.clone(), peak_kib.clone());
        async move {
            while !stop.load(Ordering::Relaxed) {
                if let Some(mib) = proc_mib(pid, "VmRSS:") {
                    peak.fetch_max((mib * 1024.0) as u64, Ordering::Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    });

    let address = |i: usize| {
        if args.one_address {
            "203.0.113.7".to_string()
        } else {
            format!("10.{}.{}.{}", (i >> 16) & 255, (i >> 8) & 255, i & 255)
        }
    };
    let emails: Vec<String> = (0..args.registrations)
        .map(|i| format!("bench{i}@example.com"))
        .collect();
    let started = Instant::now();
    let registrations = futures::future::join_all(emails.iter().enumerate().map(|(i, email)| {
        timed(
            client
                .post(format!("{base}/api/auth/register"))
                .header("x-forwarded-for", address(i))
                .json(&json!({"email": email, "password": "bench password", "repeatPassword": "bench password"})),
        )
    }))
    .await;
    let register_wall = started.elapsed();
    let registered: Vec<&String> = emails
        .iter()
        .zip(&registrations)
        .filter(|(_, (s, _))| *s == 200)
        .map(|(e, _)| e)
        .collect();

    let gap = Duration::from_secs_f64(args.login_seconds / args.logins.max(1) as f64);
    let started = Instant::now();
    let logins = futures::future::join_all((0..args.logins).map(|i| {
        let email = registered
            .get(i % registered.len().max(1))
            .map(|e| e.to_string());
        let req = client
            .post(format!("{base}/api/auth/login"))
            .header("x-forwarded-for", address(100_000 + i))
            .json(&json!({"email": email.unwrap_or_default(), "password": "bench password"}));
        async move {
            tokio::time::sleep(gap * i as u32).await;
            timed(req).await
        }
    }))
    .await;
    let login_wall = started.elapsed();
    stop.store(true, Ordering::Relaxed);
    let health = health.await?;
    memory.await?;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let idle_after = proc_mib(pid, "VmRSS:").unwrap_or(f64::NAN);
    let hwm = proc_mib(pid, "VmHWM:").unwrap_or(f64::NAN);
    let sampled_peak = peak_kib.load(Ordering::Relaxed) as f64 / 1024.0;

    println!();
    let five = report("registrations", &registrations, register_wall)
        + report("logins", &logins, login_wall);
    let health_errors = report("/health", &health, register_wall + login_wall);
    let mut health_times: Vec<Duration> = health.iter().map(|(_, d)| *d).collect();
    health_times.sort();
    let p95 = percentile(&health_times, 95.0);
    let peak = hwm.max(sampled_peak);
    println!(
        "server memory: peak RSS {peak:.0} MiB (VmHWM), {idle_after:.0} MiB after 3 s idle (start {idle_before:.0} MiB)"
    );
    println!();
    let verdict = |ok: bool| if ok { "met" } else { "MISSED" };
    println!(
        "5xx (and transport errors): {five}  [target 0: {}]",
        verdict(five == 0)
    );
    println!(
        "peak server RSS: {peak:.0} MiB  [target < 500 MiB: {}]",
        verdict(peak < 500.0)
    );
    println!(
        "/health p50 {:.1} ms, p95 {p95:.1} ms, errors {health_errors}  [target p95 < 50 ms: {}]",
        percentile(&health_times, 50.0),
        verdict(p95 < 50.0 && health_errors == 0)
    );
    child.start_kill().ok();
    child.wait().await.ok();
    std::fs::remove_dir_all(&dir).ok();
    Ok(())
}
