//! Connecting Apple Ads accounts through both paths against the sandbox, and the
//! `account/*` and `asa/getAcls`/`asa/getAccountData` routes around them, on SQLite and
//! PostgreSQL: refused credentials, bad, reused and denied popup states and invalid names
//! store nothing; readers cannot write; another workspace's account is a 404; no answer
//! ever carries a private key or token.

mod catalog;
mod synced;
mod tags;

use crate::common::TestApp;
use crate::harness::{Connected, args, pair, start_sandbox};
use axum::http::{Method, StatusCode};
use searchdeck_api::{domain::REQUIRED, session::Role};
use serde_json::{Value, json};

/// Every `$ref` under `value`.
fn refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                match (k.as_str(), v.as_str()) {
                    ("$ref", Some(r)) => out.push(r.to_string()),
                    _ => refs(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

#[tokio::test]
async fn every_account_route_is_documented_with_resolvable_schemas() {
    let app = TestApp::sqlite_with(&[]).await;
    let doc = app.get("/api/openapi.json", None).await.json;
    let wanted = [
        ("post", "/api/account/unuse"),
        ("delete", "/api/account/{id}"),
        ("get", "/api/account/getAll"),
        ("get", "/api/account/getUsed"),
        ("post", "/api/account/create"),
        ("get", "/api/account/use/{id}"),
        ("get", "/api/account/one/{id}"),
        ("post", "/api/account/update/{id}"),
        ("post", "/api/account/getPublicKey"),
        ("post", "/api/account/addAccountIds/{id}"),
        ("get", "/api/account/urlOauth"),
        ("get", "/api/account/oauth"),
        ("get", "/api/asa/getAcls"),
        ("get", "/api/asa/getAccountData"),
    ];
    for (m, path) in wanted {
        let op = &doc["paths"][path][m];
        assert!(
            op["responses"]["200"].is_object(),
            "{m} {path} is documented"
        );
    }
    let mut found = Vec::new();
    refs(&doc["paths"], &mut found);
    for r in found {
        let name = r.trim_start_matches("#/components/schemas/");
        assert!(
            doc["components"]["schemas"][name].is_object(),
            "{r} resolves"
        );
    }
}

sandbox_tests! {
    async fn key_pair_connects_with_campaign_groups(t: Connected) {
        let owner = t.owner().await;
        let ids = t.registered_key(&owner).await;
        let again = t.call(Method::POST, "/api/account/getPublicKey", json!({}), &owner).await;
        let res = t.create(&owner, "Main account", &ids).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.message(), "New account added");
        let item = &res.json["result"]["item"];
        assert_eq!(item["name"], "Main account");
        assert_eq!(item["method"], "key");
        assert_eq!(item["clientId"], ids["clientId"]);
        assert_eq!(item["publicKey"], again.json["result"]["publicKey"], "the pending key is answered until used");
        let acls = item["acls"].as_array().unwrap();
        assert!(!acls.is_empty());
        for org in acls {
            assert!(org["orgId"].as_str().unwrap().parse::<i64>().unwrap() > 0, "ids are strings of digits");
            assert!(org["currency"].as_str().unwrap().len() == 3, "{org}");
            assert!(org["timeZone"].as_str().is_some(), "{org}");
            assert!(org["displayName"].as_str().is_some() && org["permission"].as_str().is_some());
        }
        let id = item["_id"].as_str().unwrap();
        let used = t.get("/api/account/getUsed", &owner).await;
        assert_eq!(used.json["result"]["item"]["_id"], id, "the new account is active");
        let all = t.get("/api/account/getAll", &owner).await;
        assert_eq!(all.json["result"]["items"].as_array().unwrap().len(), 1);
        let me = t.get("/api/auth/me", &owner).await;
        // `connects.appStore` lists App Store Connect keys (docs/api/app-store-connect.md), not ad accounts.
        assert_eq!(me.json["result"]["item"]["connects"]["appStore"], json!([]));
        assert_eq!(t.count("pending_keys").await, 0, "the key now belongs to the connection");
        // The cache serves getAcls; getAccountData refreshes it from the provider.
        let cached = t.get(&format!("/api/asa/getAcls?accountId={id}"), &owner).await;
        assert_eq!(cached.json["result"]["items"].as_array().unwrap().len(), acls.len());
        let fresh = t.get(&format!("/api/asa/getAccountData?accountId={id}"), &owner).await;
        assert_eq!(fresh.status, StatusCode::OK, "{:?}", fresh.json);
        assert_eq!(&fresh.json["result"]["item"]["acls"], &item["acls"]);
        t.assert_no_secret_answered().await;
    }

    async fn keys_limited_to_different_groups_each_serve_their_own(t: Connected) {
        // The groups the sandbox's user reaches, read in another workspace.
        let scout = t.owner().await;
        let full = t.registered_key(&scout).await;
        let all = t.create(&scout, "Scout", &full).await.json["result"]["item"]["acls"].clone();
        let group = |i: usize| all[i]["orgId"].as_str().unwrap().parse::<i64>().unwrap();
        let (a, b) = (group(0), group(1));
        let owner = t.owner().await;
        let limited_to = |orgs: Vec<i64>| {
            let t = &t;
            let owner = owner.clone();
            async move {
                let pem = t.call(Method::POST, "/api/account/getPublicKey", json!({}), &owner).await.json["result"]["publicKey"].as_str().unwrap().to_string();
                let ids: Value = t.http.post(format!("{}/sandbox/keys", t.sandbox))
                    .json(&json!({"publicKey": pem, "adAccountIds": orgs}))
                    .send().await.unwrap().json().await.unwrap();
                ids
            }
        };
        let first = t.create(&owner, "Main", &limited_to(vec![a]).await).await;
        assert_eq!(first.status, StatusCode::OK, "{:?}", first.json);
        let id = first.json["result"]["item"]["_id"].as_str().unwrap().to_string();
        // A key limited to group b is kept beside the first: both groups stay reachable.
        let second = t.create(&owner, "Main", &limited_to(vec![b]).await).await;
        assert_eq!(second.status, StatusCode::OK, "{:?}", second.json);
        let message = second.message();
        assert!(message.contains("these credentials were added beside its earlier ones"), "{message}");
        assert!(message.contains(&format!("Campaign groups added: {}", all[1]["displayName"].as_str().unwrap())), "{message}");
        assert!(message.contains(&format!("still reached with the earlier ones: \u{201c}{}\u{201d} ({a})", all[0]["displayName"].as_str().unwrap())), "{message}");
        // Refreshing the groups asks each key for its own (a call for group b through the
        // first key would be refused by Apple).
        let fresh = t.get(&format!("/api/asa/getAccountData?accountId={id}"), &owner).await;
        assert_eq!(fresh.status, StatusCode::OK, "{:?}", fresh.json);
        let reached: Vec<i64> = fresh.json["result"]["item"]["acls"].as_array().unwrap().iter()
            .map(|o| o["orgId"].as_str().unwrap().parse().unwrap()).collect();
        assert_eq!(reached, [a, b]);
        let extra: Option<String> = sqlx::query_scalar("SELECT extra_keys FROM accounts WHERE id = $1")
            .bind(&id).fetch_one(&t.app.state.db.pool).await.unwrap();
        let extra: Value = serde_json::from_str(&extra.expect("a key beside the first")).unwrap();
        assert_eq!(extra[0]["orgIds"], json!([b]));
        // A key reaching both replaces the two.
        let both = t.create(&owner, "Main", &limited_to(vec![a, b]).await).await;
        assert_eq!(both.status, StatusCode::OK, "{:?}", both.json);
        assert!(both.message().ends_with("its credentials were updated"), "{}", both.message());
        let extra: Option<String> = sqlx::query_scalar("SELECT extra_keys FROM accounts WHERE id = $1")
            .bind(&id).fetch_one(&t.app.state.db.pool).await.unwrap();
        assert_eq!(extra, None);
        assert_eq!(t.count("accounts").await, 2);
        t.assert_no_secret_answered().await;
    }

    async fn a_wrong_key_id_is_refused_and_nothing_is_stored(t: Connected) {
        let owner = t.owner().await;
        let mut ids = t.registered_key(&owner).await;
        ids["keyId"] = json!("00000000-0000-0000-0000-000000000000");
        let res = t.create(&owner, "Main", &ids).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
        assert!(res.message().starts_with("Apple Ads refused these credentials"), "{}", res.message());
        assert_eq!(t.count("accounts").await, 0);
        assert_eq!(t.count("account_orgs").await, 0);
        assert_eq!(t.count("pending_keys").await, 1, "the key stays pending for a corrected try");
        let none = t.create(&owner, "Main", &json!({"clientId": "x", "teamId": "y", "keyId": "z"})).await;
        assert_eq!(none.status, StatusCode::BAD_REQUEST);
        assert_eq!(t.count("accounts").await, 0);
    }

    async fn a_failing_provider_answers_502_and_nothing_is_stored(t: Connected) {
        let owner = t.owner().await;
        let ids = t.registered_key(&owner).await;
        let faults = t.http.put(format!("{}/sandbox/faults", t.sandbox)).json(&json!({"errorRate": 1.0})).send().await.unwrap();
        assert!(faults.status().is_success());
        let res = t.create(&owner, "Main", &ids).await;
        assert_eq!(res.status, StatusCode::BAD_GATEWAY, "{:?}", res.json);
        assert_eq!(res.message(), "Apple Ads could not be reached. Please try again later");
        assert_eq!(t.count("accounts").await, 0);
        assert_eq!(t.count("account_orgs").await, 0);
        assert_eq!(t.count("pending_keys").await, 1);
    }

    async fn popup_connects_and_a_state_answers_once(t: Connected) {
        let owner = t.owner().await;
        let back = t.consent(&owner, "Popup", "allow").await;
        let res = t.oauth(&owner, &back).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["status"], "OK");
        assert_eq!(res.message(), "New account added");
        assert_eq!(res.json["result"]["added"], true);
        let id = res.json["result"]["accountId"].as_str().unwrap().to_string();
        let one = t.get(&format!("/api/account/one/{id}"), &owner).await;
        assert_eq!(one.json["result"]["item"]["name"], "Popup");
        assert_eq!(one.json["result"]["item"]["method"], "oauth");
        assert!(!one.json["result"]["item"]["acls"].as_array().unwrap().is_empty());
        let reused = t.oauth(&owner, &back).await;
        assert_eq!(reused.status, StatusCode::BAD_REQUEST);
        assert!(reused.message().contains("already used"), "{}", reused.message());
        // The same Apple Ads user connected again by key pair is the same connection, renamed,
        // and the answer says so rather than announcing an addition.
        let ids = t.registered_key(&owner).await;
        let by_key = t.create(&owner, "Renamed", &ids).await;
        assert_eq!(by_key.json["result"]["item"]["_id"], id.as_str());
        assert_eq!(by_key.json["result"]["item"]["name"], "Renamed");
        assert_eq!(by_key.json["result"]["added"], false);
        assert_eq!(by_key.json["result"]["previousName"], "Popup");
        assert_eq!(
            by_key.message(),
            "This Apple Ads user is already connected as \u{201c}Popup\u{201d}; its name was updated to \u{201c}Renamed\u{201d}"
        );
        assert_eq!(t.count("accounts").await, 1);
        // And again by popup under another name.
        let back = t.consent(&owner, "Third", "allow").await;
        let by_popup = t.oauth(&owner, &back).await;
        assert_eq!(by_popup.status, StatusCode::OK, "{:?}", by_popup.json);
        assert_eq!(by_popup.json["result"]["accountId"], id.as_str());
        assert_eq!(by_popup.json["result"]["added"], false);
        assert_eq!(by_popup.json["result"]["previousName"], "Renamed");
        assert!(by_popup.message().starts_with("This Apple Ads user is already connected as"), "{}", by_popup.message());
        assert_eq!(t.count("accounts").await, 1);
        let refreshed = t.get(&format!("/api/asa/getAccountData?accountId={id}"), &owner).await;
        assert_eq!(refreshed.status, StatusCode::OK, "{:?}", refreshed.json);

        // A key of the same user limited to one of the groups its first credentials already
        // reach does not re-scope the connection: nothing changes, and the answer says so.
        let acls = refreshed.json["result"]["item"]["acls"].as_array().unwrap().clone();
        assert!(acls.len() >= 2, "{acls:?}");
        let (kept, other) = (&acls[0], &acls[1]);
        let pem = t.call(Method::POST, "/api/account/getPublicKey", json!({}), &owner).await.json["result"]["publicKey"].as_str().unwrap().to_string();
        let limited: Value = t.http.post(format!("{}/sandbox/keys", t.sandbox))
            .json(&json!({"publicKey": pem, "adAccountIds": [other["orgId"].as_str().unwrap().parse::<i64>().unwrap()]}))
            .send().await.unwrap().json().await.unwrap();
        let narrowed = t.create(&owner, "Third", &limited).await;
        assert_eq!(narrowed.status, StatusCode::OK, "{:?}", narrowed.json);
        assert!(narrowed.message().ends_with("already reach every campaign group these reach; nothing changed"), "{}", narrowed.message());
        let after = t.get(&format!("/api/asa/getAcls?accountId={id}"), &owner).await.json;
        let ids_after: Vec<&str> = after["result"]["items"].as_array().unwrap().iter().map(|o| o["orgId"].as_str().unwrap()).collect();
        assert!(ids_after.contains(&kept["orgId"].as_str().unwrap()), "the group stays: {after}");
        assert_eq!(ids_after.len(), acls.len(), "{after}");
        t.assert_no_secret_answered().await;
    }

    async fn bad_or_denied_popups_store_nothing(t: Connected) {
        let owner = t.owner().await;
        let denied = t.consent(&owner, "Popup", "deny").await;
        assert_eq!(pair(&denied, "error"), "access_denied");
        let res = t.oauth(&owner, &denied).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert!(res.message().contains("not granted"), "{}", res.message());
        let back = t.consent(&owner, "Popup", "allow").await;
        let forged = vec![("state".to_string(), "forged".to_string()), ("code".to_string(), pair(&back, "code"))];
        let res = t.oauth(&owner, &forged).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        let other = t.owner().await;
        let res = t.oauth(&other, &back).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "a state is bound to its user");
        let bad_code = vec![("state".to_string(), pair(&back, "state")), ("code".to_string(), "not-a-code".to_string())];
        let res = t.oauth(&owner, &bad_code).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
        assert!(res.message().starts_with("Apple Ads refused"), "{}", res.message());
        let expiring = t.consent(&owner, "Popup", "allow").await;
        sqlx::query("UPDATE oauth_states SET expires_at = 0").execute(&t.app.state.db.pool).await.unwrap();
        let res = t.oauth(&owner, &expiring).await;
        assert!(res.message().contains("expired"), "{}", res.message());
        let mut unknown_account = t.consent(&owner, "Popup", "allow").await;
        unknown_account.push(("accountId".into(), "no-such-account".into()));
        assert_eq!(t.oauth(&owner, &unknown_account).await.status, StatusCode::NOT_FOUND);
        let missing = t.get("/api/account/oauth?code=abc", &owner).await;
        assert_eq!(missing.json["errors"][0], json!({"field": "state", "message": REQUIRED}));
        assert_eq!(t.count("accounts").await, 0);
        assert_eq!(t.count("account_orgs").await, 0);
    }

    async fn account_names_are_required_and_short(t: Connected) {
        let owner = t.owner().await;
        let ids = t.registered_key(&owner).await;
        let res = t.create(&owner, "  ", &ids).await;
        assert_eq!(res.json["errors"], json!([{"field": "name", "message": REQUIRED}]));
        let res = t.create(&owner, &"n".repeat(31), &ids).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert_eq!(res.json["errors"][0]["field"], "name");
        let res = t.get("/api/account/urlOauth", &owner).await;
        assert_eq!(res.json["errors"], json!([{"field": "accountName", "message": REQUIRED}]));
        let res = t.get(&format!("/api/account/urlOauth?accountName={}", "n".repeat(31)), &owner).await;
        assert_eq!(res.json["errors"][0]["field"], "accountName");
        assert_eq!(t.count("accounts").await, 0);
        assert_eq!(t.count("oauth_states").await, 0);
    }

    async fn accounts_are_chosen_renamed_scoped_and_removed(t: Connected) {
        let owner = t.owner().await;
        let ids = t.registered_key(&owner).await;
        let item = t.create(&owner, "Main", &ids).await.json["result"]["item"].clone();
        let id = item["_id"].as_str().unwrap();
        let org = item["acls"][0]["orgId"].as_str().unwrap().parse::<i64>().unwrap();
        let reader = t.app.member(&owner, Role::Reader).await;
        let path = |p: &str| format!("/api/account/{p}/{id}");
        // Readers read and choose, but change nothing.
        assert_eq!(t.get(&path("one"), &reader).await.status, StatusCode::OK);
        let used = t.get(&format!("{}?orgId={org}", path("use")), &reader).await;
        assert_eq!(used.json["result"]["orgId"], org.to_string(), "ids are strings");
        let switched = t.get(&path("use"), &reader).await;
        assert_eq!(switched.json["result"]["orgId"], Value::Null, "switching clears the org");
        for (m, p, body) in [
            (Method::POST, "/api/account/getPublicKey".to_string(), json!({})),
            (Method::POST, path("update"), json!({"name": "X"})),
            (Method::POST, path("addAccountIds"), json!({"accountIds": [org]})),
            (Method::DELETE, format!("/api/account/{id}"), json!({})),
        ] {
            assert_eq!(t.call(m.clone(), &p, body, &reader).await.status, StatusCode::FORBIDDEN, "{m} {p}");
        }
        assert_eq!(t.get("/api/account/urlOauth?accountName=A", &reader).await.status, StatusCode::FORBIDDEN);
        assert_eq!(t.create(&reader, "Main", &ids).await.status, StatusCode::FORBIDDEN);
        // Another workspace sees nothing.
        let stranger = t.owner().await;
        for p in [path("one"), path("use"), format!("/api/asa/getAcls?accountId={id}")] {
            let res = t.get(&p, &stranger).await;
            assert_eq!((res.status, res.message()), (StatusCode::NOT_FOUND, "Account not found"), "{p}");
        }
        let res = t.call(Method::DELETE, &format!("/api/account/{id}"), json!({}), &stranger).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND);
        assert!(t.get("/api/account/getAll", &stranger).await.json["result"]["items"].as_array().unwrap().is_empty());
        // The owner renames, picks campaign groups, and removes.
        let renamed = t.call(Method::POST, &path("update"), json!({"name": "Renamed"}), &owner).await;
        assert_eq!(renamed.json["result"]["item"]["name"], "Renamed");
        let long = t.call(Method::POST, &path("update"), json!({"name": "n".repeat(31)}), &owner).await;
        assert_eq!(long.json["errors"][0]["field"], "name");
        let unknown = t.call(Method::POST, &path("addAccountIds"), json!({"accountIds": [org, 1]}), &owner).await;
        assert_eq!(unknown.json["errors"][0]["field"], "accountIds.1");
        let picked = t.call(Method::POST, &path("addAccountIds"), json!({"accountIds": [org]}), &owner).await;
        assert_eq!(picked.json["result"]["item"]["acls"].as_array().unwrap().len(), 1);
        let unused = t.call(Method::POST, "/api/account/unuse", json!({}), &owner).await;
        assert_eq!(unused.status, StatusCode::OK);
        assert_eq!(t.get("/api/account/getUsed", &owner).await.json["result"]["item"], Value::Null);
        t.assert_no_secret_answered().await;
        let removed = t.call(Method::DELETE, &format!("/api/account/{id}"), json!({}), &owner).await;
        assert_eq!(removed.status, StatusCode::OK);
        assert_eq!(t.get(&path("one"), &owner).await.status, StatusCode::NOT_FOUND);
        assert_eq!(t.get("/api/account/getUsed", &reader).await.json["result"]["item"], Value::Null);
        for table in ["accounts", "account_orgs", "active_accounts"] {
            assert_eq!(t.count(table).await, 0, "{table}");
        }
    }
}
