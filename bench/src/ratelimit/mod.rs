//! `searchdeck bench ratelimit`: N ≥ 3 OS processes share one ad account that the sandbox
//! limits to L requests a second. The parent starts the sandbox in-process, registers a key
//! (`POST /sandbox/keys`), prepares the shared store (Redis, SQLite or PostgreSQL) and
//! spawns the children (this same executable, a hidden subcommand, see [`child`]); each runs
//! the real [`searchdeck_provider::Client`] over the shared `RateLimiter` for S seconds. The parent adds
//! up their calls and 429s and prints achieved/L (successful calls per second ÷ L) and the
//! 429 share. Target: achieved/L ≥ 0.90 with 429s ≤ 1 % of calls.

pub mod child;
pub mod store;

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use searchdeck_common::Config;
use searchdeck_common::ratelimit::account_key;
use searchdeck_sandbox::{FaultConfig, Sandbox, SandboxConfig};
use secrecy::ExposeSecret;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

pub use child::{ChildReport, ChildSpec};
pub use store::Backend;

use searchdeck_provider::apple_ads::AppleAdsExt;
use searchdeck_provider::client::{Client, ClientConfig};
use searchdeck_provider::credentials::Credentials;
use searchdeck_provider::limiter::Unlimited;
use searchdeck_provider::sandbox_key::{self, SandboxKey};

/// `searchdeck bench …`.
#[derive(Debug, clap::Subcommand)]
pub enum BenchCommand {
    /// N processes share one sandbox ad account limited to L requests/s; prints achieved/L
    /// and the 429s.
    Ratelimit(RatelimitArgs),
    /// One benchmark process (started by `bench ratelimit`; reads its orders on stdin).
    #[command(hide = true)]
    RatelimitChild,
}

/// Options of `searchdeck bench ratelimit`.
#[derive(Debug, Clone, clap::Args)]
pub struct RatelimitArgs {
    /// Worker processes sharing the ad account.
    #[arg(long, default_value_t = 3)]
    pub processes: usize,
    /// Requests per second the sandbox allows the ad account.
    #[arg(long, default_value_t = 10)]
    pub limit: u32,
    /// Length of the measured run.
    #[arg(long, default_value_t = 60.0)]
    pub seconds: f64,
    /// Shared store: redis, sqlite or postgres (default: Redis when REDIS_URL is set, else
    /// the configured database).
    #[arg(long, value_enum)]
    pub backend: Option<Backend>,
    /// URL of the store (default: REDIS_URL / DATABASE_URL; for SQLite a temporary file).
    #[arg(long)]
    pub store_url: Option<String>,
    /// Concurrent callers in each process.
    #[arg(long, default_value_t = 4)]
    pub concurrency: usize,
}

impl RatelimitArgs {
    /// The run these options describe, with defaults from `config`.
    pub fn options(&self, config: &Config) -> anyhow::Result<BenchOptions> {
        let configured_db = config.database_url.expose_secret().to_string();
        let backend = self.backend.unwrap_or(if config.redis_url.is_some() {
            Backend::Redis
        } else if configured_db.starts_with("postgres") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        });
        let store_url = self.store_url.clone().or(match backend {
            Backend::Redis => config
                .redis_url
                .as_ref()
                .map(|u| u.expose_secret().to_string()),
            Backend::Postgres => Some(configured_db).filter(|u| u.starts_with("postgres")),
            Backend::Sqlite => None,
        });
        anyhow::ensure!(self.processes >= 1, "--processes must be at least 1");
        anyhow::ensure!(self.limit >= 1, "--limit must be at least 1");
        anyhow::ensure!(self.seconds > 0.0, "--seconds must be positive");
        Ok(BenchOptions {
            processes: self.processes,
            limit: self.limit,
            seconds: self.seconds,
            backend,
            store_url,
            concurrency: self.concurrency.max(1),
        })
    }
}

/// One benchmark run.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    pub processes: usize,
    pub limit: u32,
    pub seconds: f64,
    pub backend: Backend,
    pub store_url: Option<String>,
    pub concurrency: usize,
}

/// How to start a child: `exe args…` with `envs` (its orders come on stdin).
#[derive(Debug, Clone)]
pub struct Launcher {
    pub exe: PathBuf,
    pub args: Vec<String>,
    pub envs: Vec<(String, String)>,
}

impl Launcher {
    /// This executable with `searchdeck bench ratelimit-child`.
    pub fn this_binary() -> anyhow::Result<Launcher> {
        Ok(Launcher {
            exe: std::env::current_exe()?,
            args: vec!["bench".into(), "ratelimit-child".into()],
            envs: Vec::new(),
        })
    }
}

/// The figures of a run.
#[derive(Debug, Clone)]
pub struct BenchOutcome {
    pub options: BenchOptions,
    pub total: ChildReport,
    pub per_process: Vec<ChildReport>,
}

impl BenchOutcome {
    /// Successful calls per second over the limit.
    pub fn achieved_ratio(&self) -> f64 {
        self.total.ok as f64 / (f64::from(self.options.limit) * self.options.seconds)
    }

    /// Share of calls answered 429.
    pub fn rate_limited_share(&self) -> f64 {
        self.total.rate_limited as f64 / self.total.calls.max(1) as f64
    }

    /// Whether the target is met (achieved/L ≥ 0.90, 429s ≤ 1 %).
    pub fn meets_target(&self) -> bool {
        self.achieved_ratio() >= 0.90 && self.rate_limited_share() <= 0.01
    }
}

impl std::fmt::Display for BenchOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (o, t) = (&self.options, &self.total);
        writeln!(
            f,
            "rate-limit benchmark: backend={} processes={} concurrency={} L={}/s seconds={}",
            o.backend.name(),
            o.processes,
            o.concurrency,
            o.limit,
            o.seconds
        )?;
        for (i, p) in self.per_process.iter().enumerate() {
            writeln!(
                f,
                "  process {}: {} calls, {} ok, {} 429s, {} errors, limiter wait {} ms",
                i + 1,
                p.calls,
                p.ok,
                p.rate_limited,
                p.errors,
                p.metrics.limiter_wait_ms
            )?;
        }
        writeln!(
            f,
            "calls {}  ok {}  429s {} ({:.2}%)  other errors {}",
            t.calls,
            t.ok,
            t.rate_limited,
            self.rate_limited_share() * 100.0,
            t.errors
        )?;
        write!(
            f,
            "achieved {:.2}/s of {}/s: achieved/L = {:.3} (target ≥ 0.90 with 429s ≤ 1%: {})",
            t.ok as f64 / o.seconds,
            o.limit,
            self.achieved_ratio(),
            if self.meets_target() {
                "met"
            } else {
                "NOT met"
            }
        )
    }
}

/// Runs `searchdeck bench …`.
pub async fn run(command: BenchCommand, config: &Config) -> anyhow::Result<()> {
    match command {
        BenchCommand::Ratelimit(args) => {
            let outcome = ratelimit(args.options(config)?, &Launcher::this_binary()?).await?;
            println!("{outcome}");
            Ok(())
        }
        BenchCommand::RatelimitChild => child::main().await,
    }
}

/// Runs the benchmark (see the module docs); children are started by `launcher`.
pub async fn ratelimit(options: BenchOptions, launcher: &Launcher) -> anyhow::Result<BenchOutcome> {
    let sandbox = Sandbox::new(SandboxConfig {
        faults: FaultConfig {
            requests_per_second: options.limit,
            ..FaultConfig::default()
        },
        ..SandboxConfig::default()
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let server =
        tokio::spawn(async move { axum::serve(listener, searchdeck_sandbox::app(sandbox)).await });
    let outcome = run_against(&base, options, launcher).await;
    server.abort();
    outcome
}

async fn run_against(
    base: &str,
    options: BenchOptions,
    launcher: &Launcher,
) -> anyhow::Result<BenchOutcome> {
    let SandboxKey {
        key,
        client_id,
        team_id,
        key_id,
    } = sandbox_key::register_key(&reqwest::Client::new(), base).await?;
    let mut config = ClientConfig::sandbox(base);
    config.gate = Arc::new(Unlimited);
    let admin = Client::new(
        config,
        Credentials::ClientCredentials {
            client_id: client_id.clone(),
            team_id: team_id.clone(),
            key_id: key_id.clone(),
            key: key.clone(),
        },
    )?;
    let account = admin
        .ad_accounts()
        .await?
        .first()
        .context("the sandbox has no ad account")?
        .0;
    let store = store::Prepared::prepare(
        options.backend,
        options.store_url.clone(),
        &account_key(&account.to_string()),
    )
    .await?;
    let spec = ChildSpec {
        base: base.to_string(),
        client_id,
        team_id,
        key_id,
        private_pem: key.private_pem().expose_secret().to_string(),
        account,
        store: store.spec.clone(),
        seconds: options.seconds,
        concurrency: options.concurrency,
    };
    let result = run_children(&spec, &options, launcher).await;
    store.cleanup().await;
    let per_process = result?;
    let mut total = ChildReport::default();
    for p in &per_process {
        total.calls += p.calls;
        total.ok += p.ok;
        total.rate_limited += p.rate_limited;
        total.errors += p.errors;
    }
    Ok(BenchOutcome {
        options,
        total,
        per_process,
    })
}

/// A running child and its protocol lines.
struct Running {
    child: tokio::process::Child,
    lines: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
}

impl Running {
    /// The next `@bench …` line (other output is skipped).
    async fn expect(&mut self, what: &str) -> anyhow::Result<String> {
        let prefix = format!("@bench {what}");
        while let Some(line) = self.lines.next_line().await? {
            if let Some(rest) = line.strip_prefix(&prefix) {
                return Ok(rest.trim().to_string());
            }
        }
        let status = self.child.wait().await?;
        anyhow::bail!("a benchmark process ended ({status}) before `{what}`")
    }
}

async fn run_children(
    spec: &ChildSpec,
    options: &BenchOptions,
    launcher: &Launcher,
) -> anyhow::Result<Vec<ChildReport>> {
    let spec_line = format!("{}\n", serde_json::to_string(spec)?);
    let mut running = Vec::new();
    for _ in 0..options.processes {
        let mut command = tokio::process::Command::new(&launcher.exe);
        command
            .args(&launcher.args)
            .envs(launcher.envs.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true);
        if std::env::var_os("RUST_LOG").is_none() {
            command.env("RUST_LOG", "warn");
        }
        let mut child = command.spawn().context("starting a benchmark process")?;
        let mut stdin = child.stdin.take().context("child stdin")?;
        stdin.write_all(spec_line.as_bytes()).await?;
        let lines = BufReader::new(child.stdout.take().context("child stdout")?).lines();
        running.push((stdin, Running { child, lines }));
    }
    for (_, r) in running.iter_mut() {
        tokio::time::timeout(Duration::from_secs(60), r.expect("ready"))
            .await
            .context("a benchmark process did not get ready within 60 s")??;
    }
    // Warm-up calls (one per process) fall in windows before the start.
    let start = child::unix_ms() + 1000;
    for (stdin, _) in running.iter_mut() {
        stdin.write_all(format!("{start}\n").as_bytes()).await?;
        stdin.flush().await?;
    }
    let mut reports = Vec::new();
    let limit = Duration::from_secs_f64(options.seconds + 60.0);
    for (_, mut r) in running {
        let report = tokio::time::timeout(limit, r.expect("report"))
            .await
            .context("a benchmark process did not report in time")??;
        reports.push(serde_json::from_str(&report)?);
        let status = r.child.wait().await?;
        anyhow::ensure!(status.success(), "a benchmark process failed: {status}");
    }
    Ok(reports)
}
