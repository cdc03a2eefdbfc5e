//! The HTTP API of Searchdeck: session auth, roles, the JSON envelope, OpenAPI, and the
//! built web app served from the same origin.

pub mod access;
pub mod body_rules;
pub mod domain;
pub mod envelope;
pub mod error;
pub mod extract;
pub mod forwarded;
pub mod input;
pub mod middleware;
pub mod money;
pub mod openapi;
pub mod passwords;
pub mod provider;
pub mod recovery;
pub mod routes;
pub mod schemas;
pub mod session;
pub mod state;
pub mod throttle;

use std::{net::SocketAddr, path::Path, sync::Arc, time::Duration};

use axum::{
    Json, Router,
    extract::DefaultBodyLimit,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
    routing::{any, get},
};
use tower_http::{
    catch_panic::CatchPanicLayer,
    services::{ServeDir, ServeFile},
    set_header::SetResponseHeaderLayer,
    trace::TraceLayer,
};

use crate::{error::ApiError, state::AppState};

/// The OpenAPI document of every route, as `/api/openapi.json` serves it (and as
/// `searchdeck openapi` prints it for the web app's generated client,
/// `frontend/src/api/openapi.json`).
pub fn openapi_document() -> utoipa::openapi::OpenApi {
    openapi::complete(routes::api().split_for_parts().1)
}

/// [`openapi_document`] as pretty JSON with every object's keys sorted: the same text for
/// the same document (the extensions utoipa keeps in a hash map come out in any order), so
/// the web app's committed copy changes only when the contract does.
pub fn openapi_text() -> String {
    fn sorted(v: serde_json::Value) -> serde_json::Value {
        match v {
            serde_json::Value::Object(map) => {
                let mut entries: Vec<_> = map.into_iter().collect();
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                serde_json::Value::Object(
                    entries.into_iter().map(|(k, v)| (k, sorted(v))).collect(),
                )
            }
            serde_json::Value::Array(items) => {
                serde_json::Value::Array(items.into_iter().map(sorted).collect())
            }
            other => other,
        }
    }
    let doc = serde_json::to_value(openapi_document()).expect("the document serialises");
    serde_json::to_string_pretty(&sorted(doc)).expect("the document serialises") + "\n"
}

/// The whole application router: `/api/…`, `/health`, and the web app for every other path.
pub fn app(state: AppState) -> Router {
    let (api, doc) = routes::api().split_for_parts();
    let doc = Arc::new(openapi::complete(doc));
    let static_dir = state.config.static_dir.clone();
    let headers_state = state.clone();
    Router::new()
        .merge(api)
        .route(
            "/api/openapi.json",
            get(move || async move { Json(doc.as_ref().clone()) }),
        )
        .route("/api", any(api_not_found))
        .route("/api/{*rest}", any(api_not_found))
        .route("/health", get(health))
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(state)
        .fallback_service(spa(&static_dir))
        .layer(DefaultBodyLimit::max(extract::BODY_LIMIT_BYTES))
        .layer(axum::middleware::from_fn(middleware::cross_site_writes))
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::Internal(anyhow::anyhow!("handler panicked")).into_response()
        }))
        .layer(axum::middleware::from_fn_with_state(
            headers_state,
            middleware::security_headers,
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        .layer(TraceLayer::new_for_http().make_span_with(middleware::request_span))
}

/// The built single-page app: files as they are, `index.html` for every other path so the
/// browser router (history mode) can take over.
fn spa(dir: &Path) -> ServeDir<ServeFile> {
    if !dir.join("index.html").exists() {
        tracing::warn!(dir = %dir.display(), "the web app is not built here: run `make build` (API routes still work)");
    }
    ServeDir::new(dir).fallback(ServeFile::new(dir.join("index.html")))
}

async fn api_not_found() -> ApiError {
    ApiError::status(StatusCode::NOT_FOUND, "Not found")
}

async fn method_not_allowed() -> ApiError {
    ApiError::status(StatusCode::METHOD_NOT_ALLOWED, "Method not allowed")
}

/// Liveness and database reachability, for process managers.
async fn health(axum::extract::State(state): axum::extract::State<AppState>) -> Response {
    match searchdeck_common::store::ping(&state.db.pool).await {
        Ok(_) => Json(serde_json::json!({"status": "ok"})).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "health check: database unreachable");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(serde_json::json!({"status": "database unreachable"})),
            )
                .into_response()
        }
    }
}

/// Serves the API on `bind` until `shutdown` resolves.
pub async fn serve(
    state: AppState,
    bind: SocketAddr,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(bind).await?;
    tracing::info!(%bind, "api listening");
    let pruner = {
        let state = state.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(60));
            loop {
                tick.tick().await;
                state.throttles.prune();
            }
        })
    };
    let app = app(state).into_make_service_with_connect_info::<SocketAddr>();
    let result = axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await;
    pruner.abort();
    Ok(result?)
}
