//! Command-line and environment knobs of the sandbox, for `searchdeck sandbox` and the
//! sandbox `searchdeck serve` starts: flatten [`SandboxArgs`] into a clap command and call
//! [`SandboxArgs::into_config`]; or read the environment alone with
//! [`SandboxConfig::from_env`].

use std::path::PathBuf;

use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime};

use crate::faults::FaultConfig;
use crate::state::SandboxConfig;
use crate::world::{WorldConfig, WorldSize};

/// Sandbox options (`--seed 7 --world large --error-rate 0.1 …`).
#[derive(Debug, Clone, clap::Args)]
pub struct SandboxArgs {
    /// Seed of the synthetic world: the same seed gives the same world.
    #[arg(long, env = "SEARCHDECK_SANDBOX_SEED", default_value_t = 42)]
    pub seed: u64,
    /// World size: small (3 ad accounts, demos and tests), mid (adds one ad account whose
    /// one ad group holds 2,200 keywords, for bulk edits), large (adds one ad account
    /// with 100,000 keywords, for sync and report benchmarks) or agency (adds 50 ad
    /// accounts of 20 campaigns each, for rate limits across many ad accounts).
    #[arg(
        long,
        env = "SEARCHDECK_SANDBOX_WORLD",
        value_enum,
        default_value = "small"
    )]
    pub world: WorldSize,
    /// The simulated today (YYYY-MM-DD) at start, at the current UTC time of day; defaults
    /// to the current UTC date.
    #[arg(long, env = "SEARCHDECK_SANDBOX_TODAY", value_parser = parse_day, conflicts_with = "now")]
    pub today: Option<Date>,
    /// The simulated now at start (RFC 3339); the clock runs on from it (see
    /// `PUT /sandbox/clock`). With a data dir that already has a clock, only a later
    /// time moves it.
    #[arg(long, env = "SEARCHDECK_SANDBOX_NOW", value_parser = parse_now)]
    pub now: Option<OffsetDateTime>,
    /// Keep the simulated clock still until it is set (`PUT /sandbox/clock`).
    #[arg(long, env = "SEARCHDECK_SANDBOX_FROZEN_CLOCK", default_value_t = false)]
    pub frozen_clock: bool,
    /// Where the sandbox keeps its writes (`serve` and `sandbox` default to
    /// `<SEARCHDECK_DATA_DIR>/sandbox`).
    #[arg(long = "sandbox-dir", env = "SEARCHDECK_SANDBOX_DIR")]
    pub dir: Option<PathBuf>,
    /// Keep the sandbox's writes in memory only (nothing is read or written on disk).
    #[arg(
        long = "sandbox-in-memory",
        env = "SEARCHDECK_SANDBOX_IN_MEMORY",
        default_value_t = false
    )]
    pub in_memory: bool,
    /// Requests per second allowed per ad account (0: unlimited).
    #[arg(long, env = "SEARCHDECK_SANDBOX_RPS", default_value_t = 0)]
    pub requests_per_second: u32,
    /// Share of requests answered 500/503, 0–1.
    #[arg(long, env = "SEARCHDECK_SANDBOX_ERROR_RATE", default_value_t = 0.0)]
    pub error_rate: f64,
    /// Latency added to every request, in milliseconds.
    #[arg(long, env = "SEARCHDECK_SANDBOX_LATENCY_MS", default_value_t = 0)]
    pub latency_ms: u64,
    /// Share of requests that hang 30 s and answer 504, 0–1.
    #[arg(long, env = "SEARCHDECK_SANDBOX_TIMEOUT_RATE", default_value_t = 0.0)]
    pub timeout_rate: f64,
    /// Number of requests answered 429 from the start.
    #[arg(
        long = "burst-429",
        env = "SEARCHDECK_SANDBOX_BURST_429",
        default_value_t = 0
    )]
    pub burst_429: u32,
}

/// Parses a `YYYY-MM-DD` day.
pub fn parse_day(s: &str) -> Result<Date, String> {
    Date::parse(s, format_description!("[year]-[month]-[day]"))
        .map_err(|e| format!("expected YYYY-MM-DD: {e}"))
}

fn parse_now(s: &str) -> Result<OffsetDateTime, String> {
    OffsetDateTime::parse(s, &Rfc3339)
        .map(|t| t.to_offset(time::UtcOffset::UTC))
        .map_err(|e| format!("expected an RFC 3339 date-time: {e}"))
}

impl SandboxArgs {
    /// The sandbox configuration these options describe; rates outside 0–1 are refused.
    pub fn into_config(self) -> Result<SandboxConfig, String> {
        let faults = FaultConfig {
            requests_per_second: self.requests_per_second,
            error_rate: self.error_rate,
            latency_ms: self.latency_ms,
            timeout_rate: self.timeout_rate,
            burst_429: self.burst_429,
        };
        faults.validate()?;
        let now = self.now.or_else(|| {
            self.today
                .map(|d| OffsetDateTime::now_utc().replace_date(d))
        });
        Ok(SandboxConfig {
            world: WorldConfig {
                seed: self.seed,
                size: self.world,
                today: now.map(|n| n.date()),
            },
            faults,
            now,
            frozen_clock: self.frozen_clock,
            data_dir: if self.in_memory { None } else { self.dir },
        })
    }
}

impl SandboxConfig {
    /// Keeps the writes under `dir` unless a directory is set or memory only was asked for.
    pub fn with_default_dir(mut self, dir: PathBuf, args: &SandboxArgs) -> Self {
        if self.data_dir.is_none() && !args.in_memory {
            self.data_dir = Some(dir);
        }
        self
    }

    /// The configuration from `SEARCHDECK_SANDBOX_*` variables (defaults otherwise).
    pub fn from_env() -> Result<Self, String> {
        #[derive(clap::Parser)]
        struct Only {
            #[command(flatten)]
            args: SandboxArgs,
        }
        let only =
            <Only as clap::Parser>::try_parse_from(["sandbox"]).map_err(|e| e.to_string())?;
        only.args.into_config()
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        sandbox: SandboxArgs,
    }

    #[test]
    fn flags_become_a_config() {
        let cli = Cli::try_parse_from([
            "x",
            "--seed",
            "7",
            "--world",
            "large",
            "--error-rate",
            "0.1",
            "--burst-429",
            "5",
            "--today",
            "2026-03-15",
        ])
        .unwrap();
        let config = cli.sandbox.into_config().unwrap();
        assert_eq!(
            (config.world.seed, config.world.size),
            (7, WorldSize::Large)
        );
        assert_eq!(config.world.today.unwrap().to_string(), "2026-03-15");
        assert_eq!(
            (config.faults.error_rate, config.faults.burst_429),
            (0.1, 5)
        );
        let bad = Cli::try_parse_from(["x", "--error-rate", "2"])
            .unwrap()
            .sandbox
            .into_config();
        assert!(bad.is_err());
        assert!(Cli::try_parse_from(["x", "--world", "huge"]).is_err());
        let mid = Cli::try_parse_from(["x", "--world", "mid"])
            .unwrap()
            .sandbox;
        assert_eq!(mid.into_config().unwrap().world.size, WorldSize::Mid);
        let defaults = Cli::try_parse_from(["x"]).unwrap().sandbox;
        assert_eq!((defaults.seed, defaults.world), (42, WorldSize::Small));
    }
}
