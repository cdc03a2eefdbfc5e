//! A raised bid in the sandbox's next day of metrics: the keywords we raised get more
//! impressions and spend than the same keywords of a control world left alone.

use axum::http::{Method, StatusCode};
use searchdeck_provider::{AppleAds, AppleAdsExt, Client, Entity};
use serde_json::{Value, json};

use super::{Picked, amount, client, pick, query};
use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};

/// A provider client of a sandbox for a freshly registered key (the control world).
async fn control_client(t: &Connected, base: &str) -> Client {
    let key = searchdeck_provider::KeyPair::generate();
    let ids: Value = t
        .http
        .post(format!("{base}/sandbox/keys"))
        .body(key.public_pem())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let field = |k: &str| ids[k].as_str().unwrap().to_string();
    Client::new(
        searchdeck_provider::ClientConfig::sandbox(base),
        searchdeck_provider::Credentials::ClientCredentials {
            client_id: field("clientId"),
            team_id: field("teamId"),
            key_id: field("keyId"),
            key,
        },
    )
    .unwrap()
}

/// Impressions and spend (micros) of each keyword of the picked campaign on `day`.
async fn keyword_day(
    client: &dyn AppleAds,
    p: &Picked,
    day: &str,
) -> std::collections::HashMap<i64, (i64, i64)> {
    let request = json!({
        "timeRange": {"start": day, "end": day, "timeZone": "ORTZ"},
        "fields": ["impressions", "localSpend"],
        "filters": [{"field": "campaignId", "operator": "IN", "value": [p.campaign]}],
        "sorting": [{"field": "id", "order": "ASC"}],
        "pagination": {"offset": 0, "pageSize": 1000},
    });
    let page = client.report(p.org_id, "keywords", &request).await.unwrap();
    page.items
        .iter()
        .filter_map(|row| {
            let meta = &row["metadata"]["id"];
            let id = meta
                .as_i64()
                .or_else(|| meta.as_str().and_then(|s| s.parse().ok()))?;
            let m = &row["totalMetrics"];
            let spend = m["localSpend"]["amount"]
                .as_str()
                .and_then(|a| a.parse::<rust_decimal::Decimal>().ok())
                .and_then(|d| {
                    rust_decimal::prelude::ToPrimitive::to_i64(
                        &(d * rust_decimal::Decimal::from(1_000_000)),
                    )
                })
                .unwrap_or(0);
            Some((id, (m["impressions"].as_i64().unwrap_or(0), spend)))
        })
        .collect()
}

sandbox_tests! {
    async fn a_raised_bid_shows_in_the_sandboxs_next_day_metrics(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Edited").await;
        let p = pick(&t, &account_id).await;
        // A control sandbox: the same seeded world, where nothing is raised.
        let control_base = start_sandbox().await;
        let control = control_client(&t, &control_base).await;
        let ours = client(&t, &account_id).await;
        // Both clocks stand still on the same day.
        let mut today = String::new();
        for base in [&t.sandbox, &control_base] {
            let clock: Value = t.http.put(format!("{base}/sandbox/clock")).json(&json!({"running": false}))
                .send().await.unwrap().json().await.unwrap();
            let day = clock["today"].as_str().unwrap().to_string();
            assert!(today.is_empty() || today == day, "both sandboxes on one day");
            today = day;
        }
        // The enabled keywords of the picked ad group, with their bids.
        let keywords: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT k.id, k.bid_micros FROM asa_keywords k JOIN sync_orgs o ON o.org_key = k.org_key \
             WHERE o.account_id = $1 AND k.ad_group_id = $2 AND k.deleted = 0 AND k.status = 'ENABLED' \
               AND k.bid_micros IS NOT NULL ORDER BY k.id LIMIT 20")
            .bind(&account_id).bind(p.group).fetch_all(&t.app.state.db.pool).await.unwrap();
        assert!(!keywords.is_empty());
        // A budget no day can spend, in both worlds, so only the bids differ.
        for c in [ours.as_ref(), &control as &dyn AppleAds] {
            let _: Value = c.update(p.org_id, Entity::Campaigns, p.campaign,
                &json!({"dailyBudget": {"value": {"amount": "100000", "currency": p.currency}}})).await.unwrap();
        }
        // Triple every bid through the quick edit (the new bids serve from the next day).
        for (id, bid) in &keywords {
            let res = t.call(Method::PUT, &format!("/api/asa/keywords/update/{}/{}?{}", p.campaign, p.group, query(&p)),
                json!({"keywordId": id, "cptBid": amount(bid * 3)}), &owner).await;
            assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        }
        // Two days later, the day after the edit is complete in both worlds.
        for base in [&t.sandbox, &control_base] {
            let res = t.http.put(format!("{base}/sandbox/clock")).json(&json!({"advanceDays": 2, "running": false})).send().await.unwrap();
            assert!(res.status().is_success());
        }
        let next_day = (time::Date::parse(&today, &time::format_description::well_known::Iso8601::DATE).unwrap()
            + time::Duration::days(1)).to_string();
        let raised = keyword_day(ours.as_ref(), &p, &next_day).await;
        let unraised = keyword_day(&control, &p, &next_day).await;
        let ids: Vec<i64> = keywords.iter().map(|k| k.0).collect();
        let sum = |m: &std::collections::HashMap<i64, (i64, i64)>, f: fn(&(i64, i64)) -> i64| -> i64 {
            ids.iter().filter_map(|id| m.get(id)).map(f).sum()
        };
        let (raised_impr, unraised_impr) = (sum(&raised, |v| v.0), sum(&unraised, |v| v.0));
        let (raised_spend, unraised_spend) = (sum(&raised, |v| v.1), sum(&unraised, |v| v.1));
        eprintln!("next day of {} keywords: impressions {unraised_impr} → {raised_impr}, spend {unraised_spend} → {raised_spend} micros", ids.len());
        assert!(unraised_impr > 0, "the keywords serve: {unraised:?}");
        assert!(raised_impr > unraised_impr, "more impressions with the raise: {raised:?} vs {unraised:?}");
        assert!(raised_spend > unraised_spend, "more spend with the raise");
        // The busiest keyword alone shows it too.
        let busiest = *ids.iter().max_by_key(|id| unraised.get(id).map_or(0, |v| v.0)).unwrap();
        assert!(raised[&busiest].0 > unraised[&busiest].0, "keyword {busiest}: {:?} vs {:?}", raised[&busiest], unraised[&busiest]);
        // Diminishing returns: three times the bid does not triple the impressions.
        assert!(raised_impr < unraised_impr * 3, "{raised_impr} vs {unraised_impr}");
    }
}
