//! Report tags (`reports/allTags`, `reports/tag/many`, `reports/tag/one`) on SQLite and
//! PostgreSQL: creation with colours and unique names per type, attaching and detaching
//! synced entities, renaming, deleting, all-or-nothing writes, readers and workspace scope.

use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};
use axum::http::{Method, StatusCode};
use searchdeck_api::{domain::REQUIRED, session::Role};
use serde_json::{Value, json};

const NAME_TAKEN: &str = "A tag with this name already exists";

impl Connected {
    async fn tags_of(&self, cookie: &str) -> Value {
        let res = self.get("/api/reports/allTags", cookie).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        res.json["result"].clone()
    }
}

crate::sandbox_tests! {
    async fn tags_are_created_attached_renamed_and_deleted(t: Connected) {
        let owner = t.owner().await;
        let writer = t.app.member(&owner, Role::Writer).await;
        let reader = t.app.member(&owner, Role::Reader).await;
        let (account, org) = t.connected(&owner).await;
        let key = t.synced_org(&account, org).await;
        for id in [7, 8] {
            t.synced_entity("asa_campaigns", key, id).await;
        }
        t.synced_entity("asa_keywords", key, 11).await;
        let big: i64 = 9_007_199_254_740_993; // beyond JavaScript's exact integers
        t.synced_entity("asa_search_terms", key, big).await;
        assert_eq!(t.tags_of(&reader).await, json!({"CAMPAIGNS": [], "GROUPS": [], "KEYWORDS": [], "SEARCHTERMS": []}));

        let created = t.call(Method::PUT, "/api/reports/tag/many", json!({"tags": [
            {"name": " Brand ", "color": "green", "type": "CAMPAIGNS", "items": [{"accountId": account, "orgId": org, "id": 7}]},
            {"name": "Brand", "color": "Red", "type": "KEYWORDS"},
            {"name": "Long tail", "color": "Cyan", "type": "SEARCHTERMS", "items": [{"accountId": account, "orgId": org.to_string(), "id": big.to_string()}]},
        ]}), &writer).await;
        assert_eq!(created.status, StatusCode::OK, "{:?}", created.json);
        let made = created.json["result"]["items"].as_array().unwrap().clone();
        assert_eq!(made.len(), 3);
        assert_eq!((&made[0]["name"], &made[0]["color"], &made[0]["type"], &made[0]["items"]), (&json!("Brand"), &json!("Green"), &json!("CAMPAIGNS"), &json!(1)));
        assert_eq!(made[2]["items"], 1, "the search term's id arrived exactly");
        let brand = made[0]["_id"].as_str().unwrap().to_string();
        let all = t.tags_of(&reader).await;
        assert_eq!(all["CAMPAIGNS"].as_array().unwrap().len(), 1);
        assert_eq!(all["KEYWORDS"][0]["name"], "Brand");
        assert_eq!(all["SEARCHTERMS"][0]["name"], "Long tail");
        assert_eq!(all["GROUPS"], json!([]));

        // Bad input: field errors, and nothing of the request is written.
        let bad = t.call(Method::PUT, "/api/reports/tag/many", json!({"tags": [
            {"name": "New", "color": "Blue", "type": "GROUPS"},
            {"name": "brand", "color": "Teal", "type": "CAMPAIGNS"},
            {"name": "Brand", "color": "Blue", "type": "CAMPAIGNS"},
            {"name": "", "color": "Blue", "type": "ADS"},
        ]}), &owner).await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST);
        assert_eq!(bad.json["errors"], json!([
            {"field": "tags.1.color", "message": "Colour must be one of Green, Purple, Yellow, Orange, Pink, Indigo, Magenta, Cyan, Blue, Red"},
            {"field": "tags.2.name", "message": NAME_TAKEN},
            {"field": "tags.3.name", "message": REQUIRED},
            {"field": "tags.3.type", "message": "Type must be one of CAMPAIGNS, GROUPS, KEYWORDS, SEARCHTERMS"},
        ]));
        let twice = t.call(Method::PUT, "/api/reports/tag/many", json!({"tags": [
            {"name": "Twice", "color": "Blue", "type": "GROUPS"}, {"name": "Twice", "color": "Red", "type": "GROUPS"}]}), &owner).await;
        assert_eq!(twice.json["errors"], json!([{"field": "tags.1.name", "message": NAME_TAKEN}]));
        let foreign_item = t.call(Method::PUT, "/api/reports/tag/many", json!({"tags": [
            {"name": "Ok", "color": "Blue", "type": "CAMPAIGNS", "items": [{"accountId": account, "orgId": org, "id": 11}]}]}), &owner).await;
        assert_eq!((foreign_item.status, foreign_item.message()), (StatusCode::NOT_FOUND, "Campaign not found"), "a keyword id is no campaign");
        assert_eq!(t.count("tags").await, 3, "nothing half-written");
        assert_eq!(t.count("tag_links").await, 2);
        let none = t.call(Method::PUT, "/api/reports/tag/many", json!({}), &owner).await;
        assert_eq!(none.json["errors"], json!([{"field": "tags", "message": REQUIRED}]));

        // Attach and detach.
        let many = format!("/api/reports/tag/many/{brand}");
        let item = |id: Value| json!({"accountId": account, "orgId": org, "id": id});
        let attached = t.call(Method::PATCH, &many, json!({"items": [item(json!(7)), item(json!("8"))]}), &writer).await;
        assert_eq!(attached.status, StatusCode::OK, "{:?}", attached.json);
        assert_eq!(attached.json["result"]["item"]["items"], 2, "7 was already attached");
        let unknown = t.call(Method::PATCH, &many, json!({"items": [item(json!(8)), item(json!(999))]}), &owner).await;
        assert_eq!((unknown.status, unknown.message()), (StatusCode::NOT_FOUND, "Campaign not found"));
        let wrong_org = t.call(Method::PATCH, &many, json!({"items": [{"accountId": account, "orgId": 1, "id": 7}]}), &owner).await;
        assert_eq!(wrong_org.status, StatusCode::NOT_FOUND);
        let malformed = t.call(Method::PATCH, &many, json!({"items": [{"accountId": account, "orgId": org, "id": "seven"}]}), &owner).await;
        assert_eq!(malformed.json["errors"][0]["field"], "items.0.id");
        let empty = t.call(Method::PATCH, &many, json!({"items": []}), &owner).await;
        assert_eq!(empty.json["errors"], json!([{"field": "items", "message": REQUIRED}]));
        let too_many = t.call(Method::PATCH, &many, json!({"items": vec![item(json!(7)); 10_001]}), &owner).await;
        assert_eq!(too_many.json["errors"], json!([{"field": "items", "message": "At most 10000 items per request"}]));
        let detached = t.call(Method::DELETE, &many, json!({"items": [item(json!(7)), item(json!(7))]}), &writer).await;
        assert_eq!(detached.json["result"]["item"]["items"], 1);

        // Rename and recolour.
        let one = format!("/api/reports/tag/one/{brand}");
        let renamed = t.call(Method::PATCH, &one, json!({"name": "Competitors", "color": "MAGENTA"}), &writer).await;
        assert_eq!(renamed.status, StatusCode::OK, "{:?}", renamed.json);
        assert_eq!((&renamed.json["result"]["item"]["name"], &renamed.json["result"]["item"]["color"]), (&json!("Competitors"), &json!("Magenta")));
        let recoloured = t.call(Method::PATCH, &one, json!({"color": "Blue"}), &owner).await;
        assert_eq!(recoloured.json["result"]["item"]["name"], "Competitors");
        let other = t.call(Method::PUT, "/api/reports/tag/many", json!({"tags": [{"name": "Generic", "color": "Pink", "type": "CAMPAIGNS"}]}), &owner).await;
        let generic = other.json["result"]["items"][0]["_id"].as_str().unwrap().to_string();
        let taken = t.call(Method::PATCH, &format!("/api/reports/tag/one/{generic}"), json!({"name": "Competitors"}), &owner).await;
        assert_eq!(taken.json["errors"], json!([{"field": "name", "message": NAME_TAKEN}]));
        let keeps = t.call(Method::PATCH, &one, json!({"name": "Competitors"}), &owner).await;
        assert_eq!(keeps.status, StatusCode::OK, "its own name is not taken");
        let bad = t.call(Method::PATCH, &one, json!({"name": "n".repeat(41), "color": "Grey"}), &owner).await;
        let fields: Vec<&str> = bad.json["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
        assert_eq!(fields, ["name", "color"]);
        // An empty change (nothing, or nulls) keeps the tag as it is.
        let unchanged = t.call(Method::PATCH, &one, json!({"name": null}), &owner).await;
        assert_eq!(unchanged.status, StatusCode::OK, "{:?}", unchanged.json);
        assert_eq!((&unchanged.json["result"]["item"]["name"], &unchanged.json["result"]["item"]["color"]), (&json!("Competitors"), &json!("Blue")));

        // Readers read only; another workspace sees nothing.
        for (m, p, body) in [
            (Method::PUT, "/api/reports/tag/many".to_string(), json!({"tags": [{"name": "R", "color": "Red", "type": "GROUPS"}]})),
            (Method::PATCH, many.clone(), json!({"items": [item(json!(7))]})),
            (Method::DELETE, many.clone(), json!({"items": [item(json!(8))]})),
            (Method::PATCH, one.clone(), json!({"name": "R"})),
            (Method::DELETE, one.clone(), json!({})),
        ] {
            assert_eq!(t.call(m.clone(), &p, body, &reader).await.status, StatusCode::FORBIDDEN, "{m} {p}");
        }
        let stranger = t.owner().await;
        assert_eq!(t.tags_of(&stranger).await["CAMPAIGNS"], json!([]));
        let res = t.call(Method::PATCH, &one, json!({"name": "Mine"}), &stranger).await;
        assert_eq!((res.status, res.message()), (StatusCode::NOT_FOUND, "Tag not found"));
        let (their_account, their_org) = t.connected(&stranger).await;
        let their_key = t.synced_org(&their_account, their_org).await;
        t.synced_entity("asa_campaigns", their_key, 70).await;
        let cross = t.call(Method::PATCH, &many, json!({"items": [{"accountId": their_account, "orgId": their_org, "id": 70}]}), &owner).await;
        assert_eq!(cross.status, StatusCode::NOT_FOUND, "another workspace's entity");

        // Delete: the tag leaves its entities.
        assert_eq!(t.call(Method::DELETE, &one, json!({}), &writer).await.status, StatusCode::OK);
        assert_eq!(t.call(Method::DELETE, &one, json!({}), &writer).await.status, StatusCode::NOT_FOUND);
        let names: Vec<Value> = t.tags_of(&owner).await["CAMPAIGNS"].as_array().unwrap().iter().map(|t| t["name"].clone()).collect();
        assert_eq!(names, [json!("Generic")]);
        assert_eq!(t.count("tag_links").await, 1, "only the search term's link is left");
    }
}
