//! A small synced campaign group written straight into the database: two campaigns, three
//! ad groups, keywords (one deleted with metrics, one deleted without), negatives, search
//! terms, an ad, a tag, and daily facts for November 2026 at every level (ad groups and
//! campaigns are the sums of their keywords), refreshed into running sums.

use searchdeck_common::{
    Db,
    ids::{new_id, now_ms},
    store::{
        self,
        accounts::{NewAccount, OrgRow},
        report_facts::{self, Counters, DayRow, FactLevel},
    },
};
use time::{Date, Month};

use crate::common::TestApp;

pub fn day(d: u8) -> Date {
    Date::from_calendar_date(2026, Month::November, d).unwrap()
}

/// A connection with one synced campaign group.
pub struct World {
    pub cookie: String,
    pub account_id: String,
    pub org_id: i64,
}

pub const DAYS: u8 = 20;
/// (keyword id, campaign, ad group, text, status, deleted)
pub const KEYWORDS: [(i64, i64, i64, &str, &str, i64); 6] = [
    (301, 101, 201, "fitness tracker", "ACTIVE", 0),
    (302, 101, 201, "running app", "PAUSED", 0),
    (303, 101, 202, "yoga", "ACTIVE", 0),
    (304, 102, 203, "meditation", "ACTIVE", 0),
    (305, 102, 203, "old keyword", "ACTIVE", 1),
    (306, 102, 203, "gone without metrics", "ACTIVE", 1),
];

/// Keyword `k`'s counters on day `d` (none for keyword 306, and keyword 302 only on even
/// days, keyword 304 never before day 10).
pub fn counters(k: i64, d: u8) -> Option<Counters> {
    if k == 306 || (k == 302 && d % 2 == 1) || (k == 304 && d < 10) {
        return None;
    }
    let s = k - 300;
    let d = i64::from(d);
    let impressions = 100 * s + 7 * d;
    let taps = (impressions * (s + 2)) / 97 + d % 3;
    let tap_installs = taps / 3;
    let view_installs = d % 4;
    Some(Counters([
        impressions,
        taps,
        tap_installs,
        view_installs,
        tap_installs / 2,
        tap_installs - tap_installs / 2,
        view_installs / 2,
        view_installs - view_installs / 2,
        0,
        0,
        // Spend with sub-cent micros, so flooring shows.
        taps * 1_234_567 + s * 333,
    ]))
}

async fn exec(db: &Db, sql: &str, binds: &[&dyn ToBind]) {
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql.to_string()));
    for b in binds {
        q = b.bind(q);
    }
    q.execute(&db.pool).await.unwrap();
}

/// A value bound into an `Any` query.
pub trait ToBind: Sync {
    fn bind<'q>(
        &self,
        q: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    ) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>;
}
impl ToBind for i64 {
    fn bind<'q>(
        &self,
        q: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    ) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
        q.bind(*self)
    }
}
impl ToBind for &str {
    fn bind<'q>(
        &self,
        q: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    ) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
        q.bind(self.to_string())
    }
}

/// The workspace id of `cookie`'s session.
pub async fn workspace_of(app: &TestApp, cookie: &str) -> String {
    let me = app.get("/api/auth/me", Some(cookie)).await;
    me.json["result"]["item"]["workspaceId"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A connection of the workspace of `cookie` with campaign group `org_id` in `currency`.
pub async fn account(app: &TestApp, cookie: &str, org_id: i64, currency: &str) -> (String, i64) {
    let db = &app.state.db;
    let workspace_id = workspace_of(app, cookie).await;
    let user_id: String =
        sqlx::query_scalar("SELECT user_id FROM memberships WHERE workspace_id = $1")
            .bind(&workspace_id)
            .fetch_one(&db.pool)
            .await
            .unwrap();
    let id = new_id();
    let account_id = store::accounts::upsert(
        &db.pool,
        NewAccount {
            provider_user_id: org_id * 7,
            name: "Acme Ads",
            ..NewAccount::without_credentials(&id, &workspace_id, &user_id, "SEARCHADS.c", now_ms())
        },
    )
    .await
    .unwrap();
    let org_key = add_org(db, &account_id, org_id, currency).await;
    exec(
        db,
        "UPDATE sync_orgs SET metrics_synced_at = $1 WHERE org_key = $2",
        &[&1_795_000_000i64, &org_key],
    )
    .await;
    (account_id, org_key)
}

/// Adds campaign group `org_id` in `currency` (selected, UTC) to connection `account_id`;
/// its `org_key`.
async fn add_org(db: &Db, account_id: &str, org_id: i64, currency: &str) -> i64 {
    let org = OrgRow {
        org_id,
        display_name: format!("Group {currency}"),
        currency: Some(currency.into()),
        time_zone: Some("UTC".into()),
        permission: "API Account Manager".into(),
        selected: true,
    };
    store::accounts::upsert_org(&db.pool, account_id, &org, now_ms())
        .await
        .unwrap();
    store::synced::ensure_org(&db.pool, account_id, org_id, Some(currency), Some("UTC"))
        .await
        .unwrap()
}

/// Adds campaign group `org_id` in `currency`, without metrics, to the connection of `w`.
pub async fn another_org(app: &TestApp, w: &World, org_id: i64, currency: &str) {
    add_org(&app.state.db, &w.account_id, org_id, currency).await;
}

/// The world of one owner, currency `currency`, its facts on November 1–20, 2026.
pub async fn world(app: &TestApp, currency: &str) -> World {
    world_from(app, currency, day(1)).await
}

/// The world of one owner, currency `currency`, its facts' day `d` (1–20) on `first` +
/// `d` − 1 (what tests of automated rules use: their windows are relative to today).
pub async fn world_from(app: &TestApp, currency: &str, first: Date) -> World {
    let day = |d: u8| first + time::Duration::days(i64::from(d) - 1);
    let email = app.email();
    let cookie = app.register(&email, "a long password").await;
    let workspace_id = workspace_of(app, &cookie).await;
    let org_id = 5000;
    let (account_id, org_key) = account(app, &cookie, org_id, currency).await;
    let db = &app.state.db;
    let now = now_ms();
    exec(db, "INSERT INTO asa_apps (org_key, adam_id, app_name, developer_name, synced_at) VALUES ($1, 900, 'FitNow', 'Healthy Apps Ltd', $2)", &[&org_key, &now]).await;
    exec(db, "INSERT INTO asa_apps (org_key, adam_id, app_name, developer_name, synced_at) VALUES ($1, 901, 'Calm Mind', 'Quiet Co', $2)", &[&org_key, &now]).await;
    for (id, name, status, adam, countries, budget) in [
        (
            101i64,
            "Brand US",
            "RUNNING",
            900i64,
            "[\"US\",\"CA\"]",
            50_000_000i64,
        ),
        (102, "Generic GB", "PAUSED", 901, "[\"GB\"]", 12_345_678),
    ] {
        exec(db, "INSERT INTO asa_campaigns (org_key, id, name, adam_id, status, display_status, daily_budget_micros, countries, synced_at) VALUES ($1, $2, $3, $4, 'ENABLED', $5, $6, $7, $8)",
            &[&org_key, &id, &name, &adam, &status, &budget, &countries, &now]).await;
    }
    for (id, campaign, name) in [
        (201i64, 101i64, "Exact"),
        (202, 101, "Broad"),
        (203, 102, "Discovery"),
    ] {
        exec(db, "INSERT INTO asa_ad_groups (org_key, id, campaign_id, name, status, display_status, default_bid_micros, automated_keywords_opt_in, synced_at) VALUES ($1, $2, $3, $4, 'ENABLED', 'RUNNING', 1500000, 1, $5)",
            &[&org_key, &id, &campaign, &name, &now]).await;
    }
    for (id, campaign, group, text, status, deleted) in KEYWORDS {
        exec(db, "INSERT INTO asa_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, bid_micros, status, deleted, synced_at) VALUES ($1, $2, $3, $4, $5, 'EXACT', 2500000, $6, $7, $8)",
            &[&org_key, &id, &campaign, &group, &text, &status, &deleted, &now]).await;
    }
    exec(db, "INSERT INTO asa_negative_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, synced_at) VALUES ($1, 401, 101, NULL, 'free', 'BROAD', 'ACTIVE', $2)", &[&org_key, &now]).await;
    exec(db, "INSERT INTO asa_negative_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, synced_at) VALUES ($1, 402, 101, 201, 'cheap', 'EXACT', 'ACTIVE', $2)", &[&org_key, &now]).await;
    exec(db, "INSERT INTO asa_search_terms (org_key, id, campaign_id, ad_group_id, keyword_id, text, source) VALUES ($1, 501, 101, 201, 301, 'fitness tracker', 'TARGETED')", &[&org_key]).await;
    exec(db, "INSERT INTO asa_search_terms (org_key, id, campaign_id, ad_group_id, keyword_id, text, source) VALUES ($1, 502, 101, 201, NULL, 'step counter', 'AUTO')", &[&org_key]).await;
    exec(db, "INSERT INTO asa_ads (org_key, id, campaign_id, ad_group_id, creative_id, name, status, display_status, synced_at) VALUES ($1, 601, 101, 201, NULL, 'Default ad', 'ENABLED', 'RUNNING', $2)", &[&org_key, &now]).await;
    let tag_id = new_id();
    exec(db, "INSERT INTO tags (id, workspace_id, type, name, color, created_at) VALUES ($1, $2, 'KEYWORDS', 'Brand', 'Green', $3)", &[&tag_id.as_str(), &workspace_id.as_str(), &now]).await;
    exec(
        db,
        "INSERT INTO tag_links (tag_id, org_key, level, entity_id) VALUES ($1, $2, 3, 301)",
        &[&tag_id.as_str(), &org_key],
    )
    .await;

    let mut keyword_rows = Vec::new();
    let mut group_rows: Vec<DayRow> = Vec::new();
    let mut campaign_rows: Vec<DayRow> = Vec::new();
    for d in 1..=DAYS {
        for (k, campaign, group, ..) in KEYWORDS {
            let Some(c) = counters(k, d) else { continue };
            keyword_rows.push(DayRow {
                org_key,
                level: FactLevel::Keyword,
                day: day(d),
                entity_id: k,
                campaign_id: campaign,
                ad_group_id: group,
                counters: c,
            });
            let add = |rows: &mut Vec<DayRow>, level, entity, g| match rows
                .iter_mut()
                .find(|r| r.day == day(d) && r.entity_id == entity)
            {
                Some(r) => r.counters.add(&c),
                None => rows.push(DayRow {
                    org_key,
                    level,
                    day: day(d),
                    entity_id: entity,
                    campaign_id: campaign,
                    ad_group_id: g,
                    counters: c,
                }),
            };
            add(&mut group_rows, FactLevel::AdGroup, group, group);
            add(&mut campaign_rows, FactLevel::Campaign, campaign, 0);
        }
        // The search term and the ad mirror keyword 301.
        let c = counters(301, d).unwrap();
        for (level, entity) in [(FactLevel::SearchTerm, 501), (FactLevel::Ad, 601)] {
            report_facts::insert_days(
                db,
                &[DayRow {
                    org_key,
                    level,
                    day: day(d),
                    entity_id: entity,
                    campaign_id: 101,
                    ad_group_id: 201,
                    counters: c,
                }],
            )
            .await
            .unwrap();
        }
    }
    report_facts::insert_days(db, &keyword_rows).await.unwrap();
    report_facts::insert_days(db, &group_rows).await.unwrap();
    report_facts::insert_days(db, &campaign_rows).await.unwrap();
    for level in [
        FactLevel::Campaign,
        FactLevel::AdGroup,
        FactLevel::Keyword,
        FactLevel::SearchTerm,
        FactLevel::Ad,
    ] {
        report_facts::refresh(db, org_key, level, day(1))
            .await
            .unwrap();
    }
    World {
        cookie,
        account_id,
        org_id,
    }
}
