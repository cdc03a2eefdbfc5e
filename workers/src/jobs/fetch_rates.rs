//! `fetch-rates`: downloads the daily reference exchange rates from the configured feed
//! (`SEARCHDECK_FX_RATES_URL`, ECB `eurofxref` XML or CSV; the sandbox serves a stand-in)
//! and stores every day of it in `fx_rates`, replacing the days it held already. Safe to
//! run any number of times; a feed that cannot be reached is retried with backoff.

use std::time::Duration;

use searchdeck_common::{
    Db, fx, ids,
    jobs::FetchRates,
    queue::JobError,
    store::{self, fx_rates::StoredRate},
};

use crate::{Done, Handler, JobContext};

/// How long the feed may take to answer.
const TIMEOUT: Duration = Duration::from_secs(30);

/// Stores every rate of `feed`, in one transaction; the number of rates written.
pub async fn store_feed(db: &Db, feed: &fx::Feed, now_ms: i64) -> Result<usize, sqlx::Error> {
    let mut tx = db.pool.begin().await?;
    let mut written = 0;
    for day in &feed.days {
        for (currency, rate) in &day.rates {
            let row = StoredRate {
                day: day.day.to_string(),
                currency: currency.clone(),
                rate: rate.normalize().to_string(),
                source: feed.source.clone(),
            };
            store::fx_rates::upsert(&mut *tx, &row, now_ms).await?;
            written += 1;
        }
    }
    tx.commit().await?;
    Ok(written)
}

/// Downloads and parses the feed at `url`.
pub async fn download(url: &str) -> Result<fx::Feed, JobError> {
    let client = reqwest::Client::builder()
        .timeout(TIMEOUT)
        .build()
        .map_err(JobError::permanent)?;
    let response = client.get(url).send().await.map_err(JobError::retryable)?;
    let status = response.status();
    if !status.is_success() {
        return Err(JobError::retryable(anyhow::anyhow!(
            "the rates feed answered {status}"
        )));
    }
    let body = response.text().await.map_err(JobError::retryable)?;
    // A feed that answers something else (a maintenance page) may be right next time.
    fx::parse(&body).map_err(JobError::retryable)
}

impl Handler for FetchRates {
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<()>, JobError> {
        let url = ctx.runtime.fx_rates_url.clone();
        let feed = download(&url).await?;
        let written = store_feed(&ctx.runtime.db, &feed, ids::now_ms()).await?;
        let latest = feed.days.last().map(|d| d.day.to_string());
        tracing::info!(
            job.id = %ctx.job_id,
            period = %self.period,
            source = %feed.source,
            days = feed.days.len(),
            rates = written,
            latest = ?latest,
            "reference rates stored"
        );
        Ok(Done::message("Reference rates stored"))
    }
}
