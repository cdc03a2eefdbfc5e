//! The Apple Ads sandbox server. Until the provider issue builds the synthetic world and
//! the v1 endpoints, it answers its health check so process managers and `serve` can
//! start and supervise it.

use std::net::SocketAddr;

use axum::{Json, Router, routing::get};

/// The sandbox's HTTP routes.
pub fn router() -> Router {
    Router::new().route("/sandbox/health", get(|| async { Json(serde_json::json!({"status": "ok"})) }))
}

/// Serves the sandbox on `bind` until `shutdown` resolves.
pub async fn serve(bind: SocketAddr, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(bind).await?;
    tracing::info!(%bind, "sandbox listening");
    axum::serve(listener, router()).with_graceful_shutdown(shutdown).await?;
    Ok(())
}
