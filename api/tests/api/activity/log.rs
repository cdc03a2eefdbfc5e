//! The activity log over notifications written straight to the store: listed, filtered,
//! searched and paged, read state per member and per workspace, and the routes' contract.

use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use searchdeck_common::{
    ids::{new_id, now_ms},
    store::{
        changes::{self, NewChange},
        notifications::{self, NewNotification},
    },
};
use serde_json::{Value, json};

use super::{ALL, me};
use crate::common::{TestApp, TestBackend};

/// Writes a notification of `workspace` made at `at` (unix seconds) with one change per
/// `(entity, campaign name, field, old, new)`; returns its id.
async fn seed(
    app: &TestApp,
    workspace: &str,
    (key, tag, at): (&str, &'static str, i64),
    changes: &[(i64, &str, &str, &str, &str)],
) -> String {
    let mut conn = app.state.db.pool.acquire().await.unwrap();
    let n = NewNotification {
        workspace_id: workspace.to_string(),
        key: key.to_string(),
        tag,
        kind: notifications::TYPE_CHANGE,
        title: format!("Change {key}"),
        action: "UPDATE".into(),
        target: "KEYWORD".into(),
        source: notifications::SOURCE_USER,
        source_name: "Ann Lee".into(),
        user_id: None,
        email: Some("ann@example.com".into()),
        rule_id: None,
        account_id: None,
        org_id: Some(4_500_123),
        undo_of: None,
        created_at: at,
    };
    let id = notifications::record(&mut conn, &n).await.unwrap();
    for (entity, campaign, field, old, new) in changes {
        changes::insert(
            &mut conn,
            &NewChange {
                id: new_id(),
                workspace_id: workspace.to_string(),
                user_id: None,
                user_email: None,
                account_id: None,
                org_id: 4_500_123,
                level: "KEYWORD",
                entity_id: *entity,
                campaign_id: 1_870_000 + campaign.len() as i64,
                ad_group_id: Some(77),
                entity_name: format!("keyword {entity}"),
                campaign_name: campaign.to_string(),
                field: field.to_string(),
                old_value: Some(old.to_string()),
                new_value: Some(new.to_string()),
                currency: (*field == "cptBid").then(|| "USD".to_string()),
                source: tag,
                job_id: None,
                notification_id: Some(id.clone()),
                created_at: at,
            },
        )
        .await
        .unwrap();
    }
    // Distinct insertion order for the read watermark (milliseconds).
    tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    id
}

fn keys(res: &Value) -> Vec<String> {
    res["result"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["key"].as_str().unwrap().to_string())
        .collect()
}

async fn list(app: &TestApp, cookie: &str, query: &str) -> Value {
    let res = app.get(&format!("{ALL}?{query}"), Some(cookie)).await;
    assert_eq!(res.status, StatusCode::OK, "{query}: {:?}", res.json);
    res.json
}

/// `day` (YYYY-MM-DD) of unix seconds `at` in UTC.
fn day_of(at: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(at)
        .unwrap()
        .date()
        .to_string()
}

backend_tests! {
    async fn the_log_is_listed_filtered_searched_and_paged(app: TestApp) {
        let owner = app.register(&app.email(), "owner password").await;
        let (ws, _) = me(&app, &owner).await;
        let now = now_ms() / 1000;
        let midnight = now - now.rem_euclid(86_400);
        // 23:30 UTC two days ago: the next day at UTC+2.
        let late = midnight - 86_400 - 1_800;
        seed(&app, &ws, ("a", notifications::TAG_MANUAL, now - 60),
            &[(1, "US — Brand", "cptBid", "1.20", "1.50")]).await;
        seed(&app, &ws, ("b", notifications::TAG_AUTO_RULES, late),
            &[(2, "50%_off Generic", "status", "ENABLED", "PAUSED"), (3, "UK", "status", "ENABLED", "PAUSED")]).await;
        seed(&app, &ws, ("c", notifications::TAG_MANUAL, now - 10 * 86_400),
            &[(4, "Brand DE", "cptBid", "1.00", "2.00"), (5, "Brand DE", "cptBid", "1.10", "2.00")]).await;
        seed(&app, &ws, ("d", notifications::TAG_QUICK_START, now - 40 * 86_400),
            &[(6, "Generic", "created", "", "EXACT")]).await;
        let other = app.register(&app.email(), "other password").await;
        let (other_ws, _) = me(&app, &other).await;
        seed(&app, &other_ws, ("x", notifications::TAG_MANUAL, now), &[(9, "US — Brand", "status", "ENABLED", "PAUSED")]).await;

        let all = list(&app, &owner, "").await;
        assert_eq!(keys(&all), ["a", "b", "c", "d"], "newest first, the workspace's only");
        let r = &all["result"];
        assert_eq!((r["total"].as_i64(), r["unread"].as_i64()), (Some(4), Some(4)));
        assert_eq!(r["counts"], json!({"all": 4, "manual_change": 2, "quick_start": 1, "auto_rules": 1, "goal_optimization": 0, "team": 0}));
        let a = &r["items"][0];
        assert_eq!(a["title"], "Change a");
        assert_eq!((a["source"].as_str(), a["sourceName"].as_str(), a["type"].as_str()), (Some("user"), Some("Ann Lee"), Some("change")));
        assert_eq!(a["count"], 1);
        assert_eq!(a["campaignName"], "US — Brand");
        assert_eq!(a["orgId"], "4500123");
        assert_eq!(a["read"], false);
        assert_eq!(a["oldData"], json!({"entity": "keyword 1", "field": "cptBid", "value": "1.20", "currency": "USD"}));
        assert_eq!(a["saveData"]["value"], "1.50");
        assert!(a["dateCreated"].as_str().unwrap().ends_with('Z'), "{a}");
        let b = &r["items"][1];
        assert_eq!(b["campaignName"], "2 campaigns");
        assert_eq!(b["campaignNames"], json!(["50%_off Generic", "UK"]));
        assert_eq!(b["oldData"], Value::Null);
        assert_eq!(b["notificationsData"], json!([{"source": "user", "typeOfChange": "status", "action": "UPDATE",
            "count": 2, "oldData": "ENABLED", "saveData": "PAUSED", "currency": null, "entities": []}]));
        let c = &r["items"][2];
        assert_eq!((c["notificationsData"][0]["oldData"].clone(), c["notificationsData"][0]["saveData"].clone()),
            (Value::Null, json!("2.00")), "old values differ, the new one is shared");
        assert_eq!(c["undo"], json!({"possible": true, "undoneBy": null, "undoOf": null}));
        assert_eq!(r["items"][3]["undo"]["possible"], false, "campaigns created are not undone from the log");
        // What a group created is named (a list's terms, issue 42 item 15), not only counted.
        assert_eq!(r["items"][3]["notificationsData"][0]["action"], "CREATE");
        assert_eq!(r["items"][3]["notificationsData"][0]["entities"], json!(["keyword 6"]));

        assert_eq!(keys(&list(&app, &owner, "tag=manual_change").await), ["a", "c"]);
        let rules = list(&app, &owner, "tag=auto_rules").await;
        assert_eq!(rules["result"]["total"], 1);
        assert_eq!(rules["result"]["counts"]["all"], 4, "the counts ignore the tag");
        assert_eq!(keys(&list(&app, &owner, "campaignName=%20bRaNd%20").await), ["a", "c"], "trimmed, any case");
        assert_eq!(keys(&list(&app, &owner, "campaignName=50%25_").await), ["b"], "% and _ literally");
        assert!(keys(&list(&app, &owner, "campaignName=nothing").await).is_empty());
        assert_eq!(keys(&list(&app, &owner, "limit=2&skip=1").await), ["b", "c"]);
        let paged = list(&app, &owner, "limit=1&skip=3").await;
        assert_eq!((keys(&paged), paged["result"]["total"].as_i64()), (vec!["d".to_string()], Some(4)));

        // `late` is 23:30 UTC: the same day at GMT, the next at UTC+2.
        let utc_day = day_of(late);
        let next_day = day_of(late + 86_400);
        let at_gmt = list(&app, &owner, &format!("fromDate={utc_day}&toDate={utc_day}&GMT=0")).await;
        assert_eq!(keys(&at_gmt), ["b"]);
        let plus_two = list(&app, &owner, &format!("fromDate={next_day}&toDate={next_day}&GMT=120")).await;
        assert_eq!(keys(&plus_two), ["b"]);
        let plus_two_before = list(&app, &owner, &format!("fromDate={utc_day}&toDate={utc_day}&GMT=120")).await;
        assert!(keys(&plus_two_before).is_empty());
        assert_eq!(plus_two_before["result"]["unread"], 4, "the unread count ignores the dates");
        let month = list(&app, &owner, &format!("fromDate={}&toDate={}", day_of(now - 30 * 86_400), day_of(now))).await;
        assert_eq!(keys(&month), ["a", "b", "c"]);
        assert_eq!(month["result"]["counts"]["all"], 3);
        assert_eq!(keys(&list(&app, &owner, "orgId=4500123&limit=1").await), ["a"]);
        assert!(keys(&list(&app, &owner, "orgId=1").await).is_empty());

        for (query, field) in [("tag=nope", "tag"), ("fromDate=2026-11-01", "toDate"), ("toDate=2026-11-01", "fromDate"),
            ("fromDate=2026-11-02&toDate=2026-11-01", "fromDate"), ("fromDate=2026-02-30&toDate=2026-03-01", "fromDate"),
            ("limit=0", "limit"), ("limit=201", "limit"), ("skip=-1", "skip"), ("GMT=900", "GMT"), ("orgId=abc", "orgId")] {
            let res = app.get(&format!("{ALL}?{query}"), Some(&owner)).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST, "{query}: {:?}", res.json);
            assert_eq!(res.json["errors"][0]["field"], field, "{query}");
        }
        assert_eq!(app.get(ALL, None).await.status, StatusCode::UNAUTHORIZED);
    }

    async fn read_state_is_per_member_and_scoped_to_the_workspace(app: TestApp) {
        let owner = app.register(&app.email(), "owner password").await;
        let reader = app.member(&owner, Role::Reader).await;
        let (ws, _) = me(&app, &owner).await;
        let now = now_ms() / 1000;
        let mut ids = Vec::new();
        for (i, key) in ["a", "b", "c"].into_iter().enumerate() {
            ids.push(seed(&app, &ws, (key, notifications::TAG_MANUAL, now - 100 + i as i64),
                &[(i as i64 + 1, "US", "cptBid", "1.00", "2.00")]).await);
        }
        let other = app.register(&app.email(), "other password").await;
        let unread = |cookie: String| {
            let app = &app;
            async move { list(app, &cookie, "limit=1&new=true").await["result"]["unread"].as_i64().unwrap() }
        };
        let patch = |path: String, body: Value, cookie: String| {
            let app = &app;
            async move { app.request(Method::PATCH, &path, Some(body), Some(&cookie)).await }
        };
        let read = "/api/accountsActions/notifications/read".to_string();
        let res = patch(read.clone(), json!({"ids": [ids[0]]}), owner.clone()).await;
        assert_eq!((res.status, res.json["result"]["updated"].as_u64()), (StatusCode::OK, Some(1)), "{:?}", res.json);
        assert_eq!((unread(owner.clone()).await, unread(reader.clone()).await), (2, 3), "per member");
        assert_eq!(keys(&list(&app, &owner, "new=true").await), ["c", "b"]);
        let items = list(&app, &owner, "").await;
        assert_eq!(items["result"]["items"][2]["read"], true);

        // Another workspace's member: our ids are unknown ids there.
        let res = patch(read.clone(), json!({"ids": [ids[1]]}), other.clone()).await;
        assert_eq!(res.json["result"]["updated"], 0);
        assert_eq!(unread(owner.clone()).await, 2);
        for path in [format!("/api/accountsActions/{}/changes", ids[1]), "/api/accountsActions/nope/changes".into()] {
            assert_eq!(app.get(&path, Some(&other)).await.status, StatusCode::NOT_FOUND, "{path}");
        }
        let res = app.post(&format!("/api/accountsActions/{}/undo", ids[1]), json!({}), Some(&other)).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);

        // Readers read, mark and page the changes; they do not undo.
        let res = app.get(&format!("/api/accountsActions/{}/changes?limit=1", ids[1]), Some(&reader)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["total"], 1);
        let change = &res.json["result"]["items"][0];
        assert_eq!((change["entityId"].as_str(), change["field"].as_str(), change["oldValue"].as_str(), change["newValue"].as_str()),
            (Some("2"), Some("cptBid"), Some("1.00"), Some("2.00")));
        let res = app.post(&format!("/api/accountsActions/{}/undo", ids[1]), json!({}), Some(&reader)).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN);
        let res = patch(format!("{read}/all"), json!({}), reader.clone()).await;
        assert_eq!(res.json["result"]["updated"], 3, "{:?}", res.json);
        assert_eq!((unread(owner.clone()).await, unread(reader.clone()).await), (2, 0));
        // Unread again: one, then all.
        let res = patch("/api/accountsActions/notifications/unread".into(), json!({"ids": [ids[2]]}), reader.clone()).await;
        assert_eq!(res.json["result"]["updated"], 1);
        assert_eq!(keys(&list(&app, &reader, "new=true").await), ["c"]);
        let res = patch("/api/accountsActions/notifications/read".into(), json!({}), owner.clone()).await;
        assert_eq!(res.json["result"]["updated"], 2, "without ids: all");
        assert_eq!(unread(owner.clone()).await, 0);
        let res = patch("/api/accountsActions/notifications/unread/all".into(), json!({}), owner.clone()).await;
        assert_eq!(res.json["result"]["updated"], 3);
        assert_eq!(unread(owner.clone()).await, 3);
        for (path, body, field) in [("/api/accountsActions/notifications/seen", json!({"ids": [ids[0]]}), "type"),
            ("/api/accountsActions/notifications/read", json!({"ids": []}), "ids")] {
            let res = patch(path.into(), body, owner.clone()).await;
            assert_eq!((res.status, res.json["errors"][0]["field"].as_str()), (StatusCode::BAD_REQUEST, Some(field)), "{path}");
        }
    }
}

#[tokio::test]
async fn activity_routes_are_documented() {
    let app = TestApp::sqlite_with(&[]).await;
    let doc = app.get("/api/openapi.json", None).await.json;
    for (method, path, statuses) in [
        (
            "get",
            "/api/accountsActions/all",
            &["200", "400", "401"][..],
        ),
        (
            "get",
            "/api/accountsActions/{id}/changes",
            &["200", "400", "401", "404"][..],
        ),
        (
            "patch",
            "/api/accountsActions/notifications/{type}",
            &["200", "400", "401"][..],
        ),
        (
            "patch",
            "/api/accountsActions/notifications/{type}/all",
            &["200", "400", "401"][..],
        ),
        (
            "post",
            "/api/accountsActions/{id}/undo",
            &["202", "400", "401", "403", "404", "409"][..],
        ),
    ] {
        let op = &doc["paths"][path][method];
        for status in statuses {
            assert!(
                op["responses"][status].is_object(),
                "{method} {path} documents {status}: {op}"
            );
        }
        assert_eq!(op["tags"], json!(["activity"]));
    }
}
