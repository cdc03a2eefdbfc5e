//! Outgoing email: SMTP through lettre when `SMTP_URL` is set, otherwise a local outbox.
//!
//! The outbox is a JSON-lines file in the data directory (one message per line) and every
//! message is also logged, so development machines and tests can read recovery codes
//! without a mail server.

use std::path::PathBuf;

use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor, message::header::ContentType,
};
use secrecy::ExposeSecret;
use serde::{Deserialize, Serialize};
use tokio::io::AsyncWriteExt;

use crate::Config;

/// One email as written to the outbox.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct OutgoingEmail {
    pub to: String,
    pub subject: String,
    pub body: String,
}

/// Sends email the configured way.
#[derive(Clone)]
pub enum EmailSender {
    Smtp {
        transport: AsyncSmtpTransport<Tokio1Executor>,
        from: String,
    },
    Outbox {
        path: PathBuf,
    },
}

impl std::fmt::Debug for EmailSender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EmailSender::Smtp { .. } => f.write_str("EmailSender::Smtp"),
            EmailSender::Outbox { path } => write!(f, "EmailSender::Outbox({})", path.display()),
        }
    }
}

impl EmailSender {
    /// Builds the sender from configuration.
    pub fn from_config(config: &Config) -> anyhow::Result<EmailSender> {
        match &config.smtp_url {
            Some(url) => Ok(EmailSender::Smtp {
                transport: AsyncSmtpTransport::<Tokio1Executor>::from_url(url.expose_secret())?
                    .build(),
                from: config.email_from.clone(),
            }),
            None => Ok(EmailSender::Outbox {
                path: config.outbox_path(),
            }),
        }
    }

    /// Sends one plain-text message.
    pub async fn send(&self, email: OutgoingEmail) -> anyhow::Result<()> {
        match self {
            EmailSender::Smtp { transport, from } => {
                let message = Message::builder()
                    .from(from.parse()?)
                    .to(email.to.parse()?)
                    .subject(&email.subject)
                    .header(ContentType::TEXT_PLAIN)
                    .body(email.body)?;
                transport.send(message).await?;
            }
            EmailSender::Outbox { path } => {
                tracing::info!(to = %email.to, subject = %email.subject, body = %email.body, "email written to the local outbox");
                if let Some(dir) = path.parent() {
                    tokio::fs::create_dir_all(dir).await?;
                }
                let mut line = serde_json::to_string(&email)?;
                line.push('\n');
                let mut file = tokio::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .await?;
                file.write_all(line.as_bytes()).await?;
            }
        }
        Ok(())
    }

    /// Every message in the local outbox, oldest first (empty for SMTP).
    pub async fn outbox(&self) -> anyhow::Result<Vec<OutgoingEmail>> {
        let EmailSender::Outbox { path } = self else {
            return Ok(Vec::new());
        };
        let text = match tokio::fs::read_to_string(path).await {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e.into()),
        };
        text.lines().map(|l| Ok(serde_json::from_str(l)?)).collect()
    }
}
