//! `deliver-alert`: sends one stored alert (`store::alerts`) as it asks: by email through the
//! email outbox (the alert's `emails`, else the workspace's owners and admins; one
//! `send-email` job each, queued in the transaction that marks the alert emailed) and to the
//! workspace's Slack incoming webhook when one is set (a POST of `{"text": …}`; the URL is
//! opened from its sealed form here only). Each channel is marked done once sent, so a job
//! that runs again after Slack failed (a non-2xx answer or a network error: retried with the
//! job's attempts) sends neither the emails nor the post twice. An alert gone, or a channel
//! not asked for or not configured, is not an error.

use std::time::Duration;

use searchdeck_common::{
    email::{self, OutgoingEmail},
    ids,
    jobs::DeliverAlert,
    queue::{JobError, outbox},
    store::{self, alerts::AlertRow},
};

use crate::{Done, Handler, JobContext};

/// How long one post to Slack may take.
const SLACK_TIMEOUT: Duration = Duration::from_secs(15);

/// The email of an alert.
fn email_of(alert: &AlertRow, to: String) -> OutgoingEmail {
    OutgoingEmail {
        to,
        subject: format!("Searchdeck alert: {}", alert.title),
        body: format!(
            "{}\n\n{}\n\nOpen Searchdeck's automated rules to see the alerts of your campaigns.\n",
            alert.title, alert.message
        ),
    }
}

/// The Slack text of an alert.
fn slack_text(alert: &AlertRow) -> String {
    format!("*{}*\n{}", alert.title, alert.message)
}

/// Posts `text` to the webhook `url`; an error for a network failure or a non-2xx answer.
async fn post_to_slack(url: &str, text: &str) -> anyhow::Result<()> {
    let client = reqwest::Client::builder()
        .timeout(SLACK_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .build()?;
    let res = client
        .post(url)
        .json(&serde_json::json!({ "text": text }))
        .send()
        .await?;
    let status = res.status();
    if !status.is_success() {
        anyhow::bail!("Slack answered {status}");
    }
    Ok(())
}

impl Handler for DeliverAlert {
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<()>, JobError> {
        let db = &ctx.runtime.db;
        let Some(alert) = store::alerts::get(&db.pool, &self.alert_id).await? else {
            tracing::info!(job.id = %ctx.job_id, alert.id = %self.alert_id, "alert gone");
            return Ok(Done::message("Alert gone"));
        };
        let mut sent = Vec::new();
        if alert.email && alert.emailed_at.is_none() {
            let recipients = if alert.emails.is_empty() {
                store::workspaces::manager_emails(&db.pool, &alert.workspace_id).await?
            } else {
                alert.emails.clone()
            };
            let mut tx = db.pool.begin().await?;
            for to in &recipients {
                email::enqueue_in(&mut tx, &email_of(&alert, to.clone())).await?;
            }
            store::alerts::mark_emailed(&mut *tx, &alert.id, ids::now_ms() / 1000).await?;
            tx.commit().await?;
            if let Err(e) = outbox::relay_once(db, &ctx.runtime.queue, 100).await {
                tracing::warn!(error = %format!("{e:#}"), "outbox relay deferred");
            }
            sent.push(format!("{} emails", recipients.len()));
        }
        if alert.slack && alert.slack_sent_at.is_none() {
            match store::slack::sealed(&db.pool, &alert.workspace_id).await? {
                None => tracing::info!(alert.id = %alert.id, "no Slack webhook set: not posted"),
                Some(sealed) => {
                    let opened = ctx
                        .runtime
                        .secrets
                        .open(&store::slack::context(&alert.workspace_id), &sealed)
                        .map_err(JobError::permanent)?;
                    let url = String::from_utf8(opened).map_err(JobError::permanent)?;
                    post_to_slack(&url, &slack_text(&alert))
                        .await
                        .map_err(JobError::Retryable)?;
                    store::alerts::mark_slack_sent(&db.pool, &alert.id, ids::now_ms() / 1000)
                        .await?;
                    sent.push("Slack".to_string());
                }
            }
        }
        tracing::info!(job.id = %ctx.job_id, alert.id = %alert.id, kind = %alert.kind, sent = ?sent, "alert delivered");
        Ok(Done::message("Alert delivered"))
    }
}
