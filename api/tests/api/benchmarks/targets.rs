//! Targets round trip: set, read back with the reference figures beside them, changed,
//! cleared; readers read and are refused every write; another workspace sees none of them.

use super::{APP, CAMPAIGN_APP, items, seed, stored};
use crate::common::{TestApp, TestBackend};
use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use serde_json::json;

backend_tests! {
    async fn benchmarks_round_trip_every_kind_with_reference_figures(app: TestApp) {
        let owner = app.register(&app.email(), "a long password").await;
        seed(&app, &owner, "EUR").await;

        let apps = app.get("/api/benchmarks/apps", Some(&owner)).await;
        assert_eq!(apps.status, StatusCode::OK, "{:?}", apps.json);
        let list = items(&apps.json);
        let ids: Vec<&str> = list.iter().filter_map(|a| a["adamId"].as_str()).collect();
        assert_eq!(ids, [APP.to_string(), CAMPAIGN_APP.to_string()]);
        assert_eq!((list[0]["appName"].as_str(), list[0]["currency"].as_str(), list[0]["installs"].as_i64()), (Some("Fixture App"), Some("EUR"), Some(0)));

        // Cost per install: all countries and US, in the campaign group's currency.
        let body = json!({"items": [
            {"adamId": APP.to_string(), "costPerInstall": "2.50"},
            {"adamId": APP.to_string(), "country": "us", "costPerInstall": "3", "currency": "EUR"},
        ]});
        let res = app.request(Method::PATCH, "/api/benchmarks/installs/many", Some(body), Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let got = app.get(&format!("/api/benchmarks/installs/getAll/{APP}"), Some(&owner)).await;
        assert_eq!(got.status, StatusCode::OK, "{:?}", got.json);
        let result = &got.json["result"];
        assert_eq!((result["currency"].as_str(), result["appName"].as_str()), (Some("EUR"), Some("Fixture App")));
        let got_items = items(&got.json);
        let rows: Vec<(Option<&str>, &str, &str)> = got_items.iter().map(|i| (i["country"].as_str(), i["costPerInstall"].as_str().unwrap(), i["currency"].as_str().unwrap())).collect();
        assert_eq!(rows, [(None, "2.5", "EUR"), (Some("US"), "3", "EUR")]);
        // The App Store does not know the fixture app: the average across categories only.
        let reference = result["reference"].as_array().unwrap();
        assert_eq!(reference.len(), 1, "{reference:?}");
        assert_eq!((reference[0]["metric"].as_str(), reference[0]["category"].as_str(), reference[0]["value"].as_str(), reference[0]["unit"].as_str()), (Some("cpa"), Some("All categories"), Some("2.58"), Some("USD")));
        assert!(reference[0]["n"].as_i64().unwrap() > 0 && reference[0]["url"].as_str().unwrap().starts_with("https://"));
        // A Finance app gets its category's figure too.
        store_genre(&app, APP, "Finance").await;
        let got = app.get(&format!("/api/benchmarks/installs/getAll/{APP}"), Some(&owner)).await;
        assert_eq!(got.json["result"]["category"], "Finance");
        let values: Vec<&str> = got.json["result"]["reference"].as_array().unwrap().iter().filter_map(|f| f["value"].as_str()).collect();
        assert_eq!(values, ["2.58", "8.57"]);

        // Change one, clear the other.
        let body = json!({"items": [
            {"adamId": APP.to_string(), "costPerInstall": "1.99"},
            {"adamId": APP.to_string(), "country": "US", "costPerInstall": null},
        ]});
        let res = app.request(Method::PATCH, "/api/benchmarks/installs/many", Some(body), Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let rows: Vec<String> = items(&res.json).iter().map(|i| format!("{}:{}", i["country"], i["costPerInstall"])).collect();
        assert_eq!(rows, ["null:\"1.99\""]);

        // Cost per event of an event name a provider sent (one for the app, one without an app).
        let body = json!({"items": [
            {"adamId": APP.to_string(), "eventName": "trial_started", "costPerEvent": "12.40"},
            {"adamId": APP.to_string(), "eventName": "af_purchase", "country": "DE", "costPerEvent": "30"},
        ]});
        let res = app.request(Method::PATCH, "/api/benchmarks/events/many", Some(body), Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let got = app.get(&format!("/api/benchmarks/events/getAll/{APP}/trial_started"), Some(&owner)).await;
        assert_eq!(got.status, StatusCode::OK, "{:?}", got.json);
        let rows: Vec<String> = items(&got.json).iter().map(|i| format!("{}:{}:{}", i["eventName"], i["country"], i["costPerEvent"])).collect();
        assert_eq!(rows, ["\"trial_started\":null:\"12.4\""]);
        assert_eq!(got.json["result"]["reference"], json!([]));
        let other = app.get(&format!("/api/benchmarks/events/getAll/{APP}/af_purchase"), Some(&owner)).await;
        assert_eq!(items(&other.json).len(), 1);

        // ROAS per cohort window: a ratio.
        let body = json!({"items": [
            {"adamId": APP.to_string(), "cohort": "roasD7", "roas": "0.8"},
            {"adamId": APP.to_string(), "cohort": "roasD30", "country": "GB", "roas": "1.25"},
        ]});
        let res = app.request(Method::PATCH, "/api/benchmarks/revenues/many", Some(body), Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let got = app.get(&format!("/api/benchmarks/revenues/getAll/{APP}"), Some(&owner)).await;
        let rows: Vec<String> = items(&got.json).iter().map(|i| format!("{}:{}:{}:{}", i["cohort"].as_str().unwrap(), i["days"], i["country"], i["roas"].as_str().unwrap())).collect();
        assert_eq!(rows, ["roasD30:30:\"GB\":1.25", "roasD7:7:null:0.8"]);

        let apps = app.get("/api/benchmarks/apps", Some(&owner)).await;
        let first = &items(&apps.json)[0];
        assert_eq!((first["installs"].as_i64(), first["events"].as_i64(), first["revenues"].as_i64()), (Some(1), Some(2), Some(2)));
    }

    async fn benchmarks_readers_read_and_are_refused_every_write(app: TestApp) {
        let owner = app.register(&app.email(), "a long password").await;
        seed(&app, &owner, "USD").await;
        let writes = [
            ("/api/benchmarks/installs/many", json!({"items": [{"adamId": APP.to_string(), "costPerInstall": "1"}]})),
            ("/api/benchmarks/events/many", json!({"items": [{"adamId": APP.to_string(), "eventName": "trial_started", "costPerEvent": "1"}]})),
            ("/api/benchmarks/revenues/many", json!({"items": [{"adamId": APP.to_string(), "cohort": "roasD0", "roas": "1"}]})),
        ];
        let reader = app.member(&owner, Role::Reader).await;
        for (path, body) in &writes {
            let res = app.request(Method::PATCH, path, Some(body.clone()), Some(&reader)).await;
            assert_eq!(res.status, StatusCode::FORBIDDEN, "{path}: {:?}", res.json);
        }
        assert_eq!(stored(&app).await, 0);
        for role in [Role::Writer, Role::Admin] {
            let member = app.member(&owner, role).await;
            for (path, body) in &writes {
                let res = app.request(Method::PATCH, path, Some(body.clone()), Some(&member)).await;
                assert_eq!(res.status, StatusCode::OK, "{role:?} {path}: {:?}", res.json);
            }
        }
        assert_eq!(stored(&app).await, 3);
        // Readers read them all.
        for path in [format!("/api/benchmarks/installs/getAll/{APP}"), format!("/api/benchmarks/events/getAll/{APP}/trial_started"), format!("/api/benchmarks/revenues/getAll/{APP}"), "/api/benchmarks/apps".to_string()] {
            let res = app.get(&path, Some(&reader)).await;
            assert_eq!(res.status, StatusCode::OK, "{path}: {:?}", res.json);
        }
        let got = app.get(&format!("/api/benchmarks/installs/getAll/{APP}"), Some(&reader)).await;
        assert_eq!(items(&got.json).len(), 1);
        assert_eq!(app.get("/api/benchmarks/apps", None).await.status, StatusCode::UNAUTHORIZED);
    }

    async fn benchmarks_of_another_workspace_are_out_of_reach(app: TestApp) {
        let owner = app.register(&app.email(), "a long password").await;
        seed(&app, &owner, "USD").await;
        let body = json!({"items": [{"adamId": APP.to_string(), "costPerInstall": "1"}]});
        assert_eq!(app.request(Method::PATCH, "/api/benchmarks/installs/many", Some(body.clone()), Some(&owner)).await.status, StatusCode::OK);
        let stranger = app.register(&app.email(), "a long password").await;
        // Its targets and apps are not the stranger's: nothing to read, no app to write for.
        let got = app.get(&format!("/api/benchmarks/installs/getAll/{APP}"), Some(&stranger)).await;
        assert_eq!(got.status, StatusCode::OK);
        assert_eq!((items(&got.json).len(), &got.json["result"]["currency"]), (0, &json!(null)));
        assert_eq!(items(&app.get("/api/benchmarks/apps", Some(&stranger)).await.json).len(), 0);
        let res = app.request(Method::PATCH, "/api/benchmarks/installs/many", Some(body), Some(&stranger)).await;
        assert_eq!((res.status, res.json["errors"][0]["field"].as_str()), (StatusCode::BAD_REQUEST, Some("items.0.adamId")), "{:?}", res.json);
        assert_eq!(stored(&app).await, 1);
    }
}

/// Records `genre` as the App Store's genre of `adam_id`, as a lookup would.
async fn store_genre(app: &TestApp, adam_id: i64, genre: &str) {
    searchdeck_common::store::benchmarks::set_genre(
        &app.state.db.pool,
        adam_id,
        Some(genre),
        searchdeck_common::ids::now_ms(),
    )
    .await
    .unwrap();
}
