//! Kochava: a custom postback (support.kochava.com "Create a Custom Postback"): under Apps
//! & Assets > Partner Configuration, one postback per event with a destination URL whose
//! query carries Kochava's macros, sent with a GET.
//!
//! Kochava documents that `{event_name}` is the registered event's name and `_install` for
//! installs, and that its macros include the event's numerical value, its date and time,
//! the IDFA, the Kochava device id and the network name; its Apple Ads integration page
//! maps AdServices `campaignId`, `adGroupId`, `keywordId`, `countryOrRegion`,
//! `conversionType` into the attribution. The exact macro spellings bound below
//! (`{network_name}`, `{campaign_id}`, `{site_id}` for the ad group, `{keyword_id}`,
//! `{creative_id}` for the ad, `{event_value}`, `{currency}`, `{country_code}`,
//! `{event_time_utc}`, `{install_date_utc}`, `{kochava_device_id}`) could not be read from
//! the stored documentation and are **unverified**: check them against the macro picker
//! in Kochava before shipping (a wrong macro arrives literally and reads as absent).
//!
//! Assumed: no event id, so the dedupe id is derived; `_install` and `_reinstall` are the
//! install.

use searchdeck_model::{
    FieldError,
    attribution::{EventKind, Provider},
};

use super::Setup;
use crate::{
    macros::{self, MacroProvider, Param},
    postback::{Parsed, Postback},
};

const KOCHAVA: MacroProvider = MacroProvider {
    provider: Provider::Kochava,
    bindings: &[
        (Param::Event, "{event_name}"),
        (Param::Source, "{network_name}"),
        (Param::Campaign, "{campaign_id}"),
        (Param::AdGroup, "{site_id}"),
        (Param::Keyword, "{keyword_id}"),
        (Param::Ad, "{creative_id}"),
        (Param::Country, "{country_code}"),
        (Param::Revenue, "{event_value}"),
        (Param::Currency, "{currency}"),
        (Param::Time, "{event_time_utc}"),
        (Param::Installed, "{install_date_utc}"),
        (Param::Device, "{kochava_device_id}"),
    ],
    classify,
    steps: &[
        "In Kochava, select your iOS app and go to Apps & Assets > Partner Configuration.",
        "Click Add a Configuration, choose Custom Postback and select the Install event.",
        "Paste the URL below as the Destination URL, select its macros, and save; repeat for each in-app event you want in Searchdeck.",
    ],
};

fn classify(_activity: Option<&str>, event: Option<&str>) -> Option<(EventKind, String)> {
    let name = event?;
    match name.to_ascii_lowercase().as_str() {
        "_install" | "_reinstall" | "install" => Some((EventKind::Install, String::new())),
        _ => Some((EventKind::Event, name.to_string())),
    }
}

/// Reads a Kochava custom postback.
pub fn parse(postback: &Postback<'_>) -> Result<Parsed, Vec<FieldError>> {
    macros::parse(&KOCHAVA, postback)
}

/// The destination URL to paste into Kochava.
pub fn setup(ingest_url: &str) -> Setup {
    Setup {
        method: "GET",
        url: macros::url(ingest_url, KOCHAVA.bindings),
        steps: KOCHAVA.steps.to_vec(),
    }
}
