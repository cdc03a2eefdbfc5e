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

use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};
use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use searchdeck_provider::{AppleAdsExt, Entity};
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

async fn run(t: Connected) {
    let owner = t.owner().await;
    let account = t.connect_until_reports_synced(&owner, "Creation").await;
    let (org_key, org_id, adam_id, country, page) = group_app_page(&t, &account).await;
    let app = (adam_id, country.as_str());
    let q = format!("accountId={account}&orgId={org_id}");
    let reader = t.app.member(&owner, Role::Reader).await;
    let writer = t.app.member(&owner, Role::Writer).await;

    // Readers may not write.
    for (method, path) in [
        (Method::PUT, format!("/api/asa/campaigns/asa/all?{q}")),
        (Method::PUT, format!("/api/asa/campaigns/copy?{q}")),
    ] {
        let res = t.call(method, &path, json!({}), &reader).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{path}");
    }

    let keywords: Vec<String> = (0..20).map(|i| format!("photo tool {i}")).collect();
    let k: Vec<&str> = keywords.iter().map(String::as_str).collect();
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
    let put = |body: Value, cookie: String| {
        let t = &t;
        let path = format!("/api/asa/campaigns/asa/all?{q}");
        async move { t.call(Method::PUT, &path, body, &cookie).await }
    };

    // Bad input: field errors, nothing queued. A keyword Apple would refuse for its length
    // is refused here, before anything is created.
    let res = put(body.clone(), writer.clone()).await;
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
    let res = put(bad, writer.clone()).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
    assert_eq!(res.json["errors"][0]["field"], "adamId");
    let mut bad = body.clone();
    bad["campaigns"][0]["dailyBudgetAmount"] = json!({"amount": "0.50", "currency": "USD"});
    bad["campaigns"][1]["groups"][0]["defaultBidAmount"] = json!("abc");
    let res = put(bad, writer.clone()).await;
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
    let res = put(bad, writer.clone()).await;
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
    let res = put(bad, writer.clone()).await;
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
    let res = put(big, writer.clone()).await;
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
    let res = put(body.clone(), writer.clone()).await;
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
    assert_eq!(tasks_of(&t, "create-campaigns").await, 0);
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
    let res = put(body.clone(), writer.clone()).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{:?}", res.json);
    assert_eq!(res.json["meta"]["type"], "AVAILABLECAMPAIGNS");
    sqlx::query("DELETE FROM tasks WHERE id = $1")
        .bind(&running)
        .execute(pool)
        .await
        .unwrap();
    assert_eq!(tasks_of(&t, "create-campaigns").await, 0);

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

    // The creation.
    let res = put(body.clone(), writer.clone()).await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    let id = res.json["result"]["id"].as_str().unwrap().to_string();
    let task = t.task_finished(&writer, &id).await;
    assert_eq!(task["error"], Value::Null, "{task}");
    assert_eq!(task["message"], "Campaigns created");
    let d = &task["details"];
    assert_eq!(
        (
            &d["campaignsCreated"],
            &d["campaignsTotal"],
            &d["groupsCreated"],
            &d["groupsTotal"],
            &d["keywordsTotal"],
            &d["keywordsCreated"],
            &d["finish"],
        ),
        (
            &json!(3),
            &json!(3),
            &json!(4),
            &json!(4),
            &json!(35),
            &json!(35),
            &json!(true)
        ),
        "{d}"
    );
    assert_eq!(d["errorsMethod"], json!([]));
    assert_eq!(
        d["rejected"],
        json!([]),
        "nothing refused item by item: {d}"
    );
    let names: Vec<&str> = d["campaignsMapping"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["T Brand Exact", "T Generic", "T Discovery"]);
    assert_eq!(
        d["discoveryCampaignId"],
        d["campaignsMapping"][2]["campaignId"]
    );
    assert_eq!(d["campaignsMapping"][2]["adGroups"][0]["name"], "General");
    // In our synced tables at once.
    assert_eq!(
        count(&t, CAMPAIGNS_NAMED, org_key, "T Brand Exact").await,
        1
    );
    assert_eq!(count(&t, GROUPS_OF, org_key, "T Brand Exact").await, 2);
    assert_eq!(count(&t, KEYWORDS_OF, org_key, "T Brand Exact").await, 25);
    assert_eq!(count(&t, NEGATIVES_OF, org_key, "T Brand Exact").await, 2);
    assert_eq!(count(&t, KEYWORDS_OF, org_key, "T Generic").await, 10);
    assert_eq!(count(&t, GROUPS_OF, org_key, "T Discovery").await, 1);
    // Every keyword of the plan, once, as an EXACT negative of General.
    assert_eq!(count(&t, NEGATIVES_OF, org_key, "T Discovery").await, 20);
    for name in ["T Brand Exact", "T Generic", "T Discovery"] {
        assert_eq!(
            count(&t, ADS_OF, org_key, name).await,
            count(&t, GROUPS_OF, org_key, name).await,
            "one custom product page ad per ad group of {name}"
        );
    }
    let status: String = sqlx::query_scalar(
        "SELECT status FROM asa_campaigns WHERE org_key = $1 AND name = 'T Discovery'",
    )
    .bind(org_key)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(status, "PAUSED");
    // In the campaigns report at once (paused, no metrics yet), before any sync.
    let today = time::OffsetDateTime::now_utc().date();
    let res = t
        .call(
            Method::POST,
            &format!("/api/asa/reports?{q}"),
            json!({"level": "CAMPAIGNS", "startDate": (today - time::Duration::days(7)).to_string(),
                   "endDate": today.to_string(), "pageSize": 1000}),
            &reader,
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    let listed: Vec<&str> = res.json["result"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["campaignName"].as_str())
        .collect();
    for name in ["T Brand Exact", "T Generic", "T Discovery"] {
        assert!(listed.contains(&name), "{name} in the report: {listed:?}");
    }
    let brand: String = d["campaignsMapping"][0]["campaignId"]
        .as_str()
        .unwrap()
        .to_string();

    // Ad groups from a list in the existing campaign; a taken name is a field error.
    let path = format!("/api/asa/groups/createByList/{brand}?{q}");
    let res = t
        .call(
            Method::POST,
            &path,
            json!({"groups": [group("exact", &k[..2], "EXACT")]}),
            &writer,
        )
        .await;
    assert_eq!(
        res.json["errors"][0]["field"], "groups.0.name",
        "{:?}",
        res.json
    );
    let res = t
        .call(
            Method::POST,
            &path,
            json!({"groups": [group("Extra", &k[..3], "EXACT")]}),
            &reader,
        )
        .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    let res = t
        .call(
            Method::POST,
            &path,
            json!({"groups": [group("Extra", &k[..3], "EXACT")]}),
            &writer,
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    let task = t
        .task_finished(&writer, res.json["result"]["id"].as_str().unwrap())
        .await;
    assert_eq!(task["details"]["campaignsTotal"], 0, "{task}");
    assert_eq!(task["details"]["groupsCreated"], 1);
    assert_eq!(count(&t, GROUPS_OF, org_key, "T Brand Exact").await, 3);

    // CPA goals per campaign.
    let res = t
        .call(
            Method::POST,
            &format!("/api/asa/groups/checkCampaignGroupsCPAGoals?{q}"),
            json!({"campaignIds": [brand]}),
            &reader,
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    assert_eq!(res.json["result"]["items"][0]["adGroups"], 3);
    assert_eq!(res.json["result"]["items"][0]["withoutCpaGoal"], 3);

    // Copies: twice with everything, named ' copy N'.
    let copy = |body: Value| {
        let t = &t;
        let writer = writer.clone();
        let path = format!("/api/asa/campaigns/copy?{q}");
        async move {
            let res = t.call(Method::PUT, &path, body, &writer).await;
            assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
            let task = t
                .task_finished(&writer, res.json["result"]["id"].as_str().unwrap())
                .await;
            assert_eq!(task["error"], Value::Null, "{task}");
            task
        }
    };
    let task = copy(json!({"campaigns": [brand], "numberOfCopies": 2})).await;
    let names: Vec<&str> = task["details"]["campaignsMapping"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["T Brand Exact copy 1", "T Brand Exact copy 2"]);
    for name in names {
        assert_eq!(count(&t, GROUPS_OF, org_key, name).await, 3, "{name}");
        assert_eq!(count(&t, KEYWORDS_OF, org_key, name).await, 28, "{name}");
        assert_eq!(count(&t, NEGATIVES_OF, org_key, name).await, 3, "{name}");
        assert_eq!(
            count(&t, ADS_OF, org_key, name).await,
            2,
            "{name}: the ads of the original"
        );
    }
    let status: String = sqlx::query_scalar(
        "SELECT status FROM asa_campaigns WHERE org_key = $1 AND name = 'T Brand Exact copy 1'",
    )
    .bind(org_key)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(status, "PAUSED");
    // Without ad groups (so no keywords, ad-group negatives or ads), without the campaign's
    // negatives, enabled.
    copy(json!({"campaigns": [brand], "adGroup": false, "campaignNegativeKeywords": false, "status": "ENABLED"}))
        .await;
    let name = "T Brand Exact copy 3";
    assert_eq!(count(&t, CAMPAIGNS_NAMED, org_key, name).await, 1);
    assert_eq!(count(&t, GROUPS_OF, org_key, name).await, 0);
    assert_eq!(count(&t, NEGATIVES_OF, org_key, name).await, 0);
    // Ad groups without ads, every bid and CPA goal overridden.
    copy(json!({"campaigns": [brand], "customAds": false, "cptBid": {"amount": "2.5", "currency": "USD"}, "cpaGoal": "3"}))
        .await;
    let name = "T Brand Exact copy 4";
    assert_eq!(count(&t, GROUPS_OF, org_key, name).await, 3);
    assert_eq!(count(&t, ADS_OF, org_key, name).await, 0);
    let bids: Vec<(Option<i64>, Option<i64>)> = sqlx::query_as(
        "SELECT g.default_bid_micros, g.cpa_goal_micros FROM asa_ad_groups g JOIN asa_campaigns c \
         ON c.org_key = g.org_key AND c.id = g.campaign_id WHERE g.org_key = $1 AND c.name = $2",
    )
    .bind(org_key)
    .bind(name)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    assert!(
        bids.iter()
            .all(|b| *b == (Some(2_500_000), Some(3_000_000))),
        "{bids:?}"
    );
    let kw_bids: Vec<Option<i64>> = sqlx::query_scalar(
        "SELECT k.bid_micros FROM asa_keywords k JOIN asa_campaigns c ON c.org_key = k.org_key AND c.id = k.campaign_id \
         WHERE k.org_key = $1 AND c.name = $2",
    )
    .bind(org_key)
    .bind(name)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(kw_bids.len(), 28);
    assert!(kw_bids.iter().all(|b| *b == Some(2_500_000)));
    // Campaigns of two apps in one request: each copy promotes its own original's app and
    // carries its ads (their creatives are that app's), both whole.
    let (other, other_name, other_app): (i64, String, i64) = sqlx::query_as(
        "SELECT c.id, c.name, c.adam_id FROM asa_campaigns c WHERE c.org_key = $1 AND c.deleted = 0 \
         AND c.adam_id IS NOT NULL AND c.adam_id <> $2 AND EXISTS (SELECT 1 FROM asa_ads a \
         WHERE a.org_key = c.org_key AND a.campaign_id = c.id AND a.deleted = 0) ORDER BY c.id LIMIT 1",
    )
    .bind(org_key)
    .bind(adam_id)
    .fetch_one(&t.app.state.db.pool)
    .await
    .expect("a campaign of another app with ads in the group");
    let task = copy(json!({"campaigns": [brand, other.to_string()]})).await;
    let made: Vec<(String, String)> = task["details"]["campaignsMapping"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["name"].as_str().unwrap().to_string(),
                m["campaignId"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(made.len(), 2, "{task}");
    assert_eq!(made[0].0, "T Brand Exact copy 5");
    assert_eq!(made[1].0, format!("{other_name} copy 1"));
    let row = searchdeck_common::store::accounts::by_id(&t.app.state.db.pool, &account)
        .await
        .unwrap()
        .unwrap();
    let client = t.app.state.provider.client_of(&row).unwrap();
    for ((name, id), (original, app)) in made
        .iter()
        .zip([(brand.clone(), adam_id), (other.to_string(), other_app)])
    {
        let c: Value = client
            .get(org_id, Entity::Campaigns, id.parse().unwrap())
            .await
            .unwrap();
        assert_eq!(
            c["promotedObjectId"]
                .as_str()
                .map(str::to_string)
                .or_else(|| c["promotedObjectId"].as_i64().map(|a| a.to_string())),
            Some(app.to_string()),
            "{name} promotes its original's app"
        );
        let original_ads: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM asa_ads WHERE org_key = $1 AND campaign_id = $2 AND deleted = 0",
        )
        .bind(org_key)
        .bind(original.parse::<i64>().unwrap())
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
        assert_eq!(
            count(&t, ADS_OF, org_key, name).await,
            original_ads,
            "{name}: every ad of {original}"
        );
    }
    // A campaign of no campaign group of the caller's: 404, nothing queued.
    let res = t
        .call(
            Method::PUT,
            &format!("/api/asa/campaigns/copy?{q}"),
            json!({"campaigns": ["123"]}),
            &writer,
        )
        .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
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
