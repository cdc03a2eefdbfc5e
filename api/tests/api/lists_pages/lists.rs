//! Negative keyword lists: CRUD, validation, scope, roles, dryRun, and the
//! `apply-negative-lists` job at the sandbox.

use std::collections::BTreeSet;

use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use searchdeck_common::{
    jobs::{ApplyNegativeLists, PlaceRef},
    queue::Job,
    store,
    tasks::NewTask,
};
use searchdeck_provider::{AppleAds, AppleAdsExt, Entity};
use serde_json::{Value, json};

use super::{Picked, client, field, pick};
use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};

/// The live negatives at Apple of the picked campaign: (ad group or 0, text, match type).
async fn at_apple(client: &dyn AppleAds, p: &Picked) -> BTreeSet<(i64, String, String)> {
    let query = json!({
        "filters": [
            { "field": "campaignId", "operator": "EQUALS", "value": [p.campaign] },
            { "field": "deleted", "operator": "EQUALS", "value": [false] },
        ],
        "pagination": { "offset": 0, "pageSize": 1000 },
    });
    client
        .query::<Value>(p.org_id, Entity::NegativeKeywords, &query)
        .await
        .unwrap()
        .items
        .iter()
        .map(|n| {
            (
                n["adGroupId"].as_i64().unwrap_or(0),
                n["text"].as_str().unwrap().to_lowercase(),
                n["matchType"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Our synced live negatives of the picked campaign, as [`at_apple`] lists them.
async fn ours(t: &Connected, p: &Picked) -> BTreeSet<(i64, String, String)> {
    let rows: Vec<(Option<i64>, String, String)> = sqlx::query_as(
        "SELECT ad_group_id, text, match_type FROM asa_negative_keywords \
         WHERE org_key = $1 AND campaign_id = $2 AND deleted = 0",
    )
    .bind(p.org_key)
    .bind(p.campaign)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    rows.into_iter()
        .map(|(g, text, m)| (g.unwrap_or(0), text.to_lowercase(), m))
        .collect()
}

/// The lists' own terms of `set` (not the negative added by hand, which our synced rows
/// learn at the next sync).
fn strip(set: BTreeSet<(i64, String, String)>) -> BTreeSet<(i64, String, String)> {
    set.into_iter()
        .filter(|n| ["zzfree", "cheap stuff", "zzbroad"].contains(&n.1.as_str()))
        .collect()
}

fn has(set: &BTreeSet<(i64, String, String)>, group: i64, text: &str, m: &str) -> bool {
    set.contains(&(group, text.to_string(), m.to_string()))
}

/// A keyword the picked campaign's first ad group bids on (synced).
async fn a_keyword(t: &Connected, p: &Picked) -> String {
    sqlx::query_scalar(
        "SELECT text FROM asa_keywords WHERE org_key = $1 AND ad_group_id = $2 AND deleted = 0 ORDER BY id LIMIT 1",
    )
    .bind(p.org_key)
    .bind(p.groups[0])
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap()
}

crate::sandbox_tests! {
    async fn negative_lists_are_applied_edited_and_removed_exactly(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Lists").await;
        let p = pick(&t, &account_id).await;
        let apple = client(&t, &account_id).await;
        let reader = t.app.member(&owner, Role::Reader).await;
        let stranger = t.owner().await;
        let (campaign, group) = (p.campaign.to_string(), p.groups[0].to_string());
        let places = json!([
            {"campaignId": campaign, "adGroupId": null},
            {"campaignId": campaign, "adGroupId": group},
        ]);

        // Validation: nothing saved.
        let res = t.call(Method::POST, "/api/list/add", json!({}), &owner).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
        let fields: Vec<&str> = res.json["errors"].as_array().unwrap().iter().filter_map(|e| e["field"].as_str()).collect();
        assert_eq!(fields, ["name", "keywords"]);
        let res = t.call(Method::POST, "/api/list/add", json!({"name": "X", "keywords": [{"text": "a", "matchType": "PHRASE"}]}), &owner).await;
        assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, "keywords.0.matchType".into()));
        let res = t.call(Method::POST, "/api/list/add", json!({"name": "X", "keywords": [{"text": "!!!"}]}), &owner).await;
        assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, "keywords".into()));
        let res = t.call(Method::POST, "/api/list/add", json!({"name": "X", "keywords": [{"text": "a"}], "places": [{"campaignId": "1"}]}), &owner).await;
        assert_eq!((res.status, field(&res)), (StatusCode::NOT_FOUND, "places.0.campaignId".into()));
        let res = t.call(Method::POST, "/api/list/add", json!({"name": "X", "keywords": [{"text": "a"}], "places": [{"campaignId": campaign, "adGroupId": "1"}]}), &owner).await;
        assert_eq!((res.status, field(&res)), (StatusCode::NOT_FOUND, "places.0.adGroupId".into()));
        let res = t.call(Method::POST, "/api/list/add", json!({"name": "X", "keywords": [{"text": "a"}], "places": [{"campaignId": campaign}]}), &stranger).await;
        assert_eq!((res.status, field(&res)), (StatusCode::NOT_FOUND, "places.0.campaignId".into()), "another workspace's campaign");
        let res = t.call(Method::POST, "/api/list/add", json!({"name": "X", "keywords": [{"text": "a"}]}), &reader).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN);
        let all = t.get("/api/list/all/negative", &owner).await;
        assert_eq!(all.json["result"]["items"], json!([]), "nothing saved");

        // dryRun: a term equal to a keyword the ad group bids on conflicts; nothing saved.
        let bid = a_keyword(&t, &p).await;
        let res = t.call(Method::POST, "/api/list/add", json!({"name": "Dry", "dryRun": true,
            "keywords": [{"text": bid, "matchType": "EXACT"}, {"text": "zzunrelated"}], "places": places}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let conflicts = res.json["result"]["conflicts"].as_array().unwrap().clone();
        assert!(!conflicts.is_empty(), "the bid keyword conflicts");
        assert!(conflicts.iter().all(|c| c["matchType"] == "EXACT" && c["keyword"]["keywordId"].is_string()), "{conflicts:?}");
        assert!(conflicts.iter().any(|c| c["keyword"]["text"] == json!(bid) && c["adGroupId"] == json!(group)), "{conflicts:?}");
        assert_eq!(t.get("/api/list/all/negative", &owner).await.json["result"]["items"], json!([]));

        // A negative added by hand at the campaign, which no list may take away.
        let manual = apple.bulk_json(p.org_id, Entity::NegativeKeywords, "create",
            &[json!({"campaignId": p.campaign, "text": "zzmanual", "matchType": "EXACT", "status": "ENABLED"})]).await.unwrap();
        assert!(manual[0].outcome.is_ok(), "{manual:?}");

        // Create with places: applied at both places, at Apple and in our synced rows.
        let res = t.call(Method::POST, "/api/list/add", json!({"name": "Brand protection",
            "keywords": [{"text": "ZZFree\nCheap  Stuff!"}, {"text": "zzbroad", "matchType": "BROAD"}, {"text": "zzmanual"}],
            "places": places}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let list = res.json["result"]["item"].clone();
        let id = list["_id"].as_str().unwrap().to_string();
        assert_eq!(list["keywordsCount"], 4);
        assert_eq!(list["keywords"][1], json!({"text": "cheap stuff", "matchType": "EXACT"}));
        assert_eq!(list["places"][1]["adGroupId"], json!(group));
        let task = t.task_finished(&owner, list["taskId"].as_str().unwrap()).await;
        assert_eq!(task["error"], Value::Null, "{task:?}");
        assert_eq!(task["details"]["created"], 7, "{task:?}");
        let theirs = at_apple(apple.as_ref(), &p).await;
        for g in [0, p.groups[0]] {
            for (text, m) in [("zzfree", "EXACT"), ("cheap stuff", "EXACT"), ("zzbroad", "BROAD"), ("zzmanual", "EXACT")] {
                assert!(has(&theirs, g, text, m), "{g} {text} {m} at Apple");
            }
        }
        assert_eq!(strip(ours(&t, &p).await), strip(theirs.clone()), "our synced negatives show Apple's at once");

        // The same apply again sends nothing.
        let places_ref = vec![
            PlaceRef { account_id: account_id.clone(), org_id: p.org_id, campaign_id: p.campaign, ad_group_id: None },
            PlaceRef { account_id: account_id.clone(), org_id: p.org_id, campaign_id: p.campaign, ad_group_id: Some(p.groups[0]) },
        ];
        let me = t.get("/api/auth/me", &owner).await.json["result"]["item"].clone();
        let workspace_id = me["workspaceId"].as_str().unwrap();
        let again = t.app.state.start_task(NewTask { workspace_id, user_id: None, kind: ApplyNegativeLists::KIND,
            message: "Again", total_steps: 2, account_id: None, org_id: None },
            &ApplyNegativeLists { workspace_id: workspace_id.into(), user_id: None, list_id: Some(id.clone()), places: places_ref }).await.unwrap();
        let task = t.task_finished(&owner, &again).await;
        assert_eq!((task["details"]["created"].clone(), task["details"]["deleted"].clone()), (json!(0), json!(0)), "{task:?}");
        assert_eq!(at_apple(apple.as_ref(), &p).await, theirs);

        // Reads: members see it, another workspace does not; readers cannot change it.
        let res = t.get(&format!("/api/list/{id}"), &reader).await;
        assert_eq!(res.status, StatusCode::OK);
        assert_eq!(res.json["result"]["item"]["name"], "Brand protection");
        assert_eq!(t.get(&format!("/api/list/{id}"), &stranger).await.status, StatusCode::NOT_FOUND);
        assert_eq!(t.call(Method::PUT, &format!("/api/list/{id}"), json!({"name": "Y"}), &reader).await.status, StatusCode::FORBIDDEN);
        assert_eq!(t.call(Method::DELETE, &format!("/api/list/{id}"), json!({}), &reader).await.status, StatusCode::FORBIDDEN);
        assert_eq!(t.call(Method::PUT, &format!("/api/list/{id}"), json!({"name": "Y"}), &stranger).await.status, StatusCode::NOT_FOUND);
        let all = t.get("/api/list/all/negative", &owner).await;
        assert_eq!(all.json["result"]["items"][0]["keywordsCount"], 4);
        assert!(all.json["result"]["items"][0].get("keywords").is_none());
        // The listing has no places but says how many (its table's 'Applied to', issue 42 item 5).
        assert!(all.json["result"]["items"][0].get("places").is_none());
        assert_eq!(all.json["result"]["items"][0]["placesCount"], 2);

        // A second list holds "cheap stuff" at the campaign; a name is unique per workspace.
        let res = t.call(Method::POST, "/api/list/add", json!({"name": " brand PROTECTION ", "keywords": [{"text": "x"}]}), &owner).await;
        assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, "name".into()));
        let res = t.call(Method::POST, "/api/list/add", json!({"name": "Generic",
            "keywords": [{"text": "cheap stuff"}], "places": [{"campaignId": campaign}]}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let second = res.json["result"]["item"].clone();
        t.task_finished(&owner, second["taskId"].as_str().unwrap()).await;

        // Edit: "zzfree" removed, the ad group place removed.
        let res = t.call(Method::PUT, &format!("/api/list/{id}"), json!({
            "keywords": [{"text": "cheap stuff"}, {"text": "zzbroad", "matchType": "BROAD"}, {"text": "zzmanual"}],
            "places": [{"campaignId": campaign, "adGroupId": null}]}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let task = t.task_finished(&owner, res.json["result"]["item"]["taskId"].as_str().unwrap()).await;
        assert_eq!(task["error"], Value::Null, "{task:?}");
        let theirs = at_apple(apple.as_ref(), &p).await;
        assert!(!has(&theirs, 0, "zzfree", "EXACT"), "a removed term is deleted");
        assert!(has(&theirs, 0, "zzbroad", "BROAD") && has(&theirs, 0, "cheap stuff", "EXACT"));
        for (text, m) in [("zzfree", "EXACT"), ("cheap stuff", "EXACT"), ("zzbroad", "BROAD"), ("zzmanual", "EXACT")] {
            assert!(!has(&theirs, p.groups[0], text, m), "a removed place loses the list's {text}");
        }
        assert_eq!(strip(ours(&t, &p).await), strip(theirs.clone()));

        // Delete: what no other list holds goes; the hand-made negative and the second
        // list's term stay.
        let res = t.call(Method::DELETE, &format!("/api/list/{id}"), json!({}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        t.task_finished(&owner, res.json["result"]["taskId"].as_str().unwrap()).await;
        let theirs = at_apple(apple.as_ref(), &p).await;
        assert!(!has(&theirs, 0, "zzbroad", "BROAD"));
        assert!(has(&theirs, 0, "cheap stuff", "EXACT"), "the second list still holds it");
        assert!(has(&theirs, 0, "zzmanual", "EXACT"), "a negative added by hand stays");
        assert_eq!(strip(ours(&t, &p).await), strip(theirs));
        assert_eq!(t.get(&format!("/api/list/{id}"), &owner).await.status, StatusCode::NOT_FOUND);

        // A run that died after Apple created "zzlost" (recorded as made before the call,
        // our rows never written): the next run creates nothing, and removing the list
        // still deletes it.
        let campaign_place = store::negative_lists::Place { account_id: account_id.clone(), org_id: p.org_id,
            campaign_id: p.campaign, ad_group_id: None, campaign_name: String::new(), ad_group_name: None };
        let mut conn = t.app.state.db.pool.acquire().await.unwrap();
        store::negative_lists::claim(&mut conn, &campaign_place, &[store::negative_lists::negative_key("zzlost", "EXACT")]).await.unwrap();
        drop(conn);
        let made = apple.bulk_json(p.org_id, Entity::NegativeKeywords, "create",
            &[json!({"campaignId": p.campaign, "text": "zzlost", "matchType": "EXACT", "status": "ENABLED"})]).await.unwrap();
        assert!(made[0].outcome.is_ok(), "{made:?}");
        let res = t.call(Method::POST, "/api/list/add", json!({"name": "Lost",
            "keywords": [{"text": "zzlost"}], "places": [{"campaignId": campaign}]}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let lost = res.json["result"]["item"].clone();
        let task = t.task_finished(&owner, lost["taskId"].as_str().unwrap()).await;
        assert_eq!(task["details"]["created"], 0, "{task:?}");
        let res = t.call(Method::DELETE, &format!("/api/list/{}", lost["_id"].as_str().unwrap()), json!({}), &owner).await;
        let task = t.task_finished(&owner, res.json["result"]["taskId"].as_str().unwrap()).await;
        assert_eq!(task["details"]["deleted"], 1, "{task:?}");
        assert!(!has(&at_apple(apple.as_ref(), &p).await, 0, "zzlost", "EXACT"));
    }
}
