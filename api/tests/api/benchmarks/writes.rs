//! Every PATCH is all or nothing: one bad item answers 400 naming `items.N.field` (every bad
//! item named) and stores nothing of the request.

use super::{APP, CAMPAIGN_APP, items, seed, stored};
use crate::common::{TestApp, TestBackend};
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

/// The fields of a 400's errors.
fn fields(json: &Value) -> Vec<String> {
    json["errors"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["field"].as_str().map(str::to_string))
        .collect()
}

backend_tests! {
    async fn benchmarks_writes_are_all_or_nothing(app: TestApp) {
        let owner = app.register(&app.email(), "a long password").await;
        seed(&app, &owner, "JPY").await;
        let a = APP.to_string();
        let good = json!({"adamId": a, "country": "US", "costPerInstall": "300"});
        let cases = [
            (json!({"adamId": a, "costPerInstall": "1.5"}), "items.1.costPerInstall"),
            (json!({"adamId": a, "costPerInstall": "-1"}), "items.1.costPerInstall"),
            (json!({"adamId": a, "costPerInstall": "abc"}), "items.1.costPerInstall"),
            (json!({"adamId": a, "country": "ZZ", "costPerInstall": "1"}), "items.1.country"),
            (json!({"adamId": "12x", "costPerInstall": "1"}), "items.1.adamId"),
            (json!({"adamId": "777", "costPerInstall": "1"}), "items.1.adamId"),
            (json!({"adamId": a, "costPerInstall": "1", "currency": "USD"}), "items.1.currency"),
            (json!({"adamId": a, "country": "us", "costPerInstall": "200"}), "items.1.country"),
        ];
        for (bad, field) in cases {
            let res = app.request(Method::PATCH, "/api/benchmarks/installs/many", Some(json!({"items": [good, bad]})), Some(&owner)).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST, "{bad}: {:?}", res.json);
            assert_eq!(fields(&res.json), [field], "{bad}");
            assert_eq!(stored(&app).await, 0, "{bad}: nothing stored");
        }
        // Unknown members and an empty list are refused too.
        let res = app.request(Method::PATCH, "/api/benchmarks/installs/many", Some(json!({"items": [{"adamId": a, "cpi": "1"}]})), Some(&owner)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
        let res = app.request(Method::PATCH, "/api/benchmarks/installs/many", Some(json!({"items": []})), Some(&owner)).await;
        assert_eq!((res.status, fields(&res.json)), (StatusCode::BAD_REQUEST, vec!["items".to_string()]));

        // Events: the name must be one a provider sent for the app.
        let good = json!({"adamId": a, "eventName": "trial_started", "country": "US", "costPerEvent": "100"});
        for (bad, field) in [
            (json!({"adamId": a, "eventName": "never_sent", "costPerEvent": "1"}), "items.1.eventName"),
            (json!({"adamId": a, "eventName": "  ", "costPerEvent": "1"}), "items.1.eventName"),
            (json!({"adamId": CAMPAIGN_APP.to_string(), "eventName": "trial_started", "costPerEvent": "1"}), "items.1.eventName"),
            (json!({"adamId": a, "eventName": "trial_started", "costPerEvent": "0.5"}), "items.1.costPerEvent"),
        ] {
            let res = app.request(Method::PATCH, "/api/benchmarks/events/many", Some(json!({"items": [good, bad]})), Some(&owner)).await;
            assert_eq!((res.status, fields(&res.json)), (StatusCode::BAD_REQUEST, vec![field.to_string()]), "{bad}: {:?}", res.json);
        }
        // Revenues: a known cohort, a ratio in bounds.
        let good = json!({"adamId": a, "cohort": "roasD7", "roas": "1"});
        for (bad, field) in [
            (json!({"adamId": a, "cohort": "roasD5", "roas": "1"}), "items.1.cohort"),
            (json!({"adamId": a, "cohort": "roasD0", "roas": "1000.5"}), "items.1.roas"),
            (json!({"adamId": a, "cohort": "roasD0", "roas": "-0.1"}), "items.1.roas"),
        ] {
            let res = app.request(Method::PATCH, "/api/benchmarks/revenues/many", Some(json!({"items": [good, bad]})), Some(&owner)).await;
            assert_eq!((res.status, fields(&res.json)), (StatusCode::BAD_REQUEST, vec![field.to_string()]), "{bad}: {:?}", res.json);
        }
        assert_eq!(stored(&app).await, 0, "no bad request stored anything");

        // Every bad item is named, not only the first.
        let res = app.request(Method::PATCH, "/api/benchmarks/revenues/many", Some(json!({"items": [
            {"adamId": a, "cohort": "roasD5", "roas": "1"}, {"adamId": a, "cohort": "roasD1", "roas": "x"}]})), Some(&owner)).await;
        assert_eq!(fields(&res.json), ["items.0.cohort", "items.1.roas"]);

        // A good request stores all of it; the GET's path names a bad event name as 400.
        let res = app.request(Method::PATCH, "/api/benchmarks/installs/many", Some(json!({"items": [
            {"adamId": a, "costPerInstall": "300"}, {"adamId": CAMPAIGN_APP.to_string(), "country": "JP", "costPerInstall": "150"}]})), Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(items(&res.json).len(), 2);
        assert_eq!(stored(&app).await, 2);
        let res = app.get(&format!("/api/benchmarks/events/getAll/{APP}/%20"), Some(&owner)).await;
        assert_eq!((res.status, fields(&res.json)), (StatusCode::BAD_REQUEST, vec!["eventName".to_string()]));
        let res = app.get("/api/benchmarks/installs/getAll/not-an-app", Some(&owner)).await;
        assert_eq!((res.status, fields(&res.json)), (StatusCode::BAD_REQUEST, vec!["adamId".to_string()]));
    }
}
