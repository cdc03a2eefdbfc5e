//! The change-history calls on the wire: what the client sends for `POST
//! /change-history/query` and `GET /change-history/{detailId}` (path, query, the
//! `X-AP-Context` header, the `AuditQuery` body in Apple's names), checked against a stub
//! that records each request and answers Apple's documented examples, and how the answers
//! are read (typed summaries with their detail ids, details merged over pages).

use std::sync::{Arc, Mutex};

use axum::extract::{Path, RawQuery};
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use searchdeck_provider::history::{
    AuditEventType, AuditFilter, AuditOperator, AuditPagination, AuditQuery, AuditQueryOptions,
    AuditSortOrder, AuditSorting, AuditUserType,
};
use searchdeck_provider::{AppleAdsExt, ClientConfig, KeyPair};
use serde_json::{Value, json};

use crate::support::client_from;

/// One request the stub saw: method, path with query, `X-AP-Context`, body.
type Seen = Arc<Mutex<Vec<(String, String, Option<String>, Value)>>>;

fn context(h: &HeaderMap) -> Option<String> {
    h.get("x-ap-context")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

async fn stub() -> (String, Seen) {
    let seen: Seen = Arc::default();
    let (q, d) = (seen.clone(), seen.clone());
    let app = Router::new()
        .route(
            "/auth/oauth2/token",
            post(|| async { Json(json!({"access_token": "t", "expires_in": 3600, "token_type": "Bearer"})) }),
        )
        .route(
            "/v1/change-history/query",
            post(move |h: HeaderMap, Json(body): Json<Value>| async move {
                q.lock().unwrap().push(("POST".into(), "/v1/change-history/query".into(), context(&h), body));
                Json(json!({
                    "result": [{
                        "transactionId": "998877665", "eventType": "UPDATE",
                        "eventTime": "2025-03-15T14:30:00.000Z", "entityType": "AdGroup", "count": 1,
                        "metas": [{"AdGroup": "5512", "detailId": "AdGroup.5512.998877665", "meta": {"name": "Brand"}}],
                        "userType": "CUSTOMER", "modifiedBy": "111222333",
                    }],
                    "pagination": {"offset": 0, "pageSize": 50, "totalCount": 1},
                    "error": null,
                }))
            }),
        )
        .route(
            "/v1/change-history/{detail_id}",
            get(move |h: HeaderMap, Path(id): Path<String>, RawQuery(query): RawQuery| async move {
                let path = format!("/v1/change-history/{id}?{}", query.clone().unwrap_or_default());
                d.lock().unwrap().push(("GET".into(), path, context(&h), Value::Null));
                // Two field changes in all, one per page of `limit=1`.
                let offset: usize = query
                    .as_deref()
                    .and_then(|q| q.split('&').find_map(|p| p.strip_prefix("offset=")))
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(0);
                let all = [
                    json!({"field": "status", "oldValues": ["ENABLED"], "newValues": ["PAUSED"]}),
                    json!({"field": "bidStrategy.bid", "oldValues": ["1.5"], "newValues": ["2"]}),
                ];
                let changes: Vec<Value> = all.into_iter().skip(offset).take(1).collect();
                Json(json!({
                    "result": [{
                        "transactionId": "998877665", "detailId": id, "eventType": "UPDATE",
                        "entityType": "AdGroup", "entityId": "5512", "eventTime": "2025-03-15T14:30:00.000Z",
                        "userType": "CUSTOMER", "modifiedBy": "111222333", "entityMetaData": {"name": "Brand"},
                        "details": [{"transactionId": "998877665", "changes": changes}],
                    }],
                    "pagination": {"offset": offset, "pageSize": 1, "totalCount": 2},
                    "error": null,
                }))
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, seen)
}

#[tokio::test]
async fn change_history_calls_use_apples_wire_names() {
    let (base, seen) = stub().await;
    let responses = Arc::default();
    let ids = ("client".to_string(), "team".to_string(), "key".to_string());
    let client = client_from(
        ClientConfig::sandbox(&base),
        &responses,
        &ids,
        KeyPair::generate(),
    );
    let query = AuditQuery {
        filters: vec![
            AuditFilter::new(
                "eventTime",
                AuditOperator::GreaterThan,
                json!("2025-03-01T00:00:00.000Z"),
            ),
            AuditFilter::new("userType", AuditOperator::In, json!(["CUSTOMER"])),
        ],
        sorting: vec![AuditSorting {
            field: "eventTime".into(),
            order: AuditSortOrder::Asc,
        }],
        pagination: Some(AuditPagination {
            offset: 0,
            page_size: 50,
        }),
        options: Some(AuditQueryOptions {
            metadata: Some("snapshot".into()),
            need_totals: Some("true".into()),
            time_zone: None,
        }),
    };
    let page = client.audit_summaries(4500, &query).await.unwrap();
    assert_eq!(page.total, Some(1));
    let row = &page.items[0];
    assert_eq!(row.user_type, Some(AuditUserType::Customer));
    assert_eq!(row.event_type, Some(AuditEventType::Update));
    let entities = row.entities();
    assert_eq!(
        (entities[0].entity_id, entities[0].detail_id.as_str()),
        (Some(5512), "AdGroup.5512.998877665")
    );

    let details = client
        .all_change_details(4500, &entities[0].detail_id, 1)
        .await
        .unwrap();
    assert_eq!(details.len(), 1, "the pages of one entity's change are one");
    let fields: Vec<_> = details[0]
        .changes()
        .map(|c| c.field.clone().unwrap())
        .collect();
    assert_eq!(fields, ["status", "bidStrategy.bid"]);
    assert_eq!(details[0].entity_meta_data["name"], "Brand");

    let seen = seen.lock().unwrap();
    assert_eq!(
        seen[0],
        (
            "POST".to_string(),
            "/v1/change-history/query".to_string(),
            Some("adAccountId=4500".to_string()),
            json!({
                "filters": [
                    {"field": "eventTime", "operator": "GREATER_THAN", "value": "2025-03-01T00:00:00.000Z"},
                    {"field": "userType", "operator": "IN", "value": ["CUSTOMER"]},
                ],
                "sorting": [{"field": "eventTime", "order": "ASC"}],
                "pagination": {"offset": 0, "pageSize": 50},
                "options": {"needTotals": "true", "metadata": "snapshot"},
            }),
        )
    );
    let gets: Vec<_> = seen[1..]
        .iter()
        .map(|(m, p, c, _)| (m.as_str(), p.as_str(), c.as_deref()))
        .collect();
    assert_eq!(
        gets,
        [
            (
                "GET",
                "/v1/change-history/AdGroup.5512.998877665?limit=1&offset=0",
                Some("adAccountId=4500")
            ),
            (
                "GET",
                "/v1/change-history/AdGroup.5512.998877665?limit=1&offset=1",
                Some("adAccountId=4500")
            ),
        ]
    );
}
