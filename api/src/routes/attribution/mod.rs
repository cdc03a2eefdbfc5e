//! Revenue and attribution (docs/api/attribution.md): the workspace's integrations with
//! attribution providers, RevenueCat and its own tracking server — connect, rotate the
//! postback URL, disconnect, see the newest events and send a test event
//! ([`integrations`], [`events`]) —, the postbacks the providers send ([`postbacks`], the
//! one kind of route called by another server, authenticated by the URL's token), and the
//! event settings the reports read (`mmpEventsSettings`, `mmpEvents`; [`settings`]), and
//! the API token of a provider's reporting API ([`pull`]).

mod events;
mod integrations;
mod postbacks;
mod pull;
mod settings;

use searchdeck_common::attribution::Provider;
use searchdeck_common::attribution::adapters::{self, Setup};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    error::{ApiError, ApiResult},
    route,
    state::AppState,
};

pub use integrations::IntegrationItem;

/// One provider's integration item, as the list shows it (after a write of its pull).
async fn item_of(
    state: &AppState,
    workspace_id: &str,
    provider: Provider,
) -> ApiResult<IntegrationItem> {
    integrations::items(state, workspace_id)
        .await?
        .into_iter()
        .find(|i| i.provider == provider)
        .ok_or_else(|| ApiError::not_found("Integration"))
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(integrations::list))
        .routes(route!(integrations::connect))
        .routes(route!(integrations::disconnect))
        .routes(route!(integrations::rotate))
        .routes(route!(pull::set))
        .routes(route!(pull::remove))
        .routes(route!(events::recent))
        .routes(route!(events::test_event))
        .routes(route!(postbacks::by_get))
        .routes(route!(postbacks::by_post))
        .routes(route!(settings::all_names))
        .routes(route!(settings::set_name))
        .routes(route!(settings::all_events))
        .routes(route!(settings::available_rois))
}

/// The provider a path names (`appsflyer`, … `custom`); 400 naming `provider` otherwise.
fn provider_of(name: &str) -> Result<Provider, ApiError> {
    Provider::parse(name).ok_or_else(|| {
        ApiError::field(
            "provider",
            "Must be one of appsflyer, adjust, branch, singular, kochava, tenjin, revenuecat, custom",
        )
    })
}

/// Where `provider`'s postbacks go for `token` (`…/api/attribution/postbacks/adjust/<token>`),
/// from the server's public URL.
fn ingest_url(state: &AppState, provider: Provider, token: &str) -> String {
    format!(
        "{}/api/attribution/postbacks/{}/{token}",
        state.config.public_url.trim_end_matches('/'),
        provider.name()
    )
}

/// What to paste into the provider's dashboard, as the integration screen shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SetupItem {
    /// GET or POST: how the provider sends to the URL.
    #[schema(pattern = "^(GET|POST)$")]
    pub method: String,
    /// The URL to paste: with the token when it was just made (connect, rotate), else with
    /// the token masked (`…abcd`, its last four characters).
    pub url: String,
    /// The steps in the provider's own dashboard.
    pub steps: Vec<String>,
}

impl SetupItem {
    fn of(setup: Setup) -> SetupItem {
        SetupItem {
            method: setup.method.to_string(),
            url: setup.url,
            steps: setup.steps.into_iter().map(str::to_string).collect(),
        }
    }
}

/// `provider`'s setup for the ingest URL of `token`.
fn setup_of(state: &AppState, provider: Provider, token: &str) -> SetupItem {
    SetupItem::of(adapters::setup(
        provider,
        &ingest_url(state, provider, token),
    ))
}
