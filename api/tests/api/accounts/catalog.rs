//! `country/*`, `developer/all`, `account/checkAppsLimit`, `asa/apps`, `asa/findApp` and
//! `asa/geo` against the sandbox on SQLite and PostgreSQL: served data, plan limits,
//! provider look-ups and their errors, workspace scope and readers.

use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};
use axum::http::{Method, StatusCode};
use searchdeck_api::{domain::REQUIRED, session::Role};
use serde_json::{Value, json};

fn items(res: &crate::common::TestResponse) -> Vec<Value> {
    res.json["result"]["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[tokio::test]
async fn catalog_and_tag_routes_are_documented() {
    let app = TestApp::sqlite_with(&[]).await;
    let doc = app.get("/api/openapi.json", None).await.json;
    for (m, path) in [
        ("get", "/api/account/checkAppsLimit"),
        ("get", "/api/country/allWithCodes"),
        ("get", "/api/country/allWithLocales"),
        ("get", "/api/country/allWithLanguage"),
        ("get", "/api/developer/all"),
        ("get", "/api/asa/apps"),
        ("post", "/api/asa/findApp"),
        ("get", "/api/asa/geo"),
        ("post", "/api/asa/geo"),
        ("get", "/api/reports/allTags"),
        ("put", "/api/reports/tag/many"),
        ("patch", "/api/reports/tag/many/{tagId}"),
        ("delete", "/api/reports/tag/many/{tagId}"),
        ("patch", "/api/reports/tag/one/{tagId}"),
        ("delete", "/api/reports/tag/one/{tagId}"),
    ] {
        let op = &doc["paths"][path][m];
        assert!(
            op["responses"]["200"].is_object(),
            "{m} {path} is documented"
        );
        assert_eq!(op["security"], json!([{"session": []}]), "{m} {path}");
    }
    for (m, path) in [
        ("get", "/api/asa/apps"),
        ("post", "/api/asa/findApp"),
        ("get", "/api/asa/geo"),
        ("post", "/api/asa/geo"),
    ] {
        assert_eq!(
            doc["paths"][path][m]["x-resource"],
            json!({"kind": "account", "param": "accountId"}),
            "{m} {path}"
        );
    }
    let tag = &doc["paths"]["/api/reports/tag/one/{tagId}"]["patch"];
    assert_eq!(tag["x-resource"], json!({"kind": "tag", "param": "tagId"}));
    assert_eq!(tag["x-roles"], json!(["owner", "admin", "writer"]));
}

crate::sandbox_tests! {
    async fn countries_come_from_one_source(t: Connected) {
        let reader = t.app.member(&t.owner().await, Role::Reader).await;
        let codes = items(&t.get("/api/country/allWithCodes", &reader).await);
        let locales = items(&t.get("/api/country/allWithLocales", &reader).await);
        let languages = items(&t.get("/api/country/allWithLanguage", &reader).await);
        assert!(codes.len() > 100, "{}", codes.len());
        assert_eq!(codes.len(), locales.len());
        assert_eq!(codes.len(), languages.len());
        assert!(codes.contains(&json!({"code": "US", "name": "United States"})));
        assert!(!codes.iter().any(|c| c["code"] == "RU" || c["code"] == "CN"), "not served by Apple Ads");
        let ch = locales.iter().find(|c| c["code"] == "CH").unwrap();
        assert_eq!(ch["locales"], json!(["de_CH", "fr_CH", "it_CH", "en_CH"]));
        let ca = languages.iter().find(|c| c["code"] == "CA").unwrap();
        assert_eq!(ca["languages"], json!([{"code": "en", "name": "English"}, {"code": "fr", "name": "French"}]));
        for (a, b) in codes.iter().zip(&languages) {
            assert_eq!(a["code"], b["code"], "same order in every list");
        }
    }

    async fn developers_and_the_apps_limit_follow_the_synced_apps(t: Connected) {
        let owner = t.owner().await;
        let reader = t.app.member(&owner, Role::Reader).await;
        let (account, org) = t.connected(&owner).await;
        assert!(items(&t.get("/api/developer/all", &owner).await).is_empty(), "nothing synced yet");
        let ok = t.get("/api/account/checkAppsLimit", &reader).await;
        assert_eq!(ok.status, StatusCode::OK, "{:?}", ok.json);
        assert_eq!(ok.json["result"], json!({"plan": "pro_free", "apps": {"used": 0, "limit": 5}, "developers": {"used": 0, "limit": 2}}));
        let key = t.synced_org(&account, org).await;
        t.synced_app(key, 11, "Alpha", Some("Acme")).await;
        t.synced_app(key, 12, "Beta", Some("Acme")).await;
        t.synced_app(key, 13, "Gamma", None).await;
        let devs = t.get("/api/developer/all", &reader).await;
        assert_eq!(devs.json["result"]["items"], json!([{"developerName": "Acme", "adamIds": [11, 12]}]));
        let ok = t.get("/api/account/checkAppsLimit", &owner).await;
        assert_eq!(ok.json["result"]["apps"]["used"], 3);
        assert_eq!(ok.json["result"]["developers"]["used"], 1);
        // A second developer reaches the free plan's developer limit (2).
        t.synced_app(key, 14, "Delta", Some("Beta Ltd")).await;
        let full = t.get("/api/account/checkAppsLimit", &owner).await;
        assert_eq!(full.status, StatusCode::FORBIDDEN);
        assert_eq!(full.message(), "LIMIT_HAS_BEEN_REACHED");
        assert_eq!(full.json["meta"], json!({"type": "AVAILABLEDEVS"}));
        // The fifth app reaches the apps limit (5), which is named first.
        t.synced_app(key, 15, "Epsilon", Some("Acme")).await;
        let full = t.get("/api/account/checkAppsLimit", &owner).await;
        assert_eq!(full.json["meta"], json!({"type": "AVAILABLEAPPS"}));
        // At the limit no campaign group may be added (the ones in use may be chosen again).
        let pool = &t.app.state.db.pool;
        let add = format!("/api/account/addAccountIds/{account}");
        let res = t.call(Method::POST, &add, json!({"accountIds": [org]}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "already in use: {:?}", res.json);
        sqlx::query("UPDATE account_orgs SET selected = 0 WHERE account_id = $1").bind(&account).execute(pool).await.unwrap();
        let res = t.call(Method::POST, &add, json!({"accountIds": [org]}), &owner).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{:?}", res.json);
        assert_eq!((res.message(), res.json["meta"].clone()), ("LIMIT_HAS_BEEN_REACHED", json!({"type": "AVAILABLEAPPS"})));
        let selected: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM account_orgs WHERE account_id = $1 AND selected = 1").bind(&account).fetch_one(pool).await.unwrap();
        assert_eq!(selected, 0, "nothing changed");
        sqlx::query("UPDATE account_orgs SET selected = 1 WHERE account_id = $1").bind(&account).execute(pool).await.unwrap();
        // A workspace whose connection's apps reach the limit cannot add another connection.
        let full_owner = t.owner().await;
        let me = t.get("/api/auth/me", &full_owner).await.json["result"]["item"].clone();
        let other = searchdeck_common::ids::new_id();
        let other = searchdeck_common::store::accounts::upsert(pool, searchdeck_common::store::accounts::NewAccount {
            provider_user_id: 777_000_001,
            ..searchdeck_common::store::accounts::NewAccount::without_credentials(&other, me["workspaceId"].as_str().unwrap(), me["id"].as_str().unwrap(), "other", 1)
        }).await.unwrap();
        let other_key = t.synced_org(&other, 4_242).await;
        for i in 0..5 {
            t.synced_app(other_key, 100 + i, &format!("App {i}"), Some("Acme")).await;
        }
        let ids = t.registered_key(&full_owner).await;
        let res = t.create(&full_owner, "Second", &ids).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{:?}", res.json);
        assert_eq!(res.json["meta"], json!({"type": "AVAILABLEAPPS"}));
        let connections: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM accounts WHERE workspace_id = $1").bind(me["workspaceId"].as_str().unwrap()).fetch_one(pool).await.unwrap();
        assert_eq!(connections, 1, "nothing stored");
        // Another workspace counts only its own.
        let stranger = t.owner().await;
        assert!(items(&t.get("/api/developer/all", &stranger).await).is_empty());
        let theirs = t.get("/api/account/checkAppsLimit", &stranger).await;
        assert_eq!(theirs.json["result"]["apps"]["used"], 0);
    }

    async fn apps_come_from_the_sync_else_the_provider(t: Connected) {
        let owner = t.owner().await;
        let reader = t.app.member(&owner, Role::Reader).await;
        let (account, org) = t.connected(&owner).await;
        let path = format!("/api/asa/apps?accountId={account}&orgId={org}");
        let asked = t.get(&path, &reader).await;
        assert_eq!(asked.status, StatusCode::OK, "{:?}", asked.json);
        let asked = items(&asked);
        assert!(!asked.is_empty(), "the sandbox org owns apps");
        for app in &asked {
            assert_eq!(app["orgId"], org.to_string());
            assert!(app["adamId"].as_str().unwrap().parse::<i64>().unwrap() > 0 && app["appName"].as_str().is_some(), "{app}");
            assert!(!app["countryOrRegionCodes"].as_array().unwrap().is_empty());
        }
        let all_orgs = items(&t.get(&format!("/api/asa/apps?accountId={account}"), &owner).await);
        assert!(all_orgs.len() >= asked.len());
        // Once synced, the synced apps are the answer.
        let key = t.synced_org(&account, org).await;
        t.synced_app(key, 77, "Synced app", Some("Acme")).await;
        let synced = items(&t.get(&path, &owner).await);
        assert_eq!(synced, [json!({"adamId": "77", "appName": "Synced app", "developerName": "Acme", "countryOrRegionCodes": null, "orgId": org.to_string()})]);
        let bad_org = t.get(&format!("/api/asa/apps?accountId={account}&orgId=1"), &owner).await;
        assert_eq!(bad_org.status, StatusCode::BAD_REQUEST);
        assert_eq!(bad_org.json["errors"][0]["field"], "orgId");
        let stranger = t.owner().await;
        let res = t.get(&path, &stranger).await;
        assert_eq!((res.status, res.message()), (StatusCode::NOT_FOUND, "Account not found"));
        let missing = t.get("/api/asa/apps", &owner).await;
        assert_eq!(missing.json["errors"], json!([{"field": "accountId", "message": REQUIRED}]));
    }

    async fn find_app_searches_the_provider(t: Connected) {
        let owner = t.owner().await;
        let reader = t.app.member(&owner, Role::Reader).await;
        let (account, org) = t.connected(&owner).await;
        let own = items(&t.get(&format!("/api/asa/apps?accountId={account}&orgId={org}"), &owner).await);
        let name = own[0]["appName"].as_str().unwrap().to_string();
        let word = name.split_whitespace().next().unwrap().to_string();
        let path = format!("/api/asa/findApp?accountId={account}&orgId={org}");
        let found = t.call(Method::POST, &path, json!({"query": word}), &reader).await;
        assert_eq!(found.status, StatusCode::OK, "{:?}", found.json);
        let found = items(&found);
        assert!(found.iter().any(|a| a["adamId"] == own[0]["adamId"]), "{word}: {found:?}");
        assert!(found.len() <= 50);
        for a in &found {
            assert!(a["appName"].as_str().unwrap().to_lowercase().contains(&word.to_lowercase()), "{a}");
        }
        let blank = t.call(Method::POST, &path, json!({"query": "  "}), &owner).await;
        assert_eq!(blank.json["errors"], json!([{"field": "query", "message": REQUIRED}]));
        let long = t.call(Method::POST, &path, json!({"query": "q".repeat(101)}), &owner).await;
        assert_eq!(long.json["errors"][0]["field"], "query");
        let stranger = t.owner().await;
        assert_eq!(t.call(Method::POST, &path, json!({"query": word}), &stranger).await.status, StatusCode::NOT_FOUND);
        // A failing provider is a 502 in the envelope.
        let faults = t.http.put(format!("{}/sandbox/faults", t.sandbox)).json(&json!({"errorRate": 1.0})).send().await.unwrap();
        assert!(faults.status().is_success());
        let down = t.call(Method::POST, &path, json!({"query": word}), &owner).await;
        assert_eq!((down.status, down.message()), (StatusCode::BAD_GATEWAY, "Apple Ads could not be reached. Please try again later"));
    }

    async fn geo_searches_by_text_and_looks_up_by_id(t: Connected) {
        let owner = t.owner().await;
        let reader = t.app.member(&owner, Role::Reader).await;
        let (account, org) = t.connected(&owner).await;
        let base = format!("/api/asa/geo?accountId={account}&orgId={org}");
        let res = t.get(&format!("{base}&query=san&entity=Locality&countryCode=us"), &reader).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let places = items(&res);
        assert_eq!(places.len(), 1, "{places:?}");
        assert_eq!(places[0]["displayName"], "San Francisco, California, United States");
        assert_eq!(places[0]["id"], "5391959");
        let any_kind = items(&t.get(&format!("{base}&query=new%20york"), &owner).await);
        let kinds: Vec<&str> = any_kind.iter().map(|p| p["entity"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["AdminArea", "Locality"], "{any_kind:?}");
        let unknown = t.get(&format!("{base}&query=san&countryCode=ZZ"), &owner).await;
        assert_eq!(unknown.json["errors"][0]["field"], "countryCode");
        let blank = t.get(&base, &owner).await;
        assert_eq!(blank.json["errors"], json!([{"field": "query", "message": REQUIRED}]));
        // Apple Ads names the kinds it accepts; its message comes back in the envelope.
        let refused = t.get(&format!("{base}&query=san&entity=Planet"), &owner).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{:?}", refused.json);
        assert!(refused.message().starts_with("Apple Ads refused the request"), "{}", refused.message());
        assert!(refused.message().contains("entity must be one of"), "{}", refused.message());
        // Look-up by id and legacy id.
        let body = json!({"geoRequest": [{"id": "5391959", "entity": "Locality"}, {"legacyId": "US|TX", "entity": "AdminArea"}]});
        let found = t.call(Method::POST, &base, body, &reader).await;
        assert_eq!(found.status, StatusCode::OK, "{:?}", found.json);
        let names: Vec<String> = items(&found).iter().map(|p| p["displayName"].as_str().unwrap().split(',').next().unwrap().to_string()).collect();
        assert_eq!(names, ["San Francisco", "Texas"]);
        let both = t.call(Method::POST, &base, json!({"geoRequest": [{"id": "1", "legacyId": "US", "entity": "Country"}]}), &owner).await;
        assert_eq!(both.json["errors"][0]["field"], "geoRequest.0");
        let none = t.call(Method::POST, &base, json!({}), &owner).await;
        assert_eq!(none.json["errors"][0]["field"], "geoRequest");
        let stranger = t.owner().await;
        assert_eq!(t.get(&format!("{base}&query=san"), &stranger).await.status, StatusCode::NOT_FOUND);
    }
}
