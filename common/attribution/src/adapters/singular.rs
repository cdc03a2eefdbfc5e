//! Singular: a postback URL with macros, set up under Attribution > Partner Configuration as
//! a custom (internal BI) endpoint and called with a GET per install and chosen event.
//!
//! Singular's own documentation (support.singular.net "Apple Search Ads Attribution
//! Integration") says Apple Ads installs carry Source `Apple Search Ads`, Tracker Campaign
//! ID = the Apple campaign id and Tracker AdGroup ID = the ad group id. Its internal BI
//! postback is documented as a POST with a fixed JSON body whose field list we could not
//! read in full; the macro names bound below follow Singular's export field names
//! (`source`, `tracker_campaign_id`, `tracker_sub_campaign_id`, `keyword_id`,
//! `creative_id`, `event_name`, `revenue`, `currency`, `country`, `event_utc_timestamp`,
//! `install_utc_timestamp`, `singular_id`) and are **unverified**: check them against the
//! macro list in Singular's partner configuration before shipping (a wrong macro arrives
//! literally and reads as absent, so nothing is misread, only missing).
//!
//! Assumed: an event named `__INSTALL__` or `install` (any case) is the install,
//! `__REINSTALL__`/`reinstall` a reinstall; no event id, so the dedupe id is derived.

use searchdeck_model::{
    FieldError,
    attribution::{EventKind, Provider},
};

use super::Setup;
use crate::{
    macros::{self, MacroProvider, Param},
    postback::{Parsed, Postback},
};

const SINGULAR: MacroProvider = MacroProvider {
    provider: Provider::Singular,
    bindings: &[
        (Param::Event, "{event_name}"),
        (Param::Source, "{source}"),
        (Param::Campaign, "{tracker_campaign_id}"),
        (Param::AdGroup, "{tracker_sub_campaign_id}"),
        (Param::Keyword, "{keyword_id}"),
        (Param::Ad, "{creative_id}"),
        (Param::Country, "{country}"),
        (Param::Revenue, "{revenue}"),
        (Param::Currency, "{currency}"),
        (Param::Time, "{event_utc_timestamp}"),
        (Param::Installed, "{install_utc_timestamp}"),
        (Param::Device, "{singular_id}"),
    ],
    classify,
    steps: &[
        "In Singular, go to Attribution > Partner Configuration and add the Internal BI partner for your iOS app.",
        "Paste the URL below as the postback URL, with the GET method.",
        "Under Install and Event postbacks, send installs, reinstalls and the events you want in Searchdeck, then save.",
    ],
};

fn classify(_activity: Option<&str>, event: Option<&str>) -> Option<(EventKind, String)> {
    let name = event?;
    let bare = name.trim_matches('_').to_ascii_lowercase();
    if bare == "install" || bare == "reinstall" {
        Some((EventKind::Install, String::new()))
    } else {
        Some((EventKind::Event, name.to_string()))
    }
}

/// Reads a Singular postback.
pub fn parse(postback: &Postback<'_>) -> Result<Parsed, Vec<FieldError>> {
    macros::parse(&SINGULAR, postback)
}

/// The postback URL to paste into Singular.
pub fn setup(ingest_url: &str) -> Setup {
    Setup {
        method: "GET",
        url: macros::url(ingest_url, SINGULAR.bindings),
        steps: SINGULAR.steps.to_vec(),
    }
}
