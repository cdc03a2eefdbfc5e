//! Connections across a restart of a sandbox that keeps its data (as `searchdeck serve`
//! does): registered keys and refresh tokens survive, so both kinds of connection sync and
//! edit again.

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::json;

use super::{campaign_url, pick};
use crate::common::TestApp;
use crate::harness::{Connected, args};

/// A sandbox kept in `dir` (as `searchdeck serve` keeps it in its data dir), served on
/// `addr` until the returned sender fires.
async fn serve_kept(
    dir: &std::path::Path,
    addr: std::net::SocketAddr,
) -> (
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let sandbox = searchdeck_sandbox::Sandbox::open(searchdeck_sandbox::SandboxConfig {
        data_dir: Some(dir.to_path_buf()),
        ..searchdeck_sandbox::SandboxConfig::default()
    })
    .unwrap();
    let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let app = searchdeck_sandbox::app(sandbox);
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                stopped.await.ok();
            })
            .await
            .unwrap();
    });
    (stop, task)
}

/// Connect by key pair and by popup, restart the sandbox, then sync and edit: registered
/// keys and refresh tokens are kept across the restart, so both connections exchange new
/// access tokens (before, 'unknown client_id' and 'unknown refresh token').
async fn connections_survive_a_sandbox_restart(backend: crate::common::TestBackend) {
    let dir = tempfile::tempdir().unwrap();
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let base = format!("http://{addr}");
    let (stop, task) = serve_kept(dir.path(), addr).await;
    let Some(app) = TestApp::on_with(backend, &args(&base)).await else {
        return;
    };
    let t = Connected::new(app, base);
    let key_owner = t.owner().await;
    let key_account = t.connect_until_entities_synced(&key_owner, "Edited").await;
    let p = pick(&t, &key_account).await;
    let popup_owner = t.owner().await;
    let back = t.consent(&popup_owner, "Popup", "allow").await;
    let res = t.oauth(&popup_owner, &back).await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    let popup_account = res.json["result"]["accountId"]
        .as_str()
        .unwrap()
        .to_string();

    stop.send(()).unwrap();
    task.await.unwrap();
    let (stop, task) = serve_kept(dir.path(), addr).await;

    // The key-pair connection edits (its cached access token is unknown now: one refresh).
    let res = t
        .call(
            Method::PUT,
            &campaign_url(&p),
            json!({"status": "PAUSED"}),
            &key_owner,
        )
        .await;
    assert_eq!(
        res.status,
        StatusCode::OK,
        "an edit after the restart: {:?}",
        res.json
    );
    assert_eq!(res.json["result"]["item"]["values"]["status"], "PAUSED");
    // The popup connection's sync (queued at connect, perhaps cut by the restart) completes.
    let mut synced = false;
    for _ in 0..2400 {
        let (done, failed): (i64, Option<String>) = sqlx::query_as(
            "SELECT finish, error FROM tasks WHERE kind = 'sync-account' AND account_id = $1 ORDER BY created_at DESC LIMIT 1",
        )
        .bind(&popup_account)
        .fetch_optional(&t.app.state.db.pool)
        .await
        .unwrap()
        .unwrap_or((0, None));
        assert!(
            failed.is_none(),
            "the popup connection's sync failed: {failed:?}"
        );
        if done == 1 {
            synced = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert!(synced, "the popup connection's sync did not complete");
    for (owner, account) in [(&key_owner, &key_account), (&popup_owner, &popup_account)] {
        let res = t
            .get(
                &format!("/api/asa/getAccountData?accountId={account}"),
                owner,
            )
            .await;
        assert_eq!(
            res.status,
            StatusCode::OK,
            "{account} after the restart: {:?}",
            res.json
        );
    }
    stop.send(()).unwrap();
    task.await.unwrap();
}

#[tokio::test]
async fn connections_survive_a_sandbox_restart_sqlite() {
    connections_survive_a_sandbox_restart(crate::common::TestBackend::Sqlite).await;
}

#[tokio::test]
async fn connections_survive_a_sandbox_restart_postgres() {
    connections_survive_a_sandbox_restart(crate::common::TestBackend::Postgres).await;
}
