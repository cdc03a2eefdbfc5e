//! Quick edits that Apple accepts: applied at the sandbox, shown at once in our reports and
//! recorded once per changed field; statuses of ads and negative keywords over one client.

use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use searchdeck_common::store::changes;
use searchdeck_provider::{AppleAdsExt, Entity};
use serde_json::{Value, json};

use super::{
    amount, campaign_url, client, field, group_url, keyword_url, micros, ours, pick, query,
    records, report_row, theirs,
};
use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};

/// A change record as (level, entity id, field, old value, new value).
type Recorded = (String, i64, String, Option<String>, Option<String>);

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
}
