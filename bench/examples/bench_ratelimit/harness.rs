//! The shared rate-limit benchmark: N limiter instances (processes or tasks) share one ad
//! account against a local server that enforces L requests/s with a strict sliding window
//! and answers 429 + `Retry-After` past it. It reports achieved/L and the 429 count.
//! Used by the `bench_ratelimit` example.

use std::{
    collections::VecDeque,
    net::SocketAddr,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use axum::{
    Router,
    extract::State,
    http::{HeaderMap, HeaderValue, StatusCode},
    routing::get,
};
use searchdeck_common::ratelimit::{
    RateLimitInfo, RateLimitSettings, RateLimiter, SharedStore, account_key,
};
use serde::{Deserialize, Serialize};

use super::stores::{BenchBackend, PreparedStore};

const WINDOW: Duration = Duration::from_secs(1);

/// The provider stand-in: at most `limit` accepted requests in any one-second window.
pub struct StrictServer {
    limit: usize,
    log: Mutex<VecDeque<Instant>>,
    accepted: AtomicU64,
    rejected: AtomicU64,
}

impl StrictServer {
    /// Starts the server on a free local port; returns it and its base URL.
    pub async fn start(limit: u32) -> anyhow::Result<(Arc<StrictServer>, String)> {
        let server = Arc::new(StrictServer {
            limit: limit as usize,
            log: Mutex::new(VecDeque::new()),
            accepted: AtomicU64::new(0),
            rejected: AtomicU64::new(0),
        });
        let app = Router::new()
            .route("/v1/ping", get(ping))
            .with_state(server.clone());
        let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
        let url = format!("http://{}", listener.local_addr()?);
        tokio::spawn(async move { axum::serve(listener, app).await });
        Ok((server, url))
    }

    /// Requests accepted and answered 429 so far.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.accepted.load(Ordering::SeqCst),
            self.rejected.load(Ordering::SeqCst),
        )
    }
}

async fn ping(State(s): State<Arc<StrictServer>>) -> (StatusCode, HeaderMap) {
    let now = Instant::now();
    let mut log = s.log.lock().unwrap();
    while log
        .front()
        .is_some_and(|t| now.duration_since(*t) >= WINDOW)
    {
        log.pop_front();
    }
    let admitted = log.len() < s.limit;
    if admitted {
        log.push_back(now);
        s.accepted.fetch_add(1, Ordering::SeqCst);
    } else {
        s.rejected.fetch_add(1, Ordering::SeqCst);
    }
    // Whole seconds until the oldest request leaves the window (at least one).
    let reset = log
        .front()
        .map_or(1, |t| {
            (WINDOW - now.duration_since(*t)).as_secs_f64().ceil() as u64
        })
        .max(1);
    let mut headers = HeaderMap::new();
    headers.insert("ratelimit-limit", HeaderValue::from(s.limit));
    headers.insert(
        "ratelimit-remaining",
        HeaderValue::from(s.limit - log.len()),
    );
    headers.insert("ratelimit-reset", HeaderValue::from(reset));
    if admitted {
        (StatusCode::OK, headers)
    } else {
        headers.insert("retry-after", HeaderValue::from(reset));
        (StatusCode::TOO_MANY_REQUESTS, headers)
    }
}

/// What one limiter instance did.
#[derive(Debug, Default, Clone, Copy, Serialize, Deserialize)]
pub struct WorkerReport {
    pub calls: u64,
    pub ok: u64,
    pub limited: u64,
    pub errors: u64,
}

impl std::ops::AddAssign for WorkerReport {
    fn add_assign(&mut self, o: WorkerReport) {
        self.calls += o.calls;
        self.ok += o.ok;
        self.limited += o.limited;
        self.errors += o.errors;
    }
}

/// Unix milliseconds now.
pub fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

/// One instance: `concurrency` tasks send through `limiter` from `start_ms` for `seconds`.
pub async fn run_worker(
    store: SharedStore,
    server: String,
    start_ms: u64,
    seconds: f64,
    concurrency: usize,
) -> WorkerReport {
    let limiter = RateLimiter::new(store, RateLimitSettings::default());
    let key = account_key("bench");
    let http = reqwest::Client::new();
    let end_ms = start_ms + (seconds * 1000.0) as u64;
    tokio::time::sleep(Duration::from_millis(start_ms.saturating_sub(unix_ms()))).await;
    let mut tasks = Vec::new();
    for _ in 0..concurrency.max(1) {
        let (limiter, key, http) = (limiter.clone(), key.clone(), http.clone());
        let url = format!("{server}/v1/ping");
        tasks.push(tokio::spawn(async move {
            let mut report = WorkerReport::default();
            while unix_ms() < end_ms {
                if let Err(e) = limiter.acquire(&key).await {
                    eprintln!("acquire failed: {e}");
                    report.errors += 1;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
                if unix_ms() >= end_ms {
                    break;
                }
                report.calls += 1;
                match http.get(&url).send().await {
                    Ok(response) => {
                        let status = response.status().as_u16();
                        let info = RateLimitInfo::from_headers(status, response.headers());
                        if status == 429 {
                            report.limited += 1;
                        } else {
                            report.ok += 1;
                        }
                        if let Err(e) = limiter.observe(&key, &info).await {
                            eprintln!("observe failed: {e}");
                            report.errors += 1;
                        }
                    }
                    Err(_) => report.errors += 1,
                }
            }
            report
        }));
    }
    let mut total = WorkerReport::default();
    for t in tasks {
        total += t.await.unwrap_or_default();
    }
    total
}

/// How the instances run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runner {
    /// As tasks of this process, each with its own store connection.
    InProcess,
    /// As child processes of this executable (`child …` arguments, see the example).
    Processes(std::path::PathBuf),
}

/// Benchmark parameters.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    pub backend: BenchBackend,
    pub processes: usize,
    pub limit: u32,
    pub seconds: f64,
    pub concurrency: usize,
    /// Database or Redis URL; defaults from the environment (see `stores`).
    pub store_url: Option<String>,
}

/// Figures of one run.
#[derive(Debug, Clone)]
pub struct BenchOutcome {
    pub options: BenchOptions,
    pub accepted: u64,
    pub rejected: u64,
    pub workers: WorkerReport,
}

impl BenchOutcome {
    /// Accepted requests per second over the limit.
    pub fn achieved_ratio(&self) -> f64 {
        self.accepted as f64 / (f64::from(self.options.limit) * self.options.seconds)
    }

    /// Share of calls answered 429.
    pub fn rejected_share(&self) -> f64 {
        self.rejected as f64 / (self.accepted + self.rejected).max(1) as f64
    }
}

impl std::fmt::Display for BenchOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let o = &self.options;
        write!(
            f,
            "backend={} processes={} L={}/s seconds={}: achieved/L = {:.3} ({} accepted, {:.0} allowed), \
             429s = {} of {} calls ({:.2}%), limiter errors = {}",
            o.backend.name(),
            o.processes,
            o.limit,
            o.seconds,
            self.achieved_ratio(),
            self.accepted,
            f64::from(o.limit) * o.seconds,
            self.rejected,
            self.accepted + self.rejected,
            self.rejected_share() * 100.0,
            self.workers.errors,
        )
    }
}

/// Runs the benchmark: a strict server, a fresh shared store, N instances.
pub async fn bench_shared(options: BenchOptions, runner: Runner) -> anyhow::Result<BenchOutcome> {
    let (server, url) = StrictServer::start(options.limit).await?;
    let store = PreparedStore::prepare(options.backend, options.store_url.clone()).await?;
    let start_ms = unix_ms() + 1500;
    let mut workers = WorkerReport::default();
    match &runner {
        Runner::InProcess => {
            let mut handles = Vec::new();
            for _ in 0..options.processes {
                let s = store.open().await?;
                let (url, o) = (url.clone(), options.clone());
                handles.push(tokio::spawn(run_worker(
                    s,
                    url,
                    start_ms,
                    o.seconds,
                    o.concurrency,
                )));
            }
            for h in handles {
                workers += h.await?;
            }
        }
        Runner::Processes(exe) => {
            let mut children = Vec::new();
            for _ in 0..options.processes {
                let args = store.child_args(&url, start_ms, options.seconds, options.concurrency);
                children.push(
                    tokio::process::Command::new(exe)
                        .args(args)
                        .stdout(std::process::Stdio::piped())
                        .kill_on_drop(true)
                        .spawn()?,
                );
            }
            for child in children {
                let out = child.wait_with_output().await?;
                anyhow::ensure!(
                    out.status.success(),
                    "a child process failed: {}",
                    out.status
                );
                let line = String::from_utf8_lossy(&out.stdout);
                let line = line.lines().last().unwrap_or_default();
                workers += serde_json::from_str::<WorkerReport>(line)?;
            }
        }
    }
    let (accepted, rejected) = server.counts();
    store.cleanup().await;
    Ok(BenchOutcome {
        options,
        accepted,
        rejected,
        workers,
    })
}
