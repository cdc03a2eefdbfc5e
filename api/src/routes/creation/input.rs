//! Campaign creation requests (issue 23; contract: docs/api/creation.md) as sent:
//! the campaign create payload (docs/product.md#3-campaign-create-payload) and its groups, keywords
//! and negatives, the discovery campaign (docs/product.md#9-discovery-campaign) and the
//! custom product page, and the checks of their single fields (names, countries, money, match
//! types). Money follows the quick edits' rules ([`crate::money::parse`]) and Apple's minimums per
//! currency ([`crate::money::minimum`]). [`super::plan`] turns a checked request into the job's
//! plan.

use std::collections::HashSet;

use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::{
    domain::REQUIRED,
    error::FieldError,
    money::{self, Minimum},
};

/// Longest campaign or ad group name (Apple's).
pub const MAX_NAME: usize = 200;
/// Most countries or regions of a campaign.
pub const MAX_COUNTRIES: usize = 150;
/// Message of a campaign name the campaign group (or the body) has already.
pub const NAME_TAKEN: &str = "A campaign with this name already exists";
/// Message of an ad group name the campaign (or the body) has already.
pub const GROUP_NAME_TAKEN: &str = "An ad group with this name already exists in this campaign";

/// A keyword of a group: its text (parsed as spec §5 keyword lists), match type and bid.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeywordIn {
    pub text: Option<String>,
    /// EXACT (default) or BROAD.
    pub match_type: Option<String>,
    /// Money; null: the group's default bid.
    #[schema(value_type = Option<money::MoneyIn>)]
    pub bid_amount: Option<Value>,
}

/// A negative keyword of a group.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NegativeIn {
    pub text: Option<String>,
    /// EXACT (default) or BROAD.
    pub match_type: Option<String>,
}

/// An ad group to create with its keywords (spec §3: a group of the campaign create payload).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GroupIn {
    pub name: Option<String>,
    /// Money, at least Apple's minimum bid.
    #[schema(value_type = Option<money::MoneyIn>)]
    pub default_bid_amount: Option<Value>,
    /// Money above 0, or null.
    #[schema(value_type = Option<money::MoneyIn>)]
    pub cpa_goal: Option<Value>,
    /// Search Match.
    pub automated_keywords_opt_in: Option<bool>,
    /// 0–5,000.
    pub keywords: Option<Vec<KeywordIn>>,
    pub negative_keywords: Option<Vec<NegativeIn>>,
}

/// Spec §3 Campaign create payload.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignIn {
    /// SEARCH (the only one).
    pub ad_channel_type: Option<String>,
    /// Equal to the body's `adamId`.
    #[schema(value_type = Option<String>)]
    pub adam_id: Option<Value>,
    pub countries_or_regions: Option<Vec<String>>,
    pub name: Option<String>,
    /// ENABLED or PAUSED (default).
    pub status: Option<String>,
    /// `["APPSTORE_SEARCH_RESULTS"]`.
    pub supply_sources: Option<Vec<String>>,
    /// TAPS.
    pub billing_event: Option<String>,
    /// Money, at least Apple's minimum daily budget in the currency.
    #[schema(value_type = Option<money::MoneyIn>)]
    pub daily_budget_amount: Option<Value>,
    /// Ignored: Apple retired creative sets.
    #[schema(value_type = Option<Object>)]
    pub creative_sets: Option<Value>,
    /// Must be empty until rules exist.
    #[schema(value_type = Option<Vec<String>>)]
    pub rule_ids: Option<Vec<Value>>,
    /// 1–50 ad groups.
    pub groups: Option<Vec<GroupIn>>,
}

/// The suggester's discovery campaign (spec §9).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiscoveryIn {
    pub name: Option<String>,
    pub countries_or_regions: Option<Vec<String>>,
    #[schema(value_type = Option<money::MoneyIn>)]
    pub daily_budget_amount: Option<Value>,
    #[schema(value_type = Option<money::MoneyIn>)]
    pub default_bid_amount: Option<Value>,
    #[schema(value_type = Option<money::MoneyIn>)]
    pub cpa_goal: Option<Value>,
}

/// `PUT asa/campaigns/asa/all`'s body.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateRequest {
    /// The app the campaigns promote (App Store adam id).
    #[schema(value_type = String)]
    pub adam_id: Option<Value>,
    /// 1–50 campaigns.
    pub campaigns: Option<Vec<CampaignIn>>,
    pub discovery: Option<DiscoveryIn>,
    /// One ad per created ad group with this custom product page of the app.
    pub product_page_id: Option<String>,
}

/// The campaign group a request is checked against.
pub struct Context<'a> {
    pub currency: &'a str,
    /// Campaign names of the campaign group (not deleted), as Apple compares them.
    pub taken: HashSet<String>,
}

/// A name as Apple compares them: trimmed, case-insensitive.
pub fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// An adam id as sent (string of digits or number).
pub fn adam_id(raw: Option<&Value>, field: &str, errors: &mut Vec<FieldError>) -> Option<i64> {
    match raw
        .and_then(searchdeck_common::ids::string_id::parse)
        .filter(|id| *id > 0)
    {
        Some(id) => Some(id),
        None => {
            errors.push(FieldError::new(field, "Must be an App Store app id"));
            None
        }
    }
}

pub(super) fn name(raw: Option<&str>, field: &str, errors: &mut Vec<FieldError>) -> String {
    let n = raw.map(str::trim).unwrap_or_default();
    if n.is_empty() {
        errors.push(FieldError::new(field, REQUIRED));
    } else if n.chars().count() > MAX_NAME {
        errors.push(FieldError::new(
            field,
            format!("Must be at most {MAX_NAME} characters"),
        ));
    }
    n.to_string()
}

pub(super) fn countries(
    raw: Option<&Vec<String>>,
    field: &str,
    errors: &mut Vec<FieldError>,
) -> Vec<String> {
    let list = raw.cloned().unwrap_or_default();
    if list.is_empty() || list.len() > MAX_COUNTRIES {
        errors.push(FieldError::new(
            field,
            format!("Choose 1 to {MAX_COUNTRIES} countries or regions"),
        ));
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, c) in list.iter().enumerate() {
        match searchdeck_common::countries::find(c.trim()) {
            Some(country) if !out.contains(&country.code) => out.push(country.code.clone()),
            Some(_) => {}
            None => errors.push(FieldError::new(
                format!("{field}.{i}"),
                "Must be a country or region Apple Ads serves",
            )),
        }
    }
    out
}

/// Money of `field`: required or not, at least `min` (Apple's) or above 0.
pub(super) fn amount(
    raw: Option<&Value>,
    field: &str,
    label: &str,
    currency: &str,
    min: Option<Minimum>,
    required: bool,
    errors: &mut Vec<FieldError>,
) -> Option<i64> {
    let raw = raw.filter(|v| !v.is_null());
    let Some(raw) = raw else {
        if required {
            errors.push(FieldError::new(field, REQUIRED));
        }
        return None;
    };
    let micros = money::parse(field, label, raw, Some(currency))
        .map_err(|e| errors.push(e))
        .ok()?;
    let floor = min.map_or(1, |m| money::minimum(m, currency));
    if micros < floor {
        let text = money::text(Some(floor)).unwrap_or_default();
        errors.push(FieldError::new(
            field,
            if min.is_some() {
                format!("{label} must be at least {text} {currency}")
            } else {
                format!("{label} must be above 0")
            },
        ));
        return None;
    }
    Some(micros)
}

pub(super) fn match_type(raw: Option<&str>, field: &str, errors: &mut Vec<FieldError>) -> String {
    match raw.map(|m| m.trim().to_uppercase()).as_deref() {
        None | Some("") | Some("EXACT") => "EXACT".into(),
        Some("BROAD") => "BROAD".into(),
        Some(_) => {
            errors.push(FieldError::new(field, "Must be one of: EXACT, BROAD"));
            "EXACT".into()
        }
    }
}
