//! The change history as the sandbox serves it: every write through the API is recorded as
//! an API client's (`CUSTOMER_API`, by the key's client id) and every write through the UI
//! stand-in (`/sandbox/ui/v1/…`) as a person's (`CUSTOMER`), with dotted field paths and old
//! and new values; queries need an `eventTime` filter, filter by entity and actor, sort and
//! page; `metas` (with detail ids) only with `options.metadata`; a detail pages its field
//! changes.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use searchdeck_sandbox::SandboxConfig;
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::support::Client;

/// `eventTime` after 2000: every event.
fn since() -> Value {
    json!({ "field": "eventTime", "operator": "GREATER_THAN", "value": "2000-01-01T00:00:00Z" })
}

/// `POST /change-history/query` with `body`: status and answer.
async fn history(c: &Client, body: Value) -> (StatusCode, Value) {
    c.call(
        Method::POST,
        "/v1/change-history/query",
        Some(c.account()),
        Some(&body),
    )
    .await
}

/// `method /sandbox/ui/v1{path}` as `person` (no token): status and answer.
async fn ui(
    c: &Client,
    method: Method,
    path: &str,
    person: &str,
    body: Value,
) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(format!("/sandbox/ui/v1{path}"))
        .header("x-ap-context", format!("adAccountId={}", c.account()))
        .header("x-sandbox-user", person)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = c.app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A live keyword and a live campaign of the first ad account, and the account's currency.
async fn some_entities(c: &Client) -> (Value, Value, String) {
    let live = json!({ "filters": [{ "field": "deleted", "operator": "EQUALS", "value": [false] }], "pagination": { "pageSize": 1 } });
    let keyword = c.post("/keywords/query", live.clone()).await["result"][0].clone();
    let campaign = c.post("/campaigns/query", live).await["result"][0].clone();
    let currency = campaign["dailyBudget"]["value"]["currency"]
        .as_str()
        .unwrap()
        .to_string();
    (keyword, campaign, currency)
}

#[tokio::test]
async fn api_and_ui_writes_are_recorded_with_who_made_them() {
    let c = Client::new(SandboxConfig::default());
    let (keyword, campaign, currency) = some_entities(&c).await;
    let (kid, cid) = (
        keyword["id"].as_i64().unwrap(),
        campaign["id"].as_i64().unwrap(),
    );
    let old_bid = keyword["bid"]["amount"].as_str().unwrap().to_string();
    let (s, v) = c
        .call(
            Method::PUT,
            &format!("/v1/keywords/{kid}"),
            Some(c.account()),
            Some(&json!({ "bid": { "amount": "7.25", "currency": currency } })),
        )
        .await;
    assert!(s.is_success(), "{v}");
    let (s, v) = ui(
        &c,
        Method::PUT,
        &format!("/campaigns/{cid}"),
        "ann@example.com",
        json!({ "status": "PAUSED" }),
    )
    .await;
    assert!(s.is_success(), "{v}");
    // Without an eventTime filter the query is refused, as Apple refuses it.
    let (s, _) = history(&c, json!({ "filters": [] })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);

    let (s, all) = history(
        &c,
        json!({ "filters": [since()], "options": { "metadata": "snapshot" } }),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{all}");
    let rows = all["result"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{rows:?}");
    // Newest first by default: the UI's pause, then the API's bid.
    let (pause, bid) = (&rows[0], &rows[1]);
    assert_eq!(
        (
            pause["userType"].as_str(),
            pause["modifiedBy"].as_str(),
            pause["entityType"].as_str()
        ),
        (Some("CUSTOMER"), Some("ann@example.com"), Some("Campaign"))
    );
    assert_eq!(
        (
            bid["userType"].as_str(),
            bid["modifiedBy"].as_str(),
            bid["eventType"].as_str()
        ),
        (Some("CUSTOMER_API"), Some("test"), Some("UPDATE"))
    );
    let meta = &bid["metas"][0];
    assert_eq!(meta["Keyword"], kid.to_string());
    let detail_id = meta["detailId"].as_str().unwrap();
    assert_eq!(
        detail_id,
        format!("Keyword.{kid}.{}", bid["transactionId"].as_str().unwrap())
    );
    let (s, detail) = c
        .call(
            Method::GET,
            &format!("/v1/change-history/{detail_id}"),
            Some(c.account()),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{detail}");
    let d = &detail["result"][0];
    assert_eq!(d["entityId"], kid.to_string());
    assert_eq!(d["userType"], "CUSTOMER_API");
    assert_eq!(
        d["details"][0]["changes"],
        json!([{ "field": "bid", "oldValues": [old_bid], "newValues": ["7.25"] }])
    );
    let pause_id = pause["metas"][0]["detailId"].as_str().unwrap();
    let (_, detail) = c
        .call(
            Method::GET,
            &format!("/v1/change-history/{pause_id}"),
            Some(c.account()),
            None,
        )
        .await;
    assert_eq!(
        detail["result"][0]["details"][0]["changes"],
        json!([{ "field": "status", "oldValues": [campaign["status"]], "newValues": ["PAUSED"] }])
    );

    // Filters by actor, entity and event; metas only with metadata.
    let (_, only_ui) = history(&c, json!({ "filters": [since(), { "field": "userType", "operator": "IN", "value": ["CUSTOMER"] }] })).await;
    assert_eq!(only_ui["result"].as_array().unwrap().len(), 1);
    assert_eq!(
        only_ui["result"][0]["metas"],
        json!([]),
        "no metadata asked"
    );
    let (_, by_entity) = history(&c, json!({ "filters": [since(), { "field": "entityId", "operator": "EQUALS", "value": kid.to_string() }] })).await;
    assert_eq!(
        by_entity["result"][0]["transactionId"],
        bid["transactionId"]
    );
    let (_, created) = history(&c, json!({ "filters": [since(), { "field": "eventType", "operator": "IN", "value": ["CREATE"] }] })).await;
    assert_eq!(created["result"], json!([]));
    // A time window after both: nothing.
    let (_, later) = history(&c, json!({ "filters": [{ "field": "eventTime", "operator": "GREATER_THAN", "value": "2999-01-01" }] })).await;
    assert_eq!(later["pagination"]["totalCount"], 0);
    // Sorting and paging.
    let (_, oldest) = history(&c, json!({ "filters": [since()], "sorting": [{ "field": "eventTime", "order": "ASC" }], "pagination": { "offset": 0, "pageSize": 1 } })).await;
    assert_eq!(oldest["result"][0]["transactionId"], bid["transactionId"]);
    assert_eq!(oldest["pagination"]["totalCount"], 2);
    let (_, second) = history(&c, json!({ "filters": [since()], "sorting": [{ "field": "eventTime", "order": "ASC" }], "pagination": { "offset": 1, "pageSize": 1 } })).await;
    assert_eq!(second["result"][0]["transactionId"], pause["transactionId"]);
    let (_, no_totals) = history(
        &c,
        json!({ "filters": [since()], "options": { "needTotals": "false" } }),
    )
    .await;
    assert_eq!(no_totals["pagination"]["totalCount"], 0);
    let (s, _) = history(
        &c,
        json!({ "filters": [since()], "options": { "metadata": "everything" } }),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn creations_deletions_and_nested_fields_are_recorded() {
    let c = Client::new(SandboxConfig::default());
    let (keyword, _, currency) = some_entities(&c).await;
    let group = keyword["adGroupId"].as_i64().unwrap();
    let campaign = keyword["campaignId"].as_i64().unwrap();
    // An ad group's default bid is under bidStrategy.
    let (s, v) = c
        .call(
            Method::PUT,
            &format!("/v1/adgroups/{group}"),
            Some(c.account()),
            Some(&json!({ "bidStrategy": { "bid": { "amount": "3.1", "currency": currency } } })),
        )
        .await;
    assert!(s.is_success(), "{v}");
    // A negative keyword created then deleted in the UI.
    let (s, made) = ui(
        &c,
        Method::POST,
        "/negative-keywords",
        "bob@example.com",
        json!({ "campaignId": campaign, "text": "free stuff", "matchType": "EXACT" }),
    )
    .await;
    assert!(s.is_success(), "{made}");
    let nid = made["result"]["id"].as_i64().unwrap();
    let (s, v) = ui(
        &c,
        Method::DELETE,
        &format!("/negative-keywords/{nid}"),
        "bob@example.com",
        Value::Null,
    )
    .await;
    assert!(s.is_success(), "{v}");

    let (_, rows) = history(&c, json!({ "filters": [since()], "sorting": [{ "field": "eventTime", "order": "ASC" }], "options": { "metadata": "snapshot" } })).await;
    let rows = rows["result"].as_array().unwrap().clone();
    let events: Vec<_> = rows
        .iter()
        .map(|r| {
            (
                r["eventType"].as_str().unwrap(),
                r["entityType"].as_str().unwrap(),
                r["userType"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        events,
        [
            ("UPDATE", "AdGroup", "CUSTOMER_API"),
            ("CREATE", "NegativeKeyword", "CUSTOMER"),
            ("DELETE", "NegativeKeyword", "CUSTOMER"),
        ]
    );
    let detail = |i: usize| {
        let id = rows[i]["metas"][0]["detailId"]
            .as_str()
            .unwrap()
            .to_string();
        let c = &c;
        async move {
            let (_, d) = c
                .call(
                    Method::GET,
                    &format!("/v1/change-history/{id}"),
                    Some(c.account()),
                    None,
                )
                .await;
            d["result"][0].clone()
        }
    };
    let group_change = detail(0).await;
    let fields: Vec<_> = group_change["details"][0]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["field"].as_str().unwrap().to_string(),
                c["newValues"].clone(),
            )
        })
        .collect();
    assert_eq!(
        fields,
        [("bidStrategy.bid".to_string(), json!(["3.10"]))],
        "as the sandbox renders the amount"
    );
    let created = detail(1).await;
    assert_eq!(created["entityMetaData"]["text"], "free stuff");
    assert_eq!(
        created["entityMetaData"]["campaignId"],
        campaign.to_string()
    );
    let new_fields: Vec<_> = created["details"][0]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["field"].as_str().unwrap())
        .collect();
    assert!(
        new_fields.contains(&"text") && new_fields.contains(&"status"),
        "{new_fields:?}"
    );
    assert!(
        created["details"][0]["changes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["oldValues"] == json!([]))
    );
    let deleted = detail(2).await;
    assert!(
        deleted["details"][0]["changes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["field"] == "deleted" && c["newValues"] == json!(["true"]))
    );

    // A detail pages its field changes.
    let id = rows[1]["metas"][0]["detailId"].as_str().unwrap();
    let total = created["details"][0]["changes"].as_array().unwrap().len();
    let (_, first) = c
        .call(
            Method::GET,
            &format!("/v1/change-history/{id}?limit=1&offset=0"),
            Some(c.account()),
            None,
        )
        .await;
    let (_, next) = c
        .call(
            Method::GET,
            &format!("/v1/change-history/{id}?limit=1&offset=1"),
            Some(c.account()),
            None,
        )
        .await;
    assert_eq!(first["pagination"]["totalCount"], total);
    assert_eq!(
        first["result"][0]["details"][0]["changes"],
        json!([created["details"][0]["changes"][0]])
    );
    assert_eq!(
        next["result"][0]["details"][0]["changes"],
        json!([created["details"][0]["changes"][1]])
    );
    let (s, _) = c
        .call(
            Method::GET,
            &format!("/v1/change-history/{id}?limit=0"),
            Some(c.account()),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, _) = c
        .call(
            Method::GET,
            "/v1/change-history/Keyword.1.nothing",
            Some(c.account()),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}
