//! Memory of `searchdeck bench sync`: the sandbox as a child process (`searchdeck sandbox`,
//! the same binary), so the bench's own peak RSS is the sync's alone and the sandbox's is
//! read from the child; and a sampler of both processes' resident memory and of the load
//! average, once a second, from which the peak of each phase of the sync is taken.

use std::{
    collections::BTreeMap,
    process::Stdio,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use serde::Serialize;

use super::SyncBenchArgs;

/// A memory figure of `/proc/<pid>/status` in MiB (`VmRSS:` now, `VmHWM:` the peak);
/// `pid` `None` is this process.
pub fn status_mib(pid: Option<u32>, field: &str) -> Option<f64> {
    let path = match pid {
        Some(pid) => format!("/proc/{pid}/status"),
        None => "/proc/self/status".to_string(),
    };
    let status = std::fs::read_to_string(path).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Resets the peak RSS (`VmHWM`) of a process to its current RSS.
pub fn reset_peak(pid: Option<u32>) {
    let path = match pid {
        Some(pid) => format!("/proc/{pid}/clear_refs"),
        None => "/proc/self/clear_refs".to_string(),
    };
    std::fs::write(path, "5").ok();
}

/// The one-minute load average.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// `searchdeck sandbox` of the bench's world, in memory, on a free loopback port; killed
/// when dropped.
pub struct SandboxChild {
    child: tokio::process::Child,
    pub pid: u32,
    pub base: String,
}

impl SandboxChild {
    /// Starts the child and waits until it answers `/sandbox/health` (its world built).
    pub async fn start(args: &SyncBenchArgs) -> anyhow::Result<SandboxChild> {
        let port = {
            let probe = std::net::TcpListener::bind("127.0.0.1:0")?;
            probe.local_addr()?.port()
        };
        let bind = format!("127.0.0.1:{port}");
        let world = format!("{:?}", args.world).to_lowercase();
        let child = tokio::process::Command::new(std::env::current_exe()?)
            .args([
                "--sandbox-bind",
                &bind,
                "--world",
                &world,
                "--seed",
                &args.seed.to_string(),
                "--requests-per-second",
                &args.requests_per_second.to_string(),
                "--sandbox-in-memory",
                "sandbox",
            ])
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .kill_on_drop(true)
            .spawn()?;
        let pid = child
            .id()
            .ok_or_else(|| anyhow::anyhow!("sandbox child gone"))?;
        let base = format!("http://{bind}");
        let mut child = SandboxChild { child, pid, base };
        let http = reqwest::Client::new();
        let health = format!("{}/sandbox/health", child.base);
        let deadline = Instant::now() + Duration::from_secs(300);
        loop {
            if let Ok(r) = http.get(&health).send().await
                && r.status().is_success()
            {
                return Ok(child);
            }
            if let Some(status) = child.child.try_wait()? {
                anyhow::bail!("the sandbox child exited at start: {status}");
            }
            if Instant::now() > deadline {
                anyhow::bail!("the sandbox child did not answer within 5 minutes");
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// One sample of the sampler.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    pub at: Instant,
    pub load: f64,
    /// This process's RSS, MiB.
    pub ours: f64,
    /// The sandbox child's RSS, MiB (0 when the sandbox runs in this process).
    pub sandbox: f64,
}

/// Samples the load average and both processes' RSS once a second until dropped.
pub struct Sampler {
    samples: Arc<Mutex<Vec<Sample>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Sampler {
    pub fn start(sandbox: Option<u32>) -> Sampler {
        let samples = Arc::new(Mutex::new(Vec::new()));
        let task = {
            let samples = samples.clone();
            tokio::spawn(async move {
                loop {
                    let sample = Sample {
                        at: Instant::now(),
                        load: load_average().unwrap_or_default(),
                        ours: status_mib(None, "VmRSS:").unwrap_or_default(),
                        sandbox: sandbox
                            .and_then(|pid| status_mib(Some(pid), "VmRSS:"))
                            .unwrap_or_default(),
                    };
                    if let Ok(mut v) = samples.lock() {
                        v.push(sample);
                    }
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            })
        };
        Sampler { samples, task }
    }

    /// Stops sampling and returns the samples.
    pub fn stop(self) -> Vec<Sample> {
        self.task.abort();
        self.samples.lock().map(|v| v.clone()).unwrap_or_default()
    }
}

impl Drop for Sampler {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The highest RSS sampled during a phase, MiB.
#[derive(Debug, Default, Clone, Copy, Serialize)]
pub struct PhasePeak {
    pub ours_mib: f64,
    /// 0 when the sandbox runs in this process.
    pub sandbox_mib: f64,
}

/// Peaks per named phase from `windows` (name, start, end); a phase seen several times
/// (a level of each campaign group) keeps its highest.
pub fn phase_peaks(
    samples: &[Sample],
    windows: &[(String, Instant, Instant)],
) -> BTreeMap<String, PhasePeak> {
    let mut peaks: BTreeMap<String, PhasePeak> = BTreeMap::new();
    for (name, from, to) in windows {
        for s in samples.iter().filter(|s| s.at >= *from && s.at <= *to) {
            let p = peaks.entry(name.clone()).or_default();
            p.ours_mib = p.ours_mib.max(s.ours);
            p.sandbox_mib = p.sandbox_mib.max(s.sandbox);
        }
    }
    peaks
}

impl Drop for SandboxChild {
    fn drop(&mut self) {
        self.child.start_kill().ok();
    }
}
