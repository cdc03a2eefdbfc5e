//! Emails by reference: after a recovery email is delivered, neither the queue nor the
//! database nor the log holds its code, and the local outbox file is its owner's alone.

use std::{
    io::Write,
    os::unix::fs::PermissionsExt,
    sync::{Arc, Mutex, OnceLock},
    time::Duration,
};

use searchdeck_common::{
    email::{self, OutgoingEmail},
    queue::outbox,
};

use crate::support::{Kind, TestEnv, eventually};

searchdeck_common::per_backend!([sqlite, postgres, redis] a_delivered_email_leaves_its_code_nowhere);

/// Everything this test binary logs, at every level, from every thread.
fn captured_logs() -> Arc<Mutex<Vec<u8>>> {
    static LOGS: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let logs = Arc::new(Mutex::new(Vec::new()));
        let writer = logs.clone();
        tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_ansi(false)
            .with_writer(move || LogWriter(writer.clone()))
            .init();
        logs
    })
    .clone()
}

struct LogWriter(Arc<Mutex<Vec<u8>>>);

impl Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

async fn a_delivered_email_leaves_its_code_nowhere(kind: Kind) {
    let logs = captured_logs();
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let code = format!("{}", 10_000_000 + rand::random::<u32>() % 89_999_999);
    let message = OutgoingEmail {
        to: "someone@example.com".into(),
        subject: "Your Searchdeck password recovery code".into(),
        body: format!("Your recovery code is {code}."),
    };
    email::enqueue(&env.db, &message).await.unwrap();
    let worker = env.start_worker();
    let sender = email::EmailSender::from_config(&env.config).unwrap();
    let sent = eventually(Duration::from_secs(10), "the email", || async {
        let sent = sender.outbox().await.unwrap();
        (!sent.is_empty()).then_some(sent)
    })
    .await;
    // The job has ended and its store row been updated.
    env.queue_settled().await;
    worker.stop().await;
    assert_eq!(sent, vec![message]);
    let mode = std::fs::metadata(env.config.outbox_path())
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "outbox mode {mode:o}");
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM emails")
        .fetch_one(&env.db.pool)
        .await
        .unwrap();
    assert_eq!(stored, 0, "the sent email is erased");
    assert_eq!(outbox::pending(&env.db).await.unwrap(), 0);
    let queue = env.queue_dump().await;
    assert!(queue.contains("send-email"), "{queue}");
    assert!(!queue.contains(&code), "the queue keeps the code: {queue}");
    let logs = String::from_utf8_lossy(&logs.lock().unwrap()).into_owned();
    assert!(logs.contains("someone@example.com"), "the send is logged");
    assert!(!logs.contains(&code), "a log line holds the code");
}
