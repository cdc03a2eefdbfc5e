//! Revenue and attribution (docs/api/attribution.md): what the installs of Apple Ads earn,
//! as the workspace's attribution providers, RevenueCat or its own tracking server report
//! it. The providers' postbacks are read by their adapters (`searchdeck_attribution`, free of
//! I/O, re-exported here as [`adapters`]); [`ingest`] ties each event to its install and
//! stores it once, summed by entity and install day; [`pull`] reads the rows of the
//! providers' reporting APIs into the same facts, a pulled day replacing the pushed one;
//! [`conversions`] turns those sums into the report's Conversions and Cohort columns;
//! [`check`] compares an integration's installs with Apple's.

pub mod check;
pub mod conversions;
pub mod ingest;
pub mod pull;

pub use searchdeck_attribution as adapters;
pub use searchdeck_model::attribution::{
    AttributionEvent, ClaimType, ConversionType, EventKind, INSTALL_EVENT, Provider, Revenue,
};
