//! Campaign and ad group reads: the routes' contract, the campaign list and settings,
//! another workspace's ids answering 404, and mark-hidden for editors only.

use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use serde_json::{Value, json};

use super::{field, seed, world};
use crate::common::{TestApp, TestBackend};

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
}
