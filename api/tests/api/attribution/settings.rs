//! The integration screen's other calls: every provider listed with its status, a test
//! event that shows and counts nowhere, which cohort windows have data, and a workspace's
//! integrations out of another's reach.

use super::{connect, count};
use crate::common::{TestApp, TestBackend};
use axum::http::{Method, StatusCode};
use serde_json::Value;

backend_tests! {
    async fn attribution_integrations_list_every_provider_and_test_events_count_nowhere(app: TestApp) {
        let owner = app.register(&app.email(), "a long password").await;
        let list = app.get("/api/attribution/integrations", Some(&owner)).await;
        assert_eq!(list.status, StatusCode::OK, "{:?}", list.json);
        let items = list.json["result"]["items"].as_array().unwrap().clone();
        let providers: Vec<&str> = items.iter().filter_map(|i| i["provider"].as_str()).collect();
        assert_eq!(providers, ["appsflyer", "adjust", "branch", "singular", "kochava", "tenjin", "revenuecat", "custom"]);
        assert!(items.iter().all(|i| i["connected"] == false && i["status"].is_null() && i["setup"].is_null()));
        assert_eq!(items[6]["kind"], "revenue");

        connect(&app, &owner, "appsflyer").await;
        let res = app.request(Method::POST, "/api/attribution/integrations/appsflyer/test-event", None, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["items"][0]["test"], true);
        assert_eq!(res.json["result"]["items"][0]["kind"], "install");
        let events = app.get("/api/attribution/integrations/appsflyer/events", Some(&owner)).await;
        assert_eq!(events.json["result"]["items"].as_array().unwrap().len(), 1);
        // A test event is no data: the status waits for a real one, no report sums it.
        let list = app.get("/api/attribution/integrations", Some(&owner)).await;
        let appsflyer = &list.json["result"]["items"][0];
        assert_eq!((appsflyer["status"].as_str(), appsflyer["eventsLastDay"].as_i64()), (Some("Loading data"), Some(0)), "{appsflyer}");
        assert!(appsflyer["lastEventAt"].is_i64());
        // The install check compares with Apple's installs of the last seven days: none here.
        let check = &appsflyer["installCheck"];
        assert_eq!((check["trackedInstalls"].as_i64(), check["appleInstalls"].as_i64()), (Some(0), Some(0)), "{check}");
        assert!(check["rate"].is_null() && check["finding"].is_null(), "{check}");
        connect(&app, &owner, "revenuecat").await;
        let list = app.get("/api/attribution/integrations", Some(&owner)).await;
        assert!(list.json["result"]["items"][6]["installCheck"].is_null(), "RevenueCat sends no installs");
        assert_eq!(count(&app, "attribution_facts").await, 0);
        assert_eq!(app.get("/api/mmpEventsSettings/allNames", Some(&owner)).await.json["result"]["items"], Value::Array(vec![]));
        // Not connected: 404.
        let res = app.get("/api/attribution/integrations/branch/events", Some(&owner)).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND);

        // No attributed install yet: no cohort window has data.
        let rois = app.get("/api/mmpEvents/getAvailableRois", Some(&owner)).await;
        let rois = rois.json["result"]["items"].as_array().unwrap().clone();
        let names: Vec<&str> = rois.iter().filter_map(|r| r["name"].as_str()).collect();
        assert_eq!(names, ["D0", "D1", "D3", "D7", "D14", "D30"]);
        assert!(rois.iter().all(|r| r["available"] == false));
        assert_eq!(app.get("/api/mmpEvents/all", Some(&owner)).await.json["result"]["items"], Value::Array(vec![]));

        // Another workspace sees none of it.
        let other = app.register(&app.email(), "a long password").await;
        let list = app.get("/api/attribution/integrations", Some(&other)).await;
        assert!(list.json["result"]["items"].as_array().unwrap().iter().all(|i| i["connected"] == false));
        assert_eq!(app.get("/api/attribution/integrations/appsflyer/events", Some(&other)).await.status, StatusCode::NOT_FOUND);
        let res = app.request(Method::PATCH, "/api/mmpEventsSettings/one", Some(serde_json::json!({"provider": "appsflyer", "eventName": "install", "countsAs": {"trial": true, "purchase": false, "revenue": false}})), Some(&other)).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);
    }
}
