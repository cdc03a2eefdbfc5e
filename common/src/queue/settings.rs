//! Queue tuning: poll interval, heartbeats, retry delays and the shutdown grace period.
//!
//! Production uses the defaults; tests and operators can override each one from the
//! environment (`SEARCHDECK_QUEUE_*`), which is how the crash tests shorten heartbeats
//! in the worker processes they spawn.

use std::time::Duration;

/// How the queue polls, detects dead workers and spaces retries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueSettings {
    /// Name of the apalis queue every job kind shares (`SEARCHDECK_QUEUE_NAME`).
    pub queue_name: String,
    /// How often an idle worker asks for new jobs (`SEARCHDECK_QUEUE_POLL_MS`). apalis'
    /// own default only wakes an idle worker on its heartbeat; we keep this well under
    /// a second so enqueue-to-start stays under one.
    pub poll_interval: Duration,
    /// Worker heartbeat (`SEARCHDECK_QUEUE_HEARTBEAT_MS`); the stores count in seconds, so
    /// keep it at one second or more.
    pub heartbeat_interval: Duration,
    /// Heartbeats a worker may miss before its jobs are handed to others
    /// (`SEARCHDECK_QUEUE_MISSED_HEARTBEATS`).
    pub missed_heartbeats: usize,
    /// Delay before the first retry (`SEARCHDECK_QUEUE_RETRY_BASE_MS`).
    pub retry_base_delay: Duration,
    /// Longest delay between retries (`SEARCHDECK_QUEUE_RETRY_MAX_MS`).
    pub retry_max_delay: Duration,
    /// How long a stopping worker waits for running jobs before releasing them
    /// (`SEARCHDECK_QUEUE_SHUTDOWN_GRACE_MS`).
    pub shutdown_grace: Duration,
    /// How long a uniqueness key blocks duplicates on Redis (SQL stores keep it as long as
    /// the job row).
    pub unique_key_ttl: Duration,
}

impl Default for QueueSettings {
    fn default() -> Self {
        QueueSettings {
            queue_name: "searchdeck".into(),
            poll_interval: Duration::from_millis(200),
            heartbeat_interval: Duration::from_secs(5),
            missed_heartbeats: 3,
            retry_base_delay: Duration::from_secs(10),
            retry_max_delay: Duration::from_secs(600),
            shutdown_grace: Duration::from_secs(25),
            unique_key_ttl: Duration::from_secs(30 * 24 * 3600),
        }
    }
}

fn env_ms(name: &str) -> anyhow::Result<Option<Duration>> {
    match std::env::var(name) {
        Ok(v) => {
            let ms: u64 = v.trim().parse().map_err(|_| {
                anyhow::anyhow!("invalid configuration: {name}: not a number of milliseconds")
            })?;
            Ok(Some(Duration::from_millis(ms)))
        }
        Err(_) => Ok(None),
    }
}

impl QueueSettings {
    /// The defaults with any `SEARCHDECK_QUEUE_*` overrides applied.
    pub fn from_env() -> anyhow::Result<QueueSettings> {
        let mut s = QueueSettings::default();
        if let Ok(name) = std::env::var("SEARCHDECK_QUEUE_NAME") {
            anyhow::ensure!(
                !name.trim().is_empty(),
                "invalid configuration: SEARCHDECK_QUEUE_NAME: empty"
            );
            s.queue_name = name;
        }
        if let Some(d) = env_ms("SEARCHDECK_QUEUE_POLL_MS")? {
            s.poll_interval = d.max(Duration::from_millis(10));
        }
        if let Some(d) = env_ms("SEARCHDECK_QUEUE_HEARTBEAT_MS")? {
            s.heartbeat_interval = d.max(Duration::from_secs(1));
        }
        if let Ok(v) = std::env::var("SEARCHDECK_QUEUE_MISSED_HEARTBEATS") {
            s.missed_heartbeats = v.trim().parse().map_err(|_| {
                anyhow::anyhow!(
                    "invalid configuration: SEARCHDECK_QUEUE_MISSED_HEARTBEATS: not a number"
                )
            })?;
        }
        if let Some(d) = env_ms("SEARCHDECK_QUEUE_RETRY_BASE_MS")? {
            s.retry_base_delay = d;
        }
        if let Some(d) = env_ms("SEARCHDECK_QUEUE_RETRY_MAX_MS")? {
            s.retry_max_delay = d;
        }
        if let Some(d) = env_ms("SEARCHDECK_QUEUE_SHUTDOWN_GRACE_MS")? {
            s.shutdown_grace = d;
        }
        Ok(s)
    }

    /// Time without a heartbeat after which a worker counts as dead.
    pub fn orphaned_after(&self) -> Duration {
        self.heartbeat_interval * self.missed_heartbeats.max(1) as u32
    }

    /// Settings for tests: fast polling, one-second heartbeats, short retries. A worker
    /// counts as dead after 5 missed heartbeats: at 2, a worker whose heartbeat a loaded
    /// 2-core machine (a dozen tests at once) delayed past 2 s lost its running job to
    /// another, again and again (a 2,000-keyword bulk edit gave up after 10 such attempts,
    /// 2026-12-02).
    pub fn for_tests(queue_name: impl Into<String>) -> QueueSettings {
        QueueSettings {
            queue_name: queue_name.into(),
            poll_interval: Duration::from_millis(50),
            heartbeat_interval: Duration::from_secs(1),
            missed_heartbeats: 5,
            retry_base_delay: Duration::from_secs(1),
            retry_max_delay: Duration::from_secs(2),
            shutdown_grace: Duration::from_secs(10),
            unique_key_ttl: Duration::from_secs(3600),
        }
    }
}
