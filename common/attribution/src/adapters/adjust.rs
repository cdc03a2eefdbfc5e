//! Adjust: a callback URL with placeholders (help.adjust.com "Placeholders for partners",
//! "Install callbacks"), called with a GET for each activity the user enables it for.
//!
//! Placeholders used, as Adjust documents them: `{activity_kind}` (install, reinstall,
//! event, session…), `{event_name}`, `{network_name}`, `{app_id}` (the App Store id),
//! `{iad_org_id}`, `{iad_campaign_id}`, `{iad_adgroup_id}`, `{iad_keyword_id}` (absent for
//! Search Match), `{iad_ad_id}` (`-1` for the default product page: no ad), `{iad_conversion_type}`
//! (Download, Redownload), `{country}`, `{revenue_float}` with `{currency}` (the amount in
//! the currency the app reported), `{created_at}` and `{installed_at}` (Unix seconds) and
//! `{adid}` (Adjust's device id).
//!
//! Seen in the stored Adjust pages: the `{iad_*}` placeholders, `{activity_kind}`,
//! `{created_at}`, `{installed_at}`, `{adid}`. Taken from Adjust's full placeholder list
//! without a stored page to check against: `{network_name}`, `{app_id}`, `{event_name}`,
//! `{revenue_float}`, `{currency}`, `{country}`, `{iad_campaign_id}`, `{iad_adgroup_id}`;
//! verify them once against dev.adjust.com before shipping (a wrong one arrives literally
//! and reads as absent).
//!
//! Assumed: Adjust sends no event id, so the dedupe id is derived; an `install`,
//! `reinstall` or `reattribution_reinstall` activity is the install, `event` an in-app
//! event, and every other activity (session, click, impression, uninstall…) is skipped.
//! `{network_name}` says which network Adjust attributed the user to; Apple Ads' is
//! `Apple Search Ads` (or `Apple Ads`), any other counts in `skipped`.

use searchdeck_model::{
    FieldError,
    attribution::{EventKind, Provider},
};

use super::Setup;
use crate::{
    macros::{self, MacroProvider, Param},
    postback::{Parsed, Postback},
};

const ADJUST: MacroProvider = MacroProvider {
    provider: Provider::Adjust,
    bindings: &[
        (Param::Activity, "{activity_kind}"),
        (Param::Event, "{event_name}"),
        (Param::Source, "{network_name}"),
        (Param::App, "{app_id}"),
        (Param::Org, "{iad_org_id}"),
        (Param::Campaign, "{iad_campaign_id}"),
        (Param::AdGroup, "{iad_adgroup_id}"),
        (Param::Keyword, "{iad_keyword_id}"),
        (Param::Ad, "{iad_ad_id}"),
        (Param::Conversion, "{iad_conversion_type}"),
        (Param::Country, "{country}"),
        (Param::Revenue, "{revenue_float}"),
        (Param::Currency, "{currency}"),
        (Param::Time, "{created_at}"),
        (Param::Installed, "{installed_at}"),
        (Param::Device, "{adid}"),
    ],
    classify,
    steps: &[
        "In Adjust, open AppView, select your app and go to Data Management > Raw data export > Real-time callbacks.",
        "Select Install and Reinstall, paste the URL below as the callback URL for each, and save.",
        "For each in-app event you want in Searchdeck (trial, purchase, renewal), add the same URL as its event callback.",
    ],
};

fn classify(activity: Option<&str>, event: Option<&str>) -> Option<(EventKind, String)> {
    match activity.map(str::to_ascii_lowercase).as_deref() {
        Some("install" | "reinstall" | "reattribution_reinstall") => {
            Some((EventKind::Install, String::new()))
        }
        Some("event") => Some((EventKind::Event, event.unwrap_or("event").to_string())),
        _ => None,
    }
}

/// Reads an Adjust callback.
pub fn parse(postback: &Postback<'_>) -> Result<Parsed, Vec<FieldError>> {
    macros::parse(&ADJUST, postback)
}

/// The callback URL to paste into Adjust.
pub fn setup(ingest_url: &str) -> Setup {
    Setup {
        method: "GET",
        url: macros::url(ingest_url, ADJUST.bindings),
        steps: ADJUST.steps.to_vec(),
    }
}
