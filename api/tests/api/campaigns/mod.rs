//! The report area's smaller routes over seeded synced rows, on SQLite and PostgreSQL:
//! campaign and ad group reads, mark-hidden (editors only), active keyword counts,
//! additional info, totals and forecasts checked against hand-computed sums; another
//! workspace's account or campaign answers 404; and the change history read from the
//! sandbox after a real change.

pub(crate) mod seed;

use crate::common::{TestApp, TestBackend};
use crate::harness::{Connected, args, start_sandbox};
use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use searchdeck_provider::{AppleAdsExt, Entity};
use serde_json::{Value, json};

use searchdeck_api::routes::campaigns;
use searchdeck_common::store;
use seed::{Campaign, Day};

/// A workspace with one connection of two campaign groups and their synced entities.
struct World {
    owner: String,
    account: String,
    /// Org keys of campaign groups 100 (USD) and 200 (EUR).
    a: i64,
    b: i64,
}

const SEARCH_BODY: &str = r#"{"adChannelType":"SEARCH","billingEvent":"TAPS","supplySources":["APPSTORE_SEARCH_RESULTS"],"budgetAmount":{"amount":"1000","currency":"USD"}}"#;

async fn world(app: &TestApp) -> World {
    let owner = app.register(&app.email(), "long password").await;
    let account = seed::account(app, &owner, 1).await;
    let a = seed::org(app, &account, 100, "Group A", "USD").await;
    let b = seed::org(app, &account, 200, "Group B", "EUR").await;
    let c = |id, name, status, display, budget, deleted| Campaign {
        id,
        name,
        adam_id: 900,
        status,
        display_status: display,
        budget_micros: budget,
        countries: r#"["US","GB"]"#,
        deleted,
        body: SEARCH_BODY,
    };
    seed::campaign(
        app,
        a,
        c(11, "Alpha", "ENABLED", "RUNNING", 50_000_000, false),
    )
    .await;
    seed::campaign(app, a, c(12, "Beta", "ENABLED", "RUNNING", 1_000_000, true)).await;
    seed::campaign(app, a, c(13, "Gamma", "PAUSED", "PAUSED", 7_500_000, false)).await;
    seed::campaign(
        app,
        b,
        c(21, "Delta", "ENABLED", "RUNNING", 20_000_000, false),
    )
    .await;
    let targeting =
        r#"{"pricingModel":"CPC","targetingDimensions":{"deviceClass":{"included":["IPHONE"]}}}"#;
    seed::ad_group(
        app,
        a,
        (111, 11, "G one", "ENABLED", "RUNNING", 1_250_000, false),
        targeting,
    )
    .await;
    seed::ad_group(
        app,
        a,
        (112, 11, "G two", "PAUSED", "PAUSED", 2_000_000, false),
        "{}",
    )
    .await;
    seed::ad_group(
        app,
        a,
        (113, 11, "G three", "ENABLED", "RUNNING", 1_000_000, true),
        "{}",
    )
    .await;
    seed::ad_group(
        app,
        a,
        (131, 13, "G gamma", "ENABLED", "RUNNING", 1_000_000, false),
        "{}",
    )
    .await;
    seed::ad_group(
        app,
        b,
        (211, 21, "G delta", "ENABLED", "RUNNING", 1_000_000, false),
        "{}",
    )
    .await;
    for k in [
        (1001, 11, 111, "ACTIVE", false),
        (1002, 11, 111, "PAUSED", false),
        (1003, 11, 111, "ACTIVE", true),
        (1004, 11, 112, "ACTIVE", false),
        (1005, 11, 113, "ACTIVE", false),
    ] {
        seed::keyword(app, a, k).await;
    }
    seed::keyword(app, b, (2001, 21, 211, "ACTIVE", false)).await;
    seed::negative(app, a, 5001, 11, None, false).await;
    seed::negative(app, a, 5002, 11, Some(111), false).await;
    seed::negative(app, a, 5003, 11, None, true).await;
    seed::ad(app, a, 6001, 11, 111, false).await;
    seed::ad(app, a, 6002, 11, 112, true).await;
    seed::app_with_pages(
        app,
        a,
        900,
        "Seeded App",
        &[("pp-b", "Beta page"), ("pp-a", "Alpha page")],
    )
    .await;
    World {
        owner,
        account,
        a,
        b,
    }
}

fn names(res: &Value) -> Vec<String> {
    res["result"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            i["campaignName"]
                .as_str()
                .or(i["adGroupName"].as_str())
                .unwrap()
                .to_string()
        })
        .collect()
}

fn field(res: &crate::common::TestResponse) -> &str {
    res.json["errors"][0]["field"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn every_route_is_documented_with_resolvable_schemas() {
    let app = TestApp::sqlite_with(&[]).await;
    let doc = app.get("/api/openapi.json", None).await.json;
    for (m, path) in [
        ("get", "/api/asa/campaigns/list"),
        ("get", "/api/asa/campaigns/{id}"),
        ("get", "/api/asa/groups/{id}"),
        ("get", "/api/asa/groups/{a}/{b}"),
        ("post", "/api/asa/campaigns/mark-hidden"),
        ("post", "/api/asa/campaigns/calculateActiveKeywords"),
        ("post", "/api/asa/reports/changes"),
        ("post", "/api/asa/reports/additionalInfo/{id}"),
        ("post", "/api/asa/reports/totalsForAllAccounts"),
        ("post", "/api/asa/reports/totalsForCampaignsGroups"),
        ("post", "/api/asa/reports/calculateForecasts"),
    ] {
        let op = &doc["paths"][path][m];
        assert!(
            op["responses"]["200"].is_object(),
            "{m} {path} is documented"
        );
        let scoped = path != "/api/asa/reports/totalsForAllAccounts";
        assert_eq!(
            op["responses"]["404"].is_object(),
            scoped,
            "{m} {path} documents 404 iff scoped by an id"
        );
    }
    assert_eq!(
        doc["paths"]["/api/asa/groups/{a}/{b}"]["get"]["x-resource"],
        json!({"kind": "campaign", "param": "a", "children": ["b"]})
    );
    assert_eq!(
        doc["paths"]["/api/asa/campaigns/mark-hidden"]["post"]["x-roles"],
        json!(["owner", "admin", "writer"])
    );
    let text = doc.to_string();
    for r in text.split("\"$ref\":\"").skip(1) {
        let name = r
            .split('"')
            .next()
            .unwrap()
            .trim_start_matches("#/components/schemas/");
        assert!(
            doc["components"]["schemas"][name].is_object(),
            "{name} resolves"
        );
    }
}

backend_tests! {
    async fn campaign_list_and_settings(app: TestApp) {
        let w = world(&app).await;
        let o = Some(w.owner.as_str());
        let base = format!("/api/asa/campaigns/list?accountId={}", w.account);
        let all = app.get(&base, o).await;
        assert_eq!(all.status, StatusCode::OK, "{:?}", all.json);
        assert_eq!(names(&all.json), ["Alpha", "Gamma", "Delta"]);
        let first = &all.json["result"]["items"][0];
        assert_eq!((first["campaignId"].clone(), first["orgId"].clone(), first["servingStatus"].clone(), first["hidden"].clone()), (json!("11"), json!("100"), json!("RUNNING"), json!(false)));
        assert_eq!(all.json["result"]["items"][1]["servingStatus"], "NOT_RUNNING");
        let one_org = app.get(&format!("{base}&orgId=100"), o).await;
        assert_eq!(names(&one_org.json), ["Alpha", "Gamma"]);
        let with_deleted = app.get(&format!("{base}&orgId=100&includeDeleted=true"), o).await;
        assert_eq!(names(&with_deleted.json), ["Alpha", "Beta", "Gamma"]);
        assert_eq!(with_deleted.json["result"]["items"][1]["deleted"], true);
        for (q, f) in [("&orgId=999", "orgId"), ("&orgId=abc", "orgId"), ("&includeDeleted=maybe", "includeDeleted")] {
            let res = app.get(&format!("{base}{q}"), o).await;
            assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, f), "{q}: {:?}", res.json);
        }

        let one = app.get("/api/asa/campaigns/11", o).await;
        assert_eq!(one.status, StatusCode::OK, "{:?}", one.json);
        let item = &one.json["result"]["item"];
        assert_eq!(item["campaignName"], "Alpha");
        assert_eq!(item["dailyBudgetAmount"], json!({"amount": "50", "currency": "USD"}));
        assert_eq!(item["budgetAmount"], json!({"amount": "1000", "currency": "USD"}));
        assert_eq!(item["countriesOrRegions"], json!(["US", "GB"]));
        assert_eq!((item["adChannelType"].as_str(), item["billingEvent"].as_str()), (Some("SEARCH"), Some("TAPS")));
        assert_eq!(item["supplySources"], json!(["APPSTORE_SEARCH_RESULTS"]));
        let scoped = app.get(&format!("/api/asa/campaigns/21?accountId={}&orgId=200", w.account), o).await;
        assert_eq!(scoped.json["result"]["item"]["dailyBudgetAmount"], json!({"amount": "20", "currency": "EUR"}));
        for path in ["/api/asa/campaigns/21?orgId=100", "/api/asa/campaigns/999", "/api/asa/campaigns/abc", "/api/asa/campaigns/11?accountId=other"] {
            let res = app.get(path, o).await;
            assert_eq!((res.status, res.message()), (StatusCode::NOT_FOUND, "Campaign not found"), "{path}");
        }
        // A deleted campaign is still readable by id (its past metrics keep a name).
        assert_eq!(app.get("/api/asa/campaigns/12", o).await.json["result"]["item"]["deleted"], true);

        let groups = app.get("/api/asa/groups/11", o).await;
        assert_eq!(names(&groups.json), ["G one", "G two"]);
        assert_eq!(groups.json["result"]["items"][0]["defaultBidAmount"], json!({"amount": "1.25", "currency": "USD"}));
        assert_eq!(groups.json["result"]["items"][1]["adGroupServingStatus"], "NOT_RUNNING");
        assert_eq!(names(&app.get("/api/asa/groups/11?includeDeleted=1", o).await.json), ["G one", "G three", "G two"]);

        let group = app.get("/api/asa/groups/11/111", o).await;
        assert_eq!(group.status, StatusCode::OK, "{:?}", group.json);
        let g = &group.json["result"]["item"];
        assert_eq!((g["adGroupName"].as_str(), g["campaignId"].as_str(), g["orgId"].as_str()), (Some("G one"), Some("11"), Some("100")));
        assert_eq!(g["pricingModel"], "CPC");
        assert_eq!(g["targetingDimensions"]["deviceClass"]["included"], json!(["IPHONE"]));
        assert_eq!(g["automatedKeywordsOptIn"], true);
        // An ad group of another campaign is not found under this one.
        for path in ["/api/asa/groups/11/131", "/api/asa/groups/11/x"] {
            let res = app.get(path, o).await;
            assert_eq!((res.status, res.message()), (StatusCode::NOT_FOUND, "Ad group not found"), "{path}");
        }
        assert_eq!(app.get("/api/asa/groups/13/131", o).await.status, StatusCode::OK);
    }

    async fn another_workspace_gets_404(app: TestApp) {
        let w = world(&app).await;
        let stranger = app.register(&app.email(), "long password").await;
        let s = Some(stranger.as_str());
        // The stranger's own connection to the same Apple Ads user has no synced data.
        seed::account(&app, &stranger, 1).await;
        let acc = &w.account;
        for (m, path) in [
            (Method::GET, format!("/api/asa/campaigns/list?accountId={acc}")),
            (Method::GET, "/api/asa/campaigns/11".to_string()),
            (Method::GET, "/api/asa/groups/11".to_string()),
            (Method::GET, "/api/asa/groups/11/111".to_string()),
            (Method::POST, format!("/api/asa/campaigns/mark-hidden?accountId={acc}")),
            (Method::POST, format!("/api/asa/campaigns/calculateActiveKeywords?accountId={acc}")),
            (Method::POST, format!("/api/asa/reports/additionalInfo/11?accountId={acc}")),
            (Method::POST, format!("/api/asa/reports/changes?accountId={acc}&orgId=100")),
        ] {
            let res = app.request(m.clone(), &path, Some(json!({"campaignIds": [11]})), s).await;
            assert_eq!(res.status, StatusCode::NOT_FOUND, "{m} {path}: {:?}", res.json);
        }
        // Nothing was hidden by the stranger's attempt.
        let list = app.get(&format!("/api/asa/campaigns/list?accountId={acc}"), Some(&w.owner)).await;
        assert_eq!(list.json["result"]["items"][0]["hidden"], false);
    }

    async fn mark_hidden_needs_an_editor(app: TestApp) {
        let w = world(&app).await;
        let reader = app.member(&w.owner, Role::Reader).await;
        let writer = app.member(&w.owner, Role::Writer).await;
        let path = format!("/api/asa/campaigns/mark-hidden?accountId={}", w.account);
        let res = app.post(&path, json!({"campaignIds": [11]}), Some(&reader)).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN);
        let url = format!("/api/asa/campaigns/list?accountId={}", w.account);
        let hidden = |res: crate::common::TestResponse| -> Vec<i64> {
            res.json["result"]["items"].as_array().unwrap().iter()
                .filter(|i| i["hidden"] == true)
                .map(|i| i["campaignId"].as_str().unwrap().parse::<i64>().unwrap())
                .collect()
        };
        assert!(hidden(app.get(&url, Some(&reader)).await).is_empty());
        // One unknown id refuses the whole request.
        let res = app.post(&path, json!({"campaignIds": [11, 999]}), Some(&writer)).await;
        assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, "campaignIds.1"), "{:?}", res.json);
        assert!(hidden(app.get(&url, Some(&reader)).await).is_empty());
        for body in [json!({}), json!({"campaignIds": []})] {
            let res = app.post(&path, body, Some(&writer)).await;
            assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, "campaignIds"));
        }
        let res = app.post(&path, json!({"campaignIds": [11, 21, 11]}), Some(&writer)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["items"], json!([
            {"campaignId": "11", "orgId": "100", "hidden": true},
            {"campaignId": "21", "orgId": "200", "hidden": true},
        ]));
        assert_eq!(hidden(app.get(&url, Some(&reader)).await), [11, 21]);
        // Scoped to one campaign group, a campaign of the other is unknown.
        let res = app.post(&format!("{path}&orgId=100"), json!({"campaignIds": [21], "hidden": false}), Some(&w.owner)).await;
        assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, "campaignIds.0"));
        let res = app.post(&format!("{path}&orgId=200"), json!({"campaignIds": [21], "hidden": false}), Some(&w.owner)).await;
        assert_eq!(res.status, StatusCode::OK);
        assert_eq!(hidden(app.get(&url, Some(&reader)).await), [11]);
    }

    async fn active_keywords_and_additional_info(app: TestApp) {
        let w = world(&app).await;
        let reader = app.member(&w.owner, Role::Reader).await;
        let r = Some(reader.as_str());
        let path = format!("/api/asa/campaigns/calculateActiveKeywords?accountId={}", w.account);
        let res = app.post(&path, json!({}), r).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        // Alpha: 1001 (active, enabled group) is active; 1002 paused; 1003 deleted; 1004 in a
        // paused group; 1005 in a deleted group. Gamma has none; Delta one active.
        // activeKeywords is Growth-only and every workspace is on pro_free until billing
        // lands: locked (null) through the route, computed underneath.
        assert_eq!(res.json["result"]["locked"], json!(["activeKeywords"]));
        let items: Vec<(i64, Value, i64)> = res.json["result"]["items"].as_array().unwrap().iter()
            .map(|i| (i["campaignId"].as_str().unwrap().parse::<i64>().unwrap(), i["activeKeywords"].clone(), i["keywords"].as_i64().unwrap()))
            .collect();
        assert_eq!(items, [(11, Value::Null, 3), (13, Value::Null, 0), (21, Value::Null, 1)]);
        let scope = scope_of(&app, &w, None).await;
        let counts: Vec<(i64, Option<i64>, i64)> = campaigns::hidden::keyword_counts(&app.state, &scope, None).await.unwrap()
            .iter().map(|i| (i.campaign_id, i.active_keywords, i.keywords)).collect();
        assert_eq!(counts, [(11, Some(1), 3), (13, Some(0), 0), (21, Some(1), 1)]);
        let scope = scope_of(&app, &w, Some(200)).await;
        let counts = campaigns::hidden::keyword_counts(&app.state, &scope, Some(&[21])).await.unwrap();
        assert_eq!((counts.len(), counts[0].org_id, counts[0].active_keywords), (1, 200, Some(1)));
        let res = app.post(&format!("{path}&orgId=200"), json!({"campaignIds": [21]}), r).await;
        assert_eq!(res.json["result"]["items"], json!([{"campaignId": "21", "orgId": "200", "activeKeywords": null, "keywords": 1}]));
        let res = app.post(&path, json!({"campaignIds": [13, 999]}), r).await;
        assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, "campaignIds.1"));
        let res = app.post(&path, json!({"campaignIds": "11"}), r).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);

        let info = app.post("/api/asa/reports/additionalInfo/11", json!({}), r).await;
        assert_eq!(info.status, StatusCode::OK, "{:?}", info.json);
        let i = &info.json["result"]["item"];
        assert_eq!(
            [&i["adGroups"], &i["runningAdGroups"], &i["keywords"], &i["negativeKeywords"], &i["ads"]],
            [&json!(2), &json!(1), &json!(3), &json!(2), &json!(1)]
        );
        assert_eq!(i["countriesOrRegions"], json!(["US", "GB"]));
        assert_eq!(i["app"], json!({"adamId": "900", "appName": "Seeded App", "developerName": "Dev Co"}));
        let pages: Vec<&str> = i["productPages"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
        assert_eq!(pages, ["Alpha page", "Beta page"]);
        // Delta's app is not synced in its campaign group.
        let delta = app.post("/api/asa/reports/additionalInfo/21", json!({}), r).await;
        assert_eq!((delta.json["result"]["item"]["app"].clone(), delta.json["result"]["item"]["keywords"].clone()), (Value::Null, json!(1)));
    }

    async fn totals_per_connection_and_campaign_group(app: TestApp) {
        let w = world(&app).await;
        seed_metrics(&app, &w).await;
        // A second connection with one USD campaign group.
        let other = seed::account(&app, &w.owner, 2).await;
        let c = seed::org(&app, &other, 300, "Group C", "USD").await;
        seed::day(&app, c, "2026-11-02", Day { level: 1, entity_id: 31, campaign_id: 31, impressions: 7, taps: 1, spend_micros: 1_234_567, ..Day::default() }).await;
        refresh(&app, c).await;
        let reader = app.member(&w.owner, Role::Reader).await;
        let r = Some(reader.as_str());
        let nov = json!({"startDate": "2026-11-01", "endDate": "2026-11-20"});

        let path = format!("/api/asa/reports/totalsForCampaignsGroups?accountId={}", w.account);
        let res = app.post(&path, nov.clone(), r).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let items = res.json["result"]["items"].as_array().unwrap();
        assert_eq!(items.len(), 2, "{items:?}");
        let (a, b) = (&items[0], &items[1]);
        assert_eq!((a["id"].as_str(), a["name"].as_str(), a["currency"].as_str()), (Some("100"), Some("Group A"), Some("USD")));
        // Group A: Alpha 1..=20 Nov (impressions 100·d, taps 10, 2 tap installs, spend d + 0.000333)
        // and the deleted Beta's 5 Nov row (50 impressions, 2.00 spent).
        let m = &a["metrics"];
        assert_eq!((m["impressions"].as_i64(), m["taps"].as_i64(), m["installs"].as_i64()), (Some(21_050), Some(200), Some(40)));
        assert_eq!(m["localSpend"].as_f64(), Some(212.0), "212.006660 floored to cents");
        assert_eq!(m["avgCPT"].as_f64(), Some(1.06), "212.00666 / 200 floored");
        // Group B: Delta 1..=3 Nov, 1000 impressions, 20 taps, 4 tap + 1 view installs, 5.50 a day.
        let m = &b["metrics"];
        assert_eq!((b["id"].as_str(), b["currency"].as_str()), (Some("200"), Some("EUR")));
        assert_eq!((m["impressions"].as_i64(), m["taps"].as_i64(), m["installs"].as_i64(), m["tapInstalls"].as_i64()), (Some(3000), Some(60), Some(15), Some(12)));
        assert_eq!([&m["localSpend"], &m["avgCPT"], &m["ttr"], &m["avgCPA"]].map(Value::as_f64), [Some(16.5), Some(0.27), Some(0.02), Some(1.1)]);
        // Over both: counts add up, money is null across currencies.
        let t = &res.json["result"]["totals"];
        assert_eq!((t["impressions"].as_i64(), t["taps"].as_i64(), t["localSpend"].clone()), (Some(24_050), Some(260), Value::Null));
        assert_eq!(res.json["result"]["currency"], Value::Null);
        // One day only: exact for any range.
        let res = app.post(&path, json!({"startDate": "2026-11-03", "endDate": "2026-11-03"}), r).await;
        let items = res.json["result"]["items"].as_array().unwrap();
        assert_eq!((items[0]["metrics"]["impressions"].as_i64(), items[1]["metrics"]["impressions"].as_i64()), (Some(300), Some(1000)));
        assert_eq!(items[0]["metrics"]["localSpend"].as_f64(), Some(3.0));
        // One campaign group: its currency is the answer's.
        let res = app.post(&format!("{path}&orgId=200"), nov.clone(), r).await;
        assert_eq!(res.json["result"]["items"].as_array().unwrap().len(), 1);
        assert_eq!((res.json["result"]["currency"].as_str(), res.json["result"]["totals"]["localSpend"].as_f64()), (Some("EUR"), Some(16.5)));

        let res = app.post("/api/asa/reports/totalsForAllAccounts", nov.clone(), r).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let items = res.json["result"]["items"].as_array().unwrap();
        let first = items.iter().find(|i| i["id"] == json!(w.account)).expect("the first connection");
        let second = items.iter().find(|i| i["id"] == json!(other)).expect("the second connection");
        assert_eq!((first["metrics"]["impressions"].as_i64(), first["currency"].clone(), first["metrics"]["localSpend"].clone()), (Some(24_050), Value::Null, Value::Null));
        assert_eq!((second["metrics"]["impressions"].as_i64(), second["currency"].as_str(), second["metrics"]["localSpend"].as_f64()), (Some(7), Some("USD"), Some(1.23)));
        assert_eq!(res.json["result"]["totals"]["impressions"].as_i64(), Some(24_057));

        // Another workspace sees none of it.
        let stranger = app.register(&app.email(), "long password").await;
        let res = app.post("/api/asa/reports/totalsForAllAccounts", nov.clone(), Some(&stranger)).await;
        assert_eq!((res.status, res.json["result"]["items"].clone()), (StatusCode::OK, json!([])));
        assert_eq!(app.post(&path, nov.clone(), Some(&stranger)).await.status, StatusCode::NOT_FOUND);
        for (p, body, f) in [
            (path.clone(), json!({"endDate": "2026-11-01"}), "startDate"),
            (path.clone(), json!({"startDate": "2026-11-02", "endDate": "2026-11-01"}), "endDate"),
            (path.clone(), json!({"startDate": "2026-11-02", "endDate": "2026-31-01"}), "endDate"),
            (format!("{path}&orgId=999"), nov.clone(), "orgId"),
            ("/api/asa/reports/totalsForAllAccounts".to_string(), json!({"startDate": "x", "endDate": "2026-11-01"}), "startDate"),
        ] {
            let res = app.post(&p, body, r).await;
            assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, f), "{p}: {:?}", res.json);
        }
    }

    async fn forecasts_extend_the_run_rate(app: TestApp) {
        let w = world(&app).await;
        seed_metrics(&app, &w).await;
        let reader = app.member(&w.owner, Role::Reader).await;
        let path = format!("/api/asa/reports/calculateForecasts?accountId={}&orgId=100", w.account);
        let res = app.post(&path, json!({}), Some(&reader)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["locked"], json!(["spendForecast", "impressionsForecast"]));
        let items = res.json["result"]["items"].as_array().unwrap();
        let alpha = items.iter().find(|i| i["campaignId"] == "11").unwrap();
        // As of the newest synced day, 20 Nov: month to date 1..=20, run rate 14..=20 / 7.
        assert_eq!((alpha["asOf"].as_str(), alpha["daysRemaining"].as_i64()), (Some("2026-11-20"), Some(10)));
        assert_eq!((alpha["spendToDate"].as_f64(), alpha["impressionsToDate"].as_i64()), (Some(210.0), Some(21_000)));
        assert_eq!((alpha["dailySpendRate"].as_f64(), alpha["dailyImpressionsRate"].as_f64()), (Some(17.0), Some(1700.0)));
        assert_eq!((alpha["spendForecast"].clone(), alpha["impressionsForecast"].clone()), (Value::Null, Value::Null));
        let gamma = items.iter().find(|i| i["campaignId"] == "13").expect("a campaign without metrics");
        assert_eq!(gamma["spendToDate"].as_f64(), Some(0.0));

        // The forecasts themselves, unlocked: 210.006660 + 119.002331 × 10 / 7 = 380.009990.
        let scope = scope_of(&app, &w, Some(100)).await;
        let ws = seed::me(&app, &w.owner).await.0;
        let f = campaigns::totals::forecasts(&app.state, &ws, &scope, None, Some(&[11])).await.unwrap();
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].spend_forecast.as_f64(), f[0].impressions_forecast), (Some(380.0), Some(38_000)));
        // As of 10 Nov: 55.003330 + 49.002331 × 20 / 7 = 195.009990; 5500 + 4900 × 20 / 7.
        let d = time::Date::from_calendar_date(2026, time::Month::November, 10).unwrap();
        let f = campaigns::totals::forecasts(&app.state, &ws, &scope, Some(d), Some(&[11])).await.unwrap();
        assert_eq!((f[0].spend_forecast.as_f64(), f[0].impressions_forecast, f[0].days_remaining), (Some(195.0), Some(19_500), 20));
        let res = app.post(&path, json!({"date": "2026-11-10", "campaignIds": [11]}), Some(&reader)).await;
        assert_eq!(res.json["result"]["items"][0]["spendToDate"].as_f64(), Some(55.0));
        let res = app.post(&path, json!({"date": "10/11/2026"}), Some(&reader)).await;
        assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, "date"));
    }
}

/// The request scope of the world's connection (optionally one campaign group).
async fn scope_of(app: &TestApp, w: &World, org: Option<i64>) -> campaigns::Scope {
    let ws = seed::me(app, &w.owner).await.0;
    let row = store::accounts::in_workspace(&app.state.db.pool, &ws, &w.account)
        .await
        .unwrap()
        .unwrap();
    campaigns::Scope::resolve(&app.state, row, org)
        .await
        .unwrap()
}

/// Rebuilds the report engine's day blobs of an org's campaign-level rows.
async fn refresh(app: &TestApp, org_key: i64) {
    let first = time::Date::from_calendar_date(2026, time::Month::October, 1).unwrap();
    store::report_facts::refresh(
        &app.state.db,
        org_key,
        store::report_facts::FactLevel::Campaign,
        first,
    )
    .await
    .unwrap();
}

/// Campaign-level daily metrics: Alpha 1..=20 Nov (impressions 100·d, 10 taps, 2 tap
/// installs, spend d + 0.000333), Beta (deleted) 5 Nov and Alpha 31 Oct outside the month,
/// Delta 1..=3 Nov (1000 impressions, 20 taps, 4 tap + 1 view installs, 5.50 spend).
async fn seed_metrics(app: &TestApp, w: &World) {
    for d in 1..=20 {
        let day = format!("2026-11-{d:02}");
        seed::day(
            app,
            w.a,
            &day,
            Day {
                level: 1,
                entity_id: 11,
                campaign_id: 11,
                impressions: 100 * d,
                taps: 10,
                tap_installs: 2,
                view_installs: 0,
                spend_micros: 1_000_000 * d + 333,
            },
        )
        .await;
    }
    seed::day(
        app,
        w.a,
        "2026-10-31",
        Day {
            level: 1,
            entity_id: 11,
            campaign_id: 11,
            impressions: 99_999,
            taps: 1,
            spend_micros: 99_000_000,
            ..Day::default()
        },
    )
    .await;
    seed::day(
        app,
        w.a,
        "2026-11-05",
        Day {
            level: 1,
            entity_id: 12,
            campaign_id: 12,
            impressions: 50,
            spend_micros: 2_000_000,
            ..Day::default()
        },
    )
    .await;
    for d in 1..=3 {
        let day = format!("2026-11-{d:02}");
        seed::day(
            app,
            w.b,
            &day,
            Day {
                level: 1,
                entity_id: 21,
                campaign_id: 21,
                impressions: 1000,
                taps: 20,
                tap_installs: 4,
                view_installs: 1,
                spend_micros: 5_500_000,
            },
        )
        .await;
    }
    refresh(app, w.a).await;
    refresh(app, w.b).await;
}

sandbox_tests! {
    async fn change_history_comes_from_the_provider(t: Connected) {
        let owner = t.owner().await;
        let ids = t.registered_key(&owner).await;
        let created = t.create(&owner, "Main account", &ids).await;
        assert_eq!(created.status, StatusCode::OK, "{:?}", created.json);
        let account_id = created.json["result"]["item"]["_id"].as_str().unwrap().to_string();
        let org_id = created.json["result"]["item"]["acls"][0]["orgId"].as_str().unwrap().parse::<i64>().unwrap();
        // A real change at the provider: rename one campaign.
        let workspace_id = seed::me(&t.app, &owner).await.0;
        let row = store::accounts::in_workspace(&t.app.state.db.pool, &workspace_id, &account_id)
            .await.unwrap().unwrap();
        let client = t.app.state.provider.client_of(&row).unwrap();
        let page: searchdeck_provider::calls::Page<Value> = client
            .query(org_id, Entity::Campaigns, &json!({"pagination": {"offset": 0, "limit": 1}}))
            .await
            .unwrap();
        let campaign_id = page.items[0]["id"].as_i64().unwrap();
        let _: Value = client.update(org_id, Entity::Campaigns, campaign_id, &json!({"name": "Renamed by the test"})).await.unwrap();

        let today = time::OffsetDateTime::now_utc().date();
        let (from, to) = (today.previous_day().unwrap(), today.next_day().unwrap());
        let reader = t.app.member(&owner, Role::Reader).await;
        let path = format!("/api/asa/reports/changes?accountId={account_id}&orgId={org_id}");
        let body = json!({"startDate": from.to_string(), "endDate": to.to_string(), "details": true, "entityTypes": ["Campaign"]});
        let res = t.call(Method::POST, &path, body.clone(), &reader).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let rows = res.json["result"]["items"].as_array().unwrap();
        assert_eq!(res.json["result"]["total"], 1, "{rows:?}");
        let row = &rows[0];
        assert_eq!((row["eventType"].as_str(), row["entityType"].as_str(), row["count"].as_i64()), (Some("UPDATE"), Some("Campaign"), Some(1)));
        let change = row["changes"].as_array().unwrap().iter().find(|c| c["field"] == "name").expect("the name change");
        assert_eq!(change["newValues"], json!(["Renamed by the test"]));
        assert_eq!(change["entityId"], campaign_id.to_string());
        // Yesterday only: nothing.
        let res = t.call(Method::POST, &path, json!({"startDate": from.to_string(), "endDate": from.to_string()}), &reader).await;
        assert_eq!(res.json["result"]["total"], 0, "{:?}", res.json);
        // Bad input is a 400 on its field.
        for (query, body, f) in [
            (format!("accountId={account_id}"), body.clone(), "orgId"),
            (format!("accountId={account_id}&orgId=1"), body.clone(), "orgId"),
            (format!("accountId={account_id}&orgId={org_id}"), json!({"endDate": "2026-01-01"}), "startDate"),
            (format!("accountId={account_id}&orgId={org_id}"), json!({"startDate": "2026-01-02", "endDate": "2026-01-01"}), "endDate"),
            (format!("accountId={account_id}&orgId={org_id}"), json!({"startDate": "2026-01-01", "endDate": "2026-01-02", "entityTypes": ["Campaign", "Org"]}), "entityTypes.1"),
            (format!("accountId={account_id}&orgId={org_id}"), json!({"startDate": "2026-01-01", "endDate": "2026-01-02", "pageSize": 500}), "pageSize"),
        ] {
            let res = t.call(Method::POST, &format!("/api/asa/reports/changes?{query}"), body, &reader).await;
            assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, f), "{query}: {:?}", res.json);
        }
    }
}
