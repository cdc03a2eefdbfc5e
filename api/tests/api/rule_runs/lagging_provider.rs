//! A rule over days Apple has not delivered yet (the sandbox's clock three days behind
//! ours): the preview and the run give the reason and pause nothing, and the workspace sees
//! the appleDataIssues banner.

use axum::http::{Method, StatusCode};
use searchdeck_common::ids;
use serde_json::json;

use super::{client, connect_entities, pick, rule_json, run_now, sandbox_writes, store_rule};
use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox_with};

/// Apple's reporting three days behind ours (the sandbox's clock stopped at three days
/// ago): a rule "impressions = 0 over the last 2 days → pause" reads days Apple never
/// delivered. Its preview says so before anyone saves, its run syncs the reports, then
/// skips with the reason and pauses nothing, and the workspace sees the appleDataIssues
/// banner.
async fn a_rule_on_a_lagging_provider_pauses_nothing(t: Connected) {
    let owner = t.owner().await;
    let account_id = connect_entities(&t, &owner).await;
    let p = pick(&t, &account_id).await;
    let client = client(&t, &account_id).await;
    // The history before the last 30 days as stored by earlier syncs, so the run's own sync
    // reads only the trailing window (as every sync after the first does), through the day
    // Apple serves.
    let lagging_today = (time::OffsetDateTime::now_utc() - time::Duration::days(3)).date();
    sqlx::query(
        "UPDATE sync_orgs SET metrics_from = '2000-01-01', metrics_through = $2, metrics_synced_at = $3 \
         WHERE account_id = $1",
    )
    .bind(&account_id)
    .bind(lagging_today.to_string())
    .bind(ids::now_ms() / 1000)
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let rule = rule_json(
        &p,
        "KEYWORDS",
        json!([{"type": "metric", "metric": "impressions", "operator": "EQUALS", "value": "0"}]),
        json!([{"type": "pause"}]),
        json!({}),
    );
    let mut rule = rule;
    rule["window"] = json!({"type": "last", "days": 2});
    let id = store_rule(&t, &p, &rule, "a@example.com").await;
    let before = sandbox_writes(client.as_ref(), p.org_id).await;
    let run = run_now(&t, &owner, &id).await;
    assert_eq!(run["status"], "SKIPPED", "{run}");
    // Apple's today in the group's zone, three days before ours: the day before it is the
    // newest complete one.
    let delivered = run["newestCompleteDay"]
        .as_str()
        .expect("a newest complete day")
        .to_string();
    let ours = time::OffsetDateTime::now_utc().date();
    let lag = (ours
        - time::Date::parse(
            &delivered,
            time::macros::format_description!("[year]-[month]-[day]"),
        )
        .unwrap())
    .whole_days();
    assert!(
        (3..=5).contains(&lag),
        "delivered through {delivered}, {lag} days behind"
    );
    let reason = run["reason"].as_str().unwrap();
    assert!(
        reason.contains(&format!(
            "Apple Ads has delivered this campaign group's metrics through {delivered}"
        )),
        "{run}"
    );
    assert_eq!(run["items"], json!([]));
    assert_eq!(
        sandbox_writes(client.as_ref(), p.org_id).await,
        before,
        "nothing sent"
    );
    let active: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM asa_keywords WHERE org_key = $1 AND campaign_id = $2 AND deleted = 0 \
         AND status IN ('ACTIVE', 'ENABLED')",
    )
    .bind(p.org_key)
    .bind(p.campaign)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert!(active >= 6, "the campaign's keywords stay active: {active}");
    // The preview, as the editor shows it before saving: the same reason in words.
    let res = t
        .call(
            Method::POST,
            "/api/rules/preview",
            json!({"rule": rule}),
            &owner,
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    assert_eq!(res.json["result"]["item"]["reason"].as_str(), Some(reason));
    // The banner of docs/product.md#4-banners: delivery lags.
    let plan = t.get("/api/plan/current", &owner).await;
    assert_eq!(plan.status, StatusCode::OK, "{:?}", plan.json);
    assert_eq!(
        plan.json["result"]["banner"]["type"], "appleDataIssues",
        "{:?}",
        plan.json
    );
}

/// A sandbox whose clock stands three days behind ours.
fn lagging() -> searchdeck_sandbox::SandboxConfig {
    searchdeck_sandbox::SandboxConfig {
        now: Some(time::OffsetDateTime::now_utc() - time::Duration::days(3)),
        frozen_clock: true,
        ..Default::default()
    }
}

#[tokio::test]
async fn sqlite() {
    let base = start_sandbox_with(lagging()).await;
    let app = TestApp::sqlite_with(&args(&base)).await;
    a_rule_on_a_lagging_provider_pauses_nothing(Connected::new(app, base)).await
}

#[tokio::test]
async fn postgres() {
    let base = start_sandbox_with(lagging()).await;
    if let Some(app) = TestApp::postgres_with(&args(&base)).await {
        a_rule_on_a_lagging_provider_pauses_nothing(Connected::new(app, base)).await
    }
}
