//! Sessions and roles on every documented operation: 401 without a session except on the
//! public routes, 403 to a reader wherever roles are declared (and every other write one of
//! the caller's own values), and state-changing GETs refusing cross-site calls.

use axum::{
    body::Body,
    http::{Request, StatusCode},
};
use searchdeck_api::session::Role;
use serde_json::json;

use super::{
    EDIT_ROUTES, OWN_VALUE_WRITES, PUBLIC_ROUTES, READS_BY_POST, STATE_CHANGING_GETS, concrete,
    method, operations, resource_in_workspace,
};
use crate::common::{TestApp, TestBackend};

backend_tests! {
    async fn every_route_declares_and_enforces_its_session(app: TestApp) {
        let doc = app.get("/api/openapi.json", None).await.json;
        assert_eq!(doc["components"]["securitySchemes"]["session"], json!({"type": "apiKey", "in": "cookie", "name": "sd_session", "description": doc["components"]["securitySchemes"]["session"]["description"]}));
        assert!(doc["components"]["schemas"]["ErrorBody"].is_object(), "the error body the guards name");
        let mut checked = 0;
        for (m, path, op) in operations(&doc) {
            let public = PUBLIC_ROUTES.contains(&(m.as_str(), path.as_str()));
            let secured = op["security"] == json!([{"session": []}]);
            assert_eq!(secured, !public, "{m} {path}: security declared iff not public");
            if public {
                continue;
            }
            assert!(op["responses"]["401"].is_object(), "{m} {path} documents 401");
            let res = app.request(method(&m), &concrete(&path, "some-id"), Some(json!({})), None).await;
            assert_eq!(res.status, StatusCode::UNAUTHORIZED, "{m} {path} answers without a session");
            assert_eq!(res.message(), "Unauthorized");
            checked += 1;
        }
        println!("PROBE session: {checked} routes called without a session, each 401");
        assert!(checked >= 8, "only {checked} routes checked");
    }

    async fn every_write_route_refuses_a_reader(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let reader = app.member(&owner, Role::Reader).await;
        let doc = app.get("/api/openapi.json", None).await.json;
        for (m, path) in EDIT_ROUTES {
            let op = &doc["paths"][*path][*m];
            assert_eq!(op["x-roles"], json!(["owner", "admin", "writer"]), "{m} {path} is documented for editors");
            // campaigns/updates names its campaigns in the body and resolves them in the
            // caller's workspace itself (api/tests/bulk checks another workspace's 404).
            if path.contains('{') {
                assert_eq!(op["x-resource"]["kind"], "campaign", "{m} {path} is scoped to a synced campaign");
            }
        }
        let mut calls = 0;
        for (m, path, op) in operations(&doc) {
            let Some(roles) = op.get("x-roles") else {
                let own = OWN_VALUE_WRITES.contains(&(m.as_str(), path.as_str()))
                    || READS_BY_POST.contains(&(m.as_str(), path.as_str()));
                let public = PUBLIC_ROUTES.contains(&(m.as_str(), path.as_str()));
                assert!(m == "get" || own || public, "{m} {path} writes without an Editor or Manager guard");
                continue;
            };
            assert!(!roles.as_array().unwrap().contains(&json!("reader")), "{m} {path}");
            assert!(op["responses"]["403"].is_object(), "{m} {path} documents 403");
            let url = concrete(&path, "some-id");
            let res = app.request(method(&m), &url, Some(json!({})), Some(&reader)).await;
            assert_eq!(res.status, StatusCode::FORBIDDEN, "{m} {path} refuses a reader");
            let res = app.request(method(&m), &url, Some(json!({})), Some(&owner)).await;
            assert_ne!(res.status, StatusCode::FORBIDDEN, "{m} {path} admits the owner");
            calls += 2;
        }
        println!("PROBE roles: {calls} role × route calls (reader refused, owner admitted)");
    }

    async fn every_state_changing_get_refuses_cross_site_calls(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let doc = app.get("/api/openapi.json", None).await.json;
        let mut marked: Vec<String> = operations(&doc)
            .into_iter()
            .filter(|(m, _, op)| m == "get" && op["x-state-changing"] == json!(true))
            .map(|(_, path, _)| path)
            .collect();
        marked.sort();
        assert_eq!(marked, STATE_CHANGING_GETS, "the state-changing GETs are marked where routed");
        let account = resource_in_workspace(&app, "account", &owner).await;
        let used = app.get("/api/account/getUsed", Some(&owner)).await.json;
        for path in STATE_CHANGING_GETS {
            let op = &doc["paths"][*path]["get"];
            assert!(op["responses"]["403"].is_object(), "{path} documents 403");
            let url = format!("{}?accountId={account}&email=a%40example.com&accountName=X&code=c&state=s", concrete(path, &account));
            for cross in [("sec-fetch-site", "cross-site"), ("origin", "https://evil.example")] {
                let req = Request::get(&url)
                    .header("host", "localhost:8080")
                    .header("cookie", format!("sd_session={owner}"))
                    .header(cross.0, cross.1)
                    .body(Body::empty())
                    .unwrap();
                let res = app.send(req).await;
                assert_eq!(res.status, StatusCode::FORBIDDEN, "{path} with {cross:?}: {:?}", res.json);
                assert_eq!(res.message(), "Cross-site requests are not allowed");
            }
            // No cross-site header, but no X-Searchdeck-Client either (a page that suppressed
            // them all): refused too.
            let req = Request::get(&url)
                .header("host", "localhost:8080")
                .header("cookie", format!("sd_session={owner}"))
                .body(Body::empty())
                .unwrap();
            let res = app.send(req).await;
            assert_eq!(res.status, StatusCode::FORBIDDEN, "{path} without X-Searchdeck-Client: {:?}", res.json);
            assert!(res.message().starts_with("This request changes data"), "{path}: {:?}", res.json);
            assert!(op["parameters"].as_array().unwrap().iter().any(|p| p["name"] == "X-Searchdeck-Client" && p["in"] == "header" && p["required"] == true), "{path} documents the header");
        }
        println!("PROBE cross-site: {} state-changing GETs × 3 cross-site or header-less calls, each 403", STATE_CHANGING_GETS.len());
        assert_eq!(app.get("/api/account/getUsed", Some(&owner)).await.json, used, "the active account did not change");
        assert_eq!(app.get("/api/auth/me", Some(&owner)).await.status, StatusCode::OK, "still signed in");
    }
}
