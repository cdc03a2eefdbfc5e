//! What a postback URL refuses, storing nothing: an unknown token, another provider's, a
//! rotated or disconnected one, a malformed field; the custom server's signature; and who
//! may change an integration.

use super::{connect, count, fill, path_of, postback};
use crate::common::{TestApp, TestBackend};
use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use searchdeck_common::attribution::adapters::custom;
use serde_json::json;

backend_tests! {
    async fn attribution_postback_urls_refuse_what_names_no_integration(app: TestApp) {
        let owner = app.register(&app.email(), "a long password").await;
        let connected = connect(&app, &owner, "adjust").await;
        let template = connected["setup"]["url"].as_str().unwrap();
        let good = path_of(&fill(template, &[("activity_kind", "install"), ("network_name", "Apple Search Ads"), ("iad_campaign_id", "101"), ("created_at", "1796094000"), ("adid", "d")]));
        let token = good.split('/').nth(5).unwrap().split('?').next().unwrap().to_string();
        let query = good.split_once('?').map(|(_, q)| q.to_string()).unwrap();
        for path in [
            format!("/api/attribution/postbacks/adjust/not-a-token?{query}"),
            // Adjust's token on another provider's URL.
            format!("/api/attribution/postbacks/appsflyer/{token}?{query}"),
            format!("/api/attribution/postbacks/mixpanel/{token}?{query}"),
        ] {
            let res = postback(&app, Method::GET, &path, None, &[]).await;
            assert_eq!(res.status, StatusCode::NOT_FOUND, "{path}: {:?}", res.json);
            assert_eq!(res.json["message"], "Postback URL not found");
        }
        // A malformed id: 400 naming Adjust's placeholder.
        let malformed = path_of(&fill(template, &[("activity_kind", "install"), ("network_name", "Apple Search Ads"), ("iad_campaign_id", "abc"), ("created_at", "1796094000"), ("adid", "d")]));
        let res = postback(&app, Method::GET, &malformed, None, &[]).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
        assert_eq!(res.json["errors"][0]["field"], "iad_campaign_id", "{:?}", res.json);
        assert_eq!(count(&app, "attribution_events").await, 0);

        // Rotating: the new URL works, the old one is gone.
        let res = app.request(Method::POST, "/api/attribution/integrations/adjust/rotate", None, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let rotated = path_of(&fill(res.json["result"]["setup"]["url"].as_str().unwrap(), &[("activity_kind", "install"), ("network_name", "Apple Search Ads"), ("iad_campaign_id", "101"), ("created_at", "1796094000"), ("adid", "d")]));
        assert_eq!(postback(&app, Method::GET, &good, None, &[]).await.status, StatusCode::NOT_FOUND);
        let res = postback(&app, Method::GET, &rotated, None, &[]).await;
        assert_eq!((res.status, res.json["result"]["stored"].as_i64()), (StatusCode::OK, Some(1)), "{:?}", res.json);
        // A second connect is refused: the URL in use stays.
        let res = app.request(Method::POST, "/api/attribution/integrations/adjust", None, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::CONFLICT, "{:?}", res.json);
        assert_eq!(res.json["message"], "Adjust is already connected: rotate its URL to get a new one");
        // Disconnected: the URL stops working, the events stay.
        let res = app.request(Method::DELETE, "/api/attribution/integrations/adjust", None, Some(&owner)).await;
        assert_eq!((res.status, res.json["result"]["item"]["connected"].as_bool()), (StatusCode::OK, Some(false)), "{:?}", res.json);
        assert_eq!(postback(&app, Method::GET, &rotated, None, &[]).await.status, StatusCode::NOT_FOUND);
        assert_eq!(count(&app, "attribution_events").await, 1);
        let res = app.request(Method::POST, "/api/attribution/integrations/segment", None, Some(&owner)).await;
        assert_eq!((res.status, res.json["errors"][0]["field"].as_str()), (StatusCode::BAD_REQUEST, Some("provider")));

        // Readers read the integration settings and change nothing.
        let reader = app.member(&owner, Role::Reader).await;
        assert_eq!(app.get("/api/attribution/integrations", Some(&reader)).await.status, StatusCode::OK);
        for (method, path) in [(Method::POST, "/api/attribution/integrations/branch"), (Method::POST, "/api/attribution/integrations/adjust/test-event"), (Method::DELETE, "/api/attribution/integrations/adjust")] {
            assert_eq!(app.request(method, path, None, Some(&reader)).await.status, StatusCode::FORBIDDEN, "{path}");
        }
    }

    async fn attribution_custom_servers_sign_their_events(app: TestApp) {
        let owner = app.register(&app.email(), "a long password").await;
        let connected = connect(&app, &owner, "custom").await;
        assert_eq!(connected["setup"]["method"], "POST");
        let secret = connected["secret"].as_str().expect("a secret, shown once").to_string();
        let path = path_of(connected["setup"]["url"].as_str().unwrap());
        let body = json!({"events": [{"id": "evt-1", "type": "install", "campaignId": "101", "adGroupId": 201, "keywordId": "301", "claimType": "Impression", "eventTime": "2026-11-05T10:00:00Z", "deviceId": "u1"},
                                     {"id": "evt-2", "type": "event", "name": "trial_started", "eventTime": "2026-11-05T11:00:00Z", "deviceId": "u1"}]}).to_string();
        let now = searchdeck_common::ids::now_ms() / 1000;
        let signed = |body: &str, secret: &str, at: i64| custom::sign(secret.as_bytes(), at, body.as_bytes());
        let send = |body: String, signature: Option<String>| {
            let path = path.clone();
            let app = &app;
            async move {
                let headers: Vec<(&str, String)> = signature.map(|s| vec![("x-searchdeck-signature", s)]).unwrap_or_default();
                postback(app, Method::POST, &path, Some(("application/json", body.into_bytes())), &headers).await
            }
        };
        for signature in [None, Some(signed(&body, "another secret", now)), Some(signed(&body, &secret, now - 3600))] {
            let res = send(body.clone(), signature).await;
            assert_eq!(res.status, StatusCode::UNAUTHORIZED, "{:?}", res.json);
        }
        let res = send(body.clone(), Some(signed(&body, &secret, now))).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!((res.json["result"]["stored"].as_i64(), res.json["result"]["received"].as_i64()), (Some(2), Some(2)));
        // The trial took its install's campaign ids.
        let events = app.get("/api/attribution/integrations/custom/events", Some(&owner)).await;
        let trial = events.json["result"]["items"].as_array().unwrap().iter().find(|e| e["eventName"] == "trial_started").unwrap().clone();
        assert_eq!((trial["campaignId"].as_str(), trial["keywordId"].as_str(), trial["claimType"].as_str()), (Some("101"), Some("301"), Some("Impression")), "{trial}");
        // A typo is refused with its path, and nothing of the request is stored.
        let typo = json!({"events": [{"id": "evt-3", "type": "install", "eventTime": "2026-11-05T10:00:00Z"}, {"id": "evt-4", "type": "install", "campaignID": "101", "eventTime": "2026-11-05T10:00:00Z"}]}).to_string();
        let res = send(typo.clone(), Some(signed(&typo, &secret, now))).await;
        assert_eq!((res.status, res.json["errors"][0]["field"].as_str()), (StatusCode::BAD_REQUEST, Some("events[1].campaignID")), "{:?}", res.json);
        assert_eq!(count(&app, "attribution_events").await, 2);
        // The secret is never answered again.
        let list = app.get("/api/attribution/integrations", Some(&owner)).await;
        assert!(!list.json.to_string().contains(&secret));
    }
}
