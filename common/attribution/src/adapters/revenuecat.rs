//! RevenueCat: webhooks (revenuecat.com/docs/integrations/webhooks/event-types-and-fields),
//! a POST of `{"api_version": "1.0", "event": {…}}` for each subscription lifecycle event.
//! RevenueCat sends revenue, not installs: every event is an in-app event named by its
//! `type` (`INITIAL_PURCHASE`, `RENEWAL`, `NON_RENEWING_PURCHASE`, `CANCELLATION`…).
//!
//! Fields read: `event.id` (the dedupe id: a retry keeps it), `event.type`,
//! `event.event_timestamp_ms`, `event.app_user_id` (the device), `event.country_code`,
//! `event.environment`, `event.price_in_purchased_currency` with `event.currency` (the
//! amount the customer paid, in their currency; `event.price` is the same in USD and is
//! not read), `event.cancel_reason`, and the attribution that the app or RevenueCat's
//! Apple Ads (AdServices) integration stores as reserved customer attributes in
//! `event.subscriber_attributes`: `$mediaSource`, `$campaign`, `$adGroup`, `$keyword`,
//! `$ad`, each `{"value": "…", "updated_at_ms": …}`.
//!
//! Rules, as RevenueCat documents them: a free trial is an `INITIAL_PURCHASE` with
//! `period_type: TRIAL` and price 0 (kept, revenue 0); a refund is a `CANCELLATION` with
//! `cancel_reason: CUSTOMER_SUPPORT` whose price "can be negative" — kept negative, and made
//! negative if a refund arrives with a positive amount; any other cancellation (the
//! customer turned off renewal, a billing error) moves no money and carries no revenue.
//!
//! Assumed: only an event whose `$mediaSource` is Apple Ads (`Apple Search Ads`, `Apple
//! Ads`) is kept, another source counts in `skipped`, and so does an event with no
//! attribution at all; `$campaign`, `$adGroup`, `$keyword` and `$ad` are read as ids when
//! they are whole numbers and left absent when they hold names (the attribution card
//! documents names from some networks; Searchdeck joins names from ids). `TEST`,
//! `SUBSCRIBER_ALIAS` and `TRANSFER` events and the `SANDBOX` environment are skipped.
//! RevenueCat's `app_id` is its own app id, not the App Store's, so no adamId is read.

use searchdeck_model::{
    FieldError,
    attribution::{EventKind, Provider},
};

use super::Setup;
use crate::{
    draft::Draft,
    fields::{Errors, present, text},
    postback::{Parsed, Postback, json_body},
};

/// Event types that carry no customer activity.
const NOT_COUNTED: [&str; 3] = ["TEST", "SUBSCRIBER_ALIAS", "TRANSFER"];

/// Reads a RevenueCat webhook.
pub fn parse(postback: &Postback<'_>) -> Result<Parsed, Vec<FieldError>> {
    let body = json_body(postback)?;
    let Some(event) = body.get("event").filter(|v| v.is_object()) else {
        return Err(vec![FieldError::new("event", "is required")]);
    };
    let get = |key: &str| text(event.get(key)).map(|c| c.into_owned());
    let attribute = |key: &str| -> Option<String> {
        let a = event.get("subscriber_attributes")?.get(key)?;
        text(a.get("value").or(Some(a))).map(|c| c.into_owned())
    };
    let kind = get("type").unwrap_or_default();
    let mut e = Errors::default();
    if kind.is_empty() {
        e.push("event.type", "is required");
    }
    if NOT_COUNTED.contains(&kind.as_str())
        || get("environment").is_some_and(|env| env.eq_ignore_ascii_case("SANDBOX"))
    {
        return Ok(Parsed::skipped());
    }
    let mut d = Draft::new(Provider::RevenueCat, EventKind::Event, kind.clone());
    d.event_id = get("id");
    // No attribution at all is not Apple Ads' either.
    d.source = Some(attribute("$mediaSource").unwrap_or_else(|| "organic".into()));
    let id = |key: &str| {
        attribute(key)
            .filter(|v| present(Some(v)).is_some_and(|v| v.bytes().all(|b| b.is_ascii_digit())))
            .and_then(|v| v.parse::<i64>().ok())
            .filter(|n| *n > 0)
    };
    d.campaign_id = id("$campaign");
    d.ad_group_id = id("$adGroup");
    d.keyword_id = id("$keyword");
    d.ad_id = id("$ad");
    d.country = e.country("event.country_code", get("country_code").as_deref());
    let refund = kind == "CANCELLATION"
        && get("cancel_reason").is_some_and(|r| r.eq_ignore_ascii_case("CUSTOMER_SUPPORT"));
    let moves_money = kind != "CANCELLATION" || refund;
    let amount_field = if get("price_in_purchased_currency").is_some() {
        "event.price_in_purchased_currency"
    } else {
        "event.price"
    };
    let amount = get("price_in_purchased_currency").or_else(|| get("price"));
    d.revenue = e
        .revenue(
            (amount_field, amount.as_deref()),
            ("event.currency", get("currency").as_deref()),
        )
        .filter(|_| moves_money)
        .map(|mut r| {
            if refund && r.micros > 0 {
                r.micros = -r.micros;
            }
            r
        });
    d.event_time = e.time(
        "event.event_timestamp_ms",
        get("event_timestamp_ms").as_deref(),
    );
    d.device_id = get("app_user_id");
    Parsed::one(d, e, "event.event_timestamp_ms")
}

/// The webhook to add in RevenueCat.
pub fn setup(ingest_url: &str) -> Setup {
    Setup {
        method: "POST",
        url: ingest_url.to_string(),
        steps: vec![
            "In RevenueCat, open your project and go to Integrations > Webhooks, then click Add new webhook.",
            "Paste the URL below as the Webhook URL, set the environment to Production only and the events to All events, and save.",
            "Turn on the Apple Ads Services integration (Integrations > Apple Ads Services) so events carry their Apple Ads campaign.",
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_without_an_event_is_refused() {
        let p = Postback {
            query: "",
            content_type: Some("application/json"),
            body: br#"{"api_version":"1.0"}"#,
        };
        let err = parse(&p).err().unwrap_or_default();
        assert_eq!(err[0].field, "event");
    }
}
