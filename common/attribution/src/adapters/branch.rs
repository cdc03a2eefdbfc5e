//! Branch: a webhook (help.branch.io "Webhooks for Developers") posting each chosen event
//! as JSON in Branch's Event Ontology: top-level `name` and `id`, link data nested in
//! `last_attributed_touch_data`, device data in `user_data`, transaction data in
//! `event_data` (help.branch.io "Event Ontology Field Reference").
//!
//! Fields read: `id` (the event id, the dedupe id), `name` (`INSTALL`, `REINSTALL`,
//! `PURCHASE`, `START_TRIAL`…), `timestamp` (Unix milliseconds),
//! `install_activity.timestamp`, `last_attributed_touch_type` (`CLICK`, `IMPRESSION`),
//! `last_attributed_touch_data` `~advertising_partner_name` (Apple Ads is `Apple Search
//! Ads`), `~campaign_id`, `~ad_set_id` (the ad group), `~keyword_id`, `~ad_id` (else
//! `~creative_id`), `user_data.geo_country_code`, `user_data.developer_identity` (else
//! `user_data.idfv`) for the device, `event_data.revenue` and `event_data.currency`.
//!
//! Assumed: Branch forwards Apple's AdServices ids in those `~` fields for Apple Ads
//! (Branch's LATD list names them; that the values are Apple's ids, not Branch's, is what
//! its Apple Search Ads integration states but we could not check a live payload). Opens,
//! clicks, impressions and web sessions are skipped: the report counts installs and in-app
//! events only.

use searchdeck_model::{
    FieldError,
    attribution::{EventKind, Provider},
};

use super::Setup;
use crate::{
    draft::Draft,
    fields::{Errors, text},
    postback::{Parsed, Postback, json_body},
};

/// Events Branch sends that are neither an install nor an in-app event.
const NOT_COUNTED: [&str; 5] = [
    "OPEN",
    "CLICK",
    "IMPRESSION",
    "WEB_SESSION_START",
    "PAGEVIEW",
];

/// Reads a Branch webhook.
pub fn parse(postback: &Postback<'_>) -> Result<Parsed, Vec<FieldError>> {
    let body = json_body(postback)?;
    let at = |path: &[&str]| -> Option<String> {
        let mut v = &body;
        for key in path {
            v = v.get(key)?;
        }
        text(Some(v)).map(|c| c.into_owned())
    };
    let touch = |key: &str| at(&["last_attributed_touch_data", key]);
    let mut e = Errors::default();
    let name = at(&["name"]).unwrap_or_default();
    let upper = name.to_ascii_uppercase();
    if NOT_COUNTED.contains(&upper.as_str()) {
        return Ok(Parsed::skipped());
    }
    let kind = match upper.as_str() {
        "INSTALL" | "REINSTALL" => EventKind::Install,
        "" => {
            e.push("name", "is required");
            EventKind::Event
        }
        _ => EventKind::Event,
    };
    let mut d = Draft::new(Provider::Branch, kind, name);
    d.event_id = at(&["id"]);
    d.source = touch("~advertising_partner_name");
    let field = |key: &str| format!("last_attributed_touch_data.{key}");
    d.campaign_id = e.id(&field("~campaign_id"), touch("~campaign_id").as_deref());
    d.ad_group_id = e.id(&field("~ad_set_id"), touch("~ad_set_id").as_deref());
    d.keyword_id = e.id(&field("~keyword_id"), touch("~keyword_id").as_deref());
    d.ad_id = match touch("~ad_id") {
        Some(v) => e.id(&field("~ad_id"), Some(&v)),
        None => e.id(&field("~creative_id"), touch("~creative_id").as_deref()),
    };
    d.claim_type = e.claim_type(
        "last_attributed_touch_type",
        at(&["last_attributed_touch_type"]).as_deref(),
    );
    d.country = e.country(
        "user_data.geo_country_code",
        at(&["user_data", "geo_country_code"]).as_deref(),
    );
    d.revenue = e.revenue(
        (
            "event_data.revenue",
            at(&["event_data", "revenue"]).as_deref(),
        ),
        (
            "event_data.currency",
            at(&["event_data", "currency"]).as_deref(),
        ),
    );
    d.event_time = e.time("timestamp", at(&["timestamp"]).as_deref());
    d.install_time = e.time(
        "install_activity.timestamp",
        at(&["install_activity", "timestamp"]).as_deref(),
    );
    d.device_id = at(&["user_data", "developer_identity"]).or_else(|| at(&["user_data", "idfv"]));
    Parsed::one(d, e, "timestamp")
}

/// The webhook to add in Branch.
pub fn setup(ingest_url: &str) -> Setup {
    Setup {
        method: "POST",
        url: ingest_url.to_string(),
        steps: vec![
            "In the Branch dashboard, go to Data Feeds > Webhooks and click Add New Webhook.",
            "Paste the URL below, choose POST, and pick the Install event; save.",
            "Add one webhook with the same URL for Reinstall and for each commerce event you want in Searchdeck (PURCHASE, START_TRIAL, SUBSCRIBE).",
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_are_skipped() {
        let body = br#"{"name":"OPEN","id":1,"timestamp":1}"#;
        let p = Postback {
            query: "",
            content_type: Some("application/json"),
            body,
        };
        assert_eq!(parse(&p), Ok(Parsed::skipped()));
    }
}
