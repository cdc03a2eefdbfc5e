//! AppsFlyer: Push API V2.0 (support.appsflyer.com article 207034356 "Push API V2.0"), which
//! sends each install, reinstall and in-app event as a POST with a flat JSON body, or as a
//! GET with the same fields in the query. Field names are AppsFlyer's raw-data names;
//! timestamps are UTC `yyyy-mm-dd hh:mm:ss.sss` (`2026-01-01 12:00:00.000`).
//!
//! Fields read: `event_name` (`install`, `reinstall`, or the in-app event such as
//! `af_purchase`), `event_time`, `install_time`, `appsflyer_id` (the device), `app_id`
//! (`id123456789` for iOS), `media_source` (Apple Ads is `Apple Search Ads`; older apps
//! show `iOS Search Ads`), `af_c_id` (campaign id), `af_adset_id` (ad group id), `af_ad_id`
//! (ad id), `keyword_id` (the keyword id; AppsFlyer's Apple Ads bulletin asks Data Locker
//! users to enable it), `attributed_touch_type` (click, impression), `conversion_type`
//! (install, reinstall…), `country_code`, `event_revenue` and `event_revenue_currency`.
//!
//! Assumed: the Push API sends no event id, so the dedupe id is derived; a keyword id
//! also accepted as `af_keyword_id`; an empty or `None` value is absent (AppsFlyer sends
//! no empty fields now, but older messages carried nulls). An organic event
//! (`media_source` absent or `organic`) has no Apple Ads campaign and counts in `skipped`.

use std::{borrow::Cow, collections::HashMap};

use searchdeck_model::{
    FieldError,
    attribution::{EventKind, Provider},
};
use serde_json::Value;

use super::Setup;
use crate::{
    draft::Draft,
    fields::{Errors, present, text},
    postback::{Parsed, Postback, json_body},
};

/// The message's fields, from a JSON body or a query string.
enum Fields {
    Json(serde_json::Map<String, Value>),
    Query(HashMap<String, String>),
}

impl Fields {
    fn get(&self, key: &str) -> Option<Cow<'_, str>> {
        let raw = match self {
            Fields::Json(map) => text(map.get(key)),
            Fields::Query(map) => map.get(key).map(|s| Cow::Borrowed(s.as_str())),
        }?;
        (present(Some(&raw)).is_some() && !raw.eq_ignore_ascii_case("none")).then_some(raw)
    }
}

/// Reads an AppsFlyer Push API message.
pub fn parse(postback: &Postback<'_>) -> Result<Parsed, Vec<FieldError>> {
    let fields = if postback.body.iter().any(|b| !b.is_ascii_whitespace()) {
        match json_body(postback)? {
            Value::Object(map) => Fields::Json(map),
            _ => return Err(vec![FieldError::new("body", "must be a JSON object")]),
        }
    } else {
        Fields::Query(
            form_urlencoded::parse(postback.query.as_bytes())
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
        )
    };
    let get = |k: &str| fields.get(k);
    let mut e = Errors::default();
    let name = get("event_name").map(Cow::into_owned).unwrap_or_default();
    let kind = match name.to_ascii_lowercase().as_str() {
        "install" | "reinstall" => EventKind::Install,
        "" => {
            e.push("event_name", "is required");
            EventKind::Event
        }
        _ => EventKind::Event,
    };
    let mut d = Draft::new(Provider::AppsFlyer, kind, name);
    d.source = Some(get("media_source").map_or_else(|| "organic".into(), Cow::into_owned));
    d.adam_id = e.adam_id("app_id", get("app_id").as_deref());
    d.campaign_id = e.id("af_c_id", get("af_c_id").as_deref());
    d.ad_group_id = e.id("af_adset_id", get("af_adset_id").as_deref());
    d.ad_id = e.id("af_ad_id", get("af_ad_id").as_deref());
    d.keyword_id = match get("keyword_id") {
        Some(v) => e.id("keyword_id", Some(&v)),
        None => e.id("af_keyword_id", get("af_keyword_id").as_deref()),
    };
    d.claim_type = e.claim_type(
        "attributed_touch_type",
        get("attributed_touch_type").as_deref(),
    );
    // AppsFlyer's conversion_type says install, reinstall or re-engagement; only a
    // reinstall maps to AdServices' Redownload, the rest leave it unknown.
    d.conversion_type = get("conversion_type")
        .filter(|c| c.eq_ignore_ascii_case("reinstall"))
        .and_then(|c| e.conversion_type("conversion_type", Some(&c)));
    d.country = e.country("country_code", get("country_code").as_deref());
    d.revenue = e.revenue(
        ("event_revenue", get("event_revenue").as_deref()),
        (
            "event_revenue_currency",
            get("event_revenue_currency").as_deref(),
        ),
    );
    d.event_time = e.time("event_time", get("event_time").as_deref());
    d.install_time = e.time("install_time", get("install_time").as_deref());
    d.device_id = get("appsflyer_id").map(Cow::into_owned);
    Parsed::one(d, e, "event_time")
}

/// The Push API endpoint to add in AppsFlyer.
pub fn setup(ingest_url: &str) -> Setup {
    Setup {
        method: "POST",
        url: ingest_url.to_string(),
        steps: vec![
            "In AppsFlyer, go to Configuration > API access > Push API (or Integration > API access) and select your iOS app.",
            "Click Add endpoint, choose the POST method and paste the URL below.",
            "Under Message types, select Install, Reinstall and the in-app events you want in Searchdeck (keep the default fields, including keyword_id), then save.",
        ],
    }
}
