//! The background task that answers password-recovery requests (the route is
//! `routes::auth::recovery`): one request after the other, it looks the account up, stores a
//! fresh code (hashed, with its clear selector) and queues the email. It runs on handles of
//! its own, so the API state only holds the channel to it.

use rand::Rng;
use searchdeck_common::{
    Db,
    email::{self, OutgoingEmail},
    ids::{new_id, now_ms},
    queue::{Queue, outbox},
    store::{self, recovery::NewCode},
};
use tokio::sync::mpsc;

use crate::{domain::Email, session::hash_token};

/// How long a recovery code stays valid.
pub const CODE_TTL_MS: i64 = 30 * 60 * 1000;
/// Letters of a recovery code (no 0/O, 1/I).
pub const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
/// Length of a recovery code.
pub const CODE_LEN: usize = 8;
/// Leading characters of a code stored in clear to find it (15 bits).
pub const SELECTOR_LEN: usize = 3;
/// Wrong guesses after which a code no longer works.
pub const MAX_CODE_ATTEMPTS: i64 = 5;
/// Recovery requests waiting for the background task, at most.
pub const PENDING_REQUESTS: usize = 256;

/// What the task needs: the database, the queue its emails go through, and the public URL the
/// email's link starts with.
#[derive(Clone)]
pub struct Mailer {
    pub db: Db,
    pub queue: Queue,
    pub public_url: String,
}

/// A fresh code of [`CODE_LEN`] letters of [`CODE_ALPHABET`].
fn new_code() -> String {
    let mut rng = rand::rng();
    (0..CODE_LEN)
        .map(|_| CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())] as char)
        .collect()
}

/// Runs queued recovery requests in order until every sender is dropped (the API state
/// holds the one sender, so the task ends with it).
pub async fn serve_requests(mailer: Mailer, mut requests: mpsc::Receiver<Email>) {
    while let Some(email) = requests.recv().await {
        if let Err(e) = send_code(&mailer, &email).await {
            tracing::error!(error = format!("{e:#}"), "recovery request failed");
        }
    }
}

/// The recovery email's text: the code, and an absolute link to the reset screen built from
/// `SEARCHDECK_PUBLIC_URL` (a mail client has no page to resolve a relative link against).
fn recovery_body(public_url: &str, code: &str) -> String {
    let base = public_url.trim_end_matches('/');
    format!(
        "Your recovery code is {code}. It is valid for 30 minutes and can be used once.\n\n\
         Enter it on the password recovery screen, or open {base}/reset?code={code}\n\
         If you did not ask for it, ignore this email: your password stays as it is."
    )
}

/// Stores a fresh code for the account of `email`, if any, and queues its email.
async fn send_code(mailer: &Mailer, email: &Email) -> anyhow::Result<()> {
    let user_id = store::users::id_by_email(&mailer.db.pool, email.as_str()).await?;
    let Some(user_id) = user_id else {
        return Ok(());
    };
    let code = new_code();
    let now = now_ms();
    let (pool, code_hash) = (&mailer.db.pool, &hash_token(&code));
    let row = NewCode {
        id: &new_id(),
        user_id: &user_id,
        code_hash,
        selector: &code[..SELECTOR_LEN],
        expires_at: now + CODE_TTL_MS,
        now,
    };
    Db::retry_busy(move || async move {
        let mut tx = searchdeck_common::db::begin_write(pool).await?;
        store::recovery::retire_open(&mut *tx, row.user_id, now).await?;
        store::recovery::insert(&mut *tx, row).await?;
        tx.commit().await
    })
    .await?;
    let message = OutgoingEmail {
        to: email.as_str().to_string(),
        subject: "Your Searchdeck password recovery code".into(),
        body: recovery_body(&mailer.public_url, &code),
    };
    email::enqueue(&mailer.db, &message).await?;
    relay_outbox(&mailer.db, &mailer.queue).await;
    tracing::info!(user.id = %user_id, "recovery code sent");
    Ok(())
}

/// Hands committed outbox rows to the queue at once; when that fails the workers' relay loop
/// does it later, so the error is only logged.
pub async fn relay_outbox(db: &Db, queue: &Queue) {
    if let Err(e) = outbox::relay_once(db, queue, 100).await {
        tracing::warn!(error = %format!("{e:#}"), "outbox relay deferred");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_use_the_alphabet() {
        let c = new_code();
        assert_eq!(c.len(), CODE_LEN);
        assert!(c.bytes().all(|b| CODE_ALPHABET.contains(&b)));
    }
}
