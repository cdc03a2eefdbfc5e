//! A creation request checked and turned into the `create-campaigns` job's
//! [`CreationPlan`]: every campaign, ad group, keyword and negative of the body, names unique
//! as Apple compares them, the discovery campaign beside them. Every invalid field is
//! reported at once (400 with field errors). Shared by the creation routes
//! (`asa/campaigns/asa/all`, `asa/groups/createByList/{id}`).

use std::collections::HashSet;

use searchdeck_common::{
    jobs::{
        CREATION_MAX_CAMPAIGNS, CREATION_MAX_GROUPS, CREATION_MAX_KEYWORDS, CreationPlan,
        PlannedCampaign, PlannedDiscovery, PlannedGroup, PlannedKeyword, PlannedNegative,
    },
    suggester::text::clean,
};

use super::input::{
    Context, CreateRequest, GROUP_NAME_TAKEN, GroupIn, NAME_TAKEN, adam_id, amount, countries,
    match_type, name, name_key,
};
use crate::{domain::REQUIRED, error::FieldError, money::Minimum};

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
    use serde_json::{Value, json};

    use super::*;

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
        // Parsed as keyword lists (docs/product.md#5-keyword-lists) and deduplicated per match
        // type.
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
