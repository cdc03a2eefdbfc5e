//! A creation made at Apple exactly as asked: three campaigns (one a discovery campaign)
//! with their ad groups, keywords, negatives and custom product page ads, in our synced
//! tables and the campaigns report at once; then ad groups from a list in one of them and
//! the CPA-goal check.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use super::{
    ADS_OF, CAMPAIGNS_NAMED, Creation, GROUPS_OF, KEYWORDS_OF, NEGATIVES_OF, count, group, put,
};
use crate::harness::Connected;

/// The creation with a discovery campaign and a custom product page, as the Creation
/// progress shows it; returns the id of its first campaign ('T Brand Exact').
pub async fn a_creation_is_made_once_and_shows_at_once(
    t: &Connected,
    c: &Creation,
    body: Value,
) -> String {
    let org_key = c.org_key;
    let (q, reader, writer) = (&c.q, c.reader.clone(), c.writer.clone());

    // The creation.
    let res = put(t, c, body.clone(), writer.clone()).await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    let id = res.json["result"]["id"].as_str().unwrap().to_string();
    let task = t.task_finished(&writer, &id).await;
    assert_eq!(task["error"], Value::Null, "{task}");
    assert_eq!(task["message"], "Campaigns created");
    let d = &task["details"];
    assert_eq!(
        (
            &d["campaignsCreated"],
            &d["campaignsTotal"],
            &d["groupsCreated"],
            &d["groupsTotal"],
            &d["keywordsTotal"],
            &d["keywordsCreated"],
            &d["finish"],
        ),
        (
            &json!(3),
            &json!(3),
            &json!(4),
            &json!(4),
            &json!(35),
            &json!(35),
            &json!(true)
        ),
        "{d}"
    );
    assert_eq!(d["errorsMethod"], json!([]));
    assert_eq!(
        d["rejected"],
        json!([]),
        "nothing refused item by item: {d}"
    );
    let names: Vec<&str> = d["campaignsMapping"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["T Brand Exact", "T Generic", "T Discovery"]);
    assert_eq!(
        d["discoveryCampaignId"],
        d["campaignsMapping"][2]["campaignId"]
    );
    assert_eq!(d["campaignsMapping"][2]["adGroups"][0]["name"], "General");
    // In our synced tables at once.
    assert_eq!(count(t, CAMPAIGNS_NAMED, org_key, "T Brand Exact").await, 1);
    assert_eq!(count(t, GROUPS_OF, org_key, "T Brand Exact").await, 2);
    assert_eq!(count(t, KEYWORDS_OF, org_key, "T Brand Exact").await, 25);
    assert_eq!(count(t, NEGATIVES_OF, org_key, "T Brand Exact").await, 2);
    assert_eq!(count(t, KEYWORDS_OF, org_key, "T Generic").await, 10);
    assert_eq!(count(t, GROUPS_OF, org_key, "T Discovery").await, 1);
    // Every keyword of the plan, once, as an EXACT negative of General.
    assert_eq!(count(t, NEGATIVES_OF, org_key, "T Discovery").await, 20);
    for name in ["T Brand Exact", "T Generic", "T Discovery"] {
        assert_eq!(
            count(t, ADS_OF, org_key, name).await,
            count(t, GROUPS_OF, org_key, name).await,
            "one custom product page ad per ad group of {name}"
        );
    }
    let status: String = sqlx::query_scalar(
        "SELECT status FROM asa_campaigns WHERE org_key = $1 AND name = 'T Discovery'",
    )
    .bind(org_key)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(status, "PAUSED");
    // In the campaigns report at once (paused, no metrics yet), before any sync.
    let today = time::OffsetDateTime::now_utc().date();
    let res = t
        .call(
            Method::POST,
            &format!("/api/asa/reports?{q}"),
            json!({"level": "CAMPAIGNS", "startDate": (today - time::Duration::days(7)).to_string(),
                   "endDate": today.to_string(), "pageSize": 1000}),
            &reader,
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    let listed: Vec<&str> = res.json["result"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["campaignName"].as_str())
        .collect();
    for name in ["T Brand Exact", "T Generic", "T Discovery"] {
        assert!(listed.contains(&name), "{name} in the report: {listed:?}");
    }
    let brand: String = d["campaignsMapping"][0]["campaignId"]
        .as_str()
        .unwrap()
        .to_string();
    brand
}

/// Ad groups from a list in the creation's first campaign (a taken name is a field error),
/// and the CPA goals of its ad groups.
pub async fn ad_groups_from_a_list_and_cpa_goals(t: &Connected, c: &Creation, brand: &str) {
    let org_key = c.org_key;
    let (q, reader, writer) = (&c.q, c.reader.clone(), c.writer.clone());
    let k: Vec<&str> = c.keywords.iter().map(String::as_str).collect();

    // Ad groups from a list in the existing campaign; a taken name is a field error.
    let path = format!("/api/asa/groups/createByList/{brand}?{q}");
    let res = t
        .call(
            Method::POST,
            &path,
            json!({"groups": [group("exact", &k[..2], "EXACT")]}),
            &writer,
        )
        .await;
    assert_eq!(
        res.json["errors"][0]["field"], "groups.0.name",
        "{:?}",
        res.json
    );
    let res = t
        .call(
            Method::POST,
            &path,
            json!({"groups": [group("Extra", &k[..3], "EXACT")]}),
            &reader,
        )
        .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    let res = t
        .call(
            Method::POST,
            &path,
            json!({"groups": [group("Extra", &k[..3], "EXACT")]}),
            &writer,
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    let task = t
        .task_finished(&writer, res.json["result"]["id"].as_str().unwrap())
        .await;
    assert_eq!(task["details"]["campaignsTotal"], 0, "{task}");
    assert_eq!(task["details"]["groupsCreated"], 1);
    assert_eq!(count(t, GROUPS_OF, org_key, "T Brand Exact").await, 3);

    // CPA goals per campaign.
    let res = t
        .call(
            Method::POST,
            &format!("/api/asa/groups/checkCampaignGroupsCPAGoals?{q}"),
            json!({"campaignIds": [brand]}),
            &reader,
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    assert_eq!(res.json["result"]["items"][0]["adGroups"], 3);
    assert_eq!(res.json["result"]["items"][0]["withoutCpaGoal"], 3);
}
