//! `pull-attribution`: reads a provider's reporting API for the workspace's pull and
//! replaces that provider's facts of every install day it answered
//! (`searchdeck_common::attribution::pull::write`). The last [`PullAttribution::days`]
//! complete days (UTC) are read: the backfill when the token is set, then daily, since
//! cohorts keep maturing for 30 days.
//!
//! What goes wrong is the user's to see: a refused token or app, or an answer that does not
//! read, is recorded on the pull in the user's words and the job ends (another try would
//! be refused the same way; the next day's pull tries again). A 429 longer than the client
//! waits reschedules the job without spending an attempt; a 5xx or an unreachable API is
//! recorded and retried with backoff. A pull removed meanwhile ends the job.

use searchdeck_common::{
    attribution::{
        Provider,
        pull::{
            PulledRow,
            settings::{AppsFlyerSettings, PullSettings},
            write,
        },
    },
    ids,
    jobs::PullAttribution,
    queue::JobError,
    store::attribution::pulls::{self, token_context},
    zones,
};
use searchdeck_provider::mmp::{AppsFlyer, MmpConfig, MmpError, appsflyer::MasterQuery};
use secrecy::SecretString;
use time::{Date, Duration};

use crate::{Done, Handler, JobContext};

/// AppsFlyer's rows of every app of `settings` for `from..=to`.
async fn appsflyer(
    config: &MmpConfig,
    token: &SecretString,
    settings: &AppsFlyerSettings,
    (from, to): (Date, Date),
) -> Result<Vec<PulledRow>, MmpError> {
    let client = AppsFlyer::new(config.clone())?;
    let mut rows = Vec::new();
    for app_id in &settings.app_ids {
        let report = client
            .master_report(
                token,
                &MasterQuery {
                    app_id,
                    from,
                    to,
                    events: &settings.events,
                    currency: &settings.currency,
                },
            )
            .await?;
        if report.skipped > 0 {
            tracing::debug!(app_id = %app_id, skipped = report.skipped, "AppsFlyer rows without an Apple Ads campaign left out");
        }
        rows.extend(report.rows);
    }
    Ok(rows)
}

/// The message a failed pull shows the user.
fn user_message(provider: Provider, e: &MmpError) -> String {
    match e {
        MmpError::Unauthorized(m) | MmpError::Refused { message: m, .. } => m.clone(),
        MmpError::RateLimited { .. } => {
            format!(
                "{} is limiting requests; the pull will try again",
                provider.title()
            )
        }
        MmpError::Retryable { message, .. } => {
            format!("{}: {message}; the pull will try again", provider.title())
        }
        MmpError::Malformed(m) => format!("{}'s answer could not be read: {m}", provider.title()),
    }
}

impl Handler for PullAttribution {
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<()>, JobError> {
        let db = &ctx.runtime.db;
        let ws = self.workspace_id.as_str();
        let Some(provider) = Provider::parse(&self.provider) else {
            tracing::warn!(job.id = %ctx.job_id, provider = %self.provider, "pull of an unknown provider; nothing to do");
            return Ok(Done::message("Unknown provider"));
        };
        let Some(pull) = pulls::get(&db.pool, ws, provider.name()).await? else {
            tracing::info!(job.id = %ctx.job_id, provider = provider.name(), "pull removed; nothing to do");
            return Ok(Done::message("No pull set"));
        };
        let now = ids::now_ms();
        let fail = |message: String| async move {
            pulls::failed(&db.pool, ws, provider.name(), &message, ids::now_ms()).await
        };
        let token = match ctx
            .runtime
            .secrets
            .open_str(&token_context(ws, provider.name()), &pull.token_sealed)
        {
            Ok(t) => t,
            Err(e) => {
                tracing::error!(job.id = %ctx.job_id, error = %e, "the pull's token could not be opened");
                fail("The stored API token could not be read: set it again".into()).await?;
                return Ok(Done::message("Token unreadable"));
            }
        };
        let Some(settings) = PullSettings::from_json(provider, &pull.settings) else {
            fail("The pull's settings could not be read: set them again".into()).await?;
            return Ok(Done::message("Settings unreadable"));
        };
        let today = zones::today(now / 1000, None);
        let days = i64::from(self.days.clamp(1, 31));
        let range = (today - Duration::days(days), today - Duration::days(1));
        let rows = match &settings {
            PullSettings::AppsFlyer(s) => appsflyer(&ctx.runtime.mmp, &token, s, range).await,
        };
        let rows = match rows {
            Ok(rows) => rows,
            Err(e) => {
                let message = user_message(provider, &e);
                tracing::warn!(job.id = %ctx.job_id, provider = provider.name(), error = %e, "pull failed");
                if let MmpError::RateLimited { retry_after } = e {
                    return Err(JobError::RateLimited {
                        retry_after,
                        source: anyhow::anyhow!(message),
                    });
                }
                fail(message.clone()).await?;
                return match e {
                    MmpError::Retryable { .. } => {
                        Err(JobError::retryable(anyhow::anyhow!(message)))
                    }
                    _ => Ok(Done::message(message)),
                };
            }
        };
        let written = write::write(db, ws, provider.name(), rows, now).await?;
        pulls::succeeded(&db.pool, ws, provider.name(), ids::now_ms()).await?;
        tracing::info!(
            job.id = %ctx.job_id,
            provider = provider.name(),
            days = written.days,
            installs = written.installs,
            "attribution pulled"
        );
        Ok(Done::message(format!(
            "Pulled {} days from {}",
            written.days,
            provider.title()
        )))
    }
}
