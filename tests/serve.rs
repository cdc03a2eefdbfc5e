//! The binary as the README runs it: `searchdeck serve` on a fresh data dir starts the API,
//! the worker, the scheduler and the sandbox, answers `/health` and the OpenAPI document, and
//! stops cleanly on SIGTERM.
//!
//! Building this test also builds `target/debug/searchdeck` with the test build's features,
//! which is the binary `scripts/test.sh` hands to schemathesis and the browser tests.

use std::{
    io::{Read, Write},
    net::{TcpListener, TcpStream},
    process::{Command, Stdio},
    thread::sleep,
    time::{Duration, Instant},
};

/// A port nothing listens on right now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// `GET path` over HTTP/1.0: the status code and the body, or None when nothing answers.
fn get(port: u16, path: &str) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut raw = String::new();
    s.read_to_string(&mut raw).ok()?;
    let status = raw.split(' ').nth(1)?.parse().ok()?;
    let body = raw.split_once("\r\n\r\n").map(|(_, b)| b.to_string())?;
    Some((status, body))
}

#[test]
fn serve_starts_on_a_fresh_data_dir_answers_and_stops_on_sigterm() {
    let data = std::env::temp_dir().join(format!("searchdeck-serve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let (port, sandbox) = (free_port(), free_port());
    let mut child = Command::new(env!("CARGO_BIN_EXE_searchdeck"))
        .arg("serve")
        .env("SEARCHDECK_DATA_DIR", &data)
        .env("SEARCHDECK_BIND", format!("127.0.0.1:{port}"))
        .env("SEARCHDECK_SANDBOX_BIND", format!("127.0.0.1:{sandbox}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("searchdeck serve starts");

    let started = Instant::now();
    let health = loop {
        if let Some(answer) = get(port, "/health") {
            break answer;
        }
        assert!(
            child.try_wait().expect("the child's state").is_none(),
            "searchdeck serve exited before answering"
        );
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no answer on /health within 60 s"
        );
        sleep(Duration::from_millis(200));
    };
    assert_eq!(health.0, 200, "/health: {}", health.1);
    let (status, body) = get(port, "/api/openapi.json").expect("the OpenAPI document");
    assert_eq!(status, 200);
    assert!(body.contains("\"openapi\""), "an OpenAPI document");
    assert!(
        data.join("searchdeck.db").exists(),
        "the embedded SQLite database is in the data dir"
    );

    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(term.success());
    let stopping = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child's state") {
            break status;
        }
        assert!(
            stopping.elapsed() < Duration::from_secs(30),
            "searchdeck serve still running 30 s after SIGTERM"
        );
        sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "a clean exit on SIGTERM: {status}");
    let _ = std::fs::remove_dir_all(&data);
}
