//! One attributed event, whatever sent it: an install or an in-app event (a trial, a
//! purchase, a renewal, a refund…) that an attribution or revenue provider tied to an Apple
//! Ads campaign. Each provider's adapter (`searchdeck_common::attribution::adapters`) maps
//! its own postback or webhook to this shape; the attribution store keeps it and sums it
//! into the report's Conversions and Cohort columns (docs/api/attribution.md).
//!
//! The Apple Ads part comes from Apple's AdServices attribution payload, which every
//! provider forwards under its own names: `orgId`, `campaignId`, `adGroupId`, `keywordId`
//! (absent when Search Match found the install), `adId`, `conversionType`, `claimType`,
//! `clickDate` / `impressionDate`, `countryOrRegion`, `supplyPlacement`. Names never come
//! with it: they are joined from the synced entities by id.

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

/// A provider of attributed events: the six attribution providers, RevenueCat (revenue) and
/// the user's own tracking server. The wire name is the lowercase word (`appsflyer`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    AppsFlyer,
    Adjust,
    Branch,
    Singular,
    Kochava,
    Tenjin,
    RevenueCat,
    Custom,
}

impl Provider {
    pub const ALL: [Provider; 8] = [
        Provider::AppsFlyer,
        Provider::Adjust,
        Provider::Branch,
        Provider::Singular,
        Provider::Kochava,
        Provider::Tenjin,
        Provider::RevenueCat,
        Provider::Custom,
    ];

    /// The wire name (`appsflyer`), as in URLs and the stored rows.
    pub fn name(self) -> &'static str {
        match self {
            Provider::AppsFlyer => "appsflyer",
            Provider::Adjust => "adjust",
            Provider::Branch => "branch",
            Provider::Singular => "singular",
            Provider::Kochava => "kochava",
            Provider::Tenjin => "tenjin",
            Provider::RevenueCat => "revenuecat",
            Provider::Custom => "custom",
        }
    }

    /// The name users know the provider by (`AppsFlyer`).
    pub fn title(self) -> &'static str {
        match self {
            Provider::AppsFlyer => "AppsFlyer",
            Provider::Adjust => "Adjust",
            Provider::Branch => "Branch",
            Provider::Singular => "Singular",
            Provider::Kochava => "Kochava",
            Provider::Tenjin => "Tenjin",
            Provider::RevenueCat => "RevenueCat",
            Provider::Custom => "Custom tracking server",
        }
    }

    /// The provider whose wire name is `name` (case-insensitive).
    pub fn parse(name: &str) -> Option<Provider> {
        Provider::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name.trim()))
    }
}

/// Whether the install followed a tap on the ad or only its view (AdServices `claimType`:
/// `Click` or `Impression`; the providers say tap / click and view / impression).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
pub enum ClaimType {
    Click,
    Impression,
}

impl ClaimType {
    /// The stored and wire name (`Click`).
    pub fn name(self) -> &'static str {
        match self {
            ClaimType::Click => "Click",
            ClaimType::Impression => "Impression",
        }
    }

    pub fn parse(name: &str) -> Option<ClaimType> {
        match name.trim().to_ascii_lowercase().as_str() {
            "click" | "tap" | "clickthrough" | "click_through" | "ct" => Some(ClaimType::Click),
            "impression" | "view" | "viewthrough" | "view_through" | "vt" => {
                Some(ClaimType::Impression)
            }
            _ => None,
        }
    }
}

/// AdServices `conversionType`: a first download, a redownload, or a pre-order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
pub enum ConversionType {
    Download,
    Redownload,
    PreOrder,
}

impl ConversionType {
    /// The stored and wire name (`Download`).
    pub fn name(self) -> &'static str {
        match self {
            ConversionType::Download => "Download",
            ConversionType::Redownload => "Redownload",
            ConversionType::PreOrder => "PreOrder",
        }
    }

    pub fn parse(name: &str) -> Option<ConversionType> {
        match name
            .trim()
            .to_ascii_lowercase()
            .replace(['_', '-', ' '], "")
            .as_str()
        {
            "download" | "newdownload" => Some(ConversionType::Download),
            "redownload" | "reinstall" => Some(ConversionType::Redownload),
            "preorder" => Some(ConversionType::PreOrder),
            _ => None,
        }
    }
}

/// What the event is: the attributed install itself, or an event of the app after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum EventKind {
    Install,
    Event,
}

/// The event name stored for installs (in-app events keep the provider's own name, which
/// the user maps to trial, purchase or revenue in the event settings).
pub const INSTALL_EVENT: &str = "install";

/// An amount of revenue: micros of `currency` (ISO 4217), negative for a refund. Its sign
/// is kept end to end: a refund lowers revenue and ROAS.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Revenue {
    pub micros: i64,
    pub currency: String,
}

/// One attributed event in the provider-independent shape every adapter answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttributionEvent {
    pub provider: Provider,
    /// The provider's id of the event (or, where it sends none, one derived from the
    /// fields that identify it): a replay with the same id is stored once.
    pub dedupe_id: String,
    pub kind: EventKind,
    /// [`INSTALL_EVENT`] for installs, else the provider's event name (`af_purchase`).
    pub event_name: String,
    /// The app's App Store id (adamId), when the provider sends it.
    pub adam_id: Option<i64>,
    pub org_id: Option<i64>,
    pub campaign_id: Option<i64>,
    pub ad_group_id: Option<i64>,
    /// Absent when Search Match found the install.
    pub keyword_id: Option<i64>,
    pub ad_id: Option<i64>,
    pub claim_type: Option<ClaimType>,
    pub conversion_type: Option<ConversionType>,
    /// AdServices `supplyPlacement` (`APPSTORE_SEARCH_RESULTS`, `APPSTORE_SEARCH_TAB`,
    /// `APPSTORE_TODAY_TAB`, `APPSTORE_PRODUCT_PAGES_BROWSE`).
    pub placement: Option<String>,
    /// ISO 3166-1 alpha-2, upper case.
    pub country: Option<String>,
    pub revenue: Option<Revenue>,
    /// When the event happened (for an install, the install).
    #[serde(with = "time::serde::rfc3339")]
    pub event_time: OffsetDateTime,
    /// When the install this event follows happened: the event's cohort. For an install it
    /// is its own time; for an in-app event without it the store takes the install it has
    /// under the same provider and device, else the event's own day.
    #[serde(with = "time::serde::rfc3339::option")]
    pub install_time: Option<OffsetDateTime>,
    /// The provider's id of the device or user (AppsFlyer `appsflyer_id`, Adjust `adid`,
    /// RevenueCat `app_user_id`…), which ties a later event to its install.
    pub device_id: Option<String>,
}

impl AttributionEvent {
    /// Whether the event is tied to an Apple Ads campaign (the report counts only those).
    pub fn is_attributed(&self) -> bool {
        self.campaign_id.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_names_round_trip() {
        for p in Provider::ALL {
            assert_eq!(Provider::parse(p.name()), Some(p));
            assert_eq!(serde_json::to_value(p).unwrap(), p.name());
        }
        assert_eq!(Provider::parse("AppsFlyer"), Some(Provider::AppsFlyer));
        assert_eq!(Provider::parse("mixpanel"), None);
    }

    #[test]
    fn claim_and_conversion_types_read_the_providers_spellings() {
        assert_eq!(ClaimType::parse("Click"), Some(ClaimType::Click));
        assert_eq!(ClaimType::parse("view"), Some(ClaimType::Impression));
        assert_eq!(ClaimType::parse("x"), None);
        assert_eq!(
            ConversionType::parse("Redownload"),
            Some(ConversionType::Redownload)
        );
        assert_eq!(
            ConversionType::parse("pre_order"),
            Some(ConversionType::PreOrder)
        );
        assert_eq!(ConversionType::parse("install"), None);
    }
}
