//! Campaign creation and copies (issue 23) through the real router, the `create-campaigns`
//! and `copy-campaigns` jobs and the in-process sandbox, on SQLite and PostgreSQL. One
//! connection is synced per backend, then: readers get 403 on the writes; bad input (an
//! unknown app, a budget below Apple's minimum, a discovery campaign without keywords, a
//! taken name) answers field errors and queues nothing; the plan's limits answer
//! `LIMIT_HAS_BEEN_REACHED` with `meta.type`; the name check; a creation with a discovery
//! campaign and a custom product page ends with the Creation progress as the contract shows
//! it, a keyword Apple refuses listed in `rejected`, and every entity in our synced tables
//! at once; ad groups from a list in an existing campaign; the CPA-goal check; copies with
//! each setting on and off.
//!
//! The steps share one connection synced per backend, in order: `checks` (everything
//! refused before a job is queued, and the name check), `made` (the creation and ad groups
//! added from a list), `copies` (every copy setting).

mod checks;
mod copies;
mod made;

use crate::common::{TestApp, TestResponse};
use crate::harness::{Connected, args, start_sandbox};
use axum::http::Method;
use searchdeck_api::session::Role;
use serde_json::{Value, json};

/// A USD campaign group, an app of it, a country the app is sold in (its campaign's) and
/// that app's custom product page without a creative yet ('Seasonal offer').
async fn group_app_page(t: &Connected, account_id: &str) -> (i64, i64, i64, String, String) {
    let (org_key, org_id, adam_id, countries): (i64, i64, i64, String) = sqlx::query_as(
        "SELECT o.org_key, o.org_id, c.adam_id, c.countries FROM asa_campaigns c JOIN sync_orgs o ON o.org_key = c.org_key \
         WHERE o.account_id = $1 AND o.currency = 'USD' AND c.adam_id IS NOT NULL AND c.countries IS NOT NULL \
         ORDER BY o.org_id, c.adam_id LIMIT 1",
    )
    .bind(account_id)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    let page: String = sqlx::query_scalar(
        "SELECT id FROM asa_product_pages WHERE org_key = $1 AND adam_id = $2 AND name LIKE '%Seasonal offer'",
    )
    .bind(org_key)
    .bind(adam_id)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    let countries: Vec<String> = serde_json::from_str(&countries).unwrap();
    (org_key, org_id, adam_id, countries[0].clone(), page)
}

fn group(name: &str, keywords: &[&str], match_type: &str) -> Value {
    json!({
        "name": name, "defaultBidAmount": {"amount": "1.50", "currency": "USD"}, "cpaGoal": null,
        "automatedKeywordsOptIn": false,
        "keywords": keywords.iter().map(|k| json!({"text": k, "matchType": match_type, "bidAmount": null})).collect::<Vec<_>>(),
        "negativeKeywords": [{"text": "free", "matchType": "EXACT"}],
    })
}

fn campaign(name: &str, (adam_id, country): (i64, &str), groups: Vec<Value>) -> Value {
    json!({
        "adChannelType": "SEARCH", "adamId": adam_id.to_string(), "countriesOrRegions": [country],
        "name": name, "status": "PAUSED", "supplySources": ["APPSTORE_SEARCH_RESULTS"],
        "billingEvent": "TAPS", "dailyBudgetAmount": {"amount": "50", "currency": "USD"},
        "creativeSets": [], "ruleIds": [], "groups": groups,
    })
}

async fn count(t: &Connected, sql: &'static str, org_key: i64, name: &str) -> i64 {
    sqlx::query_scalar(sql)
        .bind(org_key)
        .bind(name)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

const CAMPAIGNS_NAMED: &str =
    "SELECT COUNT(*) FROM asa_campaigns WHERE org_key = $1 AND name = $2 AND deleted = 0";
const GROUPS_OF: &str = "SELECT COUNT(*) FROM asa_ad_groups g JOIN asa_campaigns c ON c.org_key = g.org_key AND c.id = g.campaign_id \
     WHERE g.org_key = $1 AND c.name = $2 AND g.deleted = 0";
const KEYWORDS_OF: &str = "SELECT COUNT(*) FROM asa_keywords k JOIN asa_campaigns c ON c.org_key = k.org_key AND c.id = k.campaign_id \
     WHERE k.org_key = $1 AND c.name = $2 AND k.deleted = 0";
const NEGATIVES_OF: &str = "SELECT COUNT(*) FROM asa_negative_keywords n JOIN asa_campaigns c ON c.org_key = n.org_key AND c.id = n.campaign_id \
     WHERE n.org_key = $1 AND c.name = $2 AND n.deleted = 0";
const ADS_OF: &str = "SELECT COUNT(*) FROM asa_ads a JOIN asa_campaigns c ON c.org_key = a.org_key AND c.id = a.campaign_id \
     WHERE a.org_key = $1 AND c.name = $2 AND a.deleted = 0";

async fn tasks_of(t: &Connected, kind: &str) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM tasks WHERE kind = $1")
        .bind(kind)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

/// What every step works in: a connection synced once, its USD campaign group with an app, a
/// country the app is sold in and a custom product page, the keywords the plans use, and a
/// reader and a writer of the workspace.
struct Creation {
    account: String,
    org_key: i64,
    org_id: i64,
    adam_id: i64,
    country: String,
    page: String,
    /// The connection and campaign group as a query string.
    q: String,
    reader: String,
    writer: String,
    keywords: Vec<String>,
}

/// A creation request (`PUT asa/campaigns/asa/all`) of the connection, as `cookie`.
async fn put(t: &Connected, c: &Creation, body: Value, cookie: String) -> TestResponse {
    let path = format!("/api/asa/campaigns/asa/all?{}", c.q);
    t.call(Method::PUT, &path, body, &cookie).await
}

async fn run(t: Connected) {
    let owner = t.owner().await;
    let account = t.connect_until_reports_synced(&owner, "Creation").await;
    let (org_key, org_id, adam_id, country, page) = group_app_page(&t, &account).await;
    let q = format!("accountId={account}&orgId={org_id}");
    let reader = t.app.member(&owner, Role::Reader).await;
    let writer = t.app.member(&owner, Role::Writer).await;
    let keywords: Vec<String> = (0..20).map(|i| format!("photo tool {i}")).collect();
    let c = Creation {
        account,
        org_key,
        org_id,
        adam_id,
        country,
        page,
        q,
        reader,
        writer,
        keywords,
    };
    let body = checks::bad_input_and_limits_queue_nothing(&t, &c).await;
    let brand = made::a_creation_is_made_once_and_shows_at_once(&t, &c, body).await;
    made::ad_groups_from_a_list_and_cpa_goals(&t, &c, &brand).await;
    copies::copies_with_each_setting_on_and_off(&t, &c, &brand).await;
}

mod creation_end_to_end {
    use super::*;

    #[tokio::test]
    async fn sqlite() {
        let base = start_sandbox().await;
        let app = TestApp::sqlite_with(&args(&base)).await;
        run(Connected::new(app, base)).await
    }

    #[tokio::test]
    async fn postgres() {
        let base = start_sandbox().await;
        if let Some(app) = TestApp::postgres_with(&args(&base)).await {
            run(Connected::new(app, base)).await
        }
    }
}
