//! A creation's request checked before anything is queued: readers refused, field errors
//! for bad input (an unknown app, a budget below Apple's minimum, a discovery campaign
//! without keywords, a taken name, a keyword longer than Apple takes), the plan's limits
//! (`LIMIT_HAS_BEEN_REACHED` with `meta.type`, counting the campaigns a running creation has
//! yet to make) and the name check.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use super::{Creation, campaign, group, put, tasks_of};
use crate::harness::Connected;

/// Every refusal of a creation, then the name check; returns the valid request the next
/// step sends.
pub async fn bad_input_and_limits_queue_nothing(t: &Connected, c: &Creation) -> Value {
    let (org_key, adam_id) = (c.org_key, c.adam_id);
    let (q, reader, writer) = (&c.q, c.reader.clone(), c.writer.clone());
    let app = (adam_id, c.country.as_str());
    let (country, page) = (c.country.as_str(), &c.page);

    // Readers may not write.
    for (method, path) in [
        (Method::PUT, format!("/api/asa/campaigns/asa/all?{q}")),
        (Method::PUT, format!("/api/asa/campaigns/copy?{q}")),
    ] {
        let res = t.call(method, &path, json!({}), &reader).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{path}");
    }

    let k: Vec<&str> = c.keywords.iter().map(String::as_str).collect();
    let too_long = "a".repeat(90);
    let mut exact = group("Exact", &k, "EXACT");
    exact["keywords"]
        .as_array_mut()
        .unwrap()
        .push(json!({"text": too_long, "matchType": "EXACT"}));
    let body = json!({
        "adamId": adam_id.to_string(),
        "campaigns": [
            campaign("T Brand Exact", app, vec![exact, group("Broad", &k[..5], "BROAD")]),
            campaign("T Generic", app, vec![group("Exact", &k[10..], "EXACT")]),
        ],
        "discovery": {"name": "T Discovery", "countriesOrRegions": [country],
            "dailyBudgetAmount": {"amount": "20", "currency": "USD"}, "defaultBidAmount": "1", "cpaGoal": null},
        "productPageId": page,
    });

    // Bad input: field errors, nothing queued. A keyword Apple would refuse for its length
    // is refused here, before anything is created.
    let res = put(t, c, body.clone(), writer.clone()).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
    assert_eq!(
        res.json["errors"][0]["field"],
        "campaigns.0.groups.0.keywords.20.text"
    );
    assert_eq!(
        res.json["errors"][0]["message"],
        format!("\"{too_long}\" is longer than 80 characters")
    );
    let mut body = body;
    body["campaigns"][0]["groups"][0]["keywords"]
        .as_array_mut()
        .unwrap()
        .pop();
    let mut bad = body.clone();
    bad["adamId"] = json!("999999999");
    bad["campaigns"][0]["adamId"] = json!(null);
    bad["campaigns"][1]["adamId"] = json!(null);
    let res = put(t, c, bad, writer.clone()).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
    assert_eq!(res.json["errors"][0]["field"], "adamId");
    let mut bad = body.clone();
    bad["campaigns"][0]["dailyBudgetAmount"] = json!({"amount": "0.50", "currency": "USD"});
    bad["campaigns"][1]["groups"][0]["defaultBidAmount"] = json!("abc");
    let res = put(t, c, bad, writer.clone()).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
    let fields: Vec<&str> = res.json["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        [
            "campaigns.0.dailyBudgetAmount",
            "campaigns.1.groups.0.defaultBidAmount"
        ]
    );
    assert_eq!(
        res.json["errors"][0]["message"],
        "Daily budget must be at least 1 USD"
    );
    let mut bad = body.clone();
    for c in bad["campaigns"].as_array_mut().unwrap() {
        for g in c["groups"].as_array_mut().unwrap() {
            g["keywords"] = json!([]);
        }
    }
    let res = put(t, c, bad, writer.clone()).await;
    assert_eq!(
        res.json["errors"][0]["field"], "campaigns",
        "{:?}",
        res.json
    );
    let existing_name: String = sqlx::query_scalar(
        "SELECT name FROM asa_campaigns WHERE org_key = $1 AND deleted = 0 ORDER BY id LIMIT 1",
    )
    .bind(org_key)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    let mut bad = body.clone();
    bad["campaigns"][1]["name"] = json!(existing_name.to_uppercase());
    let res = put(t, c, bad, writer.clone()).await;
    assert_eq!(res.json["errors"][0]["field"], "campaigns.1.name");
    assert_eq!(
        res.json["errors"][0]["message"],
        "A campaign with this name already exists"
    );
    // Limits, before anything is queued: ad groups of one creation, campaigns of the group.
    let mut big = body.clone();
    let groups: Vec<Value> = (0..40)
        .map(|i| group(&format!("G{i}"), &k[..1], "EXACT"))
        .collect();
    big["campaigns"] = json!(
        (0..3)
            .map(|i| campaign(&format!("T Big {i}"), app, groups.clone()))
            .collect::<Vec<_>>()
    );
    big["discovery"] = json!(null);
    let res = put(t, c, big, writer.clone()).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{:?}", res.json);
    assert_eq!(res.json["message"], "LIMIT_HAS_BEEN_REACHED");
    assert_eq!(res.json["meta"]["type"], "AVAILABLETARGETINGKEYWORDSGROUPS");
    let live: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM asa_campaigns WHERE org_key = $1 AND deleted = 0")
            .bind(org_key)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    for i in 0..(100 - live - 1).max(0) {
        sqlx::query("INSERT INTO asa_campaigns (org_key, id, name, status, deleted, synced_at) VALUES ($1, $2, $3, 'PAUSED', 0, 0)")
            .bind(org_key)
            .bind(9_000_000_000 + i)
            .bind(format!("Filler {i}"))
            .execute(&t.app.state.db.pool)
            .await
            .unwrap();
    }
    let res = put(t, c, body.clone(), writer.clone()).await;
    assert_eq!(
        res.json["meta"]["type"], "AVAILABLECAMPAIGNS",
        "{:?}",
        res.json
    );
    sqlx::query("DELETE FROM asa_campaigns WHERE org_key = $1 AND id >= 9000000000")
        .bind(org_key)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(tasks_of(t, "create-campaigns").await, 0);
    // A creation still running reserves the campaigns it has yet to make: the next one
    // counts them (checked with the workspace locked, so two cannot both pass).
    let pool = &t.app.state.db.pool;
    let (workspace_id, account_id, org_id): (String, String, i64) = sqlx::query_as(
        "SELECT a.workspace_id, a.id, o.org_id FROM sync_orgs o JOIN accounts a ON a.id = o.account_id WHERE o.org_key = $1",
    )
    .bind(org_key)
    .fetch_one(pool)
    .await
    .unwrap();
    let running = searchdeck_common::store::tasks::create(
        pool,
        searchdeck_common::tasks::NewTask {
            workspace_id: &workspace_id,
            user_id: None,
            kind: "copy-campaigns",
            message: "Copying campaigns...",
            total_steps: 1,
            account_id: Some(&account_id),
            org_id: Some(org_id),
        },
    )
    .await
    .unwrap();
    let reserve = |left: i64| searchdeck_common::jobs::CreationProgress {
        campaigns_created: 1,
        campaigns_total: (left + 1) as u64,
        ..Default::default()
    };
    let details = serde_json::to_value(reserve(100 - live)).unwrap();
    searchdeck_common::store::tasks::set_details(pool, &running, &details)
        .await
        .unwrap();
    let res = put(t, c, body.clone(), writer.clone()).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{:?}", res.json);
    assert_eq!(res.json["meta"]["type"], "AVAILABLECAMPAIGNS");
    sqlx::query("DELETE FROM tasks WHERE id = $1")
        .bind(&running)
        .execute(pool)
        .await
        .unwrap();
    assert_eq!(tasks_of(t, "create-campaigns").await, 0);

    // The name check (any member).
    let res = t
        .call(
            Method::POST,
            &format!("/api/asa/campaigns/exists?{q}"),
            json!({"names": [format!(" {} ", existing_name.to_lowercase()), "T Brand Exact"]}),
            &reader,
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    assert_eq!(res.json["result"]["items"][0]["exists"], true);
    assert!(res.json["result"]["items"][0]["campaignId"].is_string());
    assert_eq!(res.json["result"]["items"][1]["exists"], false);
    body
}
