//! Synced rows written with plain inserts (the sync engine's writer lives on another
//! branch): a connection, its campaign groups and their entities and daily metrics.

use searchdeck_common::{ids::new_id, store};

use crate::common::TestApp;

/// The workspace and user id of `cookie`'s session.
pub async fn me(app: &TestApp, cookie: &str) -> (String, String) {
    let me = app.get("/api/auth/me", Some(cookie)).await.json["result"]["item"].clone();
    (
        me["workspaceId"].as_str().unwrap().to_string(),
        me["id"].as_str().unwrap().to_string(),
    )
}

/// A connection of `cookie`'s workspace (Apple Ads user `apple_user`); returns its id.
pub async fn account(app: &TestApp, cookie: &str, apple_user: i64) -> String {
    let (workspace_id, user_id) = me(app, cookie).await;
    let id = new_id();
    let sealed = app.state.secrets.seal(
        &format!("account:{workspace_id}:{apple_user}:refresh_token"),
        b"refresh",
    );
    store::accounts::upsert(
        &app.state.db.pool,
        store::accounts::NewAccount {
            provider_user_id: apple_user,
            name: "Seeded",
            method: "oauth",
            refresh_token_sealed: Some(&sealed),
            ..store::accounts::NewAccount::without_credentials(
                &id,
                &workspace_id,
                &user_id,
                "SEARCHADS.seed",
                1,
            )
        },
    )
    .await
    .unwrap()
}

/// Campaign group `org_id` of `account_id`, cached and synced; returns its org key.
pub async fn org(app: &TestApp, account_id: &str, org_id: i64, name: &str, currency: &str) -> i64 {
    store::accounts::upsert_org(
        &app.state.db.pool,
        account_id,
        &store::accounts::OrgRow {
            org_id,
            display_name: name.into(),
            currency: Some(currency.into()),
            time_zone: Some("UTC".into()),
            permission: "API Account Manager".into(),
            selected: true,
        },
        1,
    )
    .await
    .unwrap();
    sqlx::query_scalar(
        "INSERT INTO sync_orgs (account_id, org_id, currency, time_zone, metrics_through) \
         VALUES ($1, $2, $3, 'UTC', '2026-11-20') RETURNING org_key",
    )
    .bind(account_id)
    .bind(org_id)
    .bind(currency)
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap()
}

/// A campaign as the sync would store it.
pub struct Campaign<'a> {
    pub id: i64,
    pub name: &'a str,
    pub adam_id: i64,
    pub status: &'a str,
    pub display_status: &'a str,
    pub budget_micros: i64,
    pub countries: &'a str,
    pub deleted: bool,
    pub body: &'a str,
}

pub async fn campaign(app: &TestApp, org_key: i64, c: Campaign<'_>) {
    sqlx::query(
        "INSERT INTO asa_campaigns (org_key, id, name, adam_id, status, display_status, \
           daily_budget_micros, countries, start_time, deleted, body, synced_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '2026-01-01T00:00:00.000', $9, $10, 1)",
    )
    .bind(org_key)
    .bind(c.id)
    .bind(c.name)
    .bind(c.adam_id)
    .bind(c.status)
    .bind(c.display_status)
    .bind(c.budget_micros)
    .bind(c.countries)
    .bind(i64::from(c.deleted))
    .bind(c.body)
    .execute(&app.state.db.pool)
    .await
    .unwrap();
}

/// An ad group: (id, campaign, name, status, display status, default bid micros, deleted).
pub async fn ad_group(
    app: &TestApp,
    org_key: i64,
    (id, campaign_id, name, status, display, bid, deleted): (i64, i64, &str, &str, &str, i64, bool),
    body: &str,
) {
    sqlx::query(
        "INSERT INTO asa_ad_groups (org_key, id, campaign_id, name, status, display_status, \
           default_bid_micros, cpa_goal_micros, automated_keywords_opt_in, deleted, body, synced_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, 1, $8, $9, 1)",
    )
    .bind(org_key)
    .bind(id)
    .bind(campaign_id)
    .bind(name)
    .bind(status)
    .bind(display)
    .bind(bid)
    .bind(i64::from(deleted))
    .bind(body)
    .execute(&app.state.db.pool)
    .await
    .unwrap();
}

/// A keyword: (id, campaign, ad group, status, deleted).
pub async fn keyword(
    app: &TestApp,
    org_key: i64,
    (id, campaign, group, status, deleted): (i64, i64, i64, &str, bool),
) {
    sqlx::query(
        "INSERT INTO asa_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, \
           bid_micros, status, deleted, synced_at) \
         VALUES ($1, $2, $3, $4, $5, 'EXACT', 1000000, $6, $7, 1)",
    )
    .bind(org_key)
    .bind(id)
    .bind(campaign)
    .bind(group)
    .bind(format!("keyword {id}"))
    .bind(status)
    .bind(i64::from(deleted))
    .execute(&app.state.db.pool)
    .await
    .unwrap();
}

/// A negative keyword of a campaign (`group` None) or ad group.
pub async fn negative(
    app: &TestApp,
    org_key: i64,
    id: i64,
    campaign: i64,
    group: Option<i64>,
    deleted: bool,
) {
    sqlx::query(
        "INSERT INTO asa_negative_keywords (org_key, id, campaign_id, ad_group_id, text, \
           match_type, status, deleted, synced_at) VALUES ($1, $2, $3, $4, 'free', 'EXACT', 'ACTIVE', $5, 1)",
    )
    .bind(org_key)
    .bind(id)
    .bind(campaign)
    .bind(group)
    .bind(i64::from(deleted))
    .execute(&app.state.db.pool)
    .await
    .unwrap();
}

/// An ad of an ad group.
pub async fn ad(app: &TestApp, org_key: i64, id: i64, campaign: i64, group: i64, deleted: bool) {
    sqlx::query(
        "INSERT INTO asa_ads (org_key, id, campaign_id, ad_group_id, name, status, deleted, synced_at) \
         VALUES ($1, $2, $3, $4, 'Ad', 'ENABLED', $5, 1)",
    )
    .bind(org_key)
    .bind(id)
    .bind(campaign)
    .bind(group)
    .bind(i64::from(deleted))
    .execute(&app.state.db.pool)
    .await
    .unwrap();
}

/// An app and its product pages (id, name).
pub async fn app_with_pages(
    app: &TestApp,
    org_key: i64,
    adam_id: i64,
    name: &str,
    pages: &[(&str, &str)],
) {
    sqlx::query(
        "INSERT INTO asa_apps (org_key, adam_id, app_name, developer_name, synced_at) \
         VALUES ($1, $2, $3, 'Dev Co', 1)",
    )
    .bind(org_key)
    .bind(adam_id)
    .bind(name)
    .execute(&app.state.db.pool)
    .await
    .unwrap();
    for (id, page) in pages {
        sqlx::query(
            "INSERT INTO asa_product_pages (org_key, id, adam_id, name, state, synced_at) \
             VALUES ($1, $2, $3, $4, 'VISIBLE', 1)",
        )
        .bind(org_key)
        .bind(*id)
        .bind(adam_id)
        .bind(*page)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    }
}

/// One day's metrics of one entity.
#[derive(Debug, Clone, Copy, Default)]
pub struct Day {
    pub level: i64,
    pub entity_id: i64,
    pub campaign_id: i64,
    pub impressions: i64,
    pub taps: i64,
    pub tap_installs: i64,
    pub view_installs: i64,
    pub spend_micros: i64,
}

pub async fn day(app: &TestApp, org_key: i64, date: &str, d: Day) {
    sqlx::query(
        "INSERT INTO asa_day_metrics (org_key, level, day, entity_id, campaign_id, ad_group_id, \
           impressions, taps, tap_installs, view_installs, tap_new_downloads, tap_redownloads, \
           spend_micros) VALUES ($1, $2, date($3), $4, $5, 0, $6, $7, $8, $9, $8, 0, $10)",
    )
    .bind(org_key)
    .bind(d.level)
    .bind(date)
    .bind(d.entity_id)
    .bind(d.campaign_id)
    .bind(d.impressions)
    .bind(d.taps)
    .bind(d.tap_installs)
    .bind(d.view_installs)
    .bind(d.spend_micros)
    .execute(&app.state.db.pool)
    .await
    .unwrap();
}
