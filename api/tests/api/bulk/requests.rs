//! What a bulk edit route takes: its contract in the OpenAPI document, and every bad request
//! (too many items, money and operation rules, unknown ids, another workspace's campaign, a
//! reader) answered before a job is queued.

use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use serde_json::json;

use super::{keywords_url, pick};
use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};

#[tokio::test]
async fn bulk_routes_are_documented() {
    let app = TestApp::sqlite_with(&[]).await;
    let doc = app.get("/api/openapi.json", None).await.json;
    for (method, path, body) in [
        ("put", "/api/asa/campaigns/updates", "BulkEditRequest"),
        ("put", "/api/asa/groups/updates/{id}", "BulkEditRequest"),
        (
            "put",
            "/api/asa/groups/updatesAllGroupsByCampaigns",
            "BulkEditRequest",
        ),
        (
            "put",
            "/api/asa/keywords/update/targeting/{id}",
            "BulkEditRequest",
        ),
        (
            "patch",
            "/api/asa/campaigns/replacePartName",
            "RenameRequest",
        ),
        ("put", "/api/asa/keywords/add/negative", "AddNegatives"),
        (
            "put",
            "/api/asa/keywords/add/negative/{campaignId}",
            "AddNegatives",
        ),
        ("delete", "/api/asa/campaigns", "DeleteRequest"),
        ("delete", "/api/asa/groups", "DeleteRequest"),
        ("delete", "/api/asa/keywords", "DeleteRequest"),
    ] {
        let op = &doc["paths"][path][method];
        for status in ["200", "400", "401", "403", "404"] {
            assert!(
                op["responses"][status].is_object(),
                "{method} {path} documents {status}"
            );
        }
        assert_eq!(op["tags"], json!(["edits"]));
        assert_eq!(
            op["requestBody"]["content"]["application/json"]["schema"]["$ref"],
            json!(format!("#/components/schemas/{body}")),
            "{method} {path}"
        );
    }
    assert!(doc["components"]["schemas"]["BulkEditStarted"].is_object());
}

sandbox_tests! {
    async fn bad_bulk_edits_are_refused_before_anything_is_queued(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Bulk").await;
        let p = pick(&t, &account_id).await;
        let reader = t.app.member(&owner, Role::Reader).await;
        let ids: Vec<i64> = p.keywords.iter().map(|k| k.0).take(3).collect();
        let ok = json!({"ids": ids, "field": "cptBid", "action": "raise", "percent": 10});

        // Over 10,000 items: a clear message on ids.
        let many: Vec<i64> = (1..=10_001).collect();
        let res = t.call(Method::PUT, &keywords_url(&p), json!({"ids": many, "field": "cptBid", "action": "raise", "percent": 10}), &owner).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
        assert_eq!(res.json["errors"][0]["field"], "ids");
        assert_eq!(res.json["errors"][0]["message"], "A bulk edit takes at most 10,000 items. Select fewer and try again");
        // Money and operation rules.
        for (body, field, says) in [
            (json!({"ids": ids, "field": "cptBid", "action": "set", "value": "1.234"}), "value", "has at most 2 decimals in USD"),
            (json!({"ids": ids, "field": "cptBid", "action": "set", "value": "-1"}), "value", "must not be negative"),
            (json!({"ids": ids, "field": "cptBid", "action": "raise"}), "value", "Give either an amount (value) or a percentage (percent)"),
            (json!({"ids": ids, "field": "cptBid", "action": "lower", "percent": 150}), "percent", "Percentage must be at most 100"),
            (json!({"ids": ids, "field": "cptBid", "action": "raise", "percent": 10, "floor": "2", "cap": "1"}), "floor", "The floor must not be above the cap"),
            (json!({"ids": ids, "field": "dailyBudget", "action": "set", "value": "1"}), "field", "Field must be one of cptBid, status"),
            (json!({"ids": ids, "field": "cptBid", "action": "double"}), "action", "Must be one of: set, raise, lower, pause, enable"),
            // Values are taken exactly as documented: no other case, no spaces, numbers as numbers.
            (json!({"ids": ids, "field": "cptBid", "action": "RAISE", "percent": 10}), "action", "Must be one of: set, raise, lower, pause, enable"),
            (json!({"ids": ids, "field": "cptBid", "action": "raise", "percent": "10"}), "percent", "Percentage must be a number"),
            (json!({"ids": ids, "field": "status", "action": "set", "value": "enabled"}), "value", "Must be one of: ENABLED, PAUSED, ACTIVE"),
            (json!({"ids": [], "action": "pause"}), "ids", "Please complete this field to continue"),
        ] {
            let res = t.call(Method::PUT, &keywords_url(&p), body.clone(), &owner).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST, "{body}: {:?}", res.json);
            assert_eq!(res.json["errors"][0]["field"], field, "{body}: {:?}", res.json);
            assert!(res.json["errors"][0]["message"].as_str().unwrap().contains(says), "{body}: {:?}", res.json);
        }
        // Unknown keyword ids, another workspace's campaign: 404.
        let res = t.call(Method::PUT, &keywords_url(&p), json!({"ids": [ids[0], 1], "action": "pause"}), &owner).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);
        let stranger = t.owner().await;
        let res = t.call(Method::PUT, &keywords_url(&p), ok.clone(), &stranger).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);
        let res = t.call(Method::PUT, "/api/asa/campaigns/updates", json!({"ids": [p.campaign], "action": "pause"}), &stranger).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);
        // Readers cannot bulk-edit.
        for url in [keywords_url(&p), format!("/api/asa/groups/updates/{}", p.campaign), "/api/asa/campaigns/updates".to_string()] {
            let res = t.call(Method::PUT, &url, ok.clone(), &reader).await;
            assert_eq!(res.status, StatusCode::FORBIDDEN, "{url}: {:?}", res.json);
        }
        // Nothing was queued.
        let tasks: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM tasks WHERE kind = 'bulk-edit'")
            .fetch_one(&t.app.state.db.pool).await.unwrap();
        assert_eq!(tasks, 0);
    }
}
