//! World entities in the reference's wire shapes (`Campaign`, `AdGroup`, `Keyword`,
//! `NegativeKeyword`, `Ad`, `AdAccount`). Every property is present, `null` when unset.

use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::world::money::money;
use crate::world::{
    Ad, AdAccount, AdGroup, Campaign, Creative, Keyword, Lifecycle, NegativeKeyword, ProductPage,
    Status, World,
};

/// RFC 3339 timestamp.
pub fn timestamp(t: OffsetDateTime) -> String {
    t.format(&Rfc3339).expect("formattable timestamp")
}

fn status(life: &Lifecycle) -> &'static str {
    life.status.current().as_str()
}

/// `(systemStatus, reasons, displayStatus)` of a campaign as of the simulated today.
fn campaign_state(c: &Campaign) -> (&'static str, Vec<&str>, &'static str) {
    if c.life.deleted() {
        ("NOT_RUNNING", vec!["DELETED_BY_USER"], "DELETED")
    } else if c.life.status.current() == Status::Paused {
        ("NOT_RUNNING", vec!["PAUSED_BY_USER"], "PAUSED")
    } else if !c.system_reasons.is_empty() {
        // Held back by Apple (`PUT /sandbox/campaigns/{id}/systemStatus`).
        (
            "NOT_RUNNING",
            c.system_reasons.iter().map(String::as_str).collect(),
            "ON_HOLD",
        )
    } else {
        ("RUNNING", vec![], "RUNNING")
    }
}

pub fn campaign(world: &World, c: &Campaign) -> Value {
    let currency = world.accounts[&c.ad_account_id].currency;
    let (system, reasons, display) = campaign_state(c);
    json!({
        "id": c.id, "adAccountId": c.ad_account_id, "name": c.name, "billingEvent": "TAPS", "paymentModel": "PAYG",
        "startTime": timestamp(c.start_time), "endTime": c.end_time.map(timestamp),
        "promotedObjectType": "APPSTORE_APP", "promotedObjectId": c.adam_id.to_string(),
        "status": status(&c.life), "systemStatus": system, "systemStatusReasons": reasons,
        "systemStatusLimitingReasons": [], "displayStatus": display,
        "dailyBudget": { "value": money(c.daily_budget.current(), currency) }, "sharedBudgets": null,
        "targeting": {
            "supplySource": { "include": ["APPSTORE_SEARCH_RESULTS"], "exclude": null },
            "supplyPlacement": null,
            "countryOrRegion": { "include": c.countries, "exclude": null }
        },
        "bidStrategy": { "bidStrategyType": "MANUAL_CPT", "bidStrategyGoal": "TAP", "bid": null },
        "invoiceDetail": null, "regulationResponses": null,
        "creationTime": timestamp(c.life.created), "modificationTime": timestamp(c.life.modified),
        "deleted": c.life.deleted(),
    })
}

/// `(systemStatus, reasons, displayStatus)` of an ad group.
fn ad_group_state(world: &World, g: &AdGroup) -> (&'static str, Vec<&'static str>, &'static str) {
    let campaign_running = world
        .campaigns
        .get(&g.campaign_id)
        .is_some_and(|c| campaign_state(c).0 == "RUNNING");
    if g.life.deleted() {
        ("NOT_RUNNING", vec!["DELETED_BY_USER"], "DELETED")
    } else if g.life.status.current() == Status::Paused {
        ("NOT_RUNNING", vec!["PAUSED_BY_USER"], "PAUSED")
    } else if !campaign_running {
        (
            "NOT_RUNNING",
            vec!["CAMPAIGN_NOT_RUNNING"],
            "CAMPAIGN_ON_HOLD",
        )
    } else {
        ("RUNNING", vec![], "RUNNING")
    }
}

pub fn ad_group(world: &World, g: &AdGroup) -> Value {
    let currency = world.accounts[&g.ad_account_id].currency;
    let (system, reasons, display) = ad_group_state(world, g);
    json!({
        "id": g.id, "name": g.name, "adAccountId": g.ad_account_id, "campaignId": g.campaign_id,
        "startTime": timestamp(g.start_time), "endTime": g.end_time.map(timestamp),
        "pricingModel": "CPT", "automatedKeywordsOptIn": g.automated_keywords_opt_in,
        "status": status(&g.life), "systemStatus": system, "systemStatusReasons": reasons,
        "systemStatusLimitingReasons": [], "automatedKeywordsRequired": false, "displayStatus": display,
        "bidStrategy": { "bidStrategyType": "MANUAL_CPT", "bidStrategyGoal": "TAP", "bid": money(g.default_bid, currency) },
        "cpaCap": g.cpa_cap.map(|v| json!({ "value": money(v, currency) })),
        "targeting": { "deviceClass": { "include": g.device_classes, "exclude": null } },
        "creationTime": timestamp(g.life.created), "modificationTime": timestamp(g.life.modified),
        "deleted": g.life.deleted(),
    })
}

/// Display status of a keyword or ad below `group`.
fn child_display(world: &World, life: &Lifecycle, group_id: i64) -> &'static str {
    let group = world.ad_groups.get(&group_id);
    if life.deleted() {
        "DELETED"
    } else if life.status.current() == Status::Paused {
        "PAUSED"
    } else {
        match group.map(|g| ad_group_state(world, g).2) {
            Some("RUNNING") => "RUNNING",
            Some("CAMPAIGN_ON_HOLD") => "CAMPAIGN_ON_HOLD",
            _ => "AD_GROUP_ON_HOLD",
        }
    }
}

pub fn keyword(world: &World, k: &Keyword) -> Value {
    let currency = world.accounts[&k.ad_account_id].currency;
    json!({
        "id": k.id, "adAccountId": k.ad_account_id, "campaignId": k.campaign_id, "adGroupId": k.ad_group_id,
        "text": k.text, "matchType": k.match_type.as_str(), "bid": money(k.bid.current(), currency),
        "status": status(&k.life), "displayStatus": child_display(world, &k.life, k.ad_group_id),
        "creationTime": timestamp(k.life.created), "modificationTime": timestamp(k.life.modified),
        "deleted": k.life.deleted(),
    })
}

pub fn negative_keyword(n: &NegativeKeyword) -> Value {
    json!({
        "id": n.id, "adAccountId": n.ad_account_id, "campaignId": n.campaign_id, "adGroupId": n.ad_group_id,
        "text": n.text, "matchType": n.match_type.as_str(), "status": status(&n.life),
        "creationTime": timestamp(n.life.created), "modificationTime": timestamp(n.life.modified),
        "deleted": n.life.deleted(),
    })
}

pub fn ad(world: &World, a: &Ad) -> Value {
    let display = child_display(world, &a.life, a.ad_group_id);
    json!({
        "id": a.id, "adAccountId": a.ad_account_id, "campaignId": a.campaign_id, "adGroupId": a.ad_group_id,
        "creativeId": a.creative_id, "name": a.name, "status": status(&a.life),
        "systemStatus": if display == "RUNNING" { "RUNNING" } else { "NOT_RUNNING" },
        "systemStatusReasons": [], "systemStatusLimitingReasons": [], "displayStatus": display,
        "creationTime": timestamp(a.life.created), "modificationTime": timestamp(a.life.modified),
        "deleted": a.life.deleted(),
    })
}

pub fn ad_account(world: &World, a: &AdAccount) -> Value {
    json!({
        "id": a.id, "name": a.name, "orgId": world.org_id, "timezone": a.timezone, "currency": a.currency,
        "paymentModel": a.payment_model, "systemStatus": "ACTIVE", "systemStatusReasons": [],
        "delegations": [], "productFeatures": [],
        "creationTime": timestamp(a.created), "modificationTime": timestamp(a.created),
    })
}

pub fn creative(c: &Creative) -> Value {
    json!({
        "id": c.id, "adAccountId": c.ad_account_id, "name": c.name, "creativeType": c.kind.as_str(),
        "creativeSpec": null,
        "systemStatus": if c.life.deleted() { "INVALID" } else { "VALID" },
        "systemStatusReasons": if c.life.deleted() { vec!["DELETED_BY_USER"] } else { vec![] },
        "destination": {
            "destinationType": "APP_STORE_PRODUCT_PAGE",
            "url": format!("https://apps.apple.com/app/id{}?ppid={}", c.adam_id, c.product_page_id),
            "parameters": { "adamId": c.adam_id.to_string(), "productPageId": c.product_page_id },
        },
        "eligibility": null,
        "creationTime": timestamp(c.life.created), "modificationTime": timestamp(c.life.modified),
        "deleted": c.life.deleted(),
    })
}

pub fn product_page(p: &ProductPage) -> Value {
    json!({
        "id": p.id, "adamId": p.adam_id, "name": p.name, "state": p.state,
        "deepLink": format!("https://apps.apple.com/app/id{}?ppid={}", p.adam_id, p.id),
        "creationTime": timestamp(p.created), "modificationTime": timestamp(p.created),
    })
}
