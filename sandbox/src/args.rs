//! Command-line and environment knobs of the sandbox, for `searchdeck sandbox` and the
//! sandbox `searchdeck serve` starts: flatten [`SandboxArgs`] into a clap command and call
//! [`SandboxArgs::into_config`]; or read the environment alone with
//! [`SandboxConfig::from_env`].

use time::Date;
use time::macros::format_description;

use crate::faults::FaultConfig;
use crate::state::SandboxConfig;
use crate::world::{WorldConfig, WorldSize};

/// Sandbox options (`--seed 7 --world large --error-rate 0.1 …`).
#[derive(Debug, Clone, clap::Args)]
pub struct SandboxArgs {
    /// Seed of the synthetic world: the same seed gives the same world.
    #[arg(long, env = "SEARCHDECK_SANDBOX_SEED", default_value_t = 42)]
    pub seed: u64,
    /// World size: small (3 ad accounts, demos and tests) or large (adds one ad account
    /// with 100,000 keywords, for sync and report benchmarks).
    #[arg(
        long,
        env = "SEARCHDECK_SANDBOX_WORLD",
        value_enum,
        default_value = "small"
    )]
    pub world: WorldSize,
    /// The simulated today (YYYY-MM-DD); defaults to the current UTC date.
    #[arg(long, env = "SEARCHDECK_SANDBOX_TODAY", value_parser = parse_day)]
    pub today: Option<Date>,
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

fn parse_day(s: &str) -> Result<Date, String> {
    Date::parse(s, format_description!("[year]-[month]-[day]"))
        .map_err(|e| format!("expected YYYY-MM-DD: {e}"))
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
        Ok(SandboxConfig {
            world: WorldConfig {
                seed: self.seed,
                size: self.world,
                today: self.today,
            },
            faults,
        })
    }
}

impl SandboxConfig {
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
        let defaults = Cli::try_parse_from(["x"]).unwrap().sandbox;
        assert_eq!((defaults.seed, defaults.world), (42, WorldSize::Small));
    }
}
