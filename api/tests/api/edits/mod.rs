//! Quick edits through the provider against the in-process sandbox, on SQLite and
//! PostgreSQL, after a real connect and sync (docs/api/edits.md):
//!
//! - `quick_edits`: each quick edit (campaign daily budget and status; ad group default bid,
//!   CPA goal, status and Search Match; keyword bid and status; ad and negative keyword
//!   statuses) is applied at the sandbox, shows at once in `asa/reports` and writes one
//!   change record per changed field; a value already set is not sent.
//! - `refusals`: the edit routes as the OpenAPI document describes them; refused edits
//!   (below the sandbox's minimum, too many decimals, negative, not a number, another
//!   currency) leave our database and the sandbox unchanged; readers get 403 and another
//!   workspace's ids 404.
//! - `next_day`: a raised bid shows in the sandbox's next day of metrics.
//! - `restart`: both kinds of connection survive a sandbox restart.
//!
//! The fixtures below pick a live keyword with its ad group and campaign, and read an
//! entity back from our report, our rows, the change records and the sandbox.

mod next_day;
mod quick_edits;
mod refusals;
mod restart;

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use searchdeck_common::store::{self, changes};
use searchdeck_provider::{AppleAds, AppleAdsExt, Entity};
use serde_json::{Value, json};

use crate::harness::Connected;

/// The synced entities one test edits: a live keyword, its ad group and campaign.
#[derive(Debug, Clone)]
struct Picked {
    account_id: String,
    org_id: i64,
    currency: String,
    campaign: i64,
    budget_micros: i64,
    group: i64,
    group_bid_micros: i64,
    keyword: i64,
    keyword_bid_micros: i64,
}

/// A live keyword of a live ad group of a live campaign, with a bid, in a currency with two
/// decimals (the sandbox's accounts are mostly USD).
async fn pick(t: &Connected, account_id: &str) -> Picked {
    let row: (i64, String, i64, i64, i64, i64, i64, i64) = sqlx::query_as(
        "SELECT o.org_id, o.currency, c.id, c.daily_budget_micros, g.id, g.default_bid_micros, \
           k.id, k.bid_micros \
         FROM asa_keywords k JOIN asa_ad_groups g ON g.org_key = k.org_key AND g.id = k.ad_group_id \
         JOIN asa_campaigns c ON c.org_key = k.org_key AND c.id = k.campaign_id \
         JOIN sync_orgs o ON o.org_key = k.org_key \
         WHERE o.account_id = $1 AND k.deleted = 0 AND g.deleted = 0 AND c.deleted = 0 \
           AND k.status = 'ENABLED' AND g.status = 'ENABLED' AND c.status = 'ENABLED' \
           AND k.bid_micros IS NOT NULL AND g.default_bid_micros IS NOT NULL AND g.automated_keywords_opt_in = 1 \
           AND c.daily_budget_micros IS NOT NULL AND o.currency = 'USD' \
         ORDER BY k.id LIMIT 1",
    )
    .bind(account_id)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    Picked {
        account_id: account_id.to_string(),
        org_id: row.0,
        currency: row.1,
        campaign: row.2,
        budget_micros: row.3,
        group: row.4,
        group_bid_micros: row.5,
        keyword: row.6,
        keyword_bid_micros: row.7,
    }
}

async fn client(t: &Connected, account_id: &str) -> Arc<dyn AppleAds> {
    let row = store::accounts::by_id(&t.app.state.db.pool, account_id)
        .await
        .unwrap()
        .unwrap();
    t.app.state.provider.client_of(&row).unwrap()
}

fn query(p: &Picked) -> String {
    format!("accountId={}&orgId={}", p.account_id, p.org_id)
}

fn campaign_url(p: &Picked) -> String {
    format!("/api/asa/campaigns/update/{}?{}", p.campaign, query(p))
}

fn group_url(p: &Picked) -> String {
    format!("/api/asa/groups/updatesV2/{}?{}", p.campaign, query(p))
}

fn keyword_url(p: &Picked) -> String {
    format!(
        "/api/asa/keywords/update/{}/{}?{}",
        p.campaign,
        p.group,
        query(p)
    )
}

/// The row of entity `id` (`id_field`) in `asa/reports` at `level`, read as `cookie`.
async fn report_row(
    t: &Connected,
    p: &Picked,
    cookie: &str,
    level: &str,
    id_field: &str,
    id: i64,
) -> Value {
    let today = time::OffsetDateTime::now_utc().date();
    let mut body = json!({"level": level, "startDate": (today - time::Duration::days(6)).to_string(),
        "endDate": today.to_string(), "pageSize": 1000, "campaignId": p.campaign});
    if level == "KEYWORDS" {
        body["adGroupId"] = json!(p.group);
    }
    let res = t
        .call(
            Method::POST,
            &format!("/api/asa/reports?{}", query(p)),
            body,
            cookie,
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    res.json["result"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i[id_field].as_str().and_then(|s| s.parse::<i64>().ok()) == Some(id))
        .unwrap_or_else(|| panic!("{level} {id} in the report: {:?}", res.json))
        .clone()
}

fn amount(micros: i64) -> String {
    rust_decimal::Decimal::new(micros, 6)
        .normalize()
        .to_string()
}

fn field(res: &crate::common::TestResponse) -> String {
    res.json["errors"][0]["field"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

async fn records(t: &Connected, owner: &str) -> Vec<changes::ChangeRow> {
    let me = t.get("/api/auth/me", owner).await.json["result"]["item"].clone();
    let workspace_id = me["workspaceId"].as_str().unwrap().to_string();
    changes::list(
        &t.app.state.db.pool,
        &changes::Filter {
            workspace_id: &workspace_id,
            ..Default::default()
        },
        1000,
    )
    .await
    .unwrap()
}

/// What our database holds of the picked entities: campaign (budget, status), ad group
/// (bid, goal, status, opt-in), keyword (bid, status).
async fn ours(t: &Connected, p: &Picked) -> Value {
    let pool = &t.app.state.db.pool;
    let c: (Option<i64>, String) = sqlx::query_as(
        "SELECT c.daily_budget_micros, c.status FROM asa_campaigns c JOIN sync_orgs o ON o.org_key = c.org_key \
         WHERE o.account_id = $1 AND c.id = $2",
    )
    .bind(&p.account_id).bind(p.campaign).fetch_one(pool).await.unwrap();
    let g: (Option<i64>, Option<i64>, String, i64) = sqlx::query_as(
        "SELECT g.default_bid_micros, g.cpa_goal_micros, g.status, g.automated_keywords_opt_in FROM asa_ad_groups g \
         JOIN sync_orgs o ON o.org_key = g.org_key WHERE o.account_id = $1 AND g.id = $2",
    )
    .bind(&p.account_id).bind(p.group).fetch_one(pool).await.unwrap();
    let k: (Option<i64>, String) = sqlx::query_as(
        "SELECT k.bid_micros, k.status FROM asa_keywords k JOIN sync_orgs o ON o.org_key = k.org_key \
         WHERE o.account_id = $1 AND k.id = $2",
    )
    .bind(&p.account_id).bind(p.keyword).fetch_one(pool).await.unwrap();
    json!({"campaign": [c.0, c.1], "group": [g.0, g.1, g.2, g.3], "keyword": [k.0, k.1]})
}

/// Micros of a sandbox `Money` (`{"amount": "1.50", ...}`), or null.
fn micros(money: &Value) -> Value {
    money["amount"].as_str().map_or(Value::Null, |a| {
        let d: rust_decimal::Decimal = a.parse().unwrap();
        json!(
            rust_decimal::prelude::ToPrimitive::to_i64(
                &(d * rust_decimal::Decimal::from(1_000_000))
            )
            .unwrap()
        )
    })
}

/// What the sandbox holds of the same (money in micros).
async fn theirs(client: &dyn AppleAds, p: &Picked) -> Value {
    let c: Value = client
        .get(p.org_id, Entity::Campaigns, p.campaign)
        .await
        .unwrap();
    let g: Value = client
        .get(p.org_id, Entity::AdGroups, p.group)
        .await
        .unwrap();
    let k: Value = client
        .get(p.org_id, Entity::Keywords, p.keyword)
        .await
        .unwrap();
    json!({
        "campaign": [micros(&c["dailyBudget"]["value"]), c["status"]],
        "group": [micros(&g["bidStrategy"]["bid"]), micros(&g["cpaCap"]["value"]), g["status"], g["automatedKeywordsOptIn"]],
        "keyword": [micros(&k["bid"]), k["status"]],
    })
}
