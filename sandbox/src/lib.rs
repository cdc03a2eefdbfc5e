//! The Apple Ads sandbox: a local stand-in for the Apple Ads Platform API v1 over a
//! deterministic synthetic world, with the token endpoint, an authorize page, admin
//! endpoints and fault injection. Addresses: the API under `/v1/…`, the token endpoint at
//! `/auth/oauth2/token`, the consent page at `/auth/oauth2/authorize`, admin under
//! `/sandbox/` (`keys`, `faults`, `tokens/revoke`, `health`, `clock`, and `ui/v1/…`: the
//! API as Apple's own UI, whose writes a person makes), stand-ins for the
//! public App Store endpoints under `/appstore/` (`lookup`, `search`, `hints`) and for the
//! ECB's reference-rate feed under `/eurofxref/`, and for the attribution providers'
//! reporting APIs on their own paths (AppsFlyer's `/api/master-agg-data/v4/…`,
//! [`api::mmp`]), and for the App Store Connect API under `/appstoreconnect/v1/…`
//! ([`api::appstore_connect`]). Writes
//! persist in a journal when a data dir is configured ([`journal`]).

pub mod admin;
pub mod api;
pub mod args;
pub mod auth;
pub mod clock;
pub mod faults;
pub mod generate;
pub mod journal;
pub mod metrics;
pub mod sim;
pub mod state;
pub mod totals;
pub mod truth;
pub mod world;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::middleware::from_fn_with_state;
use axum::routing::{get, post};

pub use args::SandboxArgs;
pub use faults::FaultConfig;
pub use state::{Sandbox, SandboxConfig};
pub use world::{
    AGENCY_ACCOUNTS, AGENCY_CAMPAIGNS, AGENCY_GROUPS, MID_KEYWORDS, WorldConfig, WorldSize,
};

/// The sandbox's HTTP routes over the default world (seed 42, small).
pub fn router() -> Router {
    app(Sandbox::new(SandboxConfig::default()))
}

/// The sandbox's HTTP routes over `sandbox`.
pub fn app(sandbox: Arc<Sandbox>) -> Router {
    let v1 = api::router()
        .fallback(api::error::unserved)
        .method_not_allowed_fallback(api::error::wrong_method)
        .layer(from_fn_with_state(sandbox.clone(), auth::require_bearer))
        .layer(from_fn_with_state(sandbox.clone(), faults::apply))
        .layer(axum::middleware::from_fn(api::error::shape_errors));
    // Apple's own UI, standing in: the same API without a token, its writes made by a
    // person (`CUSTOMER` in the change history).
    let ui = api::router()
        .fallback(api::error::unserved)
        .method_not_allowed_fallback(api::error::wrong_method)
        .layer(axum::middleware::from_fn(admin::as_ui_person))
        .layer(axum::middleware::from_fn(api::error::shape_errors));
    Router::new()
        .nest("/v1", v1)
        .nest("/sandbox/ui/v1", ui)
        .route("/auth/oauth2/token", post(auth::token::token))
        .route(
            "/auth/oauth2/authorize",
            get(auth::pages::show).post(auth::pages::decide),
        )
        .merge(admin::router())
        .merge(api::appstore::router())
        .merge(api::eurofxref::router())
        .merge(api::mmp::router())
        .merge(api::appstore_connect::router())
        .fallback(api::error::unserved)
        .method_not_allowed_fallback(api::error::wrong_method)
        .layer(axum::middleware::from_fn(api::error::shape_errors))
        .layer(from_fn_with_state(sandbox.clone(), simulated_date))
        .with_state(sandbox)
}

/// Stamps every answer's `Date` header with the simulated clock, as Apple's carry its own
/// time: a client that dates its requests by the provider's clock (the sync's "today" of
/// an ad account) follows the sandbox's clock when it is set or advanced.
async fn simulated_date(
    axum::extract::State(sandbox): axum::extract::State<Arc<Sandbox>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let mut response = next.run(request).await;
    let now = std::time::SystemTime::from(sandbox.world.clock().now());
    if let Ok(value) = axum::http::HeaderValue::from_str(&httpdate::fmt_http_date(now)) {
        response
            .headers_mut()
            .insert(axum::http::header::DATE, value);
    }
    response
}

/// Serves the default sandbox on `bind` until `shutdown` resolves.
pub async fn serve(
    bind: SocketAddr,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    serve_with(bind, SandboxConfig::default(), shutdown).await
}

/// Serves a sandbox built from `config` (see [`SandboxArgs`]) on `bind` until `shutdown`.
pub async fn serve_with(
    bind: SocketAddr,
    config: SandboxConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let seed = config.world.seed;
    let sandbox = Sandbox::open(config)?;
    sandbox.warm_up();
    let listener = tokio::net::TcpListener::bind(bind).await?;
    tracing::info!(%bind, seed, "sandbox listening");
    axum::serve(listener, app(sandbox))
        .with_graceful_shutdown(shutdown)
        .await?;
    Ok(())
}
