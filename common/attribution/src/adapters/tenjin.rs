//! Tenjin: an S2S callback (docs.tenjin.com "Callback macros", "How to set up callbacks"):
//! under Configure > Apps > Callbacks, a custom callback URL whose query carries Tenjin's
//! macros, called with a GET on installs and on the events chosen.
//!
//! Tenjin attributes Apple Ads itself through its SDK (docs.tenjin.io "Self Attributing
//! Networks": Apple Search Ads). The stored documentation explains macros but not their
//! full list, so the spellings bound below (`{ad_network}`, `{remote_campaign_id}`,
//! `{site_id}` for the ad group, `{keyword_id}`, `{creative_id}`,
//! `{event}`, `{revenue}`, `{currency}`, `{country}`, `{created_at}`, `{install_at}`,
//! `{advertising_id}`) are **unverified**: check them against Tenjin's macro list before
//! shipping (a wrong macro arrives literally and reads as absent).
//!
//! Assumed: the event `install` (or an empty event on the install callback) is the install;
//! no event id, so the dedupe id is derived.

use searchdeck_model::{
    FieldError,
    attribution::{EventKind, Provider},
};

use super::Setup;
use crate::{
    macros::{self, MacroProvider, Param},
    postback::{Parsed, Postback},
};

const TENJIN: MacroProvider = MacroProvider {
    provider: Provider::Tenjin,
    bindings: &[
        (Param::Event, "{event}"),
        (Param::Source, "{ad_network}"),
        (Param::Campaign, "{remote_campaign_id}"),
        (Param::AdGroup, "{site_id}"),
        (Param::Keyword, "{keyword_id}"),
        (Param::Ad, "{creative_id}"),
        (Param::Country, "{country}"),
        (Param::Revenue, "{revenue}"),
        (Param::Currency, "{currency}"),
        (Param::Time, "{created_at}"),
        (Param::Installed, "{install_at}"),
        (Param::Device, "{advertising_id}"),
    ],
    classify,
    steps: &[
        "In Tenjin, go to Configure > Apps, select your iOS app and open the Callbacks tab.",
        "Add a custom (S2S) callback, paste the URL below as its URL, and enable it for installs.",
        "Add the in-app events you want in Searchdeck to the same callback, then save.",
    ],
};

fn classify(_activity: Option<&str>, event: Option<&str>) -> Option<(EventKind, String)> {
    match event {
        None => Some((EventKind::Install, String::new())),
        Some(name) if name.eq_ignore_ascii_case("install") => {
            Some((EventKind::Install, String::new()))
        }
        Some(name) => Some((EventKind::Event, name.to_string())),
    }
}

/// Reads a Tenjin callback.
pub fn parse(postback: &Postback<'_>) -> Result<Parsed, Vec<FieldError>> {
    macros::parse(&TENJIN, postback)
}

/// The callback URL to paste into Tenjin.
pub fn setup(ingest_url: &str) -> Setup {
    Setup {
        method: "GET",
        url: macros::url(ingest_url, TENJIN.bindings),
        steps: TENJIN.steps.to_vec(),
    }
}
