//! The email sender: SMTP through lettre when `SMTP_URL` is set (against a minimal SMTP
//! server on loopback), the local outbox otherwise.

use clap::Parser;
use searchdeck_common::{
    Config, ConfigArgs,
    email::{EmailSender, OutgoingEmail},
};
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    net::TcpListener,
};

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    config: ConfigArgs,
}

fn config(dir: &std::path::Path, smtp: Option<&str>) -> Config {
    let mut args = vec![
        "t".to_string(),
        "--data-dir".into(),
        dir.display().to_string(),
    ];
    if let Some(url) = smtp {
        args.extend(["--smtp-url".into(), url.into()]);
    }
    Cli::parse_from(args).config.resolve().unwrap()
}

fn message() -> OutgoingEmail {
    OutgoingEmail {
        to: "ann@example.com".into(),
        subject: "Your Searchdeck password recovery code".into(),
        body: "Your recovery code is ABCD2345.".into(),
    }
}

/// Accepts one SMTP session and returns the transcript of what the client sent.
async fn smtp_server(listener: TcpListener) -> String {
    let (stream, _) = listener.accept().await.unwrap();
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    let mut transcript = String::new();
    write.write_all(b"220 test ESMTP\r\n").await.unwrap();
    let mut in_data = false;
    while let Some(line) = lines.next_line().await.unwrap() {
        transcript.push_str(&line);
        transcript.push('\n');
        let reply: &[u8] = if in_data {
            if line != "." {
                continue;
            }
            in_data = false;
            b"250 queued\r\n"
        } else {
            match line
                .get(..4)
                .unwrap_or_default()
                .to_ascii_uppercase()
                .as_str()
            {
                "EHLO" | "HELO" => b"250 test\r\n",
                "DATA" => {
                    in_data = true;
                    b"354 go ahead\r\n"
                }
                "QUIT" => {
                    write.write_all(b"221 bye\r\n").await.unwrap();
                    break;
                }
                _ => b"250 ok\r\n",
            }
        };
        write.write_all(reply).await.unwrap();
    }
    transcript
}

#[tokio::test]
async fn smtp_url_sends_through_the_smtp_server() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = tokio::spawn(smtp_server(listener));
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), Some(&format!("smtp://127.0.0.1:{port}")));
    let sender = EmailSender::from_config(&config).unwrap();
    sender.send(message()).await.unwrap();
    drop(sender);
    let transcript = tokio::time::timeout(std::time::Duration::from_secs(10), server)
        .await
        .unwrap()
        .unwrap();
    assert!(
        transcript.contains("RCPT TO:<ann@example.com>"),
        "{transcript}"
    );
    assert!(
        transcript.contains("MAIL FROM:<no-reply@searchdeck.local>"),
        "{transcript}"
    );
    assert!(
        transcript.contains("Subject: Your Searchdeck password recovery code"),
        "{transcript}"
    );
    assert!(
        transcript.contains("Your recovery code is ABCD2345."),
        "{transcript}"
    );
    assert!(
        !dir.path().join("outbox.jsonl").exists(),
        "SMTP mode writes no outbox"
    );
}

#[tokio::test]
async fn without_smtp_emails_go_to_the_outbox_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let sender = EmailSender::from_config(&config(dir.path(), None)).unwrap();
    assert!(sender.outbox().await.unwrap().is_empty());
    let mut second = message();
    second.to = "bob@example.com".into();
    sender.send(message()).await.unwrap();
    sender.send(second.clone()).await.unwrap();
    assert_eq!(sender.outbox().await.unwrap(), vec![message(), second]);
}
