//! Every path parameter scoped to the caller's workspace: another workspace's id answers
//! exactly like a missing one, the owner's answers something else, and a public App Store id
//! reads only the caller's own saved data.

use axum::http::StatusCode;
use serde_json::{Value, json};

use super::{VALUE_PARAMS, concrete, fresh_app_id, method, operations, resource_in_workspace};
use crate::common::{TestApp, TestBackend};

backend_tests! {
    async fn every_resource_id_is_scoped_to_the_workspace(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let stranger = app.register(&app.email(), "long password").await;
        let doc = app.get("/api/openapi.json", None).await.json;
        let mut checked = 0;
        for (m, path, op) in operations(&doc) {
            let resource = &op["x-resource"];
            let params: Vec<&str> = path.split('/').filter_map(|s| s.strip_prefix('{')?.strip_suffix('}')).collect();
            // A child parameter (`x-resource.children`) names a thing inside the resource,
            // looked up within it; the fixture's id names the resource and its child. A value
            // parameter (`VALUE_PARAMS`, e.g. a table type) is no resource at all.
            let children: Vec<&str> = resource["children"].as_array().map(|c| c.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            let public = op["x-public-id"]["param"].as_str();
            for p in params.iter().filter(|p| !VALUE_PARAMS.contains(&(path.as_str(), **p))) {
                assert!(resource["param"].as_str() == Some(*p) || children.contains(p) || public == Some(*p), "{m} {path}: path parameter {p} is not a workspace resource id");
            }
            if let Some(p) = public {
                assert_eq!(op["x-public-id"]["kind"], "app-store-app", "{m} {path}: the one public kind");
                let bad = app.request(method(&m), &concrete(&path, "not-an-app"), Some(json!({})), Some(&owner)).await;
                assert_eq!((bad.status, &bad.json["errors"][0]["field"]), (StatusCode::BAD_REQUEST, &json!(p)), "{m} {path}: not an App Store id");
                if m == "get" {
                    // The owner saved data for this app; another workspace sees none of it.
                    let saved = resource_in_workspace(&app, "competitor", &owner).await;
                    let seen = app.request(method(&m), &concrete(&path, &saved), None, Some(&stranger)).await;
                    let unsaved = app.request(method(&m), &concrete(&path, &fresh_app_id().to_string()), None, Some(&stranger)).await;
                    assert_eq!((seen.status, &seen.json), (unsaved.status, &unsaved.json), "{m} {path}: another workspace's saved app answers like an unsaved one");
                }
                checked += 1;
            }
            let Some(kind) = resource["kind"].as_str() else { continue };
            let param = resource["param"].as_str().unwrap();
            // A resource named in the query (`accountId`) beside value parameters in the path
            // (an App Store id) takes a valid value there.
            let url_for = |id: &str| if params.contains(&param) { concrete(&path, id) } else if params.is_empty() { format!("{path}?{param}={id}") } else { format!("{}?{param}={id}", concrete(&path, "1")) };
            let id = resource_in_workspace(&app, kind, &owner).await;
            let missing = app.request(method(&m), &url_for("no-such-id"), Some(json!({})), Some(&stranger)).await;
            assert_eq!(missing.status, StatusCode::NOT_FOUND, "{m} {path}: a missing id");
            assert!(op["responses"]["404"].is_object(), "{m} {path} documents 404");
            let foreign = app.request(method(&m), &url_for(&id), Some(json!({})), Some(&stranger)).await;
            assert_eq!((foreign.status, &foreign.json), (missing.status, &missing.json), "{m} {path}: another workspace's id answers like a missing one");
            let own = app.request(method(&m), &url_for(&id), Some(json!({})), Some(&owner)).await;
            assert_ne!(own.status, StatusCode::NOT_FOUND, "{m} {path}: the owner's own id is found");
            checked += 1;
        }
        println!("PROBE workspaces: {checked} routes × (missing, another workspace's, own) id");
        assert!(checked >= 1, "no resource routes checked");
    }
}
