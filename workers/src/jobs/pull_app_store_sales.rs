//! `pull-app-store-sales`: reads an App Store Connect connection's DAILY SALES SUMMARY
//! report for each of the last [`PullAppStoreSales::days`] complete days (UTC) and writes
//! each day's units and proceeds per app, country and product type
//! (`store::app_store_connect`): the day's rows deleted and written again in one
//! transaction with the day marked read, so a day read twice is stored once. A day Apple
//! has no report for (404: no sales, or not yet available) is read as empty.
//!
//! What goes wrong is the user's to see, as the attribution pull does it: a refused key
//! or vendor number is recorded on the connection in the user's words and the job ends;
//! a 429 reschedules the job without spending an attempt; a 5xx or an unreachable API is
//! recorded and retried with backoff. A connection removed meanwhile ends the job.

use searchdeck_common::{
    ids,
    jobs::PullAppStoreSales,
    queue::JobError,
    store::app_store_connect::{self as asc, SaleRow, key_context},
};
use searchdeck_provider::appstore_connect::{
    AppStoreConnect, AscApp, AscError, AscKey, sales::attribute,
};
use secrecy::ExposeSecret;
use time::Duration;

use crate::{Done, Handler, JobContext};

/// The message a failed read shows the user.
fn user_message(e: &AscError) -> String {
    match e {
        AscError::Unauthorized(m) => format!("App Store Connect refused this key: {m}"),
        AscError::Refused { message, .. } => {
            format!("App Store Connect refused the report: {message}")
        }
        AscError::RateLimited { .. } => {
            "App Store Connect is limiting requests; the read will try again".into()
        }
        AscError::Retryable { message, .. } => format!("{message}; the read will try again"),
        AscError::Malformed(m) => format!("App Store Connect's answer could not be read: {m}"),
    }
}

/// The apps a connection stored (`[{adamId, name, bundleId, sku}]`).
fn apps_of(json: &str) -> Vec<AscApp> {
    let list: Vec<serde_json::Value> = serde_json::from_str(json).unwrap_or_default();
    list.iter()
        .filter_map(|a| {
            Some(AscApp {
                adam_id: a["adamId"].as_i64()?,
                name: a["name"].as_str().unwrap_or_default().into(),
                bundle_id: a["bundleId"].as_str().unwrap_or_default().into(),
                sku: a["sku"].as_str().unwrap_or_default().into(),
            })
        })
        .collect()
}

impl Handler for PullAppStoreSales {
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<()>, JobError> {
        let db = &ctx.runtime.db;
        let Some(c) = asc::in_workspace(&db.pool, &self.workspace_id, &self.connection_id).await?
        else {
            tracing::info!(job.id = %ctx.job_id, "App Store Connect connection removed; nothing to do");
            return Ok(Done::message("No connection"));
        };
        let id = c.id.as_str();
        let fail = |message: String| async move {
            asc::failed(&db.pool, id, &message, ids::now_ms()).await
        };
        let pem = match ctx.runtime.secrets.open_str(
            &key_context(&c.workspace_id, &c.key_id),
            &c.private_key_sealed,
        ) {
            Ok(p) => p,
            Err(e) => {
                tracing::error!(job.id = %ctx.job_id, error = %e, "the App Store Connect key could not be opened");
                fail("The stored key could not be read: connect it again".into()).await?;
                return Ok(Done::message("Key unreadable"));
            }
        };
        let Ok(key) = AscKey::new(&c.issuer_id, &c.key_id, pem.expose_secret()) else {
            fail("The stored key could not be read: connect it again".into()).await?;
            return Ok(Done::message("Key unreadable"));
        };
        let client = AppStoreConnect::new(ctx.runtime.app_store_connect.clone())
            .map_err(|e| JobError::retryable(anyhow::anyhow!(e)))?;
        let apps = apps_of(&c.apps);
        let today = time::OffsetDateTime::now_utc().date();
        let days = i64::from(self.days.clamp(1, 90));
        let mut read = 0;
        for back in (1..=days).rev() {
            ctx.check_cancelled()?;
            let day = today - Duration::days(back);
            let rows = match client.daily_sales(&key, &c.vendor_number, day).await {
                Ok(rows) => rows.unwrap_or_default(),
                Err(e) => {
                    let message = user_message(&e);
                    tracing::warn!(job.id = %ctx.job_id, %day, error = %e, "App Store Connect read failed");
                    if let AscError::RateLimited { retry_after } = e {
                        return Err(JobError::RateLimited {
                            retry_after,
                            source: anyhow::anyhow!(message),
                        });
                    }
                    fail(message.clone()).await?;
                    return match e {
                        AscError::Retryable { .. } => {
                            Err(JobError::retryable(anyhow::anyhow!(message)))
                        }
                        _ => Ok(Done::message(message)),
                    };
                }
            };
            let day_text = day.to_string();
            let mut tx = db.begin_write().await?;
            asc::delete_day(&mut *tx, &c.id, &day_text).await?;
            for s in attribute(&rows, &apps).into_iter().filter(|s| s.day == day) {
                let row = SaleRow {
                    adam_id: s.adam_id,
                    day: day_text.clone(),
                    country: s.country,
                    product_type: s.product_type,
                    units: s.units,
                    proceeds_micros: s.proceeds_micros,
                    currency: s.currency,
                };
                asc::upsert_sale(&mut *tx, &c.id, &row).await?;
            }
            asc::day_read(&mut *tx, &c.id, &day_text, ids::now_ms()).await?;
            tx.commit().await?;
            read += 1;
        }
        asc::succeeded(&db.pool, &c.id, ids::now_ms()).await?;
        tracing::info!(job.id = %ctx.job_id, days = read, "App Store Connect sales read");
        Ok(Done::message(format!(
            "Read {read} days of App Store sales"
        )))
    }
}
