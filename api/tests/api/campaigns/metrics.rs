//! The report area's figures over seeded daily metrics: active keyword counts and additional
//! info, totals per connection and campaign group, and forecasts extending the run rate, each
//! against hand-computed sums.

use axum::http::StatusCode;
use searchdeck_api::routes::campaigns;
use searchdeck_api::session::Role;
use serde_json::{Value, json};

use super::seed::{self, Day};
use super::{field, refresh, scope_of, seed_metrics, world};
use crate::common::{TestApp, TestBackend};

backend_tests! {
    async fn active_keywords_and_additional_info(app: TestApp) {
        let w = world(&app).await;
        let reader = app.member(&w.owner, Role::Reader).await;
        let r = Some(reader.as_str());
        let path = format!("/api/asa/campaigns/calculateActiveKeywords?accountId={}", w.account);
        let res = app.post(&path, json!({}), r).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        // Alpha: 1001 (active, enabled group) is active; 1002 paused; 1003 deleted; 1004 in a
        // paused group; 1005 in a deleted group. Gamma has none; Delta one active.
        // activeKeywords is Growth-only and every workspace is on pro_free until billing
        // lands: locked (null) through the route, computed underneath.
        assert_eq!(res.json["result"]["locked"], json!(["activeKeywords"]));
        let items: Vec<(i64, Value, i64)> = res.json["result"]["items"].as_array().unwrap().iter()
            .map(|i| (i["campaignId"].as_str().unwrap().parse::<i64>().unwrap(), i["activeKeywords"].clone(), i["keywords"].as_i64().unwrap()))
            .collect();
        assert_eq!(items, [(11, Value::Null, 3), (13, Value::Null, 0), (21, Value::Null, 1)]);
        let scope = scope_of(&app, &w, None).await;
        let counts: Vec<(i64, Option<i64>, i64)> = campaigns::hidden::keyword_counts(&app.state, &scope, None).await.unwrap()
            .iter().map(|i| (i.campaign_id, i.active_keywords, i.keywords)).collect();
        assert_eq!(counts, [(11, Some(1), 3), (13, Some(0), 0), (21, Some(1), 1)]);
        let scope = scope_of(&app, &w, Some(200)).await;
        let counts = campaigns::hidden::keyword_counts(&app.state, &scope, Some(&[21])).await.unwrap();
        assert_eq!((counts.len(), counts[0].org_id, counts[0].active_keywords), (1, 200, Some(1)));
        let res = app.post(&format!("{path}&orgId=200"), json!({"campaignIds": [21]}), r).await;
        assert_eq!(res.json["result"]["items"], json!([{"campaignId": "21", "orgId": "200", "activeKeywords": null, "keywords": 1}]));
        let res = app.post(&path, json!({"campaignIds": [13, 999]}), r).await;
        assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, "campaignIds.1"));
        let res = app.post(&path, json!({"campaignIds": "11"}), r).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);

        let info = app.post("/api/asa/reports/additionalInfo/11", json!({}), r).await;
        assert_eq!(info.status, StatusCode::OK, "{:?}", info.json);
        let i = &info.json["result"]["item"];
        assert_eq!(
            [&i["adGroups"], &i["runningAdGroups"], &i["keywords"], &i["negativeKeywords"], &i["ads"]],
            [&json!(2), &json!(1), &json!(3), &json!(2), &json!(1)]
        );
        assert_eq!(i["countriesOrRegions"], json!(["US", "GB"]));
        assert_eq!(i["app"], json!({"adamId": "900", "appName": "Seeded App", "developerName": "Dev Co"}));
        let pages: Vec<&str> = i["productPages"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
        assert_eq!(pages, ["Alpha page", "Beta page"]);
        // Delta's app is not synced in its campaign group.
        let delta = app.post("/api/asa/reports/additionalInfo/21", json!({}), r).await;
        assert_eq!((delta.json["result"]["item"]["app"].clone(), delta.json["result"]["item"]["keywords"].clone()), (Value::Null, json!(1)));
    }

    async fn totals_per_connection_and_campaign_group(app: TestApp) {
        let w = world(&app).await;
        seed_metrics(&app, &w).await;
        // A second connection with one USD campaign group.
        let other = seed::account(&app, &w.owner, 2).await;
        let c = seed::org(&app, &other, 300, "Group C", "USD").await;
        seed::day(&app, c, "2026-11-02", Day { level: 1, entity_id: 31, campaign_id: 31, impressions: 7, taps: 1, spend_micros: 1_234_567, ..Day::default() }).await;
        refresh(&app, c).await;
        let reader = app.member(&w.owner, Role::Reader).await;
        let r = Some(reader.as_str());
        let nov = json!({"startDate": "2026-11-01", "endDate": "2026-11-20"});

        let path = format!("/api/asa/reports/totalsForCampaignsGroups?accountId={}", w.account);
        let res = app.post(&path, nov.clone(), r).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let items = res.json["result"]["items"].as_array().unwrap();
        assert_eq!(items.len(), 2, "{items:?}");
        let (a, b) = (&items[0], &items[1]);
        assert_eq!((a["id"].as_str(), a["name"].as_str(), a["currency"].as_str()), (Some("100"), Some("Group A"), Some("USD")));
        // Group A: Alpha 1..=20 Nov (impressions 100·d, taps 10, 2 tap installs, spend d + 0.000333)
        // and the deleted Beta's 5 Nov row (50 impressions, 2.00 spent).
        let m = &a["metrics"];
        assert_eq!((m["impressions"].as_i64(), m["taps"].as_i64(), m["installs"].as_i64()), (Some(21_050), Some(200), Some(40)));
        assert_eq!(m["localSpend"].as_f64(), Some(212.0), "212.006660 floored to cents");
        assert_eq!(m["avgCPT"].as_f64(), Some(1.06), "212.00666 / 200 floored");
        // Group B: Delta 1..=3 Nov, 1000 impressions, 20 taps, 4 tap + 1 view installs, 5.50 a day.
        let m = &b["metrics"];
        assert_eq!((b["id"].as_str(), b["currency"].as_str()), (Some("200"), Some("EUR")));
        assert_eq!((m["impressions"].as_i64(), m["taps"].as_i64(), m["installs"].as_i64(), m["tapInstalls"].as_i64()), (Some(3000), Some(60), Some(15), Some(12)));
        assert_eq!([&m["localSpend"], &m["avgCPT"], &m["ttr"], &m["avgCPA"]].map(Value::as_f64), [Some(16.5), Some(0.27), Some(0.02), Some(1.1)]);
        // Over both: counts add up, money is null across currencies.
        let t = &res.json["result"]["totals"];
        assert_eq!((t["impressions"].as_i64(), t["taps"].as_i64(), t["localSpend"].clone()), (Some(24_050), Some(260), Value::Null));
        assert_eq!(res.json["result"]["currency"], Value::Null);
        // One day only: exact for any range.
        let res = app.post(&path, json!({"startDate": "2026-11-03", "endDate": "2026-11-03"}), r).await;
        let items = res.json["result"]["items"].as_array().unwrap();
        assert_eq!((items[0]["metrics"]["impressions"].as_i64(), items[1]["metrics"]["impressions"].as_i64()), (Some(300), Some(1000)));
        assert_eq!(items[0]["metrics"]["localSpend"].as_f64(), Some(3.0));
        // One campaign group: its currency is the answer's.
        let res = app.post(&format!("{path}&orgId=200"), nov.clone(), r).await;
        assert_eq!(res.json["result"]["items"].as_array().unwrap().len(), 1);
        assert_eq!((res.json["result"]["currency"].as_str(), res.json["result"]["totals"]["localSpend"].as_f64()), (Some("EUR"), Some(16.5)));

        let res = app.post("/api/asa/reports/totalsForAllAccounts", nov.clone(), r).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let items = res.json["result"]["items"].as_array().unwrap();
        let first = items.iter().find(|i| i["id"] == json!(w.account)).expect("the first connection");
        let second = items.iter().find(|i| i["id"] == json!(other)).expect("the second connection");
        assert_eq!((first["metrics"]["impressions"].as_i64(), first["currency"].clone(), first["metrics"]["localSpend"].clone()), (Some(24_050), Value::Null, Value::Null));
        assert_eq!((second["metrics"]["impressions"].as_i64(), second["currency"].as_str(), second["metrics"]["localSpend"].as_f64()), (Some(7), Some("USD"), Some(1.23)));
        assert_eq!(res.json["result"]["totals"]["impressions"].as_i64(), Some(24_057));

        // Another workspace sees none of it.
        let stranger = app.register(&app.email(), "long password").await;
        let res = app.post("/api/asa/reports/totalsForAllAccounts", nov.clone(), Some(&stranger)).await;
        assert_eq!((res.status, res.json["result"]["items"].clone()), (StatusCode::OK, json!([])));
        assert_eq!(app.post(&path, nov.clone(), Some(&stranger)).await.status, StatusCode::NOT_FOUND);
        for (p, body, f) in [
            (path.clone(), json!({"endDate": "2026-11-01"}), "startDate"),
            (path.clone(), json!({"startDate": "2026-11-02", "endDate": "2026-11-01"}), "endDate"),
            (path.clone(), json!({"startDate": "2026-11-02", "endDate": "2026-31-01"}), "endDate"),
            (format!("{path}&orgId=999"), nov.clone(), "orgId"),
            ("/api/asa/reports/totalsForAllAccounts".to_string(), json!({"startDate": "x", "endDate": "2026-11-01"}), "startDate"),
        ] {
            let res = app.post(&p, body, r).await;
            assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, f), "{p}: {:?}", res.json);
        }
    }

    async fn forecasts_extend_the_run_rate(app: TestApp) {
        let w = world(&app).await;
        seed_metrics(&app, &w).await;
        let reader = app.member(&w.owner, Role::Reader).await;
        let path = format!("/api/asa/reports/calculateForecasts?accountId={}&orgId=100", w.account);
        let res = app.post(&path, json!({}), Some(&reader)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["locked"], json!(["spendForecast", "impressionsForecast"]));
        let items = res.json["result"]["items"].as_array().unwrap();
        let alpha = items.iter().find(|i| i["campaignId"] == "11").unwrap();
        // As of the newest synced day, 20 Nov: month to date 1..=20, run rate 14..=20 / 7.
        assert_eq!((alpha["asOf"].as_str(), alpha["daysRemaining"].as_i64()), (Some("2026-11-20"), Some(10)));
        assert_eq!((alpha["spendToDate"].as_f64(), alpha["impressionsToDate"].as_i64()), (Some(210.0), Some(21_000)));
        assert_eq!((alpha["dailySpendRate"].as_f64(), alpha["dailyImpressionsRate"].as_f64()), (Some(17.0), Some(1700.0)));
        assert_eq!((alpha["spendForecast"].clone(), alpha["impressionsForecast"].clone()), (Value::Null, Value::Null));
        let gamma = items.iter().find(|i| i["campaignId"] == "13").expect("a campaign without metrics");
        assert_eq!(gamma["spendToDate"].as_f64(), Some(0.0));

        // The forecasts themselves, unlocked: 210.006660 + 119.002331 × 10 / 7 = 380.009990.
        let scope = scope_of(&app, &w, Some(100)).await;
        let ws = seed::me(&app, &w.owner).await.0;
        let f = campaigns::totals::forecasts(&app.state, &ws, &scope, None, Some(&[11])).await.unwrap();
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].spend_forecast.as_f64(), f[0].impressions_forecast), (Some(380.0), Some(38_000)));
        // As of 10 Nov: 55.003330 + 49.002331 × 20 / 7 = 195.009990; 5500 + 4900 × 20 / 7.
        let d = time::Date::from_calendar_date(2026, time::Month::November, 10).unwrap();
        let f = campaigns::totals::forecasts(&app.state, &ws, &scope, Some(d), Some(&[11])).await.unwrap();
        assert_eq!((f[0].spend_forecast.as_f64(), f[0].impressions_forecast, f[0].days_remaining), (Some(195.0), Some(19_500), 20));
        let res = app.post(&path, json!({"date": "2026-11-10", "campaignIds": [11]}), Some(&reader)).await;
        assert_eq!(res.json["result"]["items"][0]["spendToDate"].as_f64(), Some(55.0));
        let res = app.post(&path, json!({"date": "10/11/2026"}), Some(&reader)).await;
        assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, "date"));
    }
}
