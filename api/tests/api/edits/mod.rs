//! Quick edits through the provider against the in-process sandbox, on SQLite and
//! PostgreSQL: after a real connect and sync, each quick edit (campaign daily budget and
//! status; ad group default bid, CPA goal, status and Search Match; keyword bid and status)
//! is applied at the sandbox, shows at once in `asa/reports` and writes one change record per
//! changed field; a value already set is not sent; refused edits (below the sandbox's
//! minimum, too many decimals, negative, not a number, another currency) leave our database
//! and the sandbox unchanged; readers get 403 and another workspace's ids 404.

use std::{sync::Arc, time::Duration};

use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};
use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use searchdeck_common::{
    money::currency::MoneyRule,
    store::{self, changes},
};
use searchdeck_provider::{AppleAds, AppleAdsExt, Client, Entity};
use serde_json::{Value, json};

/// The synced entities one test edits: a live keyword, its ad group and campaign.
#[derive(Debug, Clone)]
struct Picked {
    account_id: String,
    org_id: i64,
    currency: String,
    campaign: i64,
    budget_micros: i64,
    group: i64,
    group_bid_micros: i64,
    keyword: i64,
    keyword_bid_micros: i64,
}

/// A live keyword of a live ad group of a live campaign, with a bid, in a currency with two
/// decimals (the sandbox's accounts are mostly USD).
async fn pick(t: &Connected, account_id: &str) -> Picked {
    let row: (i64, String, i64, i64, i64, i64, i64, i64) = sqlx::query_as(
        "SELECT o.org_id, o.currency, c.id, c.daily_budget_micros, g.id, g.default_bid_micros, \
           k.id, k.bid_micros \
         FROM asa_keywords k JOIN asa_ad_groups g ON g.org_key = k.org_key AND g.id = k.ad_group_id \
         JOIN asa_campaigns c ON c.org_key = k.org_key AND c.id = k.campaign_id \
         JOIN sync_orgs o ON o.org_key = k.org_key \
         WHERE o.account_id = $1 AND k.deleted = 0 AND g.deleted = 0 AND c.deleted = 0 \
           AND k.status = 'ENABLED' AND g.status = 'ENABLED' AND c.status = 'ENABLED' \
           AND k.bid_micros IS NOT NULL AND g.default_bid_micros IS NOT NULL AND g.automated_keywords_opt_in = 1 \
           AND c.daily_budget_micros IS NOT NULL AND o.currency = 'USD' \
         ORDER BY k.id LIMIT 1",
    )
    .bind(account_id)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    Picked {
        account_id: account_id.to_string(),
        org_id: row.0,
        currency: row.1,
        campaign: row.2,
        budget_micros: row.3,
        group: row.4,
        group_bid_micros: row.5,
        keyword: row.6,
        keyword_bid_micros: row.7,
    }
}

async fn client(t: &Connected, account_id: &str) -> Arc<dyn AppleAds> {
    let row = store::accounts::by_id(&t.app.state.db.pool, account_id)
        .await
        .unwrap()
        .unwrap();
    t.app.state.provider.client_of(&row).unwrap()
}

fn query(p: &Picked) -> String {
    format!("accountId={}&orgId={}", p.account_id, p.org_id)
}

fn campaign_url(p: &Picked) -> String {
    format!("/api/asa/campaigns/update/{}?{}", p.campaign, query(p))
}

fn group_url(p: &Picked) -> String {
    format!("/api/asa/groups/updatesV2/{}?{}", p.campaign, query(p))
}

fn keyword_url(p: &Picked) -> String {
    format!(
        "/api/asa/keywords/update/{}/{}?{}",
        p.campaign,
        p.group,
        query(p)
    )
}

/// The row of entity `id` (`id_field`) in `asa/reports` at `level`, read as `cookie`.
async fn report_row(
    t: &Connected,
    p: &Picked,
    cookie: &str,
    level: &str,
    id_field: &str,
    id: i64,
) -> Value {
    let today = time::OffsetDateTime::now_utc().date();
    let mut body = json!({"level": level, "startDate": (today - time::Duration::days(6)).to_string(),
        "endDate": today.to_string(), "pageSize": 1000, "campaignId": p.campaign});
    if level == "KEYWORDS" {
        body["adGroupId"] = json!(p.group);
    }
    let res = t
        .call(
            Method::POST,
            &format!("/api/asa/reports?{}", query(p)),
            body,
            cookie,
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    res.json["result"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i[id_field].as_str().and_then(|s| s.parse::<i64>().ok()) == Some(id))
        .unwrap_or_else(|| panic!("{level} {id} in the report: {:?}", res.json))
        .clone()
}

fn amount(micros: i64) -> String {
    rust_decimal::Decimal::new(micros, 6)
        .normalize()
        .to_string()
}

fn field(res: &crate::common::TestResponse) -> String {
    res.json["errors"][0]["field"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

async fn records(t: &Connected, owner: &str) -> Vec<changes::ChangeRow> {
    let me = t.get("/api/auth/me", owner).await.json["result"]["item"].clone();
    let workspace_id = me["workspaceId"].as_str().unwrap().to_string();
    changes::list(
        &t.app.state.db.pool,
        &changes::Filter {
            workspace_id: &workspace_id,
            ..Default::default()
        },
        1000,
    )
    .await
    .unwrap()
}

/// What our database holds of the picked entities: campaign (budget, status), ad group
/// (bid, goal, status, opt-in), keyword (bid, status).
async fn ours(t: &Connected, p: &Picked) -> Value {
    let pool = &t.app.state.db.pool;
    let c: (Option<i64>, String) = sqlx::query_as(
        "SELECT c.daily_budget_micros, c.status FROM asa_campaigns c JOIN sync_orgs o ON o.org_key = c.org_key \
         WHERE o.account_id = $1 AND c.id = $2",
    )
    .bind(&p.account_id).bind(p.campaign).fetch_one(pool).await.unwrap();
    let g: (Option<i64>, Option<i64>, String, i64) = sqlx::query_as(
        "SELECT g.default_bid_micros, g.cpa_goal_micros, g.status, g.automated_keywords_opt_in FROM asa_ad_groups g \
         JOIN sync_orgs o ON o.org_key = g.org_key WHERE o.account_id = $1 AND g.id = $2",
    )
    .bind(&p.account_id).bind(p.group).fetch_one(pool).await.unwrap();
    let k: (Option<i64>, String) = sqlx::query_as(
        "SELECT k.bid_micros, k.status FROM asa_keywords k JOIN sync_orgs o ON o.org_key = k.org_key \
         WHERE o.account_id = $1 AND k.id = $2",
    )
    .bind(&p.account_id).bind(p.keyword).fetch_one(pool).await.unwrap();
    json!({"campaign": [c.0, c.1], "group": [g.0, g.1, g.2, g.3], "keyword": [k.0, k.1]})
}

/// Micros of a sandbox `Money` (`{"amount": "1.50", ...}`), or null.
fn micros(money: &Value) -> Value {
    money["amount"].as_str().map_or(Value::Null, |a| {
        let d: rust_decimal::Decimal = a.parse().unwrap();
        json!(
            rust_decimal::prelude::ToPrimitive::to_i64(
                &(d * rust_decimal::Decimal::from(1_000_000))
            )
            .unwrap()
        )
    })
}

/// What the sandbox holds of the same (money in micros).
async fn theirs(client: &dyn AppleAds, p: &Picked) -> Value {
    let c: Value = client
        .get(p.org_id, Entity::Campaigns, p.campaign)
        .await
        .unwrap();
    let g: Value = client
        .get(p.org_id, Entity::AdGroups, p.group)
        .await
        .unwrap();
    let k: Value = client
        .get(p.org_id, Entity::Keywords, p.keyword)
        .await
        .unwrap();
    json!({
        "campaign": [micros(&c["dailyBudget"]["value"]), c["status"]],
        "group": [micros(&g["bidStrategy"]["bid"]), micros(&g["cpaCap"]["value"]), g["status"], g["automatedKeywordsOptIn"]],
        "keyword": [micros(&k["bid"]), k["status"]],
    })
}

#[tokio::test]
async fn edit_routes_are_documented_with_resolvable_schemas() {
    let app = TestApp::sqlite_with(&[]).await;
    let doc = app.get("/api/openapi.json", None).await.json;
    for (path, body) in [
        ("/api/asa/campaigns/update/{id}", "CampaignEdit"),
        ("/api/asa/groups/updatesV2/{id}", "AdGroupEdit"),
        ("/api/asa/keywords/update/{a}/{b}", "KeywordEdit"),
        ("/api/asa/ads/update/{a}/{b}", "AdEdit"),
        ("/api/asa/keywords/update/negative/{id}", "NegativeEdit"),
    ] {
        let op = &doc["paths"][path]["put"];
        for status in ["200", "400", "401", "403", "404", "429"] {
            assert!(
                op["responses"][status].is_object(),
                "PUT {path} documents {status}"
            );
        }
        assert_eq!(op["tags"], json!(["edits"]));
        let schema = &op["requestBody"]["content"]["application/json"]["schema"]["$ref"];
        assert_eq!(
            schema,
            &json!(format!("#/components/schemas/{body}")),
            "PUT {path}"
        );
    }
    let text = doc.to_string();
    for r in text.split("\"$ref\":\"").skip(1) {
        let name = r
            .split('"')
            .next()
            .unwrap()
            .trim_start_matches("#/components/schemas/");
        assert!(
            doc["components"]["schemas"][name].is_object(),
            "{name} resolves"
        );
    }
    assert!(doc["components"]["schemas"]["MoneyIn"].is_object());
}

sandbox_tests! {
    async fn quick_edits_apply_at_the_provider_show_at_once_and_are_recorded(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Edited").await;
        let p = pick(&t, &account_id).await;
        let client = client(&t, &account_id).await;
        let writer = t.app.member(&owner, Role::Writer).await;
        let reader = t.app.member(&owner, Role::Reader).await;
        let cur = p.currency.clone();

        // Campaign: daily budget and status.
        let budget = p.budget_micros + 12_340_000;
        let res = t.call(Method::PUT, &campaign_url(&p),
            json!({"dailyBudgetAmount": {"amount": amount(budget), "currency": cur}, "status": "PAUSED"}), &writer).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let item = &res.json["result"]["item"];
        assert_eq!(item["values"]["dailyBudget"]["amount"], amount(budget));
        assert_eq!(item["values"]["status"], "PAUSED");
        assert_eq!(item["changes"].as_array().unwrap().len(), 2, "{item}");
        let row = report_row(&t, &p, &reader, "CAMPAIGNS", "campaignId", p.campaign).await;
        assert_eq!(row["dailyBudget"].to_string().parse::<rust_decimal::Decimal>().unwrap(),
            rust_decimal::Decimal::new(budget, 6), "{row}");
        assert_eq!(row["campaignStatus"], "PAUSED", "{row}");
        let c: Value = client.get(p.org_id, Entity::Campaigns, p.campaign).await.unwrap();
        assert_eq!((micros(&c["dailyBudget"]["value"]), c["status"].as_str()), (json!(budget), Some("PAUSED")));

        // Ad group: default bid, CPA goal, Search Match, status (one request).
        let bid = p.group_bid_micros + 50_000;
        let res = t.call(Method::PUT, &group_url(&p),
            json!({"adGroupId": p.group, "defaultBidAmount": amount(bid), "cpaGoal": 3.5,
                   "automatedKeywordsOptIn": false, "status": "PAUSED"}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let values = &res.json["result"]["item"]["values"];
        assert_eq!((values["defaultBidAmount"]["amount"].as_str(), values["cpaGoal"]["amount"].as_str()), (Some(amount(bid).as_str()), Some("3.5")));
        let row = report_row(&t, &p, &reader, "GROUPS", "adGroupId", p.group).await;
        assert_eq!(row["defaultBidAmount"].to_string().parse::<rust_decimal::Decimal>().unwrap(), rust_decimal::Decimal::new(bid, 6), "{row}");
        assert_eq!(row["cpaGoal"], 3.5, "{row}");
        assert_eq!(row["automatedKeywordsOptIn"], false, "{row}");
        assert_eq!(row["adGroupStatus"], "PAUSED", "{row}");

        // Keyword: bid and status.
        let kbid = p.keyword_bid_micros + 1_010_000;
        let res = t.call(Method::PUT, &keyword_url(&p),
            json!({"keywordId": p.keyword, "cptBid": {"amount": amount(kbid), "currency": cur}, "status": "PAUSED"}), &writer).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let row = report_row(&t, &p, &reader, "KEYWORDS", "keywordId", p.keyword).await;
        assert_eq!(row["cptBid"].to_string().parse::<rust_decimal::Decimal>().unwrap(), rust_decimal::Decimal::new(kbid, 6), "{row}");
        assert_eq!(row["keywordStatus"], "PAUSED", "{row}");

        // Our rows and the sandbox's entities agree.
        let ours_now = ours(&t, &p).await;
        assert_eq!(ours_now["campaign"], json!([budget, "PAUSED"]));
        assert_eq!(ours_now["group"], json!([bid, 3_500_000, "PAUSED", 0]));
        assert_eq!(ours_now["keyword"], json!([kbid, "PAUSED"]));
        let sandbox = theirs(client.as_ref(), &p).await;
        assert_eq!(sandbox["campaign"], json!([budget, "PAUSED"]));
        assert_eq!(sandbox["group"], json!([bid, 3_500_000, "PAUSED", false]));
        assert_eq!(sandbox["keyword"], json!([kbid, "PAUSED"]));

        // One change record per changed field, with who, where, old and new value.
        let rows = records(&t, &owner).await;
        let mut fields: Vec<(String, i64, String)> = rows.iter().map(|r| (r.level.to_string(), r.entity_id, r.field.clone())).collect();
        fields.sort();
        let mut want = vec![
            ("AD_GROUP".to_string(), p.group, "automatedKeywordsOptIn".to_string()),
            ("AD_GROUP".into(), p.group, "cpaGoal".into()),
            ("AD_GROUP".into(), p.group, "defaultBidAmount".into()),
            ("AD_GROUP".into(), p.group, "status".into()),
            ("CAMPAIGN".into(), p.campaign, "dailyBudget".into()),
            ("CAMPAIGN".into(), p.campaign, "status".into()),
            ("KEYWORD".into(), p.keyword, "cptBid".into()),
            ("KEYWORD".into(), p.keyword, "status".into()),
        ];
        want.sort();
        assert_eq!(fields, want);
        let budget_row = rows.iter().find(|r| r.field == "dailyBudget").unwrap();
        assert_eq!((budget_row.old_value.clone(), budget_row.new_value.clone()), (Some(amount(p.budget_micros)), Some(amount(budget))));
        assert_eq!(budget_row.currency.as_deref(), Some(cur.as_str()));
        assert_eq!((budget_row.source, budget_row.org_id, budget_row.account_id.as_deref()), (changes::MANUAL, p.org_id, Some(account_id.as_str())));
        assert!(budget_row.user_id.is_some() && budget_row.user_email.is_some());
        let opt_in = rows.iter().find(|r| r.field == "automatedKeywordsOptIn").unwrap();
        assert_eq!((opt_in.old_value.as_deref(), opt_in.new_value.as_deref()), (Some("true"), Some("false")));
        let status = rows.iter().find(|r| r.field == "status" && r.level == "KEYWORD").unwrap();
        assert_eq!((status.old_value.as_deref(), status.new_value.as_deref(), status.campaign_id, status.ad_group_id), (Some("ENABLED"), Some("PAUSED"), p.campaign, Some(p.group)));
        // By entity, for one entity's history.
        let me = t.get("/api/auth/me", &owner).await.json["result"]["item"].clone();
        let of_keyword = changes::list(&t.app.state.db.pool, &changes::Filter {
            workspace_id: me["workspaceId"].as_str().unwrap(), level: Some("KEYWORD"), entity_id: Some(p.keyword), ..Default::default()
        }, 10).await.unwrap();
        assert_eq!(of_keyword.len(), 2);

        // The same values again: nothing to change, nothing sent, nothing recorded.
        let res = t.call(Method::PUT, &keyword_url(&p), json!({"keywordId": p.keyword, "cptBid": amount(kbid), "status": "PAUSED"}), &writer).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["item"]["changes"], json!([]));
        assert_eq!(records(&t, &owner).await.len(), 8);

        // Back on: one more record each.
        let res = t.call(Method::PUT, &campaign_url(&p), json!({"status": "ENABLED"}), &writer).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(report_row(&t, &p, &reader, "CAMPAIGNS", "campaignId", p.campaign).await["campaignStatus"], "ENABLED");
        assert_eq!(records(&t, &owner).await.len(), 9);
    }

    async fn refused_edits_change_nothing(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Edited").await;
        let p = pick(&t, &account_id).await;
        let client = client(&t, &account_id).await;
        let reader = t.app.member(&owner, Role::Reader).await;
        let before = (ours(&t, &p).await, theirs(client.as_ref(), &p).await);
        let digits = MoneyRule::of(Some(&p.currency)).digits;
        assert_eq!(digits, 2);

        // Refused by the sandbox: its message on our field.
        for (url, body, f, says) in [
            (keyword_url(&p), json!({"keywordId": p.keyword, "cptBid": "0.01"}), "cptBid", "at least"),
            (group_url(&p), json!({"adGroupId": p.group, "defaultBidAmount": "0.01"}), "defaultBidAmount", "at least"),
            (campaign_url(&p), json!({"dailyBudgetAmount": "0.5"}), "dailyBudgetAmount", "at least"),
            (group_url(&p), json!({"adGroupId": p.group, "cpaGoal": "0"}), "cpaGoal", "positive"),
        ] {
            let res = t.call(Method::PUT, &url, body.clone(), &owner).await;
            assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, f.to_string()), "{body}: {:?}", res.json);
            assert!(res.json["message"].as_str().unwrap().contains(says), "{body}: {:?}", res.json);
        }
        // Refused by us before anything is sent.
        for (url, body, f, says) in [
            (keyword_url(&p), json!({"keywordId": p.keyword, "cptBid": "1.234"}), "cptBid", "Bid has at most 2 decimals in USD"),
            (keyword_url(&p), json!({"keywordId": p.keyword, "cptBid": "-1"}), "cptBid", "Bid must not be negative"),
            (keyword_url(&p), json!({"keywordId": p.keyword, "cptBid": "abc"}), "cptBid", "Bid must be a number"),
            (keyword_url(&p), json!({"keywordId": p.keyword, "cptBid": {"amount": "1", "currency": "EUR"}}), "cptBid", "Bid must be in USD, the campaign group's currency"),
            (keyword_url(&p), json!({"keywordId": p.keyword, "status": "STOPPED"}), "status", "Must be one of: ENABLED, PAUSED, ACTIVE"),
            // Values are taken exactly as documented: no other case, no spaces.
            (campaign_url(&p), json!({"status": "enabled"}), "status", "Must be one of: ENABLED, PAUSED, ACTIVE"),
            (campaign_url(&p), json!({"status": " ENABLED\t"}), "status", "Must be one of: ENABLED, PAUSED, ACTIVE"),
            (keyword_url(&p), json!({"keywordId": p.keyword, "status": "ACTIVE "}), "status", "Must be one of: ENABLED, PAUSED, ACTIVE"),
            (group_url(&p), json!({"adGroupId": p.group, "status": "Paused"}), "status", "Must be one of: ENABLED, PAUSED, ACTIVE"),
            (keyword_url(&p), json!({"keywordId": p.keyword, "cptBid": {"amount": "1", "currency": "usd"}}), "cptBid", "Bid must be in USD, the campaign group's currency"),
            (keyword_url(&p), json!({"keywordId": p.keyword}), "cptBid", "Choose a value to change"),
            (keyword_url(&p), json!({"cptBid": "1"}), "keywordId", "Please complete this field to continue"),
            (group_url(&p), json!({"adGroupId": p.group, "cpaGoal": "1.001"}), "cpaGoal", "CPA goal has at most 2 decimals in USD"),
            (group_url(&p), json!({"defaultBidAmount": "1"}), "adGroupId", "Please complete this field to continue"),
            (campaign_url(&p), json!({"dailyBudgetAmount": "1e3"}), "dailyBudgetAmount", "Daily budget must be a number"),
        ] {
            let res = t.call(Method::PUT, &url, body.clone(), &owner).await;
            assert_eq!((res.status, field(&res), res.json["errors"][0]["message"].as_str()), (StatusCode::BAD_REQUEST, f.to_string(), Some(says)), "{body}: {:?}", res.json);
        }
        // Readers cannot edit.
        let res = t.call(Method::PUT, &keyword_url(&p), json!({"keywordId": p.keyword, "cptBid": "2"}), &reader).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{:?}", res.json);
        assert_eq!(res.json["message"], "Access restricted");
        // Another workspace's ids are not found, and unknown children neither.
        let stranger = t.owner().await;
        for (url, body) in [
            (campaign_url(&p), json!({"status": "PAUSED"})),
            (group_url(&p), json!({"adGroupId": p.group, "status": "PAUSED"})),
            (keyword_url(&p), json!({"keywordId": p.keyword, "status": "PAUSED"})),
        ] {
            let res = t.call(Method::PUT, &url, body, &stranger).await;
            assert_eq!(res.status, StatusCode::NOT_FOUND, "{url}: {:?}", res.json);
        }
        let res = t.call(Method::PUT, &group_url(&p), json!({"adGroupId": 1, "status": "PAUSED"}), &owner).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);
        let res = t.call(Method::PUT, &keyword_url(&p), json!({"keywordId": 1, "status": "PAUSED"}), &owner).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);

        // Nothing changed anywhere, nothing recorded.
        assert_eq!((ours(&t, &p).await, theirs(client.as_ref(), &p).await), before);
        assert!(records(&t, &owner).await.is_empty());
    }

    async fn ad_and_negative_keyword_statuses_are_quick_edits_over_one_client(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Edited").await;
        let p = pick(&t, &account_id).await;
        let client = client(&t, &account_id).await;
        let pool = &t.app.state.db.pool;
        let reader = t.app.member(&owner, Role::Reader).await;
        let (ad_id, ad_group, ad_campaign): (i64, i64, i64) = sqlx::query_as(
            "SELECT a.id, a.ad_group_id, a.campaign_id FROM asa_ads a JOIN sync_orgs o ON o.org_key = a.org_key \
             WHERE o.account_id = $1 AND a.deleted = 0 AND a.status = 'ENABLED' ORDER BY a.id LIMIT 1")
            .bind(&account_id).fetch_one(pool).await.unwrap();
        let (negative_id, negative_campaign): (i64, i64) = sqlx::query_as(
            "SELECT n.id, n.campaign_id FROM asa_negative_keywords n JOIN sync_orgs o ON o.org_key = n.org_key \
             WHERE o.account_id = $1 AND n.deleted = 0 AND n.status = 'ENABLED' ORDER BY n.id LIMIT 1")
            .bind(&account_id).fetch_one(pool).await.unwrap();
        let ad_url = format!("/api/asa/ads/update/{ad_campaign}/{ad_group}?{}", query(&p));
        let negative_url = format!("/api/asa/keywords/update/negative/{negative_campaign}?{}", query(&p));
        let exchanges = || t.app.state.provider.api.metrics.snapshot().token_exchanges;

        let before = exchanges();
        let res = t.call(Method::PUT, &ad_url, json!({"adId": ad_id, "status": "PAUSED"}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["item"]["values"]["status"], "PAUSED");
        assert_eq!(res.json["result"]["item"]["level"], "AD");
        let after_first = exchanges();
        assert!(after_first - before <= 1, "at most one token exchange for the first edit");
        let res = t.call(Method::PUT, &negative_url, json!({"negativeKeywordId": negative_id, "status": "PAUSED"}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["item"]["values"]["status"], "PAUSED");
        // The connection's client (and its token) is reused: no exchange per edit.
        assert_eq!(exchanges(), after_first, "the second edit reuses the connection's token");

        // Applied at the sandbox and stored here, with a change record each.
        let ad: Value = client.get(p.org_id, Entity::Ads, ad_id).await.unwrap();
        assert_eq!(ad["status"], "PAUSED");
        let negative: Value = client.get(p.org_id, Entity::NegativeKeywords, negative_id).await.unwrap();
        assert_eq!(negative["status"], "PAUSED");
        let ours_ad: String = sqlx::query_scalar("SELECT a.status FROM asa_ads a JOIN sync_orgs o ON o.org_key = a.org_key WHERE o.account_id = $1 AND a.id = $2")
            .bind(&account_id).bind(ad_id).fetch_one(pool).await.unwrap();
        let ours_negative: String = sqlx::query_scalar("SELECT n.status FROM asa_negative_keywords n JOIN sync_orgs o ON o.org_key = n.org_key WHERE o.account_id = $1 AND n.id = $2")
            .bind(&account_id).bind(negative_id).fetch_one(pool).await.unwrap();
        assert_eq!((ours_ad.as_str(), ours_negative.as_str()), ("PAUSED", "PAUSED"));
        let mut rows: Vec<Recorded> = records(&t, &owner).await.into_iter()
            .map(|r| (r.level.to_string(), r.entity_id, r.field, r.old_value, r.new_value)).collect();
        rows.sort();
        assert_eq!(rows, vec![
            ("AD".to_string(), ad_id, "status".to_string(), Some("ENABLED".to_string()), Some("PAUSED".to_string())),
            ("NEGATIVE_KEYWORD".to_string(), negative_id, "status".to_string(), Some("ENABLED".to_string()), Some("PAUSED".to_string())),
        ]);

        // The same status again: nothing sent, nothing recorded.
        let res = t.call(Method::PUT, &ad_url, json!({"adId": ad_id, "status": "PAUSED"}), &owner).await;
        assert_eq!((res.status, res.json["result"]["item"]["changes"].clone()), (StatusCode::OK, json!([])));
        // Bad input, readers, unknown and foreign ids.
        for (url, body, f, says) in [
            (&ad_url, json!({"adId": ad_id, "status": "STOPPED"}), "status", "Must be one of: ENABLED, PAUSED, ACTIVE"),
            (&ad_url, json!({"adId": ad_id}), "status", "Please complete this field to continue"),
            (&ad_url, json!({"status": "PAUSED"}), "adId", "Please complete this field to continue"),
            (&negative_url, json!({"status": "PAUSED"}), "negativeKeywordId", "Please complete this field to continue"),
        ] {
            let res = t.call(Method::PUT, url, body.clone(), &owner).await;
            assert_eq!((res.status, field(&res), res.json["errors"][0]["message"].as_str()), (StatusCode::BAD_REQUEST, f.to_string(), Some(says)), "{body}: {:?}", res.json);
        }
        let res = t.call(Method::PUT, &ad_url, json!({"adId": ad_id, "status": "ENABLED"}), &reader).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{:?}", res.json);
        let res = t.call(Method::PUT, &ad_url, json!({"adId": 1, "status": "ENABLED"}), &owner).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);
        let res = t.call(Method::PUT, &negative_url, json!({"negativeKeywordId": 1, "status": "ENABLED"}), &owner).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);
        let stranger = t.owner().await;
        let res = t.call(Method::PUT, &negative_url, json!({"negativeKeywordId": negative_id, "status": "ENABLED"}), &stranger).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);
        assert_eq!(records(&t, &owner).await.len(), 2);
    }

    async fn a_raised_bid_shows_in_the_sandboxs_next_day_metrics(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Edited").await;
        let p = pick(&t, &account_id).await;
        // A control sandbox: the same seeded world, where nothing is raised.
        let control_base = start_sandbox().await;
        let control = control_client(&t, &control_base).await;
        let ours = client(&t, &account_id).await;
        // Both clocks stand still on the same day.
        let mut today = String::new();
        for base in [&t.sandbox, &control_base] {
            let clock: Value = t.http.put(format!("{base}/sandbox/clock")).json(&json!({"running": false}))
                .send().await.unwrap().json().await.unwrap();
            let day = clock["today"].as_str().unwrap().to_string();
            assert!(today.is_empty() || today == day, "both sandboxes on one day");
            today = day;
        }
        // The enabled keywords of the picked ad group, with their bids.
        let keywords: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT k.id, k.bid_micros FROM asa_keywords k JOIN sync_orgs o ON o.org_key = k.org_key \
             WHERE o.account_id = $1 AND k.ad_group_id = $2 AND k.deleted = 0 AND k.status = 'ENABLED' \
               AND k.bid_micros IS NOT NULL ORDER BY k.id LIMIT 20")
            .bind(&account_id).bind(p.group).fetch_all(&t.app.state.db.pool).await.unwrap();
        assert!(!keywords.is_empty());
        // A budget no day can spend, in both worlds, so only the bids differ.
        for c in [ours.as_ref(), &control as &dyn AppleAds] {
            let _: Value = c.update(p.org_id, Entity::Campaigns, p.campaign,
                &json!({"dailyBudget": {"value": {"amount": "100000", "currency": p.currency}}})).await.unwrap();
        }
        // Triple every bid through the quick edit (the new bids serve from the next day).
        for (id, bid) in &keywords {
            let res = t.call(Method::PUT, &format!("/api/asa/keywords/update/{}/{}?{}", p.campaign, p.group, query(&p)),
                json!({"keywordId": id, "cptBid": amount(bid * 3)}), &owner).await;
            assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        }
        // Two days later, the day after the edit is complete in both worlds.
        for base in [&t.sandbox, &control_base] {
            let res = t.http.put(format!("{base}/sandbox/clock")).json(&json!({"advanceDays": 2, "running": false})).send().await.unwrap();
            assert!(res.status().is_success());
        }
        let next_day = (time::Date::parse(&today, &time::format_description::well_known::Iso8601::DATE).unwrap()
            + time::Duration::days(1)).to_string();
        let raised = keyword_day(ours.as_ref(), &p, &next_day).await;
        let unraised = keyword_day(&control, &p, &next_day).await;
        let ids: Vec<i64> = keywords.iter().map(|k| k.0).collect();
        let sum = |m: &std::collections::HashMap<i64, (i64, i64)>, f: fn(&(i64, i64)) -> i64| -> i64 {
            ids.iter().filter_map(|id| m.get(id)).map(f).sum()
        };
        let (raised_impr, unraised_impr) = (sum(&raised, |v| v.0), sum(&unraised, |v| v.0));
        let (raised_spend, unraised_spend) = (sum(&raised, |v| v.1), sum(&unraised, |v| v.1));
        eprintln!("next day of {} keywords: impressions {unraised_impr} → {raised_impr}, spend {unraised_spend} → {raised_spend} micros", ids.len());
        assert!(unraised_impr > 0, "the keywords serve: {unraised:?}");
        assert!(raised_impr > unraised_impr, "more impressions with the raise: {raised:?} vs {unraised:?}");
        assert!(raised_spend > unraised_spend, "more spend with the raise");
        // The busiest keyword alone shows it too.
        let busiest = *ids.iter().max_by_key(|id| unraised.get(id).map_or(0, |v| v.0)).unwrap();
        assert!(raised[&busiest].0 > unraised[&busiest].0, "keyword {busiest}: {:?} vs {:?}", raised[&busiest], unraised[&busiest]);
        // Diminishing returns: three times the bid does not triple the impressions.
        assert!(raised_impr < unraised_impr * 3, "{raised_impr} vs {unraised_impr}");
    }
}

/// A change record as (level, entity id, field, old value, new value).
type Recorded = (String, i64, String, Option<String>, Option<String>);

/// A provider client of a sandbox for a freshly registered key (the control world).
async fn control_client(t: &Connected, base: &str) -> Client {
    let key = searchdeck_provider::KeyPair::generate();
    let ids: Value = t
        .http
        .post(format!("{base}/sandbox/keys"))
        .body(key.public_pem())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let field = |k: &str| ids[k].as_str().unwrap().to_string();
    Client::new(
        searchdeck_provider::ClientConfig::sandbox(base),
        searchdeck_provider::Credentials::ClientCredentials {
            client_id: field("clientId"),
            team_id: field("teamId"),
            key_id: field("keyId"),
            key,
        },
    )
    .unwrap()
}

/// Impressions and spend (micros) of each keyword of the picked campaign on `day`.
async fn keyword_day(
    client: &dyn AppleAds,
    p: &Picked,
    day: &str,
) -> std::collections::HashMap<i64, (i64, i64)> {
    let request = json!({
        "timeRange": {"start": day, "end": day, "timeZone": "ORTZ"},
        "fields": ["impressions", "localSpend"],
        "filters": [{"field": "campaignId", "operator": "IN", "value": [p.campaign]}],
        "sorting": [{"field": "id", "order": "ASC"}],
        "pagination": {"offset": 0, "pageSize": 1000},
    });
    let page = client.report(p.org_id, "keywords", &request).await.unwrap();
    page.items
        .iter()
        .filter_map(|row| {
            let meta = &row["metadata"]["id"];
            let id = meta
                .as_i64()
                .or_else(|| meta.as_str().and_then(|s| s.parse().ok()))?;
            let m = &row["totalMetrics"];
            let spend = m["localSpend"]["amount"]
                .as_str()
                .and_then(|a| a.parse::<rust_decimal::Decimal>().ok())
                .and_then(|d| {
                    rust_decimal::prelude::ToPrimitive::to_i64(
                        &(d * rust_decimal::Decimal::from(1_000_000)),
                    )
                })
                .unwrap_or(0);
            Some((id, (m["impressions"].as_i64().unwrap_or(0), spend)))
        })
        .collect()
}

/// A sandbox kept in `dir` (as `searchdeck serve` keeps it in its data dir), served on
/// `addr` until the returned sender fires.
async fn serve_kept(
    dir: &std::path::Path,
    addr: std::net::SocketAddr,
) -> (
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let sandbox = searchdeck_sandbox::Sandbox::open(searchdeck_sandbox::SandboxConfig {
        data_dir: Some(dir.to_path_buf()),
        ..searchdeck_sandbox::SandboxConfig::default()
    })
    .unwrap();
    let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let app = searchdeck_sandbox::app(sandbox);
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                stopped.await.ok();
            })
            .await
            .unwrap();
    });
    (stop, task)
}

/// Connect by key pair and by popup, restart the sandbox, then sync and edit: registered
/// keys and refresh tokens are kept across the restart, so both connections exchange new
/// access tokens (before, 'unknown client_id' and 'unknown refresh token').
async fn connections_survive_a_sandbox_restart(backend: crate::common::TestBackend) {
    let dir = tempfile::tempdir().unwrap();
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let base = format!("http://{addr}");
    let (stop, task) = serve_kept(dir.path(), addr).await;
    let Some(app) = TestApp::on_with(backend, &args(&base)).await else {
        return;
    };
    let t = Connected::new(app, base);
    let key_owner = t.owner().await;
    let key_account = t.connect_until_entities_synced(&key_owner, "Edited").await;
    let p = pick(&t, &key_account).await;
    let popup_owner = t.owner().await;
    let back = t.consent(&popup_owner, "Popup", "allow").await;
    let res = t.oauth(&popup_owner, &back).await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    let popup_account = res.json["result"]["accountId"]
        .as_str()
        .unwrap()
        .to_string();

    stop.send(()).unwrap();
    task.await.unwrap();
    let (stop, task) = serve_kept(dir.path(), addr).await;

    // The key-pair connection edits (its cached access token is unknown now: one refresh).
    let res = t
        .call(
            Method::PUT,
            &campaign_url(&p),
            json!({"status": "PAUSED"}),
            &key_owner,
        )
        .await;
    assert_eq!(
        res.status,
        StatusCode::OK,
        "an edit after the restart: {:?}",
        res.json
    );
    assert_eq!(res.json["result"]["item"]["values"]["status"], "PAUSED");
    // The popup connection's sync (queued at connect, perhaps cut by the restart) completes.
    let mut synced = false;
    for _ in 0..2400 {
        let (done, failed): (i64, Option<String>) = sqlx::query_as(
            "SELECT finish, error FROM tasks WHERE kind = 'sync-account' AND account_id = $1 ORDER BY created_at DESC LIMIT 1",
        )
        .bind(&popup_account)
        .fetch_optional(&t.app.state.db.pool)
        .await
        .unwrap()
        .unwrap_or((0, None));
        assert!(
            failed.is_none(),
            "the popup connection's sync failed: {failed:?}"
        );
        if done == 1 {
            synced = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert!(synced, "the popup connection's sync did not complete");
    for (owner, account) in [(&key_owner, &key_account), (&popup_owner, &popup_account)] {
        let res = t
            .get(
                &format!("/api/asa/getAccountData?accountId={account}"),
                owner,
            )
            .await;
        assert_eq!(
            res.status,
            StatusCode::OK,
            "{account} after the restart: {:?}",
            res.json
        );
    }
    stop.send(()).unwrap();
    task.await.unwrap();
}

#[tokio::test]
async fn connections_survive_a_sandbox_restart_sqlite() {
    connections_survive_a_sandbox_restart(crate::common::TestBackend::Sqlite).await;
}

#[tokio::test]
async fn connections_survive_a_sandbox_restart_postgres() {
    connections_survive_a_sandbox_restart(crate::common::TestBackend::Postgres).await;
}
