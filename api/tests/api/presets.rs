//! Column presets (`setFields/*`) and filter presets (`options/front`) through the real
//! router, on SQLite and PostgreSQL.

use crate::common::{TestApp, TestBackend};
use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use serde_json::{Value, json};

/// Error fields of an answer.
fn fields(json: &Value) -> Vec<String> {
    json["errors"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|e| e["field"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

async fn put(app: &TestApp, body: Value, token: &str) -> crate::common::TestResponse {
    app.request(Method::PUT, "/api/setFields/one", Some(body), Some(token))
        .await
}

fn names(res: &crate::common::TestResponse) -> Vec<String> {
    res.json["result"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

backend_tests! {
    async fn defaults_and_the_column_catalog(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let res = app.get("/api/setFields/defaultFields", Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let items = res.json["result"]["items"].as_array().unwrap();
        let types: Vec<&str> = items.iter().map(|p| p["type"].as_str().unwrap()).collect();
        assert_eq!(types, ["ACCOUNTS", "ORGS", "CAMPAIGNS", "GROUPS", "KEYWORDS", "NEGATIVE", "SEARCHTERMS", "ADS"]);
        let keywords = items.iter().find(|p| p["type"] == "KEYWORDS").unwrap();
        assert_eq!((keywords["_id"].as_str(), keywords["name"].as_str(), keywords["isDefault"].as_bool()), (Some("default-KEYWORDS"), Some("Default"), Some(true)));
        let cols: Vec<&str> = keywords["fields"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        assert!(cols.contains(&"cptBid") && cols.contains(&"localSpend"), "{cols:?}");
        assert!(!cols.contains(&"organicSearch") && !cols.contains(&"auctionInsights"), "hidden by default");

        // The modal's columns, grouped, with the Growth lock on the default plan.
        let res = app.get("/api/setFields/fields/KEYWORDS", Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK);
        let groups = res.json["result"]["items"].as_array().unwrap();
        let group_names: Vec<&str> = groups.iter().map(|g| g["name"].as_str().unwrap()).collect();
        assert_eq!(group_names, ["Attributes", "Metrics", "Conversions", "Cohort"]);
        let cohort: Vec<&str> = groups[3]["fields"].as_array().unwrap().iter().filter_map(|c| c["key"].as_str()).collect();
        assert_eq!(cohort, ["revenueD0", "revenueD1", "revenueD3", "revenueD7", "revenueD14", "revenueD30", "roasD0", "roasD1", "roasD3", "roasD7", "roasD14", "roasD30"]);
        let column = |key: &str| groups.iter().flat_map(|g| g["fields"].as_array().unwrap()).find(|c| c["key"] == key).unwrap().clone();
        assert_eq!(column("qsStatus")["locked"], true);
        assert_eq!(column("qsStatus")["lock"], "growth");
        assert_eq!(column("cptBid")["locked"], false);
        assert_eq!(column("organicSearch")["hiddenByDefault"], true);
        assert_eq!(column("roas")["hiddenByDefault"], true);
        assert_eq!(groups[1]["fields"].as_array().unwrap().len(), 26, "every metric");
        let res = app.get("/api/setFields/fields/negative", Some(&owner)).await;
        assert_eq!(res.json["result"]["items"].as_array().unwrap().len(), 1, "no metrics on negative keywords");
        let res = app.get("/api/setFields/fields/NOPE", Some(&owner)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert_eq!(fields(&res.json), ["type"]);
        let res = app.get("/api/setFields/all/NOPE", Some(&owner)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);

        // A new user's list of a type holds the Default only.
        let res = app.get("/api/setFields/all/CAMPAIGNS", Some(&owner)).await;
        assert_eq!(names(&res), ["Default"]);
    }

    async fn save_list_rename_and_delete(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let res = put(&app, json!({"type": "KEYWORDS", "name": " Bids ", "fields": ["keyword", "cptBid", "taps"]}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let item = &res.json["result"]["item"];
        assert_eq!((item["name"].as_str(), item["type"].as_str(), item["isDefault"].as_bool()), (Some("Bids"), Some("KEYWORDS"), Some(false)));
        assert_eq!(item["fields"], json!(["keyword", "cptBid", "taps"]));
        let id = item["_id"].as_str().unwrap().to_string();
        put(&app, json!({"type": "KEYWORDS", "name": "Spend", "fields": ["localSpend"]}), &owner).await;
        put(&app, json!({"type": "CAMPAIGNS", "name": "Bids", "fields": ["campaignName"]}), &owner).await;
        let res = app.get("/api/setFields/all/KEYWORDS", Some(&owner)).await;
        assert_eq!(names(&res), ["Default", "Bids", "Spend"]);

        // Rename, replace columns; id and type in the body must agree with the preset.
        let url = format!("/api/setFields/one/{id}");
        let res = app.request(Method::PATCH, &url, Some(json!({"id": id, "type": "KEYWORDS", "name": "Bids 2", "fields": ["keyword", "avgCPT"]})), Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["item"]["name"], "Bids 2");
        assert_eq!(res.json["result"]["item"]["fields"], json!(["keyword", "avgCPT"]));
        let res = app.request(Method::PATCH, &url, Some(json!({"type": "CAMPAIGNS", "name": "x"})), Some(&owner)).await;
        assert_eq!((res.status, fields(&res.json)), (StatusCode::BAD_REQUEST, vec!["type".to_string()]));
        let res = app.request(Method::PATCH, &url, Some(json!({"id": "other", "name": "x"})), Some(&owner)).await;
        assert_eq!(fields(&res.json), ["id"]);
        let res = app.request(Method::PATCH, &url, Some(json!({"name": "SPEND"})), Some(&owner)).await;
        assert_eq!((res.status, res.message()), (StatusCode::BAD_REQUEST, "A preset with this name already exists"));
        assert_eq!(fields(&res.json), ["name"]);
        let res = app.request(Method::PATCH, &url, Some(json!({})), Some(&owner)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        let res = app.request(Method::PATCH, &url, Some(json!({"name": "bids 2"})), Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "a preset may keep its own name in another case");

        // An update needs an existing preset id (docs/product.md#5-column-presets).
        let res = app.request(Method::PATCH, "/api/setFields/one/no-such-id", Some(json!({"name": "x"})), Some(&owner)).await;
        assert_eq!((res.status, res.message()), (StatusCode::NOT_FOUND, "Preset not found"));

        // Delete, then the id is gone.
        let res = app.request(Method::DELETE, &url, None, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK);
        assert_eq!(res.json["result"]["item"]["_id"], id.as_str());
        let res = app.request(Method::DELETE, &url, None, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND);
        let res = app.request(Method::PATCH, &url, Some(json!({"name": "again"})), Some(&owner)).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND);
        let res = app.get("/api/setFields/all/KEYWORDS", Some(&owner)).await;
        assert_eq!(names(&res), ["Default", "Spend"]);
    }

    async fn the_default_preset_cannot_be_deleted_or_changed(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        for kind in ["CAMPAIGNS", "GROUPS", "KEYWORDS", "NEGATIVE", "SEARCHTERMS", "ADS", "ACCOUNTS", "ORGS"] {
            let url = format!("/api/setFields/one/default-{kind}");
            let res = app.request(Method::DELETE, &url, None, Some(&owner)).await;
            assert_eq!((res.status, res.message()), (StatusCode::BAD_REQUEST, "The Default preset cannot be deleted"), "{kind}");
            let res = app.request(Method::PATCH, &url, Some(json!({"name": "Mine"})), Some(&owner)).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST, "{kind}");
            assert_eq!(fields(&res.json), ["id"]);
        }
        // Default is reserved as a name, in any case.
        let res = put(&app, json!({"type": "ADS", "name": "default", "fields": ["adStatus"]}), &owner).await;
        assert_eq!((res.status, fields(&res.json)), (StatusCode::BAD_REQUEST, vec!["name".to_string()]));
        let res = app.get("/api/setFields/all/ADS", Some(&owner)).await;
        assert_eq!(names(&res), ["Default"]);
    }

    async fn at_most_ten_presets_per_type_and_unique_names(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        for i in 0..10 {
            let res = put(&app, json!({"type": "GROUPS", "name": format!("Preset {i}"), "fields": ["adGroupName"]}), &owner).await;
            assert_eq!(res.status, StatusCode::OK, "{i}: {:?}", res.json);
        }
        let res = put(&app, json!({"type": "GROUPS", "name": "Eleventh", "fields": ["adGroupName"]}), &owner).await;
        assert_eq!((res.status, res.message()), (StatusCode::BAD_REQUEST, "Preset limit reached. Delete presets to save more"));
        assert_eq!(res.json["meta"]["limit"], 10);
        // The limit is per type, and a taken name is refused before anything is written.
        let res = put(&app, json!({"type": "CAMPAIGNS", "name": "Preset 0", "fields": ["campaignName"]}), &owner).await;
        assert_eq!(res.status, StatusCode::OK);
        let res = put(&app, json!({"type": "CAMPAIGNS", "name": "PRESET 0", "fields": ["campaignName"]}), &owner).await;
        assert_eq!((res.status, res.message()), (StatusCode::BAD_REQUEST, "A preset with this name already exists"));
        let res = app.get("/api/setFields/all/CAMPAIGNS", Some(&owner)).await;
        assert_eq!(names(&res).len(), 2);
        // Deleting one frees a place.
        let list = app.get("/api/setFields/all/GROUPS", Some(&owner)).await;
        let id = list.json["result"]["items"][1]["_id"].as_str().unwrap().to_string();
        app.request(Method::DELETE, &format!("/api/setFields/one/{id}"), None, Some(&owner)).await;
        let res = put(&app, json!({"type": "GROUPS", "name": "Eleventh", "fields": ["adGroupName"]}), &owner).await;
        assert_eq!(res.status, StatusCode::OK);
        // Concurrent saves never pass the limit: two places free, four tries, two saved.
        let list = app.get("/api/setFields/all/GROUPS", Some(&owner)).await;
        for i in [1, 2] {
            let id = list.json["result"]["items"][i]["_id"].as_str().unwrap().to_string();
            app.request(Method::DELETE, &format!("/api/setFields/one/{id}"), None, Some(&owner)).await;
        }
        let tries = (0..4).map(|i| put(&app, json!({"type": "GROUPS", "name": format!("Race {i}"), "fields": ["adGroupName"]}), &owner));
        let answers = futures::future::join_all(tries).await;
        let saved = answers.iter().filter(|r| r.status == StatusCode::OK).count();
        assert_eq!(saved, 2, "{answers:?}");
        assert!(answers.iter().filter(|r| r.status != StatusCode::OK).all(|r| r.message() == "Preset limit reached. Delete presets to save more"));
        let res = app.get("/api/setFields/all/GROUPS", Some(&owner)).await;
        assert_eq!(names(&res).len(), 11, "Default and ten saved");
    }

    async fn invalid_input_names_its_fields(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let res = put(&app, json!({}), &owner).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert_eq!(fields(&res.json), ["type", "name"]);
        assert_eq!(res.message(), "Please complete this field to continue");
        let res = put(&app, json!({"type": "KEYWORDS", "name": "x", "fields": ["keyword", "campaignName", "taps", "taps", 7]}), &owner).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert_eq!(fields(&res.json), ["fields.1", "fields.3", "fields.4"], "{:?}", res.json);
        let res = put(&app, json!({"type": "NEGATIVE", "name": "x", "fields": ["text", "taps"]}), &owner).await;
        assert_eq!(fields(&res.json), ["fields.1"], "negative keywords have no metrics");
        let res = put(&app, json!({"type": "KEYWORDS", "name": "x", "fields": []}), &owner).await;
        assert_eq!(fields(&res.json), ["fields"]);
        let res = put(&app, json!({"type": "KEYWORDS", "name": "x".repeat(51), "fields": ["keyword"]}), &owner).await;
        assert_eq!(fields(&res.json), ["name"]);
        let res = put(&app, json!({"type": "keywords", "name": "   ", "fields": "keyword"}), &owner).await;
        assert_eq!(fields(&res.json), ["name", "fields"]);
        let res = app.request(Method::PUT, "/api/setFields/one", None, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "no body");
        // Growth-locked columns may be saved (they show locked until the plan allows them).
        let res = put(&app, json!({"type": "KEYWORDS", "name": "Growth", "fields": ["keyword", "qsStatus"]}), &owner).await;
        assert_eq!(res.status, StatusCode::OK);
        // Nothing of the refused saves was written.
        let res = app.get("/api/setFields/all/KEYWORDS", Some(&owner)).await;
        assert_eq!(names(&res), ["Default", "Growth"]);
    }

    async fn presets_belong_to_their_user(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let reader = app.member(&owner, Role::Reader).await;
        let stranger = app.register(&app.email(), "long password").await;
        // Readers save, rename and delete their own presets: they only change their own view.
        let res = put(&app, json!({"type": "KEYWORDS", "name": "Mine", "fields": ["keyword"]}), &reader).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let id = res.json["result"]["item"]["_id"].as_str().unwrap().to_string();
        let url = format!("/api/setFields/one/{id}");
        let res = app.request(Method::PATCH, &url, Some(json!({"name": "Still mine"})), Some(&reader)).await;
        assert_eq!(res.status, StatusCode::OK);
        // The owner of the workspace neither sees nor touches it; another workspace neither.
        let res = app.get("/api/setFields/all/KEYWORDS", Some(&owner)).await;
        assert_eq!(names(&res), ["Default"]);
        for token in [&owner, &stranger] {
            let res = app.request(Method::PATCH, &url, Some(json!({"name": "Theirs"})), Some(token)).await;
            assert_eq!((res.status, res.message()), (StatusCode::NOT_FOUND, "Preset not found"));
            let res = app.request(Method::DELETE, &url, None, Some(token)).await;
            assert_eq!(res.status, StatusCode::NOT_FOUND);
        }
        // The same name is free for another user.
        let res = put(&app, json!({"type": "KEYWORDS", "name": "Still mine", "fields": ["keyword"]}), &owner).await;
        assert_eq!(res.status, StatusCode::OK);
        let res = app.request(Method::DELETE, &url, None, Some(&reader)).await;
        assert_eq!(res.status, StatusCode::OK);
    }

    async fn filter_presets_are_validated_with_the_filter_rules(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let good = json!([{"name": "Big spenders", "type": "KEYWORDS", "filters": [
            {"type": "metrics", "metric": "localSpend", "condition": ">", "value": 10},
            {"type": "status", "value": ["ACTIVE", "PAUSED"]},
            {"field": "name", "operator": "CONTAINS", "values": ["fit"]}
        ]}]);
        let res = app.request(Method::PUT, "/api/options/front", Some(json!({"optimization-filters-presets": good})), Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["item"]["optimization-filters-presets"], good);

        let bad = json!([
            {"name": "Ok", "type": "CAMPAIGNS", "filters": [{"type": "name", "condition": "contains", "value": "a"}]},
            {"name": "Broken", "type": "KEYWORDS", "filters": [
                {"type": "name", "condition": "contains", "value": "fit"},
                {"type": "metrics", "metric": "taps", "condition": "><", "value": [5, 1]},
                {"type": "country", "value": ["US", ""]}
            ]}
        ]);
        let res = app.request(Method::PUT, "/api/options/front", Some(json!({"optimization-filters-presets": bad})), Some(&owner)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert_eq!(fields(&res.json), ["optimization-filters-presets.1.filters.1.value", "optimization-filters-presets.1.filters.2.value"]);
        let res = app.request(Method::PUT, "/api/options/front", Some(json!({"optimization-filters-presets": [{"name": "", "type": "X", "filters": [{"type": "name", "value": "a"}]}]})), Some(&owner)).await;
        assert_eq!(fields(&res.json), ["optimization-filters-presets.0.name", "optimization-filters-presets.0.type", "optimization-filters-presets.0.filters.0.condition"]);
        let res = app.request(Method::PUT, "/api/options/front", Some(json!({"optimization-filters-presets": {"name": "x"}})), Some(&owner)).await;
        assert_eq!(fields(&res.json), ["optimization-filters-presets"]);
        // Nothing of the refused saves was written; null still removes the option.
        let res = app.get("/api/options/front", Some(&owner)).await;
        assert_eq!(res.json["result"]["item"]["optimization-filters-presets"], good);
        let res = app.request(Method::PUT, "/api/options/front", Some(json!({"optimization-filters-presets": null})), Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK);
        assert!(res.json["result"]["item"].get("optimization-filters-presets").is_none());
    }
}
