//! Typed configuration, read once from flags and the environment at start-up.
//!
//! Every role of the `searchdeck` binary flattens [`ConfigArgs`] into its command line, then
//! calls [`ConfigArgs::resolve`], which applies the embedded defaults and fails fast with a
//! message naming the offending variable. Values that may carry credentials (database, queue
//! and SMTP URLs) are held as [`SecretString`] so `Debug` output and logs never show them.

use std::{net::SocketAddr, path::PathBuf};

use clap::Args;
use ipnet::IpNet;
use secrecy::{ExposeSecret, SecretString};

/// Raw settings as given on the command line or in the environment.
#[derive(Debug, Clone, Args)]
pub struct ConfigArgs {
    /// Address the HTTP API (and the built web app) listens on.
    #[arg(long, env = "SEARCHDECK_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// Directory for the embedded database, the local email outbox and generated secrets.
    #[arg(long, env = "SEARCHDECK_DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,
    /// `sqlite://…` or `postgres://…`; defaults to `searchdeck.db` in the data directory.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    pub database_url: Option<SecretString>,
    /// `sqlite://…`, `postgres://…` or `redis://…`; defaults to the database URL.
    #[arg(long, env = "QUEUE_URL", hide_env_values = true)]
    pub queue_url: Option<SecretString>,
    /// Address the local Apple Ads sandbox listens on.
    #[arg(
        long,
        env = "SEARCHDECK_SANDBOX_BIND",
        default_value = "127.0.0.1:8090"
    )]
    pub sandbox_bind: SocketAddr,
    /// Base URL of the Apple Ads provider; defaults to the local sandbox.
    #[arg(long, env = "PROVIDER_BASE_URL")]
    pub provider_base_url: Option<String>,
    /// Token endpoint of the provider; defaults to Apple's for Apple's API base, else
    /// `<provider base>/auth/oauth2/token` (the sandbox's).
    #[arg(long, env = "PROVIDER_TOKEN_URL")]
    pub provider_token_url: Option<String>,
    /// Authorize page of the popup connect; defaults like the token endpoint.
    #[arg(long, env = "PROVIDER_AUTHORIZE_URL")]
    pub provider_authorize_url: Option<String>,
    /// Client id Searchdeck is registered under for the popup connect ("Continue with Apple").
    #[arg(
        long,
        env = "PROVIDER_CLIENT_ID",
        default_value = "SEARCHADS.searchdeck"
    )]
    pub provider_client_id: String,
    /// Address users reach the web app at; the popup connect returns to
    /// `<public url>/oauth_v2`. Defaults to `http://<bind>`.
    #[arg(long, env = "SEARCHDECK_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// `smtp://user:pass@host:port` or `smtps://…`; without it emails go to the local outbox.
    #[arg(long, env = "SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<SecretString>,
    /// Sender address of outgoing email.
    #[arg(
        long,
        env = "SEARCHDECK_EMAIL_FROM",
        default_value = "Searchdeck <no-reply@searchdeck.local>"
    )]
    pub email_from: String,
    /// Directory of the built web app served at `/`.
    #[arg(long, env = "SEARCHDECK_STATIC_DIR", default_value = "frontend/dist")]
    pub static_dir: PathBuf,
    /// Key that encrypts stored provider credentials (32 bytes, base64 or hex). Without it the
    /// embedded setup generates one into `<data dir>/secret.key` (owner-only permissions).
    #[arg(long, env = "SEARCHDECK_SECRET_KEY", hide_env_values = true)]
    pub secret_key: Option<SecretString>,
    /// Redis for shared rate-limit state; defaults to `QUEUE_URL` when that is Redis.
    #[arg(long, env = "REDIS_URL", hide_env_values = true)]
    pub redis_url: Option<SecretString>,
    /// Number of jobs one worker process runs at once.
    #[arg(long, env = "SEARCHDECK_WORKER_CONCURRENCY", default_value_t = 4)]
    pub worker_concurrency: usize,
    /// Reverse proxies whose `X-Forwarded-For` / `Forwarded` / `X-Forwarded-Proto` headers
    /// are believed: comma-separated IP addresses or CIDR ranges (`10.0.0.0/8,127.0.0.1`).
    /// Requests from any other peer are attributed to the peer itself.
    #[arg(long, env = "SEARCHDECK_TRUSTED_PROXIES", value_delimiter = ',')]
    pub trusted_proxies: Vec<String>,
    /// Feed of daily reference exchange rates in the ECB's `eurofxref` format (XML or CSV),
    /// read by the `fetch-rates` job. Defaults to the ECB's 90-day XML with Apple's API, else
    /// the sandbox's stand-in (`<provider base>/eurofxref/eurofxref-hist-90d.xml`).
    #[arg(long, env = "SEARCHDECK_FX_RATES_URL")]
    pub fx_rates_url: Option<String>,
    /// Days the activity log keeps notifications and their change records; the daily
    /// clean-up deletes older ones.
    #[arg(
        long,
        env = "SEARCHDECK_ACTIVITY_RETENTION_DAYS",
        default_value_t = 400
    )]
    pub activity_retention_days: u32,
}

/// Which storage engine a URL points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
    Redis,
}

impl Backend {
    /// Detects the backend from a URL scheme.
    pub fn of_url(url: &str) -> Option<Backend> {
        let scheme = url.split_once(':')?.0.to_ascii_lowercase();
        match scheme.as_str() {
            "sqlite" => Some(Backend::Sqlite),
            "postgres" | "postgresql" => Some(Backend::Postgres),
            "redis" | "rediss" => Some(Backend::Redis),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
            Backend::Redis => "redis",
        }
    }
}

/// Resolved configuration shared by every role.
#[derive(Debug, Clone)]
pub struct Config {
    pub bind: SocketAddr,
    pub data_dir: PathBuf,
    pub database_url: SecretString,
    pub database_backend: Backend,
    pub queue_url: SecretString,
    pub queue_backend: Backend,
    pub sandbox_bind: SocketAddr,
    pub provider_base_url: String,
    /// Where the client calls the API: `<provider base>/v1`.
    pub provider_api_url: String,
    pub provider_token_url: String,
    pub provider_authorize_url: String,
    /// Client id of the popup connect.
    pub provider_client_id: String,
    /// Where users reach the web app (no trailing slash).
    pub public_url: String,
    pub smtp_url: Option<SecretString>,
    pub email_from: String,
    pub static_dir: PathBuf,
    pub worker_concurrency: usize,
    pub secret_key: Option<SecretString>,
    /// Redis holding shared rate-limit state, if any (REDIS_URL, else a Redis QUEUE_URL).
    pub redis_url: Option<SecretString>,
    /// Peers whose forwarding headers are believed (SEARCHDECK_TRUSTED_PROXIES).
    pub trusted_proxies: Vec<IpNet>,
    /// The daily reference-rate feed (SEARCHDECK_FX_RATES_URL).
    pub fx_rates_url: String,
    /// Days the activity log keeps (SEARCHDECK_ACTIVITY_RETENTION_DAYS).
    pub activity_retention_days: u32,
}

/// A setting that cannot be used, with the variable it came from.
#[derive(Debug, thiserror::Error)]
#[error("invalid configuration: {variable}: {reason}")]
pub struct ConfigError {
    pub variable: &'static str,
    pub reason: String,
}

fn invalid(variable: &'static str, reason: impl Into<String>) -> ConfigError {
    ConfigError {
        variable,
        reason: reason.into(),
    }
}

/// Apple's production API base (the client calls `<base>/v1`).
pub const APPLE_API_BASE: &str = "https://api.ads.apple.com";
/// The European Central Bank's reference rates of the last 90 days (XML).
pub const ECB_RATES_URL: &str = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml";
/// Where the sandbox serves its stand-in feed, under the provider base.
pub const SANDBOX_RATES_PATH: &str = "/eurofxref/eurofxref-hist-90d.xml";
/// Apple's OAuth token endpoint for Apple Ads API credentials.
pub const APPLE_TOKEN_URL: &str = "https://appleid.apple.com/auth/oauth2/token";
/// Apple's authorize page.
pub const APPLE_AUTHORIZE_URL: &str = "https://appleid.apple.com/auth/oauth2/authorize";

fn endpoint(
    variable: &'static str,
    given: &Option<String>,
    default: impl FnOnce() -> String,
) -> Result<String, ConfigError> {
    match given {
        Some(url) if url.starts_with("http://") || url.starts_with("https://") => Ok(url.clone()),
        Some(_) => Err(invalid(variable, "must be an http:// or https:// URL")),
        None => Ok(default()),
    }
}

impl ConfigArgs {
    /// Applies defaults and checks every value.
    pub fn resolve(&self) -> Result<Config, ConfigError> {
        let database_url = match &self.database_url {
            Some(url) => url.expose_secret().to_string(),
            None => {
                let file = self.data_dir.join("searchdeck.db");
                format!("sqlite://{}?mode=rwc", file.display())
            }
        };
        let database_backend = match Backend::of_url(&database_url) {
            Some(b @ (Backend::Sqlite | Backend::Postgres)) => b,
            _ => {
                return Err(invalid(
                    "DATABASE_URL",
                    "must start with sqlite:// or postgres://",
                ));
            }
        };
        let queue_url = match &self.queue_url {
            Some(url) => url.expose_secret().to_string(),
            None => database_url.clone(),
        };
        let queue_backend = Backend::of_url(&queue_url).ok_or_else(|| {
            invalid(
                "QUEUE_URL",
                "must start with sqlite://, postgres:// or redis://",
            )
        })?;
        let provider_base_url = match &self.provider_base_url {
            Some(url) if url.starts_with("http://") || url.starts_with("https://") => {
                url.trim_end_matches('/').to_string()
            }
            Some(_) => {
                return Err(invalid(
                    "PROVIDER_BASE_URL",
                    "must be an http:// or https:// URL",
                ));
            }
            None => format!("http://{}", self.sandbox_bind),
        };
        let is_apple = provider_base_url == APPLE_API_BASE;
        let provider_token_url = endpoint("PROVIDER_TOKEN_URL", &self.provider_token_url, || {
            if is_apple {
                APPLE_TOKEN_URL.into()
            } else {
                format!("{provider_base_url}/auth/oauth2/token")
            }
        })?;
        let provider_authorize_url = endpoint(
            "PROVIDER_AUTHORIZE_URL",
            &self.provider_authorize_url,
            || {
                if is_apple {
                    APPLE_AUTHORIZE_URL.into()
                } else {
                    format!("{provider_base_url}/auth/oauth2/authorize")
                }
            },
        )?;
        let fx_rates_url = endpoint("SEARCHDECK_FX_RATES_URL", &self.fx_rates_url, || {
            if is_apple {
                ECB_RATES_URL.into()
            } else {
                format!("{provider_base_url}{SANDBOX_RATES_PATH}")
            }
        })?;
        if let Some(smtp) = &self.smtp_url {
            let s = smtp.expose_secret();
            if !(s.starts_with("smtp://") || s.starts_with("smtps://")) {
                return Err(invalid("SMTP_URL", "must start with smtp:// or smtps://"));
            }
        }
        let redis_url = match &self.redis_url {
            Some(url) if Backend::of_url(url.expose_secret()) == Some(Backend::Redis) => {
                Some(url.clone())
            }
            Some(_) => {
                return Err(invalid(
                    "REDIS_URL",
                    "must start with redis:// or rediss://",
                ));
            }
            None if queue_backend == Backend::Redis => Some(queue_url.clone().into()),
            None => None,
        };
        let public_url = endpoint("SEARCHDECK_PUBLIC_URL", &self.public_url, || {
            format!("http://{}", self.bind)
        })?
        .trim_end_matches('/')
        .to_string();
        if self.worker_concurrency == 0 {
            return Err(invalid(
                "SEARCHDECK_WORKER_CONCURRENCY",
                "must be at least 1",
            ));
        }
        if self.activity_retention_days == 0 {
            return Err(invalid(
                "SEARCHDECK_ACTIVITY_RETENTION_DAYS",
                "must be at least 1",
            ));
        }
        let trusted_proxies = self
            .trusted_proxies
            .iter()
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
            .map(parse_net)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Config {
            bind: self.bind,
            data_dir: self.data_dir.clone(),
            database_url: database_url.into(),
            database_backend,
            queue_url: queue_url.into(),
            queue_backend,
            sandbox_bind: self.sandbox_bind,
            provider_api_url: format!("{provider_base_url}/v1"),
            provider_base_url,
            provider_token_url,
            provider_authorize_url,
            provider_client_id: self.provider_client_id.clone(),
            public_url,
            smtp_url: self.smtp_url.clone(),
            email_from: self.email_from.clone(),
            static_dir: self.static_dir.clone(),
            worker_concurrency: self.worker_concurrency,
            secret_key: self.secret_key.clone(),
            redis_url,
            trusted_proxies,
            fx_rates_url,
            activity_retention_days: self.activity_retention_days,
        })
    }
}

/// An IP address (a one-address range) or a CIDR range.
fn parse_net(s: &str) -> Result<IpNet, ConfigError> {
    s.parse::<IpNet>()
        .or_else(|_| s.parse::<std::net::IpAddr>().map(IpNet::from))
        .map_err(|_| {
            invalid(
                "SEARCHDECK_TRUSTED_PROXIES",
                format!("{s:?} is neither an IP address nor a CIDR range"),
            )
        })
}

impl Config {
    /// Creates the data directory when it does not exist yet.
    pub fn ensure_data_dir(&self) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.data_dir)
    }

    /// Path of the local email outbox (one JSON line per message) used without SMTP.
    pub fn outbox_path(&self) -> PathBuf {
        self.data_dir.join("outbox.jsonl")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        config: ConfigArgs,
    }

    fn parse(args: &[&str]) -> Result<Config, ConfigError> {
        let mut argv = vec!["searchdeck"];
        argv.extend_from_slice(args);
        Cli::try_parse_from(argv)
            .expect("arguments parse")
            .config
            .resolve()
    }

    #[test]
    fn the_rates_feed_is_the_ecb_with_apple_and_can_be_set() {
        let c = parse(&["--provider-base-url", APPLE_API_BASE]).unwrap();
        assert_eq!(c.fx_rates_url, ECB_RATES_URL);
        let c = parse(&["--fx-rates-url", "https://rates.example.com/eurofxref.csv"]).unwrap();
        assert_eq!(c.fx_rates_url, "https://rates.example.com/eurofxref.csv");
        let e = parse(&["--fx-rates-url", "ftp://x"]).unwrap_err();
        assert_eq!(e.variable, "SEARCHDECK_FX_RATES_URL");
    }

    #[test]
    fn embedded_defaults_share_one_sqlite_file() {
        let c = parse(&["--data-dir", "/tmp/sd"]).unwrap();
        assert_eq!(c.database_backend, Backend::Sqlite);
        assert_eq!(c.queue_backend, Backend::Sqlite);
        assert_eq!(
            c.database_url.expose_secret(),
            "sqlite:///tmp/sd/searchdeck.db?mode=rwc"
        );
        assert_eq!(c.queue_url.expose_secret(), c.database_url.expose_secret());
        assert_eq!(c.provider_base_url, format!("http://{}", c.sandbox_bind));
        assert_eq!(c.provider_api_url, format!("http://{}/v1", c.sandbox_bind));
        assert_eq!(
            c.fx_rates_url,
            format!("http://{}/eurofxref/eurofxref-hist-90d.xml", c.sandbox_bind)
        );
        assert_eq!(
            c.provider_token_url,
            format!("http://{}/auth/oauth2/token", c.sandbox_bind)
        );
    }

    #[test]
    fn apple_base_uses_apple_endpoints() {
        let c = parse(&["--provider-base-url", "https://api.ads.apple.com/"]).unwrap();
        assert_eq!(c.provider_api_url, "https://api.ads.apple.com/v1");
        assert_eq!(c.provider_token_url, APPLE_TOKEN_URL);
        assert_eq!(c.provider_authorize_url, APPLE_AUTHORIZE_URL);
        let err = parse(&["--provider-token-url", "ftp://x"]).unwrap_err();
        assert_eq!(err.variable, "PROVIDER_TOKEN_URL");
    }

    #[test]
    fn the_popup_returns_to_the_public_url() {
        let c = parse(&["--bind", "127.0.0.1:9000"]).unwrap();
        assert_eq!(c.public_url, "http://127.0.0.1:9000");
        let c = parse(&["--public-url", "https://app.example.com/"]).unwrap();
        assert_eq!(c.public_url, "https://app.example.com");
        let err = parse(&["--public-url", "app.example.com"]).unwrap_err();
        assert_eq!(err.variable, "SEARCHDECK_PUBLIC_URL");
    }

    #[test]
    fn bad_urls_fail_fast_naming_the_variable() {
        let err = parse(&["--database-url", "mysql://x"]).unwrap_err();
        assert_eq!(err.variable, "DATABASE_URL");
        let err = parse(&["--queue-url", "amqp://x"]).unwrap_err();
        assert_eq!(err.variable, "QUEUE_URL");
        let err = parse(&["--smtp-url", "http://x"]).unwrap_err();
        assert_eq!(err.variable, "SMTP_URL");
    }

    #[test]
    fn trusted_proxies_are_addresses_or_ranges() {
        let c = parse(&["--trusted-proxies", "10.0.0.0/8, 127.0.0.1,::1"]).unwrap();
        let shown: Vec<String> = c.trusted_proxies.iter().map(|n| n.to_string()).collect();
        assert_eq!(shown, ["10.0.0.0/8", "127.0.0.1/32", "::1/128"]);
        assert!(parse(&[]).unwrap().trusted_proxies.is_empty());
        let err = parse(&["--trusted-proxies", "10.0.0.0/8,proxy.local"]).unwrap_err();
        assert_eq!(err.variable, "SEARCHDECK_TRUSTED_PROXIES");
    }

    #[test]
    fn secrets_never_appear_in_debug_output() {
        let c = parse(&[
            "--database-url",
            "postgres://u:hunter2@db/x",
            "--queue-url",
            "redis://:hunter3@r",
            "--smtp-url",
            "smtp://u:hunter4@mail",
        ])
        .unwrap();
        let shown = format!("{c:?}");
        for secret in ["hunter2", "hunter3", "hunter4"] {
            assert!(!shown.contains(secret), "{secret} leaked into {shown}");
        }
        assert_eq!(c.queue_backend, Backend::Redis);
        assert_eq!(
            c.redis_url.as_ref().unwrap().expose_secret(),
            "redis://:hunter3@r",
            "Redis queue doubles as rate-limit store"
        );
    }
}
