//! One benchmark process: the real [`Client`] over the shared [`RateLimiter`], calling one
//! ad account as fast as the limiter allows between the start and end the parent sets.
//!
//! Protocol (stdin/stdout, one line each; other output is ignored by the parent): the
//! parent writes a [`ChildSpec`] as JSON; the child warms up (token, one campaign query
//! that teaches the pace) and prints `@bench ready`; the parent writes the start time
//! (Unix milliseconds); the child runs and prints `@bench report {json}` ([`ChildReport`]).

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use searchdeck_common::ratelimit::RateLimiter;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::store::StoreSpec;
use searchdeck_provider::apple_ads::{AppleAds, Entity};
use searchdeck_provider::client::{Client, ClientConfig, RetryPolicy};
use searchdeck_provider::credentials::{Credentials, KeyPair};
use searchdeck_provider::error::ProviderError;
use searchdeck_provider::limiter::settings;
use searchdeck_provider::metrics::MetricsSnapshot;

/// What a child needs to know.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChildSpec {
    /// Sandbox base URL.
    pub base: String,
    pub client_id: String,
    pub team_id: String,
    pub key_id: String,
    /// PKCS#8 PEM of the registered key (a throwaway sandbox key).
    pub private_pem: String,
    pub account: i64,
    pub store: StoreSpec,
    pub seconds: f64,
    pub concurrency: usize,
}

/// What a child did in the measured window.
#[derive(Debug, Default, Clone, Copy, Serialize, Deserialize)]
pub struct ChildReport {
    /// Requests answered within the window.
    pub calls: u64,
    /// Of which 2xx.
    pub ok: u64,
    /// Of which 429.
    pub rate_limited: u64,
    /// Of which other failures.
    pub errors: u64,
    /// The client's counters over the whole run (warm-up included).
    pub metrics: MetricsSnapshot,
}

/// Unix milliseconds now.
pub fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_millis() as u64
}

/// The `tokio` instant `unix` milliseconds correspond to.
fn instant_at(unix: u64) -> tokio::time::Instant {
    let now = unix_ms();
    tokio::time::Instant::now() + Duration::from_millis(unix.saturating_sub(now))
}

async fn say(line: &str) -> anyhow::Result<()> {
    let mut out = tokio::io::stdout();
    out.write_all(format!("{line}\n").as_bytes()).await?;
    out.flush().await?;
    Ok(())
}

/// Runs one child to completion (see the module docs).
pub async fn main() -> anyhow::Result<()> {
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let spec: ChildSpec = serde_json::from_str(
        &lines
            .next_line()
            .await?
            .context("the parent sent no spec")?,
    )?;
    let limiter = RateLimiter::new(spec.store.open().await?, settings());
    let mut config = ClientConfig::sandbox(&spec.base);
    config.gate = Arc::new(limiter);
    // Every request counts once: a 429 comes back as an error (the limiter has already
    // paused the key for every process), failures are not retried.
    config.retry = RetryPolicy {
        max_attempts: 1,
        max_rate_limited: 0,
        ..RetryPolicy::default()
    };
    let credentials = Credentials::ClientCredentials {
        client_id: spec.client_id.clone(),
        team_id: spec.team_id.clone(),
        key_id: spec.key_id.clone(),
        key: KeyPair::from_pkcs8_pem(&spec.private_pem).map_err(anyhow::Error::msg)?,
    };
    let client = Arc::new(Client::new(config, credentials)?);
    client.me().await?;
    let first = client
        .query_json(spec.account, Entity::Campaigns, &page_query())
        .await?;
    let ids: Arc<Vec<i64>> = Arc::new(
        first
            .items
            .iter()
            .filter_map(|c| c["id"].as_i64())
            .collect(),
    );
    anyhow::ensure!(!ids.is_empty(), "the ad account has no campaigns");
    say("@bench ready").await?;
    let start: u64 = lines
        .next_line()
        .await?
        .context("the parent sent no start time")?
        .trim()
        .parse()?;
    let end = start + (spec.seconds * 1000.0) as u64;
    tokio::time::sleep_until(instant_at(start)).await;
    let deadline = instant_at(end);
    let tasks: Vec<_> = (0..spec.concurrency.max(1))
        .map(|n| {
            let (client, ids, account) = (client.clone(), ids.clone(), spec.account);
            tokio::spawn(async move { run_task(&*client, account, &ids, n, deadline).await })
        })
        .collect();
    let mut report = ChildReport::default();
    for t in tasks {
        let r = t.await?;
        report.calls += r.calls;
        report.ok += r.ok;
        report.rate_limited += r.rate_limited;
        report.errors += r.errors;
    }
    report.metrics = client.metrics().snapshot();
    say(&format!(
        "@bench report {}",
        serde_json::to_string(&report)?
    ))
    .await?;
    Ok(())
}

fn page_query() -> Value {
    json!({ "sorting": [{ "field": "id", "order": "ASC" }], "pagination": { "offset": 0, "pageSize": 20 } })
}

/// Campaign queries and reads, alternating, until `deadline`; calls still waiting or in
/// flight at the deadline are dropped and not counted.
async fn run_task(
    client: &dyn AppleAds,
    account: i64,
    ids: &[i64],
    n: usize,
    deadline: tokio::time::Instant,
) -> ChildReport {
    let mut report = ChildReport::default();
    let query = page_query();
    for i in n.. {
        let call = async {
            if i % 2 == 0 {
                client
                    .query_json(account, Entity::Campaigns, &query)
                    .await
                    .map(drop)
            } else {
                client
                    .get_json(account, Entity::Campaigns, ids[i % ids.len()])
                    .await
                    .map(drop)
            }
        };
        let Ok(outcome) = tokio::time::timeout_at(deadline, call).await else {
            break;
        };
        report.calls += 1;
        match outcome {
            Ok(()) => report.ok += 1,
            Err(ProviderError::RateLimited { .. }) => report.rate_limited += 1,
            Err(e) => {
                report.errors += 1;
                if report.errors <= 3 {
                    tracing::warn!(error = %e, "benchmark call failed");
                }
            }
        }
    }
    report
}
