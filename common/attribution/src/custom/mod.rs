//! The custom tracking server: our own contract, for a user who measures installs and
//! revenue on their own server (or through a provider we have no adapter for). It is the
//! shape below, signed; docs/api/attribution.md carries it for users.
//!
//! ```text
//! POST <the ingest URL the integration screen shows>
//! Content-Type: application/json
//! X-Searchdeck-Signature: t=1767268800,v1=5f2b…
//!
//! {"events": [{
//!   "id": "evt_0001",                 // required: your id of the event; a replay of the same id is stored once
//!   "type": "install",                // required: "install" or "event"
//!   "name": "purchase",               // required for "event": your event name (mapped to trial, purchase… in Searchdeck's event settings)
//!   "adamId": 123456789,              // the app's App Store id
//!   "orgId": 40669820,                // AdServices orgId
//!   "campaignId": 542370539,          // AdServices campaignId
//!   "adGroupId": 542317095,           // AdServices adGroupId
//!   "keywordId": 87675432,            // AdServices keywordId (omit for Search Match)
//!   "adId": 542317136,                // AdServices adId
//!   "claimType": "Click",             // AdServices claimType: Click or Impression
//!   "conversionType": "Download",     // AdServices conversionType: Download, Redownload or PreOrder
//!   "supplyPlacement": "APPSTORE_SEARCH_RESULTS",  // AdServices supplyPlacement
//!   "countryOrRegion": "US",          // AdServices countryOrRegion (ISO 3166-1 alpha-2)
//!   "revenue": {"amount": "4.99", "currency": "USD"},  // amount as a decimal string, negative for a refund; ISO 4217 currency
//!   "eventTime": "2026-01-01T12:00:00Z",    // required, RFC 3339
//!   "installTime": "2026-01-01T11:58:00Z",  // RFC 3339; an install's own time when omitted
//!   "deviceId": "your-user-or-device-id"    // ties later events to their install
//! }]}
//! ```
//!
//! - Ids are JSON integers or strings of digits. Every field but `id`, `type`, `name` (for
//!   events) and `eventTime` may be omitted or `null`.
//! - At most [`MAX_EVENTS`] events per request.
//! - An unknown field is refused with its path (`events[0].campaignID`), so a typo is
//!   never silently dropped; so is a malformed value (`events[2].revenue.amount`).
//! - A request is all or nothing: if any event is refused, none is stored.
//! - Sign the raw body: `v1` is the hex HMAC-SHA256, keyed with the integration's secret,
//!   of `"<t>.<raw body>"`, where `t` is the Unix time in seconds; a request more than
//!   five minutes from our clock is refused ([`signature`]). The route checks the
//!   signature ([`verify`]) before [`parse`] reads the body.

pub mod signature;

use searchdeck_model::{
    FieldError,
    attribution::{EventKind, Provider},
};
use serde_json::{Map, Value};

pub use signature::{SignatureError, sign, verify};

use crate::{
    draft::{Draft, Outcome},
    fields::{Errors, text},
    postback::{Parsed, Postback, json_body},
};

/// The most events one request may carry.
pub const MAX_EVENTS: usize = 1_000;

/// The fields an event may have.
const FIELDS: [&str; 17] = [
    "id",
    "type",
    "name",
    "adamId",
    "orgId",
    "campaignId",
    "adGroupId",
    "keywordId",
    "adId",
    "claimType",
    "conversionType",
    "supplyPlacement",
    "countryOrRegion",
    "revenue",
    "eventTime",
    "installTime",
    "deviceId",
];

/// Reads a custom tracking server's request (its signature already checked).
pub fn parse(postback: &Postback<'_>) -> Result<Parsed, Vec<FieldError>> {
    let body = json_body(postback)?;
    let mut errors = Errors::default();
    if let Some(map) = body.as_object() {
        for key in map.keys().filter(|k| *k != "events") {
            errors.push(key, "is not a field of this request");
        }
    }
    let Some(events) = body.get("events").and_then(Value::as_array) else {
        errors.push("events", "must be a list of events");
        return Err(errors.0);
    };
    if events.len() > MAX_EVENTS {
        errors.push("events", format!("must hold at most {MAX_EVENTS} events"));
        return Err(errors.0);
    }
    let mut parsed = Parsed::default();
    for (i, event) in events.iter().enumerate() {
        let path = format!("events[{i}]");
        let Some(map) = event.as_object() else {
            errors.push(&path, "must be an object");
            continue;
        };
        let mut e = Errors::default();
        let draft = read(map, &path, &mut e);
        match draft.finish(&mut e, &format!("{path}.eventTime")) {
            Outcome::Keep(event) => parsed.events.push(*event),
            Outcome::Skip => parsed.skipped += 1,
            Outcome::Refused => errors.0.append(&mut e.0),
        }
    }
    if errors.0.is_empty() {
        Ok(parsed)
    } else {
        Err(errors.0)
    }
}

/// One event of the request, read under `path` (`events[3]`).
fn read(map: &Map<String, Value>, path: &str, e: &mut Errors) -> Draft {
    for key in map.keys().filter(|k| !FIELDS.contains(&k.as_str())) {
        e.push(&format!("{path}.{key}"), "is not a field of an event");
    }
    let field = |key: &str| format!("{path}.{key}");
    let get = |key: &str| text(map.get(key)).map(|c| c.into_owned());
    let kind = match get("type").as_deref() {
        Some("install") => EventKind::Install,
        Some("event") => EventKind::Event,
        _ => {
            e.push(&field("type"), "must be \"install\" or \"event\"");
            EventKind::Event
        }
    };
    let name = get("name").unwrap_or_default();
    if kind == EventKind::Event && name.trim().is_empty() {
        e.push(&field("name"), "is required for an event");
    }
    let mut d = Draft::new(Provider::Custom, kind, name);
    // Every custom event is the user's own and counted: their server sends only Apple Ads'.
    d.source = Some("Apple Ads".into());
    d.event_id = get("id").filter(|id| !id.trim().is_empty());
    if d.event_id.is_none() {
        e.push(&field("id"), "is required");
    }
    d.adam_id = e.id(&field("adamId"), get("adamId").as_deref());
    d.org_id = e.id(&field("orgId"), get("orgId").as_deref());
    d.campaign_id = e.id(&field("campaignId"), get("campaignId").as_deref());
    d.ad_group_id = e.id(&field("adGroupId"), get("adGroupId").as_deref());
    d.keyword_id = e.id(&field("keywordId"), get("keywordId").as_deref());
    d.ad_id = e.id(&field("adId"), get("adId").as_deref());
    d.claim_type = e.claim_type(&field("claimType"), get("claimType").as_deref());
    d.conversion_type =
        e.conversion_type(&field("conversionType"), get("conversionType").as_deref());
    d.placement = get("supplyPlacement");
    d.country = e.country(&field("countryOrRegion"), get("countryOrRegion").as_deref());
    d.revenue = revenue(map.get("revenue"), &field("revenue"), e);
    d.event_time = e.time(&field("eventTime"), get("eventTime").as_deref());
    d.install_time = e.time(&field("installTime"), get("installTime").as_deref());
    d.device_id = get("deviceId");
    d
}

fn revenue(
    value: Option<&Value>,
    path: &str,
    e: &mut Errors,
) -> Option<searchdeck_model::attribution::Revenue> {
    let map = match value? {
        Value::Null => return None,
        Value::Object(map) => map,
        _ => {
            e.push(path, "must be {\"amount\", \"currency\"}");
            return None;
        }
    };
    for key in map
        .keys()
        .filter(|k| !matches!(k.as_str(), "amount" | "currency"))
    {
        e.push(&format!("{path}.{key}"), "is not a field of revenue");
    }
    let amount_field = format!("{path}.amount");
    let amount = match map.get("amount") {
        Some(Value::String(s)) => Some(s.as_str()),
        None | Some(Value::Null) => None,
        Some(_) => {
            e.push(&amount_field, "must be a decimal string such as \"4.99\"");
            return None;
        }
    };
    if amount.is_none() {
        e.push(&amount_field, "is required");
    }
    let currency = text(map.get("currency"));
    e.revenue(
        (&amount_field, amount),
        (&format!("{path}.currency"), currency.as_deref()),
    )
}

/// The endpoint the user's server posts to.
pub fn setup(ingest_url: &str) -> crate::Setup {
    crate::Setup {
        method: "POST",
        url: ingest_url.to_string(),
        steps: vec![
            "Copy the URL below and the signing secret shown under it into your tracking server's configuration.",
            "POST each batch of events (up to 1,000) as JSON, in the shape the API documentation gives, to that URL.",
            "Sign every request with the X-Searchdeck-Signature header (t=<unix seconds>,v1=<HMAC-SHA256 of \"<t>.<body>\" in hex>).",
        ],
    }
}
