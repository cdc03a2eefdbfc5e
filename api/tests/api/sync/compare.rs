//! Our synced metrics against the sandbox's own reports: totals of an org, its busiest
//! campaign and keyword over 30 days, and every day of the window, read from both sides and
//! compared exactly.

use std::{collections::BTreeMap, sync::Arc};

use searchdeck_provider::AppleAds;
use serde_json::{Value, json};

use super::sandbox_today;
use crate::harness::Connected;

/// (impressions, taps, installs, spend micros).
type Totals = (i64, i64, i64, i64);

fn add(a: Totals, b: Totals) -> Totals {
    (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3 + b.3)
}

fn micros(v: &Value) -> i64 {
    let s = v["amount"].as_str().unwrap();
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let mut frac = frac.to_string();
    while frac.len() < 6 {
        frac.push('0');
    }
    int.parse::<i64>().unwrap() * 1_000_000 + frac.parse::<i64>().unwrap()
}

fn totals(m: &Value) -> Totals {
    (
        m["impressions"].as_i64().unwrap(),
        m["taps"].as_i64().unwrap(),
        m["totalInstalls"].as_i64().unwrap(),
        micros(&m["localSpend"]),
    )
}

/// A provider client over the stored connection's credentials (as the jobs build it).
async fn client(t: &Connected, account_id: &str) -> Arc<dyn AppleAds> {
    let row = searchdeck_common::store::accounts::by_id(&t.app.state.db.pool, account_id)
        .await
        .unwrap()
        .unwrap();
    t.app.state.provider.client_of(&row).unwrap()
}

/// Every row of a sandbox report (no granularity: totals over the range), keyed by
/// `key(metadata)`.
async fn sandbox_report(
    client: &dyn AppleAds,
    org: i64,
    level: &str,
    from: time::Date,
    to: time::Date,
    filters: Value,
    daily: bool,
) -> Vec<Value> {
    let mut out = Vec::new();
    let mut offset = 0;
    loop {
        let mut range =
            json!({"start": from.to_string(), "end": to.to_string(), "timeZone": "ORTZ"});
        if daily {
            range["granularity"] = json!("DAILY");
        }
        let mut request = json!({
            "timeRange": range,
            "pagination": {"offset": offset, "pageSize": 1000},
        });
        if !filters.is_null() {
            request["filters"] = filters.clone();
        }
        let page = client.report(org, level, &request).await.unwrap();
        let n = page.items.len();
        out.extend(page.items);
        offset += n;
        if n < 1000 {
            return out;
        }
    }
}

/// Our sums over `asa_day_metrics` of a level, optionally of one entity, over a range.
async fn ours(
    t: &Connected,
    org_key: i64,
    level: i64,
    entity: Option<i64>,
    from: time::Date,
    to: time::Date,
) -> Totals {
    let postgres = t.app.state.db.backend == searchdeck_common::Backend::Postgres;
    let day = |n: u32| {
        if postgres {
            format!("CAST(${n} AS DATE)")
        } else {
            format!("${n}")
        }
    };
    let sql = format!(
        "SELECT CAST(COALESCE(SUM(impressions), 0) AS BIGINT), CAST(COALESCE(SUM(taps), 0) AS BIGINT), \
         CAST(COALESCE(SUM(tap_installs + view_installs), 0) AS BIGINT), \
         CAST(COALESCE(SUM(spend_micros), 0) AS BIGINT) FROM asa_day_metrics \
         WHERE org_key = $1 AND level = $2 AND day >= {} AND day <= {} AND ($5 = 0 OR entity_id = $6)",
        day(3),
        day(4)
    );
    sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(org_key)
        .bind(level)
        .bind(from.to_string())
        .bind(to.to_string())
        .bind(i64::from(entity.is_some()))
        .bind(entity.unwrap_or(0))
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

/// Our campaign-level rows (day, campaign) → totals over a range.
async fn our_days(
    t: &Connected,
    org_key: i64,
    from: time::Date,
    to: time::Date,
) -> BTreeMap<(String, i64), Totals> {
    let rows: Vec<(String, i64, i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT CAST(day AS TEXT), entity_id, impressions, taps, tap_installs + view_installs, \
         spend_micros FROM asa_day_metrics WHERE org_key = $1 AND level = 1",
    )
    .bind(org_key)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    rows.into_iter()
        .filter(|r| {
            r.0.as_str() >= from.to_string().as_str() && r.0.as_str() <= to.to_string().as_str()
        })
        .map(|r| ((r.0, r.1), (r.2, r.3, r.4, r.5)))
        .collect()
}

/// Checks org, campaign and keyword totals over the 30 days before the sandbox's today,
/// and every campaign-day of the trailing window, against the sandbox's reports.
pub async fn check_against_sandbox(t: &Connected, account_id: &str) {
    let client = client(t, account_id).await;
    let today = sandbox_today(t).await;
    let (from, to) = (
        today - time::Duration::days(30),
        today - time::Duration::days(1),
    );
    let orgs: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT org_key, org_id FROM sync_orgs WHERE account_id = $1 ORDER BY org_id",
    )
    .bind(account_id)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    assert!(!orgs.is_empty(), "the campaign groups are synced");
    let mut checked_keyword = false;
    for (org_key, org_id) in orgs {
        let campaigns = sandbox_report(
            client.as_ref(),
            org_id,
            "campaigns",
            from,
            to,
            Value::Null,
            false,
        )
        .await;
        let org_total = campaigns
            .iter()
            .map(|r| totals(&r["totalMetrics"]))
            .fold((0, 0, 0, 0), add);
        assert_eq!(
            ours(t, org_key, 1, None, from, to).await,
            org_total,
            "org {org_id} over {from}..{to}"
        );
        let Some(top) = campaigns
            .iter()
            .max_by_key(|r| totals(&r["totalMetrics"]).3)
        else {
            continue;
        };
        let campaign_id = top["metadata"]["id"].as_i64().unwrap();
        assert_eq!(
            ours(t, org_key, 1, Some(campaign_id), from, to).await,
            totals(&top["totalMetrics"]),
            "campaign {campaign_id}"
        );
        let filter = json!([{"field": "campaignId", "operator": "IN", "value": [campaign_id]}]);
        let keywords =
            sandbox_report(client.as_ref(), org_id, "keywords", from, to, filter, false).await;
        if let Some(k) = keywords.iter().max_by_key(|r| totals(&r["totalMetrics"]).1) {
            let keyword_id = k["metadata"]["id"].as_i64().unwrap();
            assert_eq!(
                ours(t, org_key, 3, Some(keyword_id), from, to).await,
                totals(&k["totalMetrics"]),
                "keyword {keyword_id}"
            );
            checked_keyword |= org_total.0 > 0;
        }
        // Every campaign-day of the trailing window, today included, as the sandbox says now.
        let window_from = today - time::Duration::days(29);
        let daily = sandbox_report(
            client.as_ref(),
            org_id,
            "campaigns",
            window_from,
            today,
            Value::Null,
            true,
        )
        .await;
        let mut theirs = BTreeMap::new();
        for row in &daily {
            let id = row["metadata"]["id"].as_i64().unwrap();
            for m in row["granularMetrics"].as_array().into_iter().flatten() {
                let tot = totals(m);
                if tot != (0, 0, 0, 0) {
                    theirs.insert((m["date"].as_str().unwrap().to_string(), id), tot);
                }
            }
        }
        let mine: BTreeMap<_, _> = our_days(t, org_key, window_from, today)
            .await
            .into_iter()
            .filter(|(_, v)| *v != (0, 0, 0, 0))
            .collect();
        assert_eq!(mine, theirs, "campaign days of org {org_id}");
    }
    assert!(checked_keyword, "some keyword had metrics to compare");
}
