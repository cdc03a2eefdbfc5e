//! Outgoing email: SMTP through lettre when `SMTP_URL` is set, otherwise a local outbox.
//!
//! The outbox is a JSON-lines file in the data directory (one message per line, the file
//! readable by its owner only), so development machines and tests can read recovery codes
//! without a mail server. Logs name the recipient and subject only, never a body.
//!
//! Emails are queued by reference ([`enqueue`]): the message waits in the `emails` table,
//! the `send-email` job carries only its id, and the row is deleted once sent.

use std::path::PathBuf;

use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor, message::header::ContentType,
};
use secrecy::ExposeSecret;
use serde::{Deserialize, Serialize};
use std::os::unix::fs::PermissionsExt;

use tokio::io::AsyncWriteExt;

use crate::{
    Config, Db, ids,
    jobs::SendEmail,
    queue::outbox::{self, OutboxOptions},
};

/// One email as written to the outbox. `Debug` leaves the body out (it may hold a code).
#[derive(Clone, Serialize, Deserialize, PartialEq)]
pub struct OutgoingEmail {
    pub to: String,
    pub subject: String,
    pub body: String,
}

impl std::fmt::Debug for OutgoingEmail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OutgoingEmail")
            .field("to", &self.to)
            .field("subject", &self.subject)
            .finish_non_exhaustive()
    }
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
                if let Some(dir) = path.parent() {
                    tokio::fs::create_dir_all(dir).await?;
                }
                let mut line = serde_json::to_string(&email)?;
                line.push('\n');
                let mut file = tokio::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .mode(0o600)
                    .open(path)
                    .await?;
                // A file created before this rule keeps its mode unless it is narrowed here.
                file.set_permissions(std::fs::Permissions::from_mode(0o600))
                    .await?;
                file.write_all(line.as_bytes()).await?;
                // tokio's File writes on a background thread: without a flush the line may not
                // be in the file yet when `send` returns (and the next send could overtake it).
                file.flush().await?;
                tracing::info!(to = %email.to, subject = %email.subject, "email written to the local outbox");
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

/// Stores `email` and queues its sending through the outbox, both in one transaction;
/// returns the email's id. The queue only ever sees that id.
pub async fn enqueue(db: &Db, email: &OutgoingEmail) -> Result<String, sqlx::Error> {
    let mut tx = db.begin_write().await?;
    let id = enqueue_in(&mut tx, email).await?;
    tx.commit().await?;
    Ok(id)
}

/// As [`enqueue`], inside the caller's transaction `conn` (the write that causes the email
/// commits with it, e.g. an alert marked emailed).
pub async fn enqueue_in(
    conn: &mut sqlx::AnyConnection,
    email: &OutgoingEmail,
) -> Result<String, sqlx::Error> {
    let id = ids::new_id();
    sqlx::query(
        "INSERT INTO emails (id, to_address, subject, body, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&id)
    .bind(&email.to)
    .bind(&email.subject)
    .bind(&email.body)
    .bind(ids::now_ms())
    .execute(&mut *conn)
    .await?;
    let job = SendEmail {
        email_id: id.clone(),
    };
    outbox::push(&mut *conn, &job, OutboxOptions::default()).await?;
    Ok(id)
}

/// A stored email waiting to be sent, or `None` once it has been sent.
pub async fn stored(db: &Db, id: &str) -> Result<Option<OutgoingEmail>, sqlx::Error> {
    let row: Option<(String, String, String)> =
        sqlx::query_as("SELECT to_address, subject, body FROM emails WHERE id = $1")
            .bind(id)
            .fetch_optional(&db.pool)
            .await?;
    Ok(row.map(|(to, subject, body)| OutgoingEmail { to, subject, body }))
}

/// Deletes stored emails queued before `before` (ones that could not be sent in time);
/// returns how many.
pub async fn delete_queued_before(db: &Db, before: i64) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("DELETE FROM emails WHERE created_at < $1")
        .bind(before)
        .execute(&db.pool)
        .await?;
    Ok(done.rows_affected())
}

/// Erases a stored email once it has been sent.
pub async fn forget(db: &Db, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM emails WHERE id = $1")
        .bind(id)
        .execute(&db.pool)
        .await?;
    Ok(())
}
