//! The KEYWORDS and SEARCHTERMS levels' `popularity` column: Apple's search popularity of
//! the row's text (`store::popularity`) in its campaign's storefronts (the highest when it
//! serves several), null without one; it sorts and filters like a metric, and other levels
//! refuse it.

use axum::http::StatusCode;
use searchdeck_common::store::popularity::{self, Popularity};
use serde_json::{Value, json};

use super::{
    ids, range, report,
    seed::{DAYS, world},
    url,
};
use crate::common::{TestApp, TestBackend};

fn pop(text: &str, country: &str, value: Option<i64>) -> Popularity {
    Popularity {
        text: text.into(),
        country: country.into(),
        popularity: value,
        fetched_at: 1,
    }
}

fn column(r: &Value, id_field: &str) -> Vec<(i64, Value)> {
    r["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i[id_field].as_str().unwrap().parse().unwrap(),
                i["popularity"].clone(),
            )
        })
        .collect()
}

crate::backend_tests! {
    async fn popularity_fills_sorts_and_filters(app: TestApp) {
        let w = world(&app, "USD").await;
        // Campaign 101 serves US and CA, 102 GB (seed). Texts are stored normalised.
        popularity::put_many(&app.state.db.pool, &[
            pop("fitness tracker", "US", Some(70)),
            pop("yoga", "US", Some(20)),
            pop("yoga", "CA", Some(45)),
            pop("meditation", "GB", Some(90)),
            pop("meditation", "US", Some(10)),
            pop("running app", "US", None),
            pop("step counter", "FR", Some(99)),
        ]).await.unwrap();
        let (s, e) = range(1, DAYS);
        let base = json!({"level": "KEYWORDS", "startDate": s, "endDate": e});
        let r = report(&app, &w, base.clone()).await;
        let mut got = column(&r, "keywordId");
        got.sort_by_key(|(id, _)| *id);
        assert_eq!(got, [
            (301, json!(70)), (302, Value::Null), (303, json!(45)), (304, json!(90)), (305, Value::Null),
        ]);

        let mut sorted = base.clone();
        sorted["sort"] = json!({"field": "popularity", "order": "desc"});
        assert_eq!(ids(&report(&app, &w, sorted.clone()).await, "keywordId"), [304, 301, 303, 302, 305]);
        sorted["sort"]["order"] = json!("asc");
        assert_eq!(ids(&report(&app, &w, sorted.clone()).await, "keywordId"), [303, 301, 304, 302, 305]);
        // Sorted past the first page: the page's rows carry their popularity.
        sorted["pageSize"] = json!(2);
        sorted["page"] = json!(2);
        let page = report(&app, &w, sorted).await;
        assert_eq!(column(&page, "keywordId"), [(304, json!(90)), (302, Value::Null)]);

        for (filter, want) in [
            (json!({"field": "popularity", "operator": "GREATER_THAN", "values": [50]}), vec![301, 304]),
            (json!({"type": "metrics", "metric": "popularity", "condition": "><", "value": [40, 80]}), vec![301, 303]),
            (json!({"field": "popularity", "operator": "LESS_THAN", "values": [100]}), vec![301, 303, 304]),
        ] {
            let mut body = base.clone();
            body["filters"] = json!([filter]);
            let r = report(&app, &w, body).await;
            assert_eq!(ids(&r, "keywordId"), want, "{filter}");
            assert_eq!(r["total"], json!(want.len()));
        }

        let terms = report(&app, &w, json!({"level": "SEARCHTERMS", "startDate": s, "endDate": e,
            "sort": {"field": "popularity", "order": "desc"}})).await;
        // `step counter` has a popularity in France only: not a storefront of its campaign.
        assert_eq!(column(&terms, "searchTermId"), [(501, json!(70)), (502, Value::Null)]);

        // Levels without a search text refuse it, naming the field.
        for (body, field) in [
            (json!({"level": "CAMPAIGNS", "startDate": s, "endDate": e,
                "filters": [{"field": "popularity", "operator": "GREATER_THAN", "values": [1]}]}), "filters[0].field"),
            (json!({"level": "GROUPS", "startDate": s, "endDate": e,
                "filters": [{"type": "metrics", "metric": "popularity", "condition": ">", "value": 1}]}), "filters[0].metric"),
            (json!({"level": "CAMPAIGNS", "startDate": s, "endDate": e, "sort": {"field": "popularity"}}), "sort.field"),
            (json!({"level": "KEYWORDS", "startDate": s, "endDate": e,
                "filters": [{"field": "popularity", "operator": "CONTAINS", "values": [1]}]}), "filters[0].operator"),
        ] {
            let res = app.post(&url(&w), body.clone(), Some(&w.cookie)).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST, "{body}");
            assert_eq!(res.json["errors"][0]["field"], field, "{body}: {:?}", res.json);
        }
    }
}
