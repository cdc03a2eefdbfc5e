//! Campaign creation requests (issue 23; contract: docs/api/creation.md) checked and turned
//! into the `create-campaigns` job's [`CreationPlan`]: spec §3's campaign create payload and
//! its groups, keywords and negatives, the discovery campaign (§9) and the custom product
//! page. Every invalid field is reported at once (400 with field errors); money follows the
//! quick edits' rules ([`crate::money::parse`]) and Apple's minimums per currency
//! ([`crate::money::minimum`]). Shared by the creation routes (`asa/campaigns/asa/all`,
//! `asa/groups/createByList/{id}`).

use std::collections::HashSet;

use searchdeck_common::{
    jobs::{
        CREATION_MAX_CAMPAIGNS, CREATION_MAX_GROUPS, CREATION_MAX_KEYWORDS, CreationPlan,
        PlannedCampaign, PlannedDiscovery, PlannedGroup, PlannedKeyword, PlannedNegative,
    },
    suggester::text::clean,
};
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

fn name(raw: Option<&str>, field: &str, errors: &mut Vec<FieldError>) -> String {
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

fn countries(raw: Option<&Vec<String>>, field: &str, errors: &mut Vec<FieldError>) -> Vec<String> {
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
fn amount(
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

fn match_type(raw: Option<&str>, field: &str, errors: &mut Vec<FieldError>) -> String {
    match raw.map(|m| m.trim().to_uppercase()).as_deref() {
        None | Some("") | Some("EXACT") => "EXACT".into(),
        Some("BROAD") => "BROAD".into(),
        Some(_) => {
            errors.push(FieldError::new(field, "Must be one of: EXACT, BROAD"));
            "EXACT".into()
        }
    }
}

/// The groups of a campaign (`prefix`: `campaigns.0.groups`, or `groups`), checked.
pub fn groups(
    raw: Option<&Vec<GroupIn>>,
    prefix: &str,
    currency: &str,
    taken: &HashSet<String>,
    errors: &mut Vec<FieldError>,
) -> Vec<PlannedGroup> {
    let list = raw.map(Vec::as_slice).unwrap_or_default();
    if list.is_empty() || list.len() > CREATION_MAX_GROUPS {
        errors.push(FieldError::new(
            prefix,
            format!("Add 1 to {CREATION_MAX_GROUPS} ad groups"),
        ));
    }
    let mut names = taken.clone();
    let mut out = Vec::new();
    for (i, g) in list.iter().enumerate() {
        let at = |f: &str| format!("{prefix}.{i}.{f}");
        let group_name = name(g.name.as_deref(), &at("name"), errors);
        if !group_name.is_empty() && !names.insert(name_key(&group_name)) {
            errors.push(FieldError::new(at("name"), GROUP_NAME_TAKEN));
        }
        let bid = amount(
            g.default_bid_amount.as_ref(),
            &at("defaultBidAmount"),
            "Default bid",
            currency,
            Some(Minimum::Bid),
            true,
            errors,
        );
        let cpa = amount(
            g.cpa_goal.as_ref(),
            &at("cpaGoal"),
            "CPA goal",
            currency,
            None,
            false,
            errors,
        );
        let raw_keywords = g.keywords.as_deref().unwrap_or_default();
        if raw_keywords.len() > CREATION_MAX_KEYWORDS {
            errors.push(FieldError::new(
                at("keywords"),
                format!("An ad group takes at most {CREATION_MAX_KEYWORDS} keywords"),
            ));
        }
        let mut seen = HashSet::new();
        let mut keywords = Vec::new();
        for (j, k) in raw_keywords.iter().enumerate() {
            let field = at(&format!("keywords.{j}"));
            let text = clean(k.text.as_deref().unwrap_or_default());
            let m = match_type(
                k.match_type.as_deref(),
                &format!("{field}.matchType"),
                errors,
            );
            let bid = amount(
                k.bid_amount.as_ref(),
                &format!("{field}.bidAmount"),
                "Bid",
                currency,
                Some(Minimum::Bid),
                false,
                errors,
            );
            if text.is_empty() {
                errors.push(FieldError::new(format!("{field}.text"), REQUIRED));
            } else if let Some(message) = crate::domain::keyword_too_long(&text) {
                errors.push(FieldError::new(format!("{field}.text"), message));
            } else if seen.insert((text.clone(), m.clone())) {
                keywords.push(PlannedKeyword {
                    text,
                    match_type: m,
                    bid_micros: bid,
                    status: None,
                });
            }
        }
        let mut seen = HashSet::new();
        let mut negatives = Vec::new();
        for (j, n) in g.negative_keywords.iter().flatten().enumerate() {
            let field = at(&format!("negativeKeywords.{j}"));
            let text = clean(n.text.as_deref().unwrap_or_default());
            let m = match_type(
                n.match_type.as_deref(),
                &format!("{field}.matchType"),
                errors,
            );
            if text.is_empty() {
                errors.push(FieldError::new(format!("{field}.text"), REQUIRED));
            } else if let Some(message) = crate::domain::keyword_too_long(&text) {
                errors.push(FieldError::new(format!("{field}.text"), message));
            } else if seen.insert((text.clone(), m.clone())) {
                negatives.push(PlannedNegative {
                    text,
                    match_type: m,
                });
            }
        }
        out.push(PlannedGroup {
            name: group_name,
            default_bid_micros: bid.unwrap_or_default(),
            cpa_goal_micros: cpa,
            automated_keywords_opt_in: g.automated_keywords_opt_in.unwrap_or(false),
            status: None,
            targeting: None,
            keywords,
            negatives,
            creative_ids: Vec::new(),
        });
    }
    out
}

/// The plan of a `PUT asa/campaigns/asa/all` body in `cx`; every invalid field in
/// `errors`. The app is checked by the caller (`adamId` of the returned plan).
pub fn plan(body: &CreateRequest, cx: &Context<'_>, errors: &mut Vec<FieldError>) -> CreationPlan {
    let adam = adam_id(body.adam_id.as_ref(), "adamId", errors).unwrap_or_default();
    let list = body.campaigns.as_deref().unwrap_or_default();
    if list.is_empty() || list.len() > CREATION_MAX_CAMPAIGNS {
        errors.push(FieldError::new(
            "campaigns",
            format!("Add 1 to {CREATION_MAX_CAMPAIGNS} campaigns"),
        ));
    }
    let mut names = cx.taken.clone();
    let mut campaigns = Vec::new();
    for (i, c) in list.iter().enumerate() {
        let at = |f: &str| format!("campaigns.{i}.{f}");
        let campaign_name = name(c.name.as_deref(), &at("name"), errors);
        if !campaign_name.is_empty() && !names.insert(name_key(&campaign_name)) {
            errors.push(FieldError::new(at("name"), NAME_TAKEN));
        }
        if c.ad_channel_type.as_deref().is_some_and(|t| t != "SEARCH") {
            errors.push(FieldError::new(at("adChannelType"), "Must be SEARCH"));
        }
        if c.billing_event.as_deref().is_some_and(|t| t != "TAPS") {
            errors.push(FieldError::new(at("billingEvent"), "Must be TAPS"));
        }
        if c.supply_sources
            .as_ref()
            .is_some_and(|s| s.iter().any(|x| x != "APPSTORE_SEARCH_RESULTS"))
        {
            errors.push(FieldError::new(
                at("supplySources"),
                "Must be APPSTORE_SEARCH_RESULTS",
            ));
        }
        if let Some(raw) = c.adam_id.as_ref().filter(|v| !v.is_null())
            && searchdeck_common::ids::string_id::parse(raw) != Some(adam)
        {
            errors.push(FieldError::new(at("adamId"), "Must be the body's app"));
        }
        if c.rule_ids.as_ref().is_some_and(|r| !r.is_empty()) {
            errors.push(FieldError::new(
                at("ruleIds"),
                "Rules cannot be attached yet",
            ));
        }
        let status = match c.status.as_deref().map(str::trim) {
            None | Some("") | Some("PAUSED") => "PAUSED",
            Some("ENABLED") => "ENABLED",
            Some(_) => {
                errors.push(FieldError::new(
                    at("status"),
                    "Must be one of: ENABLED, PAUSED",
                ));
                "PAUSED"
            }
        };
        let countries = countries(
            c.countries_or_regions.as_ref(),
            &at("countriesOrRegions"),
            errors,
        );
        let budget = amount(
            c.daily_budget_amount.as_ref(),
            &at("dailyBudgetAmount"),
            "Daily budget",
            cx.currency,
            Some(Minimum::DailyBudget),
            true,
            errors,
        );
        let groups = groups(
            c.groups.as_ref(),
            &at("groups"),
            cx.currency,
            &HashSet::new(),
            errors,
        );
        campaigns.push(PlannedCampaign {
            name: campaign_name,
            existing_id: None,
            countries,
            adam_id: None,
            status: status.into(),
            daily_budget_micros: budget.unwrap_or_default(),
            negatives: Vec::new(),
            groups,
        });
    }
    let discovery = body.discovery.as_ref().map(|d| {
        let discovery_name = name(d.name.as_deref(), "discovery.name", errors);
        if !discovery_name.is_empty() && !names.insert(name_key(&discovery_name)) {
            errors.push(FieldError::new("discovery.name", NAME_TAKEN));
        }
        PlannedDiscovery {
            name: discovery_name,
            countries: countries(
                d.countries_or_regions.as_ref(),
                "discovery.countriesOrRegions",
                errors,
            ),
            daily_budget_micros: amount(
                d.daily_budget_amount.as_ref(),
                "discovery.dailyBudgetAmount",
                "Daily budget",
                cx.currency,
                Some(Minimum::DailyBudget),
                true,
                errors,
            )
            .unwrap_or_default(),
            default_bid_micros: amount(
                d.default_bid_amount.as_ref(),
                "discovery.defaultBidAmount",
                "Default bid",
                cx.currency,
                Some(Minimum::Bid),
                true,
                errors,
            )
            .unwrap_or_default(),
            cpa_goal_micros: amount(
                d.cpa_goal.as_ref(),
                "discovery.cpaGoal",
                "CPA goal",
                cx.currency,
                None,
                false,
                errors,
            ),
        }
    });
    if discovery.is_some()
        && campaigns
            .iter()
            .all(|c| c.groups.iter().all(|g| g.keywords.is_empty()))
        && errors.is_empty()
    {
        errors.push(FieldError::new(
            "campaigns",
            "Add keywords: the discovery campaign excludes the chosen keywords",
        ));
    }
    CreationPlan {
        adam_id: adam,
        campaigns,
        discovery,
        product_page_id: body
            .product_page_id
            .as_deref()
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::to_string),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(body: Value) -> (CreationPlan, Vec<String>) {
        let body: CreateRequest = serde_json::from_value(body).unwrap();
        let cx = Context {
            currency: "USD",
            taken: ["us brand".to_string()].into_iter().collect(),
        };
        let mut errors = Vec::new();
        let plan = plan(&body, &cx, &mut errors);
        (plan, errors.into_iter().map(|e| e.field).collect())
    }

    fn body() -> Value {
        json!({
            "adamId": "123",
            "campaigns": [{
                "name": "US Generic", "countriesOrRegions": ["us"], "dailyBudgetAmount": {"amount": "50", "currency": "USD"},
                "groups": [{"name": "Exact", "defaultBidAmount": "1.5",
                    "keywords": [{"text": "Photo-Editor!", "matchType": "EXACT"}, {"text": "photoeditor"}, {"text": "x", "matchType": "BROAD", "bidAmount": "2"}]}]
            }],
            "discovery": {"name": "US Discovery", "countriesOrRegions": ["US"], "dailyBudgetAmount": "10", "defaultBidAmount": "1"}
        })
    }

    #[test]
    fn a_valid_body_becomes_the_plan() {
        let (plan, errors) = check(body());
        assert!(errors.is_empty(), "{errors:?}");
        let c = &plan.campaigns[0];
        assert_eq!(
            (c.status.as_str(), c.countries.as_slice()),
            ("PAUSED", &["US".to_string()][..])
        );
        assert_eq!(c.daily_budget_micros, 50_000_000);
        // Parsed as spec §5 lists and deduplicated per match type.
        let k: Vec<(&str, &str, Option<i64>)> = c.groups[0]
            .keywords
            .iter()
            .map(|k| (k.text.as_str(), k.match_type.as_str(), k.bid_micros))
            .collect();
        assert_eq!(
            k,
            [
                ("photoeditor", "EXACT", None),
                ("x", "BROAD", Some(2_000_000))
            ]
        );
        assert_eq!(plan.discovery.unwrap().default_bid_micros, 1_000_000);
    }

    #[test]
    fn every_invalid_field_is_named() {
        let mut b = body();
        b["campaigns"][0]["name"] = json!(" US Brand ");
        b["campaigns"][0]["dailyBudgetAmount"] = json!("0.5");
        b["campaigns"][0]["groups"][0]["defaultBidAmount"] = json!("1.234");
        b["campaigns"][0]["groups"][0]["keywords"][2]["matchType"] = json!("PHRASE");
        b["campaigns"][0]["countriesOrRegions"] = json!(["ZZ"]);
        b["campaigns"][0]["ruleIds"] = json!(["1"]);
        let (_, errors) = check(b);
        assert_eq!(
            errors,
            [
                "campaigns.0.name",
                "campaigns.0.ruleIds",
                "campaigns.0.countriesOrRegions.0",
                "campaigns.0.dailyBudgetAmount",
                "campaigns.0.groups.0.defaultBidAmount",
                "campaigns.0.groups.0.keywords.2.matchType",
            ]
        );
        let (_, errors) = check(json!({"adamId": "x", "campaigns": []}));
        assert_eq!(errors, ["adamId", "campaigns"]);
    }
}
