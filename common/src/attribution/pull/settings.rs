//! What a user enters for a provider's pull besides its API token, parsed and stored as
//! JSON on the pull. Only AppsFlyer's reporting API is connected so far
//! ([`PullSettings::AppsFlyer`]); the other providers' pulls answer that they are not
//! available rather than store settings nothing reads.

use searchdeck_model::{FieldError, attribution::Provider};
use serde::{Deserialize, Serialize};

/// Most apps one pull reads.
pub const MAX_APPS: usize = 20;
/// Most in-app events one pull reads.
pub const MAX_EVENTS: usize = 20;
/// The in-app events AppsFlyer's pull reads when the user names none: AppsFlyer's
/// recommended event names for a trial, a subscription and a purchase.
pub const APPSFLYER_DEFAULT_EVENTS: [&str; 3] = ["af_start_trial", "af_subscribe", "af_purchase"];

/// AppsFlyer's pull (Master API).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AppsFlyerSettings {
    /// AppsFlyer's app ids of iOS apps: `id` and the App Store id (`id1234567890`).
    pub app_ids: Vec<String>,
    /// The app-specific currency set in AppsFlyer (ISO 4217): revenue is asked for with
    /// `currency=preferred` and stored in it.
    pub currency: String,
    /// The in-app event names whose counts and revenue are read.
    pub events: Vec<String>,
}

impl AppsFlyerSettings {
    /// The App Store id of an AppsFlyer app id (`id123` → 123).
    pub fn adam_id(app_id: &str) -> Option<i64> {
        // Digits only (no sign), at most 18 significant: as the document's pattern says.
        let digits = app_id.strip_prefix("id")?;
        let significant = digits.trim_start_matches('0');
        if !digits.bytes().all(|b| b.is_ascii_digit()) || !(1..=18).contains(&significant.len()) {
            return None;
        }
        significant.parse().ok()
    }
}

/// A provider's pull settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PullSettings {
    AppsFlyer(AppsFlyerSettings),
}

impl PullSettings {
    /// The stored JSON.
    pub fn to_json(&self) -> String {
        match self {
            PullSettings::AppsFlyer(s) => serde_json::to_string(s).unwrap_or_default(),
        }
    }

    /// The settings stored for `provider`, if they read.
    pub fn from_json(provider: Provider, json: &str) -> Option<PullSettings> {
        match provider {
            Provider::AppsFlyer => serde_json::from_str(json).ok().map(PullSettings::AppsFlyer),
            _ => None,
        }
    }
}

/// What a pasted value may be padded with, and is trimmed of: the ASCII spaces, tabs and line
/// breaks the document's patterns allow around it (other characters are the value's).
pub const PADDING: [char; 4] = [' ', '\t', '\n', '\r'];

/// What the user sent for AppsFlyer (the route's body, less the token).
#[derive(Debug, Clone, Default)]
pub struct AppsFlyerInput {
    pub app_ids: Vec<String>,
    pub currency: Option<String>,
    pub events: Option<Vec<String>>,
}

/// Checks AppsFlyer's settings; every refusal names its field.
pub fn appsflyer(input: AppsFlyerInput) -> Result<AppsFlyerSettings, Vec<FieldError>> {
    let mut errors = Vec::new();
    let app_ids: Vec<String> = input
        .app_ids
        .iter()
        .map(|a| a.trim_matches(PADDING).to_string())
        .collect();
    if app_ids.is_empty() || app_ids.len() > MAX_APPS {
        errors.push(FieldError::new(
            "appIds",
            format!("Give 1 to {MAX_APPS} AppsFlyer app ids"),
        ));
    }
    for (i, id) in app_ids.iter().enumerate() {
        if AppsFlyerSettings::adam_id(id).is_none() {
            errors.push(FieldError::new(
                format!("appIds[{i}]"),
                "An iOS app's AppsFlyer id is id and its App Store id, e.g. id1234567890",
            ));
        }
    }
    let currency = input
        .currency
        .map(|c| c.trim_matches(PADDING).to_ascii_uppercase())
        .unwrap_or_else(|| "USD".to_string());
    if currency.len() != 3 || !currency.bytes().all(|b| b.is_ascii_uppercase()) {
        errors.push(FieldError::new(
            "currency",
            "An ISO 4217 currency code, e.g. USD",
        ));
    }
    let events: Vec<String> = match input.events {
        Some(events) => events
            .iter()
            .map(|e| e.trim_matches(PADDING).to_string())
            .collect(),
        None => APPSFLYER_DEFAULT_EVENTS
            .iter()
            .map(|e| e.to_string())
            .collect(),
    };
    if events.len() > MAX_EVENTS {
        errors.push(FieldError::new(
            "events",
            format!("At most {MAX_EVENTS} event names"),
        ));
    }
    for (i, e) in events.iter().enumerate() {
        let ok = !e.is_empty()
            && e.len() <= 100
            && e.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if !ok {
            errors.push(FieldError::new(
                format!("events[{i}]"),
                "An AppsFlyer event name: letters, digits and _ (af_purchase)",
            ));
        }
    }
    if errors.is_empty() {
        Ok(AppsFlyerSettings {
            app_ids,
            currency,
            events,
        })
    } else {
        Err(errors)
    }
}
