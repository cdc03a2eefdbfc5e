//! Each attribution provider's postback or webhook read into one event model
//! ([`searchdeck_model::attribution::AttributionEvent`]), and the postback URL each provider
//! is given to paste (docs/api/attribution.md). Free of I/O: the API's ingest route hands
//! the request's method, query, headers and body to [`parse`], and stores what it answers.
//!
//! - [`parse`] reads one postback: the Apple Ads events in it, how many others it held
//!   (another media source, an organic user, a session), or the [`FieldError`]s that
//!   refuse it, named in the provider's own terms (`iad_campaign_id`, `event.price`).
//! - [`setup`] is what the integration screen shows: the method, the exact URL (for macro
//!   providers, our parameters bound to their macros) and the steps in the provider's UI.
//! - [`custom`] is our own contract for a user's tracking server, with its signature.
//!
//! Each provider's module under [`adapters`] says which of its fields it reads, from which
//! documentation, and what it assumed where that documentation is thin.

pub mod adapters;
pub mod custom;
mod draft;
mod fields;
mod macros;
mod postback;

pub use adapters::Setup;
pub use postback::{Parsed, Postback};
use searchdeck_model::{FieldError, attribution::Provider};

/// The events `postback` carries from `provider`. For [`Provider::Custom`] the route checks
/// the signature first ([`custom::verify`]).
pub fn parse(provider: Provider, postback: &Postback<'_>) -> Result<Parsed, Vec<FieldError>> {
    match provider {
        Provider::AppsFlyer => adapters::appsflyer::parse(postback),
        Provider::Adjust => adapters::adjust::parse(postback),
        Provider::Branch => adapters::branch::parse(postback),
        Provider::Singular => adapters::singular::parse(postback),
        Provider::Kochava => adapters::kochava::parse(postback),
        Provider::Tenjin => adapters::tenjin::parse(postback),
        Provider::RevenueCat => adapters::revenuecat::parse(postback),
        Provider::Custom => custom::parse(postback),
    }
}

/// What the user pastes into `provider`'s dashboard, for the integration's `ingest_url`
/// (`https://app.example.com/api/attribution/postbacks/adjust/<token>`).
pub fn setup(provider: Provider, ingest_url: &str) -> Setup {
    match provider {
        Provider::AppsFlyer => adapters::appsflyer::setup(ingest_url),
        Provider::Adjust => adapters::adjust::setup(ingest_url),
        Provider::Branch => adapters::branch::setup(ingest_url),
        Provider::Singular => adapters::singular::setup(ingest_url),
        Provider::Kochava => adapters::kochava::setup(ingest_url),
        Provider::Tenjin => adapters::tenjin::setup(ingest_url),
        Provider::RevenueCat => adapters::revenuecat::setup(ingest_url),
        Provider::Custom => custom::setup(ingest_url),
    }
}
