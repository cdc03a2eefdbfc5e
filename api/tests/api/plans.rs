//! Plans and trials through the real router (docs/api/plans.md), on SQLite and PostgreSQL:
//! the Pro trial started once per workspace by an owner or admin (`pay/giveMeTrial`), its
//! refusals, the purchases list (`purchase/all`), who may call them; the plan with its
//! limits, banner and modal as the trial runs and ends (`plan/current`); the User item's plan
//! fields (`auth/me`); pro_limited's locked Conversions and Cohort groups in reports; the
//! usage of each limit; the appleDataIssues banner from the connections' syncs; the plan's
//! test clock (`plan/testClock`, beside the sandbox only).

use crate::common::{TestApp, TestBackend};
use axum::http::StatusCode;
use searchdeck_api::session::Role;
use searchdeck_common::{
    ids::{new_id, now_ms},
    plan::derive::{DAY_MS, PRO_TRIAL_MS, Purchase},
    store,
};
use serde_json::Value;

const TRIAL: &str = "/api/pay/giveMeTrial";
const PURCHASES: &str = "/api/purchase/all";
const CURRENT: &str = "/api/plan/current";
const CLOCK: &str = "/api/plan/testClock";
const HOUR: i64 = 3_600_000;

/// Moves the workspace's purchases so the newest ends `left_ms` from now.
async fn end_in(app: &TestApp, left_ms: i64) {
    let end: i64 = sqlx::query_scalar("SELECT MAX(off_account_time) FROM purchases")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    let shift = end - (now_ms() + left_ms);
    sqlx::query("UPDATE purchases SET started_at = started_at - $1, off_account_time = off_account_time - $1")
        .bind(shift)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
}

fn kinds(json: &Value) -> (String, Option<String>, Option<String>) {
    let r = &json["result"];
    (
        r["plan"].as_str().unwrap().to_string(),
        r["banner"]["type"].as_str().map(str::to_string),
        r["modal"]["type"].as_str().map(str::to_string),
    )
}

async fn workspace_of(app: &TestApp, token: &str) -> String {
    app.get("/api/auth/me", Some(token)).await.json["result"]["item"]["workspaceId"]
        .as_str()
        .unwrap()
        .to_string()
}

fn purchases(json: &Value) -> Vec<Value> {
    json["result"]["items"].as_array().unwrap().clone()
}

backend_tests! {
    async fn plans_an_owner_starts_the_pro_trial_once(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let res = app.get(PURCHASES, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert!(purchases(&res.json).is_empty());

        let before = now_ms();
        let res = app.get(TRIAL, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.message(), "Congratulations! Your 14-day Pro Plan trial has begun");
        let result = &res.json["result"];
        assert_eq!((result["status"].as_str(), result["plan"].as_str()), (Some("ok"), Some("pro_trial")));
        let p = &result["purchase"];
        assert_eq!((p["name"].as_str(), p["trial"].as_bool(), p["full"].as_bool(), p["free"].as_bool()), (Some("pro"), Some(true), Some(false), Some(false)));
        assert_eq!((p["usedTrial"].as_bool(), p["usedPreTrial"].as_bool(), p["usedGrowthTrial"].as_bool()), (Some(true), Some(false), Some(false)));
        let (start, end) = (p["startedAt"].as_i64().unwrap(), p["offAccountTime"].as_i64().unwrap());
        assert!(start >= before && start <= now_ms());
        assert_eq!(end - start, 14 * 24 * 3_600_000, "14 days, no card");

        let list = purchases(&app.get(PURCHASES, Some(&owner)).await.json);
        assert_eq!(list.len(), 1);
        assert_eq!(list[0]["id"], p["id"]);

        // During the trial the plan already includes Pro.
        let res = app.get(TRIAL, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::CONFLICT, "{:?}", res.json);
        assert_eq!(res.message(), "Your plan already includes Pro");

        // After it ended the workspace is free again, and the trial cannot be had twice.
        sqlx::query("UPDATE purchases SET started_at = started_at - $1, off_account_time = off_account_time - $1")
            .bind(PRO_TRIAL_MS + DAY_MS)
            .execute(&app.state.db.pool)
            .await
            .unwrap();
        let res = app.get(TRIAL, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::CONFLICT, "{:?}", res.json);
        assert_eq!(res.message(), "The Pro trial has already been used");
        assert_eq!(purchases(&app.get(PURCHASES, Some(&owner)).await.json).len(), 1);
    }

    async fn plans_a_paid_plan_refuses_the_trial_and_lists_newest_first(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let ws = workspace_of(&app, &owner).await;
        let now = now_ms();
        let growth = Purchase {
            id: new_id(),
            name: "growth".into(),
            free: false,
            trial: false,
            full: true,
            organization: true,
            trial_kind: None,
            suggester: true,
            payment_failed: false,
            started_at: now - DAY_MS,
            off_account_time: Some(now + 30 * DAY_MS),
        };
        let old = Purchase { id: new_id(), name: "pro".into(), organization: false, started_at: now - 90 * DAY_MS, off_account_time: Some(now - 60 * DAY_MS), ..growth.clone() };
        store::purchases::insert(&app.state.db.pool, &ws, &old, now).await.unwrap();
        store::purchases::insert(&app.state.db.pool, &ws, &growth, now).await.unwrap();
        let res = app.get(TRIAL, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::CONFLICT, "{:?}", res.json);
        assert_eq!(res.message(), "Your plan already includes Pro");
        let ids: Vec<String> = purchases(&app.get(PURCHASES, Some(&owner)).await.json).iter().map(|p| p["id"].as_str().unwrap().to_string()).collect();
        assert_eq!(ids, [growth.id.clone(), old.id.clone()]);
        let first = &purchases(&app.get(PURCHASES, Some(&owner)).await.json)[0];
        assert_eq!((first["organization"].as_bool(), first["full"].as_bool(), first["usedTrial"].as_bool()), (Some(true), Some(true), Some(false)));

        // The User item (docs/product.md#3-user): the purchase in force, the one bought to follow
        // it.
        let next = Purchase { id: new_id(), started_at: now + 30 * DAY_MS, off_account_time: Some(now + 60 * DAY_MS), ..growth.clone() };
        store::purchases::insert(&app.state.db.pool, &ws, &next, now).await.unwrap();
        let me = app.get("/api/auth/me", Some(&owner)).await;
        assert_eq!(me.status, StatusCode::OK, "{:?}", me.json);
        let item = &me.json["result"]["item"];
        assert_eq!((item["permission"].as_str(), item["purchase"]["id"].as_str(), item["purchase"]["name"].as_str()), (Some("owner"), Some(growth.id.as_str()), Some("growth")));
        assert_eq!((item["nextPurchaseId"].as_str(), item["previousStatus"].as_str(), item["paymentFailed"].as_bool()), (Some(next.id.as_str()), None, Some(false)));
        assert_eq!(item["lastMonthSpend"], serde_json::json!(0.0));
        // Billing blocked: the paid plan's payment failed and its grace is over.
        sqlx::query("UPDATE purchases SET payment_failed = 1, off_account_time = $1, started_at = $2 WHERE workspace_id = $3")
            .bind(now - 8 * DAY_MS).bind(now - 40 * DAY_MS).bind(&ws)
            .execute(&app.state.db.pool).await.unwrap();
        let item = app.get("/api/auth/me", Some(&owner)).await.json["result"]["item"].clone();
        assert_eq!((item["previousStatus"].as_str(), item["paymentFailed"].as_bool(), item["purchase"].is_null(), item["nextPurchaseId"].is_null()), (Some("full"), Some(true), true, true));

        // Another workspace sees none of them.
        let other = app.register(&app.email(), "long password").await;
        assert!(purchases(&app.get(PURCHASES, Some(&other)).await.json).is_empty());
    }

    async fn plans_only_owners_and_admins_start_trials_or_read_purchases(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        for role in [Role::Writer, Role::Reader] {
            let member = app.member(&owner, role).await;
            for path in [TRIAL, PURCHASES] {
                let res = app.get(path, Some(&member)).await;
                assert_eq!(res.status, StatusCode::FORBIDDEN, "{role:?} {path}");
            }
        }
        assert_eq!(app.get(TRIAL, None).await.status, StatusCode::UNAUTHORIZED);
        assert!(purchases(&app.get(PURCHASES, Some(&owner)).await.json).is_empty(), "nothing started");
        let admin = app.member(&owner, Role::Admin).await;
        let res = app.get(TRIAL, Some(&admin)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(purchases(&app.get(PURCHASES, Some(&owner)).await.json).len(), 1, "the workspace's trial");
    }

    async fn plans_two_racing_starts_give_one_trial(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let admin = app.member(&owner, Role::Admin).await;
        let (a, b) = tokio::join!(app.get(TRIAL, Some(&owner)), app.get(TRIAL, Some(&admin)));
        let mut statuses = [a.status, b.status];
        statuses.sort();
        assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT], "{:?} {:?}", a.json, b.json);
        assert_eq!(purchases(&app.get(PURCHASES, Some(&owner)).await.json).len(), 1);
    }

    async fn plans_current_follows_the_trial_through_its_windows(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let reader = app.member(&owner, Role::Reader).await;
        let res = app.get(CURRENT, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let r = &res.json["result"];
        assert_eq!(kinds(&res.json), ("pro_free".into(), None, Some("proTrial".into())));
        assert_eq!((r["freeTrialStatus"].as_str(), r["lastMonthSpend"].as_str(), r["spendThreshold"].as_str()), (Some("NoTrial"), Some("0.00"), Some("10000")));
        assert_eq!((r["limits"]["apps"].as_u64(), r["limits"]["rules"].as_u64(), r["canUpgrade"].as_bool()), (Some(5), Some(10), Some(true)));
        assert_eq!((r["modal"]["confirm"].as_str(), r["modal"]["confirmEnabled"].as_bool()), (Some("Start trial"), Some(true)));
        let res = app.get(CURRENT, Some(&reader)).await;
        let m = &res.json["result"]["modal"];
        assert_eq!((m["confirmEnabled"].as_bool(), m["info"].as_str()), (Some(false), Some("Please contact your admin to start the trial")));
        assert_eq!(res.json["result"]["canUpgrade"], false);
        let res = app.get(&format!("{CURRENT}?context=integrations"), Some(&owner)).await;
        assert_eq!(res.json["result"]["modal"]["variant"], "mmp");
        let res = app.get(&format!("{CURRENT}?context=billing"), Some(&owner)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert_eq!(res.json["errors"][0]["field"], "context");

        assert_eq!(app.get(TRIAL, Some(&owner)).await.status, StatusCode::OK);
        let res = app.get(CURRENT, Some(&reader)).await;
        let r = &res.json["result"];
        assert_eq!(kinds(&res.json), ("pro_trial".into(), None, None));
        assert_eq!((r["freeTrialStatus"].as_str(), r["daysLeft"].as_i64(), r["limits"]["apps"].as_u64()), (Some("TrialStarted"), Some(14), Some(35)));

        end_in(&app, 30 * 3_600_000).await;
        let res = app.get(CURRENT, Some(&owner)).await;
        assert_eq!(kinds(&res.json), ("pro_trial".into(), Some("proTrialEnding".into()), Some("proTrialEnding2day".into())));
        assert_eq!(res.json["result"]["daysLeft"], 2);
        assert_eq!(res.json["result"]["banner"]["button"], "Upgrade");
        let res = app.get(CURRENT, Some(&reader)).await;
        let r = &res.json["result"];
        assert_eq!((r["banner"]["button"].as_str(), r["banner"]["contactAdmin"].as_str()), (None, Some("Please contact your admin to upgrade plan")));
        assert_eq!(r["modal"]["confirm"], "Got it");

        end_in(&app, -1).await;
        let res = app.get(CURRENT, Some(&owner)).await;
        assert_eq!(kinds(&res.json), ("pro_free".into(), Some("proTrialEnd".into()), Some("proTrialEnd".into())));
        let r = &res.json["result"];
        assert_eq!((r["freeTrialStatus"].as_str(), r["previousStatus"].as_str(), r["limits"]["apps"].as_u64()), (Some("TrialEnded"), Some("trial"), Some(5)));
        assert_eq!(app.get(CURRENT, None).await.status, StatusCode::UNAUTHORIZED);
    }

    async fn plans_last_months_spend_in_dollars_decides_pro_free_or_limited(app: TestApp) {
        use crate::campaigns::seed::{self, Campaign, Day};
        let owner = app.register(&app.email(), "long password").await;
        let account = seed::account(&app, &owner, 1).await;
        let usd = seed::org(&app, &account, 100, "Group A", "USD").await;
        let eur = seed::org(&app, &account, 200, "Group B", "EUR").await;
        for (org, id) in [(usd, 11), (eur, 21)] {
            seed::campaign(&app, org, Campaign { id, name: "C", adam_id: 900, status: "ENABLED", display_status: "RUNNING", budget_micros: 1_000_000, countries: r#"["US"]"#, deleted: false, body: "{}" }).await;
        }
        let month = searchdeck_common::plan::spend::last_month(now_ms());
        let spend = |org, id, date: String, micros| {
            let app = &app;
            async move {
                seed::day(app, org, &date, Day { level: 1, entity_id: id, campaign_id: id, impressions: 10, taps: 1, spend_micros: micros, ..Day::default() }).await;
            }
        };
        spend(usd, 11, month.from.to_string(), 6_000_000_000).await; // $6,000
        spend(usd, 11, month.to.to_string(), 10_000).await; // $0.01
        spend(eur, 21, month.to.to_string(), 4_000_000_000).await; // €4,000
        // This month's spend does not count.
        let this_month = month.to.next_day().unwrap();
        spend(usd, 11, this_month.to_string(), 90_000_000_000).await;
        for org in [usd, eur] {
            store::report_facts::refresh(&app.state.db, org, store::report_facts::FactLevel::Campaign, month.from).await.unwrap();
        }

        // No rate for the euro yet: its spend is left out.
        let res = app.get(CURRENT, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!((res.json["result"]["plan"].as_str(), res.json["result"]["lastMonthSpend"].as_str()), (Some("pro_free"), Some("6000.01")));

        // At 1.25 dollars per euro (the ECB rate of the month's last day): $11,000.01.
        for (currency, rate) in [("USD", "1.25"), ("GBP", "0.85")] {
            let r = store::fx_rates::StoredRate { day: month.to.to_string(), currency: currency.into(), rate: rate.into(), source: "ECB".into() };
            store::fx_rates::upsert(&app.state.db.pool, &r, now_ms()).await.unwrap();
        }
        let res = app.get(CURRENT, Some(&owner)).await;
        let r = &res.json["result"];
        assert_eq!((r["plan"].as_str(), r["lastMonthSpend"].as_str()), (Some("pro_limited"), Some("11000.01")));
        assert_eq!((r["modal"]["type"].as_str(), r["modal"]["confirm"].as_str()), (Some("upgrade"), Some("Start trial")));
        assert_eq!(r["limits"]["apps"], 5);
        // The User item carries the same spend (memoised: the rates changed, so read again).
        let me = app.get("/api/auth/me", Some(&owner)).await;
        assert_eq!(me.json["result"]["item"]["lastMonthSpend"], serde_json::json!(11000.01));
        // pro_limited locks the Conversions and Cohort groups in reports
        // (docs/product.md#6-conversions-lock).
        let report = app.post(&format!("/api/asa/reports?accountId={account}&orgId=100"), serde_json::json!({"level": "CAMPAIGNS", "startDate": month.from.to_string(), "endDate": month.to.to_string()}), Some(&owner)).await;
        assert_eq!(report.status, StatusCode::OK, "{:?}", report.json);
        let result = &report.json["result"];
        let locked: Vec<&str> = result["locked"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
        for column in ["totalRevenue", "trackedInstalls", "optimizationTypes"] {
            assert!(locked.contains(&column), "{column} locked on pro_limited: {locked:?}");
        }
        assert_eq!(result["items"][0]["totalRevenue"], Value::Null);
        let message = "Upgrade to Pro to track events from your MMP.";
        assert_eq!(result["lockedGroups"], serde_json::json!([{"name": "Conversions", "message": message}, {"name": "Cohort", "message": message}]));

        // A trial lifts the plan whatever the spend.
        assert_eq!(app.get(TRIAL, Some(&owner)).await.status, StatusCode::OK);
        assert_eq!(app.get(CURRENT, Some(&owner)).await.json["result"]["plan"], "pro_trial");
        // Pro unlocks the Conversions group; Growth-only columns stay locked.
        let report = app.post(&format!("/api/asa/reports?accountId={account}&orgId=100"), serde_json::json!({"level": "CAMPAIGNS", "startDate": month.from.to_string(), "endDate": month.to.to_string()}), Some(&owner)).await;
        let result = &report.json["result"];
        let locked: Vec<&str> = result["locked"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
        assert_eq!(locked, ["optimizationTypes"]);
        assert_eq!(result["lockedGroups"], serde_json::json!([]));
    }

    async fn plans_usage_counts_what_the_limit_checks_count(app: TestApp) {
        use crate::campaigns::seed::{self, Campaign};
        let owner = app.register(&app.email(), "long password").await;
        let res = app.get(CURRENT, Some(&owner)).await;
        assert_eq!(res.json["result"]["usage"], serde_json::json!({"apps": 0, "developers": 0, "campaigns": 0, "keywordGroups": null, "rules": 0, "rulesCampaigns": 0}));
        let account = seed::account(&app, &owner, 1).await;
        let a = seed::org(&app, &account, 100, "Group A", "USD").await;
        let b = seed::org(&app, &account, 200, "Group B", "USD").await;
        let campaign = |id, deleted| Campaign { id, name: "C", adam_id: 900, status: "ENABLED", display_status: "RUNNING", budget_micros: 1_000_000, countries: r#"["US"]"#, deleted, body: "{}" };
        for (org, id, deleted) in [(a, 1, false), (a, 2, false), (a, 3, true), (b, 4, false), (b, 5, false), (b, 6, false)] {
            seed::campaign(&app, org, Campaign { name: if id % 2 == 0 { "Even" } else { "Odd" }, ..campaign(id, deleted) }).await;
        }
        for (org, adam, developer) in [(a, 900, "Healthy Apps"), (b, 900, "Healthy Apps"), (a, 901, "Healthy Apps"), (b, 902, "Quiet Co")] {
            sqlx::query("INSERT INTO asa_apps (org_key, adam_id, app_name, developer_name, synced_at) VALUES ($1, $2, 'App', $3, 1)")
                .bind(org).bind(adam).bind(developer).execute(&app.state.db.pool).await.unwrap();
        }
        // Group B holds 3 campaigns; group A 2 (one deleted) and a running creation that
        // will make 4 more, 1 of them made already: 5.
        let workspace = workspace_of(&app, &owner).await;
        let task = store::tasks::create(&app.state.db.pool, searchdeck_common::tasks::NewTask {
            workspace_id: &workspace, user_id: None, kind: "create-campaigns", message: "Creating campaigns...", total_steps: 4,
            account_id: Some(&account), org_id: Some(100),
        }).await.unwrap();
        store::tasks::set_details(&app.state.db.pool, &task, &serde_json::to_value(searchdeck_common::jobs::CreationProgress { campaigns_total: 4, campaigns_created: 1, ..Default::default() }).unwrap()).await.unwrap();
        let res = app.get(CURRENT, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let usage = &res.json["result"]["usage"];
        assert_eq!(usage, &serde_json::json!({"apps": 3, "developers": 2, "campaigns": 5, "keywordGroups": null, "rules": 0, "rulesCampaigns": 0}));
        // The apps limit check reads the same count: at 5 apps the next connection is refused.
        for adam in [903, 904] {
            sqlx::query("INSERT INTO asa_apps (org_key, adam_id, app_name, developer_name, synced_at) VALUES ($1, $2, 'App', 'Quiet Co', 1)")
                .bind(b).bind(adam).execute(&app.state.db.pool).await.unwrap();
        }
        assert_eq!(app.get(CURRENT, Some(&owner)).await.json["result"]["usage"]["apps"], 5);
        let check = app.get("/api/account/checkAppsLimit", Some(&owner)).await;
        assert_eq!(check.json["meta"]["type"], "AVAILABLEAPPS", "{:?}", check.json);
        // Every member reads it; another workspace counts its own.
        let reader = app.member(&owner, Role::Reader).await;
        assert_eq!(app.get(CURRENT, Some(&reader)).await.json["result"]["usage"]["campaigns"], 5);
        let stranger = app.register(&app.email(), "long password").await;
        assert_eq!(app.get(CURRENT, Some(&stranger)).await.json["result"]["usage"]["apps"], 0);
    }

    async fn plans_data_issues_banner_follows_the_connections_syncs(app: TestApp) {
        use crate::campaigns::seed;
        let owner = app.register(&app.email(), "long password").await;
        let reader = app.member(&owner, Role::Reader).await;
        let banner = |json: &Value| json["result"]["banner"].clone();
        let account = seed::account(&app, &owner, 1).await;
        // A connection whose first sync runs is not late.
        assert_eq!(banner(&app.get(CURRENT, Some(&owner)).await.json), Value::Null);
        let pool = &app.state.db.pool;
        store::synced::set_last_synced(pool, &account, now_ms() - HOUR).await.unwrap();
        assert_eq!(banner(&app.get(CURRENT, Some(&owner)).await.json), Value::Null);
        // Its latest sync given up: every member sees the banner, which cannot be closed, even
        // before a trial's banner.
        store::accounts::record_sync_failure(pool, &account, now_ms()).await.unwrap();
        assert_eq!(app.get(TRIAL, Some(&owner)).await.status, StatusCode::OK);
        end_in(&app, 30 * HOUR).await;
        let expected = serde_json::json!({"type": "appleDataIssues", "closable": false, "message": "We are currently experiencing issues receiving data from the provider. Our team is actively working to resolve the problem.", "button": null, "contactAdmin": null});
        for who in [&owner, &reader] {
            assert_eq!(banner(&app.get(CURRENT, Some(who)).await.json), expected);
        }
        // A later sync stored the data: the trial's banner again.
        store::synced::set_last_synced(pool, &account, now_ms()).await.unwrap();
        assert_eq!(banner(&app.get(CURRENT, Some(&owner)).await.json)["type"], "proTrialEnding");
        // A last sync more than 24 hours old is late; a second, fresh connection does not hide it.
        let fresh = seed::account(&app, &owner, 2).await;
        store::synced::set_last_synced(pool, &fresh, now_ms()).await.unwrap();
        store::synced::set_last_synced(pool, &account, now_ms() - 25 * HOUR).await.unwrap();
        assert_eq!(banner(&app.get(CURRENT, Some(&owner)).await.json)["type"], "appleDataIssues");
        // Another workspace's connections are not this one's.
        let stranger = app.register(&app.email(), "long password").await;
        assert_eq!(banner(&app.get(CURRENT, Some(&stranger)).await.json), Value::Null);
    }

    async fn plans_test_clock_moves_one_workspace_plan(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let other = app.register(&app.email(), "long password").await;
        let reader = app.member(&owner, Role::Reader).await;
        for who in [&owner, &other] {
            assert_eq!(app.get(TRIAL, Some(who)).await.status, StatusCode::OK);
        }
        let put = |offset: Value, who: &str| {
            let (app, who) = (&app, who.to_string());
            async move { app.request(axum::http::Method::PUT, CLOCK, Some(serde_json::json!({"offsetMs": offset})), Some(&who)).await }
        };
        // 12 days on: 48 hours left.
        let res = put(serde_json::json!(12 * DAY_MS), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["offsetMs"], 12 * DAY_MS);
        assert!((res.json["result"]["now"].as_i64().unwrap() - (now_ms() + 12 * DAY_MS)).abs() < 60_000);
        let res = app.get(CURRENT, Some(&reader)).await;
        assert_eq!(kinds(&res.json), ("pro_trial".into(), Some("proTrialEnding".into()), Some("proTrialEnding2day".into())));
        assert_eq!(res.json["result"]["daysLeft"], 2);
        // The other workspace's clock did not move.
        assert_eq!(kinds(&app.get(CURRENT, Some(&other)).await.json), ("pro_trial".into(), None, None));
        // Past the end: the free plan and the ended prompts.
        assert_eq!(put(serde_json::json!(15 * DAY_MS), &owner).await.status, StatusCode::OK);
        assert_eq!(kinds(&app.get(CURRENT, Some(&owner)).await.json), ("pro_free".into(), Some("proTrialEnd".into()), Some("proTrialEnd".into())));
        // Only owners and admins move it; at most 400 days either way; 0 puts it back.
        assert_eq!(put(serde_json::json!(0), &reader).await.status, StatusCode::FORBIDDEN);
        let far = put(serde_json::json!(401 * DAY_MS), &owner).await;
        assert_eq!((far.status, far.json["errors"][0]["field"].as_str()), (StatusCode::BAD_REQUEST, Some("offsetMs")));
        assert_eq!(put(serde_json::json!("soon"), &owner).await.status, StatusCode::BAD_REQUEST);
        assert_eq!(put(serde_json::json!(0), &owner).await.json["result"]["offsetMs"], 0);
        assert_eq!(kinds(&app.get(CURRENT, Some(&owner)).await.json), ("pro_trial".into(), None, None));
    }
}

/// Beside Apple's API (production), or any provider address other than the local
/// sandbox's (a proxy in front of Apple), the plan's clock cannot be moved: 404, and nothing
/// moves.
#[tokio::test]
async fn plans_test_clock_is_off_beside_apple() {
    for provider in ["https://api.ads.apple.com", "https://ads-proxy.example.com"] {
        plans_test_clock_is_off_beside(provider).await;
    }
}

async fn plans_test_clock_is_off_beside(provider: &str) {
    let app = TestApp::sqlite_with(&["--provider-base-url".into(), provider.into()]).await;
    let owner = app.register(&app.email(), "long password").await;
    assert_eq!(app.get(TRIAL, Some(&owner)).await.status, StatusCode::OK);
    let res = app
        .request(
            axum::http::Method::PUT,
            CLOCK,
            Some(serde_json::json!({"offsetMs": 15 * DAY_MS})),
            Some(&owner),
        )
        .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);
    assert_eq!(
        kinds(&app.get(CURRENT, Some(&owner)).await.json).0,
        "pro_trial"
    );
}
