//! The AppsFlyer pull end to end against the sandbox's stand-in of its Master API (docs/api/
//! attribution.md "Pull"), on SQLite and PostgreSQL: a connection's reports synced, AppsFlyer
//! connected, its API token refused to readers, another workspace and providers without a
//! reporting API; a wrong token's error shown on the integration; the backfill through 429s
//! and with the last day in progress; a refresh that replaces the day instead of adding to
//! it; the CAMPAIGNS and KEYWORDS reports' `trackedInstalls` and `totalRevenue` equal to
//! what the stand-in served; a postback of a pulled day stored but not counted twice; and
//! the pull removed.

use std::time::{Duration, Instant};

use crate::common::{TestApp, TestResponse};
use crate::harness::{Connected, args, start_sandbox};
use axum::http::{Method, StatusCode};
use rust_decimal::Decimal;
use searchdeck_api::session::Role;
use searchdeck_common::plan::derive::Purchase;
use serde_json::{Value, json};

const TOKEN: &str = "sandbox-appsflyer-token";
const EVENTS: [&str; 3] = ["af_start_trial", "af_subscribe", "af_purchase"];

/// The connection's first app with campaigns: its id, its campaign group and currency.
async fn app_of(t: &Connected, account: &str) -> (i64, i64, String) {
    let row: (i64, i64, String) = sqlx::query_as(
        "SELECT c.adam_id, o.org_id, o.currency FROM asa_campaigns c \
         JOIN sync_orgs o ON o.org_key = c.org_key \
         WHERE o.account_id = $1 AND c.adam_id IS NOT NULL ORDER BY o.org_id, c.id LIMIT 1",
    )
    .bind(account)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    row
}

async fn integration(t: &Connected, cookie: &str) -> Value {
    let res = t.get("/api/attribution/integrations", cookie).await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    res.json["result"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["provider"] == "appsflyer")
        .unwrap()
        .clone()
}

async fn put_pull(t: &Connected, cookie: &str, provider: &str, body: Value) -> TestResponse {
    let path = format!("/api/attribution/integrations/{provider}/pull");
    t.call(Method::PUT, &path, body, cookie).await
}

/// Waits until AppsFlyer's pull has succeeded after `after` (unix ms), or has failed.
async fn pulled(t: &Connected, cookie: &str, after: i64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        let item = integration(t, cookie).await;
        let pull = &item["pull"];
        if pull["lastSuccessAt"].as_i64().is_some_and(|s| s > after)
            || pull["lastError"].is_string()
        {
            return item;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("the pull did not finish");
}

async fn faults(t: &Connected, body: Value) {
    let res = t
        .http
        .put(format!("{}/sandbox/mmp/faults", t.sandbox))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success());
}

/// What the stand-in serves for `app` over the pull's days grouped by `groupings`:
/// installs and the revenue of the three events, over every row and over rows with a
/// keyword.
async fn served(
    t: &Connected,
    adam_id: i64,
    days: (&str, &str),
) -> ((i64, Decimal), (i64, Decimal)) {
    let kpis: Vec<String> = std::iter::once("installs".to_string())
        .chain(EVENTS.iter().map(|e| format!("sales_in_usd_{e}")))
        .collect();
    let res = t
        .http
        .get(format!(
            "{}/api/master-agg-data/v4/app/id{adam_id}",
            t.sandbox
        ))
        .bearer_auth(TOKEN)
        .query(&[
            ("from", days.0),
            ("to", days.1),
            ("groupings", "install_time,af_keywords"),
            ("kpis", &kpis.join(",")),
            ("currency", "preferred"),
            ("format", "json"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let rows: Vec<Value> = res.json().await.unwrap();
    let (mut all, mut keyword) = ((0, Decimal::ZERO), (0, Decimal::ZERO));
    for r in &rows {
        let installs = r["installs"].as_i64().unwrap();
        let revenue: Decimal = EVENTS
            .iter()
            .map(|e| {
                r[format!("sales_in_usd_{e}")]
                    .to_string()
                    .parse::<Decimal>()
                    .unwrap()
            })
            .sum();
        all = (all.0 + installs, all.1 + revenue);
        if r["af_keywords"] != "" {
            keyword = (keyword.0 + installs, keyword.1 + revenue);
        }
    }
    (all, keyword)
}

async fn totals(
    t: &Connected,
    cookie: &str,
    q: &str,
    level: &str,
    days: (&str, &str),
) -> (i64, Decimal) {
    let res = t
        .call(
            Method::POST,
            &format!("/api/asa/reports?{q}"),
            json!({"level": level, "startDate": days.0, "endDate": days.1, "pageSize": 10}),
            cookie,
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    let totals = &res.json["result"]["totals"];
    (
        totals["trackedInstalls"].as_i64().unwrap(),
        totals["totalRevenue"].to_string().parse().unwrap(),
    )
}

/// The revenue `r` floored to the currency's cents (JPY: units), as the reports floor it.
fn floored(r: Decimal, currency: &str) -> Decimal {
    let digits = if currency == "JPY" || currency == "KRW" {
        0
    } else {
        2
    };
    r.round_dp_with_strategy(digits, rust_decimal::RoundingStrategy::ToZero)
}

async fn end_to_end(t: Connected) {
    let owner = t.owner().await;
    let account = t.connect_until_reports_synced(&owner, "Pull").await;
    let (adam_id, org_id, currency) = app_of(&t, &account).await;
    let q = format!("accountId={account}&orgId={org_id}");
    let reader = t.app.member(&owner, Role::Reader).await;
    let writer = t.app.member(&owner, Role::Writer).await;
    grow(&t).await;
    let body = json!({"token": TOKEN, "appIds": [format!("id{adam_id}")], "currency": currency});

    // Not connected yet: 404; connected, AppsFlyer offers a pull, none set.
    let res = put_pull(&t, &writer, "appsflyer", body.clone()).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);
    let res = t
        .call(
            Method::POST,
            "/api/attribution/integrations/appsflyer",
            json!({}),
            &writer,
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    let url = res.json["result"]["setup"]["url"]
        .as_str()
        .unwrap()
        .to_string();
    let postback_path = url[url.find("/api/").unwrap()..].to_string();
    let item = integration(&t, &reader).await;
    assert_eq!(
        (item["pullAvailable"].as_bool(), item["pull"].is_null()),
        (Some(true), true),
        "{item}"
    );

    // Readers may not; another workspace's is not connected; Branch has no reporting API;
    // a malformed body names its fields.
    let res = put_pull(&t, &reader, "appsflyer", body.clone()).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    let res = t
        .call(
            Method::DELETE,
            "/api/attribution/integrations/appsflyer/pull",
            json!({}),
            &reader,
        )
        .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    let stranger = t.owner().await;
    let res = put_pull(&t, &stranger, "appsflyer", body.clone()).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);
    let res = put_pull(&t, &writer, "branch", body.clone()).await;
    assert_eq!(
        (res.status, res.json["errors"][0]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("provider")),
        "{:?}",
        res.json
    );
    let res = put_pull(
        &t,
        &writer,
        "appsflyer",
        json!({"token": " ", "appIds": ["com.example"]}),
    )
    .await;
    let fields: Vec<_> = res.json["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        (res.status, fields),
        (
            StatusCode::BAD_REQUEST,
            vec!["token".to_string(), "appIds[0]".to_string()]
        ),
        "{:?}",
        res.json
    );

    // A wrong token: the pull runs and the integration says why it failed.
    let res = put_pull(&t, &writer, "appsflyer", json!({"token": "not-the-token-1234", "appIds": [format!("id{adam_id}")], "currency": currency})).await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    assert_eq!(res.json["result"]["item"]["pull"]["token"], "…1234");
    let failed = pulled(&t, &reader, 0).await;
    let error = failed["pull"]["lastError"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        error.contains("AppsFlyer refused the API token"),
        "{failed}"
    );
    assert!(failed["pull"]["lastSuccessAt"].is_null());

    // The right token, through two 429s and with the last day still in progress.
    faults(&t, json!({"burst429": 2, "partialLastDay": true})).await;
    let before = searchdeck_common::ids::now_ms();
    let res = put_pull(&t, &writer, "appsflyer", body.clone()).await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    assert!(
        !res.json.to_string().contains(TOKEN),
        "the token is never answered"
    );
    let item = pulled(&t, &reader, before).await;
    assert!(item["pull"]["lastError"].is_null(), "{item}");
    let status: Value = t
        .http
        .get(format!("{}/sandbox/mmp/faults", t.sandbox))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        status["faults"]["burst429"], 0,
        "both 429s were met and waited out: {status}"
    );

    let today = time::OffsetDateTime::now_utc().date();
    let (from, to) = (
        (today - time::Duration::days(30)).to_string(),
        (today - time::Duration::days(1)).to_string(),
    );
    let days = (from.as_str(), to.as_str());
    let in_progress = totals(&t, &owner, &q, "CAMPAIGNS", days).await;
    faults(&t, json!({"partialLastDay": false})).await;
    let (all, keyword) = served(&t, adam_id, days).await;
    assert!(
        all.0 > 0 && all.1 > Decimal::ZERO,
        "the world's cohorts have installs and revenue: {all:?}"
    );
    assert!(
        keyword.0 < all.0,
        "a share of installs has no keyword (Search Match): {keyword:?} of {all:?}"
    );

    // The daily refresh (run now): the last day is replaced by its whole, never added to.
    let before = searchdeck_common::ids::now_ms();
    t.app
        .state
        .queue
        .enqueue(&searchdeck_common::jobs::PullAttribution {
            workspace_id: workspace(&t).await,
            provider: "appsflyer".into(),
            days: 30,
        })
        .await
        .unwrap();
    pulled(&t, &reader, before).await;
    let campaigns = totals(&t, &owner, &q, "CAMPAIGNS", days).await;
    assert!(
        in_progress.0 <= campaigns.0,
        "{in_progress:?} then {campaigns:?}"
    );
    assert_eq!(
        campaigns,
        (all.0, floored(all.1, &currency)),
        "CAMPAIGNS = what the stand-in served"
    );
    let keywords = totals(&t, &owner, &q, "KEYWORDS", days).await;
    assert_eq!(
        keywords,
        (keyword.0, floored(keyword.1, &currency)),
        "KEYWORDS = the stand-in's rows with a keyword"
    );

    // The daily refresh is scheduled (once per day and workspace-provider).
    assert_eq!(schedules(&t).await, 1);

    // A postback of a pulled day is stored, listed, but not counted a second time.
    let campaign: String = sqlx::query_scalar("SELECT CAST(c.id AS TEXT) FROM asa_campaigns c JOIN sync_orgs o ON o.org_key = c.org_key WHERE o.account_id = $1 AND c.adam_id = $2 LIMIT 1")
        .bind(&account)
        .bind(adam_id)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    // A day the pull gave in any campaign zone (the last one may be the zone's today still).
    let at = format!("{} 12:00:00.000", today - time::Duration::days(29));
    let body = json!({"event_name": "install", "media_source": "Apple Search Ads", "app_id": format!("id{adam_id}"), "af_c_id": campaign, "event_time": at, "install_time": at, "appsflyer_id": "device-pulled-day"});
    let res = super::postback(
        &t.app,
        Method::POST,
        &postback_path,
        Some(("application/json", body.to_string().into_bytes())),
        &[],
    )
    .await;
    assert_eq!(
        (res.status, res.json["result"]["stored"].as_i64()),
        (StatusCode::OK, Some(1)),
        "{:?}",
        res.json
    );
    assert_eq!(
        totals(&t, &owner, &q, "CAMPAIGNS", days).await,
        campaigns,
        "a pulled day is the pull's alone"
    );

    // Removing the pull keeps what it pulled; a second removal is a 404.
    let res = t
        .call(
            Method::DELETE,
            "/api/attribution/integrations/appsflyer/pull",
            json!({}),
            &writer,
        )
        .await;
    assert_eq!(
        (res.status, res.json["result"]["item"]["pull"].is_null()),
        (StatusCode::OK, true),
        "{:?}",
        res.json
    );
    let res = t
        .call(
            Method::DELETE,
            "/api/attribution/integrations/appsflyer/pull",
            json!({}),
            &writer,
        )
        .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    assert_eq!(totals(&t, &owner, &q, "CAMPAIGNS", days).await, campaigns);
    assert_eq!(schedules(&t).await, 0, "no pull, no daily refresh");
    t.assert_no_secret_answered().await;
}

/// Gives the first workspace with a connection the Growth plan: the sandbox world spends
/// past pro_free's limit, and pro_limited locks the Conversions columns.
async fn grow(t: &Connected) {
    let ws: String = sqlx::query_scalar("SELECT workspace_id FROM accounts LIMIT 1")
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    let now = searchdeck_common::ids::now_ms();
    let growth = Purchase {
        id: searchdeck_common::ids::new_id(),
        name: "growth".into(),
        free: false,
        trial: false,
        full: true,
        organization: true,
        trial_kind: None,
        suggester: true,
        payment_failed: false,
        started_at: now - 86_400_000,
        off_account_time: Some(now + 30 * 86_400_000),
    };
    searchdeck_common::store::purchases::insert(&t.app.state.db.pool, &ws, &growth, now)
        .await
        .unwrap();
}

/// The pull schedules stored.
async fn schedules(t: &Connected) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM schedules WHERE kind = 'pull-attribution'")
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

/// The workspace of the one AppsFlyer integration.
async fn workspace(t: &Connected) -> String {
    sqlx::query_scalar(
        "SELECT workspace_id FROM attribution_integrations WHERE provider = 'appsflyer'",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap()
}

sandbox_tests! {
    async fn appsflyer_pull_backfills_refreshes_and_matches_the_stand_in(t: Connected) {
        end_to_end(t).await
    }
}
