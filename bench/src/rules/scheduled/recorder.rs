//! The sandbox as the scheduled part serves it: on a loopback port, every `/v1` request
//! recorded while the timed run is on, with its ad account (`X-AP-Context`), time and status.

use std::{
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::Instant,
};

use searchdeck_sandbox::Sandbox;

/// One `/v1` request as the sandbox answered it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Call {
    pub(super) account: Option<i64>,
    pub(super) at: Instant,
    pub(super) status: u16,
}

/// The `/v1` requests answered while `on`.
#[derive(Default)]
pub(super) struct Recorder {
    pub(super) on: AtomicBool,
    pub(super) calls: Mutex<Vec<Call>>,
}

impl Recorder {
    pub(super) fn take(&self) -> Vec<Call> {
        std::mem::take(&mut *self.calls.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// The ad account of an `X-AP-Context: adAccountId=<id>` header.
fn context_account(headers: &axum::http::HeaderMap) -> Option<i64> {
    headers
        .get("x-ap-context")?
        .to_str()
        .ok()?
        .split(';')
        .find_map(|p| p.trim().strip_prefix("adAccountId="))?
        .parse()
        .ok()
}

/// Serves `sandbox` on a loopback port, recording its `/v1` requests into `recorder`;
/// answers the base URL.
pub(super) async fn serve(
    sandbox: Arc<Sandbox>,
    recorder: Arc<Recorder>,
) -> anyhow::Result<String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let app = searchdeck_sandbox::app(sandbox).layer(axum::middleware::from_fn(
        move |req: axum::extract::Request, next: axum::middleware::Next| {
            let recorder = recorder.clone();
            async move {
                let account = context_account(req.headers());
                let api = req.uri().path().starts_with("/v1/");
                let response = next.run(req).await;
                if api && recorder.on.load(Ordering::Relaxed) {
                    let call = Call {
                        account,
                        at: Instant::now(),
                        status: response.status().as_u16(),
                    };
                    recorder
                        .calls
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(call);
                }
                response
            }
        },
    ));
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(base)
}
