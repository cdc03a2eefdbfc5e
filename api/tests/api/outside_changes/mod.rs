//! Changes made outside Searchdeck (issue 25; docs/api/activity.md): against the in-process
//! sandbox, on SQLite and PostgreSQL, a keyword bid changed directly on the sandbox's API
//! (with the connection's own key, not through Searchdeck) and a campaign paused in Apple's
//! UI (the sandbox's stand-in) each show once after the next sync, as an `apple_ads`
//! notification with the right old and new values and who made it; an ad group bid changed by
//! a quick edit through Searchdeck in between is not listed a second time; and a further sync
//! writes nothing new.

use std::{sync::Arc, time::Duration};

use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};
use axum::http::{Method, StatusCode};
use searchdeck_common::store;
use searchdeck_provider::{AppleAds, Entity};
use serde_json::json;

/// A live keyword with a bid, its ad group with a default bid and its campaign, of a USD
/// campaign group: (org id, campaign, group, group bid, keyword, keyword bid, keyword text).
async fn pick(t: &Connected, account_id: &str) -> (i64, i64, i64, i64, i64, i64, String) {
    sqlx::query_as(
        "SELECT o.org_id, c.id, g.id, g.default_bid_micros, k.id, k.bid_micros, k.text \
         FROM asa_keywords k JOIN asa_ad_groups g ON g.org_key = k.org_key AND g.id = k.ad_group_id \
         JOIN asa_campaigns c ON c.org_key = k.org_key AND c.id = k.campaign_id \
         JOIN sync_orgs o ON o.org_key = k.org_key \
         WHERE o.account_id = $1 AND k.deleted = 0 AND g.deleted = 0 AND c.deleted = 0 \
           AND c.status = 'ENABLED' AND k.bid_micros IS NOT NULL \
           AND g.default_bid_micros IS NOT NULL AND o.currency = 'USD' \
         ORDER BY k.id LIMIT 1",
    )
    .bind(account_id)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap()
}

async fn client(t: &Connected, account_id: &str) -> Arc<dyn AppleAds> {
    let row = store::accounts::by_id(&t.app.state.db.pool, account_id)
        .await
        .unwrap()
        .unwrap();
    t.app.state.provider.client_of(&row).unwrap()
}

fn amount(micros: i64) -> String {
    rust_decimal::Decimal::new(micros, 6)
        .normalize()
        .to_string()
}

/// Queues an entity sync of the connection and waits until its task finished cleanly.
async fn sync(t: &Connected, account_id: &str) {
    let task = searchdeck_workers::sandbox_account::queue_sync(
        &t.app.state.db,
        &t.app.state.queue,
        account_id,
    )
    .await
    .unwrap();
    for _ in 0..2400 {
        let (done, failed): (i64, Option<String>) =
            sqlx::query_as("SELECT finish, error FROM tasks WHERE id = $1")
                .bind(&task)
                .fetch_one(&t.app.state.db.pool)
                .await
                .unwrap();
        assert!(failed.is_none(), "the sync failed: {failed:?}");
        if done == 1 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("the sync did not finish within 10 minutes");
}

/// A notification from Apple's history: (key, title, action, target, email, source name).
type Outside = (String, String, String, String, Option<String>, String);

/// The connection's notifications from Apple's history, oldest first.
async fn outside(t: &Connected, account_id: &str) -> Vec<Outside> {
    sqlx::query_as(
        "SELECT key, title, action, target, email, source_name FROM notifications \
         WHERE account_id = $1 AND source = 'apple_ads' ORDER BY created_at, seq",
    )
    .bind(account_id)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap()
}

/// Old, new, currency and email of a change record.
type Values = (
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// A change record: (level, entity, field, values, from Apple's history).
type Record = (String, i64, String, Values, bool);

/// A change record as read: level, entity, field, old, new, currency, email, source.
type Stored = (
    String,
    i64,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// Every change record of the connection, oldest first.
async fn records(t: &Connected, account_id: &str) -> Vec<Record> {
    let rows: Vec<Stored> =
        sqlx::query_as(
            "SELECT c.level, c.entity_id, c.field, c.old_value, c.new_value, c.currency, c.user_email, \
               n.source FROM change_records c LEFT JOIN notifications n ON n.id = c.notification_id \
             WHERE c.account_id = $1 ORDER BY c.created_at, c.level, c.field",
        )
        .bind(account_id)
        .fetch_all(&t.app.state.db.pool)
        .await
        .unwrap();
    rows.into_iter()
        .map(|r| {
            (
                r.0,
                r.1,
                r.2,
                (r.3, r.4, r.5, r.6),
                r.7.as_deref() == Some("apple_ads"),
            )
        })
        .collect()
}

sandbox_tests! {
    async fn outside_changes_show_once_and_ours_are_not_repeated(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Outside").await;
        let (org_id, campaign, group, group_bid, keyword, keyword_bid, text) = pick(&t, &account_id).await;
        assert!(outside(&t, &account_id).await.is_empty(), "nothing happened outside yet");
        let client = client(&t, &account_id).await;
        let key_client_id: String = sqlx::query_scalar("SELECT client_id FROM accounts WHERE id = $1")
            .bind(&account_id)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();

        // Directly on the sandbox's API, not through Searchdeck: a keyword's bid.
        let new_bid = keyword_bid + 1_250_000;
        client
            .update_json(org_id, Entity::Keywords, keyword, &json!({"bid": {"amount": amount(new_bid), "currency": "USD"}}))
            .await
            .unwrap();
        // In Apple's UI: the campaign paused.
        let ui = t
            .http
            .put(format!("{}/sandbox/ui/v1/campaigns/{campaign}", t.sandbox))
            .header("x-ap-context", format!("adAccountId={org_id}"))
            .header("x-sandbox-user", "ann@example.com")
            .json(&json!({"status": "PAUSED"}))
            .send()
            .await
            .unwrap();
        assert!(ui.status().is_success(), "{:?}", ui.text().await);
        // Through Searchdeck: a quick edit of the ad group's default bid.
        let our_bid = group_bid + 50_000;
        let res = t
            .call(
                Method::PUT,
                &format!("/api/asa/groups/updatesV2/{campaign}?accountId={account_id}&orgId={org_id}"),
                json!({"adGroupId": group, "defaultBidAmount": amount(our_bid)}),
                &owner,
            )
            .await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);

        sync(&t, &account_id).await;
        let listed = outside(&t, &account_id).await;
        assert_eq!(listed.len(), 2, "the bid and the pause, not our quick edit: {listed:?}");
        let (key, title, action, target, email, source_name) = &listed[0];
        assert!(key.starts_with(&format!("history:{account_id}:{org_id}:")), "{key}");
        assert_eq!(
            (title.as_str(), action.as_str(), target.as_str(), email.as_deref(), source_name.as_str()),
            ("Bid changed in Apple Ads", "UPDATE", "KEYWORD", Some(key_client_id.as_str()), "Apple Ads")
        );
        let (_, title, action, target, email, _) = &listed[1];
        assert_eq!(
            (title.as_str(), action.as_str(), target.as_str(), email.as_deref()),
            ("Campaign paused in Apple Ads", "UPDATE", "CAMPAIGN", Some("ann@example.com"))
        );
        let all = records(&t, &account_id).await;
        let mut from_apple: Vec<&Record> = all.iter().filter(|r| r.4).collect();
        from_apple.sort();
        assert_eq!(
            from_apple,
            vec![
                &("CAMPAIGN".to_string(), campaign, "status".to_string(),
                  (Some("ENABLED".to_string()), Some("PAUSED".to_string()), None, Some("ann@example.com".to_string())), true),
                &("KEYWORD".to_string(), keyword, "cptBid".to_string(),
                  (Some(amount(keyword_bid)), Some(amount(new_bid)), Some("USD".to_string()), Some(key_client_id.clone())), true),
            ],
            "{all:?}"
        );
        let ours: Vec<&Record> = all.iter().filter(|r| !r.4).collect();
        assert_eq!(ours.len(), 1, "the quick edit's own record only: {all:?}");
        assert_eq!((ours[0].0.as_str(), ours[0].2.as_str()), ("AD_GROUP", "defaultBidAmount"));
        // The keyword's notification names it and its campaign.
        let named: (String, String) = sqlx::query_as(
            "SELECT c.entity_name, n.campaign_name FROM change_records c JOIN notifications n \
             ON n.id = c.notification_id WHERE c.entity_id = $1 AND n.source = 'apple_ads'",
        )
        .bind(keyword)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
        let campaign_name: String = sqlx::query_scalar("SELECT name FROM asa_campaigns WHERE id = $1")
            .bind(campaign)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
        assert_eq!(named, (text, campaign_name));

        // Reading the same history again writes nothing.
        let notifications = t.count("notifications").await;
        let change_records = t.count("change_records").await;
        sync(&t, &account_id).await;
        assert_eq!(t.count("notifications").await, notifications);
        assert_eq!(t.count("change_records").await, change_records);

        // A failed read does not fail the sync, and the next sync reads on from the mark: the
        // mark made unreadable (past any date), a change in Apple's UI, a sync that finishes
        // cleanly without it; the mark readable again, the next sync records it.
        let mark: i64 = sqlx::query_scalar("SELECT event_time_ms FROM change_history_marks WHERE account_id = $1")
            .bind(&account_id)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
        let set_mark = |ms: i64| {
            let (pool, account_id) = (t.app.state.db.pool.clone(), account_id.clone());
            async move {
                sqlx::query("UPDATE change_history_marks SET event_time_ms = $1 WHERE account_id = $2")
                    .bind(ms)
                    .bind(&account_id)
                    .execute(&pool)
                    .await
                    .unwrap();
            }
        };
        set_mark(i64::MAX / 2).await;
        let ui = t
            .http
            .put(format!("{}/sandbox/ui/v1/campaigns/{campaign}", t.sandbox))
            .header("x-ap-context", format!("adAccountId={org_id}"))
            .header("x-sandbox-user", "ann@example.com")
            .json(&json!({"status": "ENABLED"}))
            .send()
            .await
            .unwrap();
        assert!(ui.status().is_success());
        sync(&t, &account_id).await;
        assert_eq!(outside(&t, &account_id).await.len(), 2, "not read, and the sync went on");
        set_mark(mark).await;
        sync(&t, &account_id).await;
        let listed = outside(&t, &account_id).await;
        assert_eq!(listed.len(), 3, "{listed:?}");
        assert_eq!(listed[2].1, "Campaign enabled in Apple Ads");
    }
}
