//! Bulk edits of campaigns and ad groups (one Apple call each), every ad group of several
//! campaigns, renames by part of a name, negative keywords at both levels and deletions of
//! each kind, with their change records.

use axum::http::{Method, StatusCode};
use searchdeck_common::store::changes;
use searchdeck_provider::{AppleAdsExt, Entity};
use serde_json::{Value, json};

use super::{client, completed, money_micros, pick, raised};
use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};

sandbox_tests! {
    async fn campaigns_and_ad_groups_are_edited_one_by_one(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Bulk").await;
        let p = pick(&t, &account_id).await;
        let client = client(&t, &account_id).await;
        let pool = &t.app.state.db.pool;
        let groups: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT id, default_bid_micros FROM asa_ad_groups WHERE org_key = $1 AND campaign_id = $2 AND deleted = 0 AND default_bid_micros IS NOT NULL ORDER BY id")
            .bind(p.org_key).bind(p.campaign).fetch_all(pool).await.unwrap();
        assert!(!groups.is_empty());
        let ids: Vec<i64> = groups.iter().map(|g| g.0).collect();
        let res = t.call(Method::PUT, &format!("/api/asa/groups/updates/{}?accountId={}&orgId={}", p.campaign, p.account_id, p.org_id),
            json!({"adGroupIds": ids, "field": "defaultBidAmount", "action": "raise", "value": "0.25", "cap": "100"}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let task = t.task_finished(&owner, res.json["result"]["item"]["taskId"].as_str().unwrap()).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(groups.len() as u64), "{task}");
        for (id, old) in &groups {
            let g: Value = client.get(p.org_id, Entity::AdGroups, *id).await.unwrap();
            assert_eq!(money_micros(&g["bidStrategy"]["bid"]), (old + 250_000).min(100_000_000), "ad group {id}");
        }
        let res = t.call(Method::PUT, &format!("/api/asa/campaigns/updates?accountId={}&orgId={}", p.account_id, p.org_id),
            json!({"campaignIds": [p.campaign], "action": "pause"}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let task = t.task_finished(&owner, res.json["result"]["item"]["taskId"].as_str().unwrap()).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(1), "{task}");
        let c: Value = client.get(p.org_id, Entity::Campaigns, p.campaign).await.unwrap();
        assert_eq!(c["status"], "PAUSED");
        let status: String = sqlx::query_scalar("SELECT status FROM asa_campaigns WHERE org_key = $1 AND id = $2")
            .bind(p.org_key).bind(p.campaign).fetch_one(pool).await.unwrap();
        assert_eq!(status, "PAUSED");
    }

    async fn ad_groups_of_campaigns_renames_negatives_and_deletions(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Bulk").await;
        let p = pick(&t, &account_id).await;
        let client = client(&t, &account_id).await;
        let pool = &t.app.state.db.pool;
        let q = format!("accountId={}&orgId={}", p.account_id, p.org_id);
        let other: i64 = sqlx::query_scalar(
            "SELECT id FROM asa_campaigns WHERE org_key = $1 AND deleted = 0 AND id <> $2 ORDER BY id LIMIT 1")
            .bind(p.org_key).bind(p.campaign).fetch_one(pool).await.unwrap();

        // Every ad group of two campaigns, raised by 10 % once.
        let groups: Vec<(i64, i64, i64)> = sqlx::query_as(
            "SELECT id, campaign_id, default_bid_micros FROM asa_ad_groups WHERE org_key = $1 AND campaign_id IN ($2, $3) \
             AND deleted = 0 AND default_bid_micros IS NOT NULL ORDER BY id")
            .bind(p.org_key).bind(p.campaign).bind(other).fetch_all(pool).await.unwrap();
        assert!(groups.iter().any(|g| g.1 == other) && groups.iter().any(|g| g.1 == p.campaign));
        let task = completed(&t, &owner, t.call(Method::PUT, &format!("/api/asa/groups/updatesAllGroupsByCampaigns?{q}"),
            json!({"campaignIds": [p.campaign, other], "field": "defaultBidAmount", "action": "raise", "percent": 10}), &owner).await).await;
        assert_eq!((task["details"]["applied"].as_u64(), task["details"]["total"].as_u64()), (Some(groups.len() as u64), Some(groups.len() as u64)), "{task}");
        for (id, _, old) in &groups {
            let g: Value = client.get(p.org_id, Entity::AdGroups, *id).await.unwrap();
            assert_eq!(money_micros(&g["bidStrategy"]["bid"]), raised(*old), "ad group {id}");
        }

        // Renames: part of a campaign's name, then of an ad group's.
        let name: String = sqlx::query_scalar("SELECT name FROM asa_campaigns WHERE org_key = $1 AND id = $2")
            .bind(p.org_key).bind(p.campaign).fetch_one(pool).await.unwrap();
        let find = name.split_whitespace().next().unwrap().to_string();
        let want = name.replace(&find, "Renamed").trim().to_string();
        let rename = format!("/api/asa/campaigns/replacePartName?{q}");
        let task = completed(&t, &owner, t.call(Method::PATCH, &rename, json!({"ids": [p.campaign], "find": find, "replace": "Renamed"}), &owner).await).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(1), "{task}");
        let c: Value = client.get(p.org_id, Entity::Campaigns, p.campaign).await.unwrap();
        assert_eq!(c["name"], want.as_str());
        let ours: String = sqlx::query_scalar("SELECT name FROM asa_campaigns WHERE org_key = $1 AND id = $2")
            .bind(p.org_key).bind(p.campaign).fetch_one(pool).await.unwrap();
        assert_eq!(ours, want);
        let (group, _, _) = groups[0];
        let group_name: String = sqlx::query_scalar("SELECT name FROM asa_ad_groups WHERE org_key = $1 AND id = $2")
            .bind(p.org_key).bind(group).fetch_one(pool).await.unwrap();
        let group_campaign = groups[0].1;
        let task = completed(&t, &owner, t.call(Method::PATCH, &rename, json!({"level": "AD_GROUP", "campaignId": group_campaign, "ids": [group],
            "find": group_name.clone(), "replace": format!("{group_name} (new)")}), &owner).await).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(1), "{task}");
        let g: Value = client.get(p.org_id, Entity::AdGroups, group).await.unwrap();
        assert_eq!(g["name"], format!("{group_name} (new)"));
        // Bad renames are refused before anything is queued.
        for (body, field, says) in [
            (json!({"ids": [p.campaign], "find": find, "replace": "x"}), "find", "None of the selected names contains this text"),
            (json!({"ids": [p.campaign], "find": "Renamed", "replace": "x".repeat(300)}), "replace", "would be longer than 200 characters"),
            (json!({"ids": [p.campaign], "find": want, "replace": " "}), "replace", "would be empty"),
            (json!({"ids": [p.campaign], "replace": "x"}), "find", "Please complete this field to continue"),
            (json!({"level": "AD_GROUP", "ids": [group], "find": "a", "replace": "b"}), "campaignId", "Please complete this field to continue"),
            (json!({"level": "KEYWORD", "ids": [group], "find": "a", "replace": "b"}), "level", "Level must be CAMPAIGN or AD_GROUP"),
        ] {
            let res = t.call(Method::PATCH, &rename, body.clone(), &owner).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST, "{body}: {:?}", res.json);
            assert_eq!(res.json["errors"][0]["field"], field, "{body}: {:?}", res.json);
            assert!(res.json["errors"][0]["message"].as_str().unwrap().contains(says), "{body}: {:?}", res.json);
        }

        // Negatives: campaign level (cleaned texts, once), then ad group level.
        let add = format!("/api/asa/keywords/add/negative?{q}");
        let body = json!({"campaignIds": [p.campaign], "texts": "Free Stuff!\nfree stuff\n\ncheap app", "matchType": "exact"});
        let task = completed(&t, &owner, t.call(Method::PUT, &add, body.clone(), &owner).await).await;
        assert_eq!((task["details"]["applied"].as_u64(), task["details"]["total"].as_u64()), (Some(2), Some(2)), "{task}");
        let added: Vec<(i64, String, Option<i64>)> = sqlx::query_as(
            "SELECT id, text, ad_group_id FROM asa_negative_keywords WHERE org_key = $1 AND campaign_id = $2 AND deleted = 0 \
             AND text IN ('free stuff', 'cheap app') ORDER BY text")
            .bind(p.org_key).bind(p.campaign).fetch_all(pool).await.unwrap();
        assert_eq!(added.iter().map(|a| (a.1.as_str(), a.2)).collect::<Vec<_>>(), vec![("cheap app", None), ("free stuff", None)]);
        for (id, text, _) in &added {
            let n: Value = client.get(p.org_id, Entity::NegativeKeywords, *id).await.unwrap();
            assert_eq!((n["text"].as_str(), n["campaignId"].as_i64(), n["matchType"].as_str()), (Some(text.as_str()), Some(p.campaign), Some("EXACT")));
        }
        let task = completed(&t, &owner, t.call(Method::PUT, &add, body, &owner).await).await;
        assert_eq!((task["details"]["applied"].as_u64(), task["details"]["skipped"].as_u64()), (Some(0), Some(2)), "already there: {task}");
        let task = completed(&t, &owner, t.call(Method::PUT, &format!("/api/asa/keywords/add/negative/{group_campaign}?{q}"),
            json!({"adGroupIds": [group], "texts": ["cheap app"], "matchType": "BROAD"}), &owner).await).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(1), "{task}");
        let at_group: i64 = sqlx::query_scalar("SELECT id FROM asa_negative_keywords WHERE org_key = $1 AND ad_group_id = $2 AND text = 'cheap app' AND deleted = 0")
            .bind(p.org_key).bind(group).fetch_one(pool).await.unwrap();
        for (body, field) in [
            (json!({"campaignIds": [p.campaign], "texts": ["!!"]}), "texts"),
            (json!({"campaignIds": [p.campaign], "texts": ["a"], "matchType": "PHRASE"}), "matchType"),
            (json!({"campaignIds": [p.campaign], "texts": ["x".repeat(81)]}), "texts"),
            (json!({"texts": ["a"]}), "campaignIds"),
        ] {
            let res = t.call(Method::PUT, &add, body.clone(), &owner).await;
            assert_eq!((res.status, res.json["errors"][0]["field"].as_str()), (StatusCode::BAD_REQUEST, Some(field)), "{body}: {:?}", res.json);
        }

        // Deletions: keywords, negatives, an ad group, a campaign; each once.
        let del = |path: &str| format!("/api/asa/{path}?{q}");
        let kws: Vec<i64> = p.keywords.iter().take(2).map(|k| k.0).collect();
        let task = completed(&t, &owner, t.call(Method::DELETE, &del("keywords"), json!({"campaignId": p.campaign, "keywordIds": kws}), &owner).await).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(2), "{task}");
        let res = t.call(Method::DELETE, &del("keywords"), json!({"campaignId": p.campaign, "keywordIds": kws}), &owner).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "already deleted here: {:?}", res.json);
        let negatives: Vec<i64> = added.iter().map(|a| a.0).collect();
        let task = completed(&t, &owner, t.call(Method::DELETE, &del("keywords"), json!({"campaignId": p.campaign, "negativeKeywordIds": negatives}), &owner).await).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(2), "{task}");
        let res = t.call(Method::DELETE, &del("keywords"), json!({"campaignId": p.campaign, "ids": kws, "negativeKeywordIds": [at_group]}), &owner).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
        let other_groups: Vec<i64> = groups.iter().filter(|g| g.1 == other).map(|g| g.0).collect();
        let task = completed(&t, &owner, t.call(Method::DELETE, &del("groups"), json!({"campaignId": other, "adGroupIds": other_groups}), &owner).await).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(other_groups.len() as u64), "{task}");
        let task = completed(&t, &owner, t.call(Method::DELETE, &del("campaigns"), json!({"campaignIds": [other]}), &owner).await).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(1), "{task}");
        // Gone at the sandbox and marked deleted here.
        for (entity, id) in kws.iter().map(|k| (Entity::Keywords, *k)).chain(negatives.iter().map(|n| (Entity::NegativeKeywords, *n)))
            .chain(other_groups.iter().map(|g| (Entity::AdGroups, *g))).chain([(Entity::Campaigns, other)]) {
            let gone = match client.get::<Value>(p.org_id, entity, id).await {
                Ok(v) => v["deleted"] == true,
                Err(e) => matches!(e, searchdeck_provider::ProviderError::Permanent { status: 404, .. }) || e.has_detail("ENTITY_DELETED"),
            };
            assert!(gone, "{entity:?} {id} deleted at the sandbox");
        }
        let deleted: i64 = sqlx::query_scalar(
            "SELECT (SELECT COUNT(*) FROM asa_keywords WHERE org_key = $1 AND deleted = 1) \
             + (SELECT COUNT(*) FROM asa_negative_keywords WHERE org_key = $1 AND deleted = 1) \
             + (SELECT COUNT(*) FROM asa_ad_groups WHERE org_key = $1 AND deleted = 1) \
             + (SELECT COUNT(*) FROM asa_campaigns WHERE org_key = $1 AND deleted = 1)")
            .bind(p.org_key).fetch_one(pool).await.unwrap();
        assert!(deleted >= (2 + 2 + other_groups.len() + 1) as i64);
        // Change records: one per applied item and field.
        let me = t.get("/api/auth/me", &owner).await.json["result"]["item"].clone();
        let all = changes::list(pool, &changes::Filter { workspace_id: me["workspaceId"].as_str().unwrap(), ..Default::default() }, 10_000).await.unwrap();
        let count = |f: &str| all.iter().filter(|r| r.field == f).count();
        assert_eq!(count("defaultBidAmount"), groups.len());
        assert_eq!(count("name"), 2);
        assert_eq!(count("created"), 3);
        assert_eq!(count("deleted"), 2 + 2 + other_groups.len() + 1);
        let rename_record = all.iter().find(|r| r.field == "name" && r.level == "CAMPAIGN").unwrap();
        assert_eq!((rename_record.old_value.as_deref(), rename_record.new_value.as_deref()), (Some(name.as_str()), Some(want.as_str())));
    }
}
