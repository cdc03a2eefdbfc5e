//! A campaign's change history, read from the provider (the sandbox) after a real change.

use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use searchdeck_common::store;
use searchdeck_provider::{AppleAdsExt, Entity};
use serde_json::{Value, json};

use super::{field, seed};
use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};

sandbox_tests! {
    async fn change_history_comes_from_the_provider(t: Connected) {
        let owner = t.owner().await;
        let ids = t.registered_key(&owner).await;
        let created = t.create(&owner, "Main account", &ids).await;
        assert_eq!(created.status, StatusCode::OK, "{:?}", created.json);
        let account_id = created.json["result"]["item"]["_id"].as_str().unwrap().to_string();
        let org_id = created.json["result"]["item"]["acls"][0]["orgId"].as_str().unwrap().parse::<i64>().unwrap();
        // A real change at the provider: rename one campaign.
        let workspace_id = seed::me(&t.app, &owner).await.0;
        let row = store::accounts::in_workspace(&t.app.state.db.pool, &workspace_id, &account_id)
            .await.unwrap().unwrap();
        let client = t.app.state.provider.client_of(&row).unwrap();
        let page: searchdeck_provider::calls::Page<Value> = client
            .query(org_id, Entity::Campaigns, &json!({"pagination": {"offset": 0, "limit": 1}}))
            .await
            .unwrap();
        let campaign_id = page.items[0]["id"].as_i64().unwrap();
        let _: Value = client.update(org_id, Entity::Campaigns, campaign_id, &json!({"name": "Renamed by the test"})).await.unwrap();

        let today = time::OffsetDateTime::now_utc().date();
        let (from, to) = (today.previous_day().unwrap(), today.next_day().unwrap());
        let reader = t.app.member(&owner, Role::Reader).await;
        let path = format!("/api/asa/reports/changes?accountId={account_id}&orgId={org_id}");
        let body = json!({"startDate": from.to_string(), "endDate": to.to_string(), "details": true, "entityTypes": ["Campaign"]});
        let res = t.call(Method::POST, &path, body.clone(), &reader).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let rows = res.json["result"]["items"].as_array().unwrap();
        assert_eq!(res.json["result"]["total"], 1, "{rows:?}");
        let row = &rows[0];
        assert_eq!((row["eventType"].as_str(), row["entityType"].as_str(), row["count"].as_i64()), (Some("UPDATE"), Some("Campaign"), Some(1)));
        let change = row["changes"].as_array().unwrap().iter().find(|c| c["field"] == "name").expect("the name change");
        assert_eq!(change["newValues"], json!(["Renamed by the test"]));
        assert_eq!(change["entityId"], campaign_id.to_string());
        // Yesterday only: nothing.
        let res = t.call(Method::POST, &path, json!({"startDate": from.to_string(), "endDate": from.to_string()}), &reader).await;
        assert_eq!(res.json["result"]["total"], 0, "{:?}", res.json);
        // Bad input is a 400 on its field.
        for (query, body, f) in [
            (format!("accountId={account_id}"), body.clone(), "orgId"),
            (format!("accountId={account_id}&orgId=1"), body.clone(), "orgId"),
            (format!("accountId={account_id}&orgId={org_id}"), json!({"endDate": "2026-01-01"}), "startDate"),
            (format!("accountId={account_id}&orgId={org_id}"), json!({"startDate": "2026-01-02", "endDate": "2026-01-01"}), "endDate"),
            (format!("accountId={account_id}&orgId={org_id}"), json!({"startDate": "2026-01-01", "endDate": "2026-01-02", "entityTypes": ["Campaign", "Org"]}), "entityTypes.1"),
            (format!("accountId={account_id}&orgId={org_id}"), json!({"startDate": "2026-01-01", "endDate": "2026-01-02", "pageSize": 500}), "pageSize"),
        ] {
            let res = t.call(Method::POST, &format!("/api/asa/reports/changes?{query}"), body, &reader).await;
            assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, f), "{query}: {:?}", res.json);
        }
    }
}
