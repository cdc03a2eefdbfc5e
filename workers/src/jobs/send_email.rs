//! `send-email`: sends one stored email (by reference) with the configured sender (SMTP or
//! the local outbox), then erases it. Logs name the recipient and subject only.

use searchdeck_common::{email, jobs::SendEmail, queue::JobError};

use crate::{Done, Handler, JobContext};

impl Handler for SendEmail {
    /// Sends the email; SMTP failures are retried, an unparsable address is not. An email
    /// already sent (its row gone) is done.
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<()>, JobError> {
        let db = &ctx.runtime.db;
        let Some(message) = email::stored(db, &self.email_id).await? else {
            tracing::info!(job.id = %ctx.job_id, email.id = %self.email_id, "email already sent");
            return Ok(Done::message("Already sent"));
        };
        if !looks_like_address(&message.to) {
            email::forget(db, &self.email_id).await?;
            return Err(JobError::permanent(anyhow::anyhow!(
                "invalid recipient address"
            )));
        }
        let (to, subject) = (message.to.clone(), message.subject.clone());
        ctx.runtime
            .email
            .send(message)
            .await
            .map_err(JobError::Retryable)?;
        email::forget(db, &self.email_id).await?;
        tracing::info!(job.id = %ctx.job_id, to = %to, subject = %subject, "email sent");
        Ok(Done::message("Email sent"))
    }
}

/// A minimal address check: one `@` with text on both sides.
fn looks_like_address(s: &str) -> bool {
    matches!(s.trim().split_once('@'), Some((user, host)) if !user.is_empty() && !host.is_empty() && !host.contains('@'))
}
