//! `send-email`: sends one message with the configured sender (SMTP or the local outbox).

use searchdeck_common::{email::OutgoingEmail, queue::JobError};

use crate::runner::JobContext;

/// Sends the email; SMTP failures are retried, an unparsable address is not.
pub async fn run(email: &OutgoingEmail, ctx: &JobContext) -> Result<(), JobError> {
    if !looks_like_address(&email.to) {
        return Err(JobError::permanent(anyhow::anyhow!(
            "invalid recipient address"
        )));
    }
    ctx.runtime
        .email
        .send(email.clone())
        .await
        .map_err(JobError::Retryable)?;
    tracing::info!(job.id = %ctx.job_id, subject = %email.subject, "email sent");
    Ok(())
}

/// A minimal address check: one `@` with text on both sides.
fn looks_like_address(s: &str) -> bool {
    matches!(s.trim().split_once('@'), Some((user, host)) if !user.is_empty() && !host.is_empty() && !host.contains('@'))
}
