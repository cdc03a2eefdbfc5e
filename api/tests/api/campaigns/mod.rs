//! The report area's smaller routes over seeded synced rows, on SQLite and PostgreSQL
//! (docs/api/campaigns.md):
//!
//! - `reads`: the routes as the OpenAPI document describes them; campaign and ad group
//!   reads; another workspace's account or campaign answering 404; mark-hidden (editors
//!   only).
//! - `metrics`: active keyword counts, additional info, totals and forecasts checked against
//!   hand-computed sums.
//! - `history`: the change history read from the sandbox after a real change.
//!
//! The fixtures below seed a workspace with one connection of two campaign groups, their
//! entities and their daily metrics (`seed` writes the rows).

pub(crate) mod seed;

mod history;
mod metrics;
mod reads;

use searchdeck_api::routes::campaigns;
use searchdeck_common::store;
use seed::{Campaign, Day};

use crate::common::TestApp;

/// A workspace with one connection of two campaign groups and their synced entities.
struct World {
    owner: String,
    account: String,
    /// Org keys of campaign groups 100 (USD) and 200 (EUR).
    a: i64,
    b: i64,
}

const SEARCH_BODY: &str = r#"{"adChannelType":"SEARCH","billingEvent":"TAPS","supplySources":["APPSTORE_SEARCH_RESULTS"],"budgetAmount":{"amount":"1000","currency":"USD"}}"#;

async fn world(app: &TestApp) -> World {
    let owner = app.register(&app.email(), "long password").await;
    let account = seed::account(app, &owner, 1).await;
    let a = seed::org(app, &account, 100, "Group A", "USD").await;
    let b = seed::org(app, &account, 200, "Group B", "EUR").await;
    let c = |id, name, status, display, budget, deleted| Campaign {
        id,
        name,
        adam_id: 900,
        status,
        display_status: display,
        budget_micros: budget,
        countries: r#"["US","GB"]"#,
        deleted,
        body: SEARCH_BODY,
    };
    seed::campaign(
        app,
        a,
        c(11, "Alpha", "ENABLED", "RUNNING", 50_000_000, false),
    )
    .await;
    seed::campaign(app, a, c(12, "Beta", "ENABLED", "RUNNING", 1_000_000, true)).await;
    seed::campaign(app, a, c(13, "Gamma", "PAUSED", "PAUSED", 7_500_000, false)).await;
    seed::campaign(
        app,
        b,
        c(21, "Delta", "ENABLED", "RUNNING", 20_000_000, false),
    )
    .await;
    let targeting =
        r#"{"pricingModel":"CPC","targetingDimensions":{"deviceClass":{"included":["IPHONE"]}}}"#;
    seed::ad_group(
        app,
        a,
        (111, 11, "G one", "ENABLED", "RUNNING", 1_250_000, false),
        targeting,
    )
    .await;
    seed::ad_group(
        app,
        a,
        (112, 11, "G two", "PAUSED", "PAUSED", 2_000_000, false),
        "{}",
    )
    .await;
    seed::ad_group(
        app,
        a,
        (113, 11, "G three", "ENABLED", "RUNNING", 1_000_000, true),
        "{}",
    )
    .await;
    seed::ad_group(
        app,
        a,
        (131, 13, "G gamma", "ENABLED", "RUNNING", 1_000_000, false),
        "{}",
    )
    .await;
    seed::ad_group(
        app,
        b,
        (211, 21, "G delta", "ENABLED", "RUNNING", 1_000_000, false),
        "{}",
    )
    .await;
    for k in [
        (1001, 11, 111, "ACTIVE", false),
        (1002, 11, 111, "PAUSED", false),
        (1003, 11, 111, "ACTIVE", true),
        (1004, 11, 112, "ACTIVE", false),
        (1005, 11, 113, "ACTIVE", false),
    ] {
        seed::keyword(app, a, k).await;
    }
    seed::keyword(app, b, (2001, 21, 211, "ACTIVE", false)).await;
    seed::negative(app, a, 5001, 11, None, false).await;
    seed::negative(app, a, 5002, 11, Some(111), false).await;
    seed::negative(app, a, 5003, 11, None, true).await;
    seed::ad(app, a, 6001, 11, 111, false).await;
    seed::ad(app, a, 6002, 11, 112, true).await;
    seed::app_with_pages(
        app,
        a,
        900,
        "Seeded App",
        &[("pp-b", "Beta page"), ("pp-a", "Alpha page")],
    )
    .await;
    World {
        owner,
        account,
        a,
        b,
    }
}

fn field(res: &crate::common::TestResponse) -> &str {
    res.json["errors"][0]["field"].as_str().unwrap_or_default()
}

/// The request scope of the world's connection (optionally one campaign group).
async fn scope_of(app: &TestApp, w: &World, org: Option<i64>) -> campaigns::Scope {
    let ws = seed::me(app, &w.owner).await.0;
    let row = store::accounts::in_workspace(&app.state.db.pool, &ws, &w.account)
        .await
        .unwrap()
        .unwrap();
    campaigns::Scope::resolve(&app.state, row, org)
        .await
        .unwrap()
}

/// Rebuilds the report engine's day blobs of an org's campaign-level rows.
async fn refresh(app: &TestApp, org_key: i64) {
    let first = time::Date::from_calendar_date(2026, time::Month::October, 1).unwrap();
    store::report_facts::refresh(
        &app.state.db,
        org_key,
        store::report_facts::FactLevel::Campaign,
        first,
    )
    .await
    .unwrap();
}

/// Campaign-level daily metrics: Alpha 1..=20 Nov (impressions 100·d, 10 taps, 2 tap
/// installs, spend d + 0.000333), Beta (deleted) 5 Nov and Alpha 31 Oct outside the month,
/// Delta 1..=3 Nov (1000 impressions, 20 taps, 4 tap + 1 view installs, 5.50 spend).
async fn seed_metrics(app: &TestApp, w: &World) {
    for d in 1..=20 {
        let day = format!("2026-11-{d:02}");
        seed::day(
            app,
            w.a,
            &day,
            Day {
                level: 1,
                entity_id: 11,
                campaign_id: 11,
                impressions: 100 * d,
                taps: 10,
                tap_installs: 2,
                view_installs: 0,
                spend_micros: 1_000_000 * d + 333,
            },
        )
        .await;
    }
    seed::day(
        app,
        w.a,
        "2026-10-31",
        Day {
            level: 1,
            entity_id: 11,
            campaign_id: 11,
            impressions: 99_999,
            taps: 1,
            spend_micros: 99_000_000,
            ..Day::default()
        },
    )
    .await;
    seed::day(
        app,
        w.a,
        "2026-11-05",
        Day {
            level: 1,
            entity_id: 12,
            campaign_id: 12,
            impressions: 50,
            spend_micros: 2_000_000,
            ..Day::default()
        },
    )
    .await;
    for d in 1..=3 {
        let day = format!("2026-11-{d:02}");
        seed::day(
            app,
            w.b,
            &day,
            Day {
                level: 1,
                entity_id: 21,
                campaign_id: 21,
                impressions: 1000,
                taps: 20,
                tap_installs: 4,
                view_installs: 1,
                spend_micros: 5_500_000,
            },
        )
        .await;
    }
    refresh(app, w.a).await;
    refresh(app, w.b).await;
}
