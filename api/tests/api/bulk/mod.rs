//! Bulk edits through the `bulk-edit` job against the in-process sandbox, on SQLite and
//! PostgreSQL, after a real connect and sync (docs/api/edits.md):
//!
//! - `keywords`: a raise by 10 % over keywords is applied exactly once (sandbox, our rows,
//!   one change record per keyword with the job's id, per-item results on the task), and the
//!   same job run again after a simulated crash applies no relative change twice; a lower
//!   that takes some bids below the sandbox's minimum finishes with errors listing exactly
//!   those, the others applied; a pause run twice skips the second time.
//! - `requests`: the bulk routes as the OpenAPI document describes them, and bad requests
//!   (over 10,000 items, money and operation rules, unknown ids, another workspace, readers)
//!   refused before anything is queued.
//! - `campaigns_and_groups`: campaigns and ad groups edited one call each, every ad group of
//!   several campaigns, renames by part of a name, negatives at both levels and deletions.
//! - `under_faults`: 5xx answers and 429 bursts from Apple still apply every item exactly
//!   once, the throughput over a whole campaign group, and 2,000 keywords of the mid-size
//!   world under faults.
//!
//! The fixtures below pick the campaign with the most keywords of a USD campaign group and
//! read bids, change records and the sandbox's change history back.

mod campaigns_and_groups;
mod keywords;
mod requests;
mod under_faults;

use std::{collections::HashMap, sync::Arc};

use axum::http::StatusCode;
use rust_decimal::{Decimal, prelude::ToPrimitive};
use searchdeck_common::store::{self, changes};
use searchdeck_provider::{AppleAds, AppleAdsExt, Entity};
use serde_json::{Value, json};

use crate::harness::Connected;

/// A USD campaign group's campaign with the most live keywords with bids, and those keywords
/// (id, bid micros), ascending by id.
struct Picked {
    account_id: String,
    org_id: i64,
    org_key: i64,
    campaign: i64,
    keywords: Vec<(i64, i64)>,
}

async fn pick(t: &Connected, account_id: &str) -> Picked {
    let pool = &t.app.state.db.pool;
    let (org_key, org_id, campaign): (i64, i64, i64) = sqlx::query_as(
        "SELECT o.org_key, o.org_id, k.campaign_id FROM asa_keywords k \
         JOIN sync_orgs o ON o.org_key = k.org_key \
         WHERE o.account_id = $1 AND o.currency = 'USD' AND k.deleted = 0 AND k.bid_micros IS NOT NULL \
         GROUP BY o.org_key, o.org_id, k.campaign_id ORDER BY COUNT(*) DESC, k.campaign_id LIMIT 1",
    )
    .bind(account_id)
    .fetch_one(pool)
    .await
    .unwrap();
    let keywords: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT id, bid_micros FROM asa_keywords WHERE org_key = $1 AND campaign_id = $2 \
         AND deleted = 0 AND bid_micros IS NOT NULL ORDER BY id",
    )
    .bind(org_key)
    .bind(campaign)
    .fetch_all(pool)
    .await
    .unwrap();
    assert!(
        keywords.len() >= 6,
        "a campaign with keywords: {keywords:?}"
    );
    Picked {
        account_id: account_id.to_string(),
        org_id,
        org_key,
        campaign,
        keywords,
    }
}

async fn client(t: &Connected, account_id: &str) -> Arc<dyn AppleAds> {
    let row = store::accounts::by_id(&t.app.state.db.pool, account_id)
        .await
        .unwrap()
        .unwrap();
    t.app.state.provider.client_of(&row).unwrap()
}

fn keywords_url(p: &Picked) -> String {
    format!(
        "/api/asa/keywords/update/targeting/{}?accountId={}&orgId={}",
        p.campaign, p.account_id, p.org_id
    )
}

fn amount(micros: i64) -> String {
    Decimal::new(micros, 6).normalize().to_string()
}

fn money_micros(v: &Value) -> i64 {
    let d: Decimal = v["amount"].as_str().unwrap().parse().unwrap();
    (d * Decimal::from(1_000_000)).to_i64().unwrap()
}

/// 10 % more, floored to cents.
fn raised(micros: i64) -> i64 {
    let d = Decimal::new(micros, 6) * Decimal::new(11, 1);
    let cents = (d * Decimal::from(100)).floor();
    (cents * Decimal::from(10_000)).to_i64().unwrap()
}

/// Our stored bids of `ids`.
async fn our_bids(t: &Connected, p: &Picked) -> HashMap<i64, i64> {
    let rows: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT id, bid_micros FROM asa_keywords WHERE org_key = $1 AND campaign_id = $2 AND bid_micros IS NOT NULL",
    )
    .bind(p.org_key)
    .bind(p.campaign)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    rows.into_iter().collect()
}

async fn their_bid(client: &dyn AppleAds, p: &Picked, id: i64) -> i64 {
    let k: Value = client.get(p.org_id, Entity::Keywords, id).await.unwrap();
    money_micros(&k["bid"])
}

async fn job_records(t: &Connected, job_id: &str) -> Vec<(i64, Option<String>, Option<String>)> {
    let mut rows = changes::of_job(&t.app.state.db.pool, job_id, "KEYWORD", "cptBid")
        .await
        .unwrap();
    rows.sort();
    rows
}

async fn job_id_of(t: &Connected) -> String {
    sqlx::query_scalar(
        "SELECT job_id FROM job_runs WHERE kind = 'bulk-edit' ORDER BY created_at LIMIT 1",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap()
}

/// Waits for the bulk edit a route answered and returns its task.
async fn completed(t: &Connected, owner: &str, res: crate::common::TestResponse) -> Value {
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    t.task_finished(
        owner,
        res.json["result"]["item"]["taskId"].as_str().unwrap(),
    )
    .await
}

/// Per keyword of the picked campaign: how many UPDATE events the sandbox's change history
/// holds (an update that changes nothing is not recorded; no test changed these before).
async fn bid_updates(client: &dyn AppleAds, p: &Picked) -> HashMap<i64, usize> {
    let mut out: HashMap<i64, usize> = HashMap::new();
    let mut offset = 0;
    loop {
        let page = client.change_history(p.org_id, &json!({
            "filters": [
                {"field": "eventTime", "operator": "GREATER_THAN", "value": "2000-01-01"},
                {"field": "entityType", "operator": "EQUALS", "value": ["Keyword"]},
                {"field": "campaignId", "operator": "EQUALS", "value": [p.campaign.to_string()]},
            ],
            "pagination": {"offset": offset, "pageSize": 1000},
            "options": {"metadata": "snapshot"},
        })).await.unwrap();
        let n = page.items.len();
        for row in &page.items {
            if row["eventType"] != "UPDATE" {
                continue;
            }
            for m in row["metas"].as_array().into_iter().flatten() {
                *out.entry(m["Keyword"].as_str().unwrap().parse().unwrap())
                    .or_default() += 1;
            }
        }
        offset += n;
        if n < 1000 {
            return out;
        }
    }
}
