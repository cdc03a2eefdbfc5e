//! Authorisation of every documented route, driven by the OpenAPI document: a route is
//! covered by being documented.
//!
//! - Public routes are listed here; every other operation declares the session scheme and
//!   answers 401 without a session.
//! - Operations that declare roles (`x-roles`, from the `Editor`/`Manager` guards) answer
//!   403 to a reader and not to the workspace's owner. Every other non-GET operation must be
//!   one that changes only the caller's own values (listed here), so a workspace write
//!   registered with the wrong guard fails this test.
//! - Every path parameter is a workspace resource id (`x-resource`, from `InWorkspace<T>`)
//!   or a child looked up within that resource (`x-resource.children`):
//!   another workspace's id answers exactly like a missing one (404, same body), the
//!   owner's answers something else. The one other kind is a public id (`x-public-id`, from
//!   `AppStoreId`): an App Store app id, not a record of ours, which any workspace may name;
//!   it answers 400 naming the parameter when it is not one, and what a GET answers for it
//!   comes from the caller's workspace only: another workspace's saved data for the same
//!   app answers exactly like an app nobody saved.

use crate::common::{TestApp, TestBackend};
use axum::{
    body::Body,
    http::{Method, Request, StatusCode},
};
use searchdeck_api::session::Role;
use searchdeck_common::{store, tasks::NewTask};
use serde_json::{Value, json};

/// Routes anyone may call.
const PUBLIC_ROUTES: &[(&str, &str)] = &[
    ("post", "/api/auth/register"),
    ("post", "/api/auth/login"),
    ("get", "/api/auth/logout"),
    ("get", "/api/auth/recoveryPassword"),
    ("post", "/api/auth/checkCode"),
    ("post", "/api/auth/changePasswordByCode"),
    // What an invitation link offers, for the invite screen before sign-in (docs/api/team.md).
    ("post", "/api/team/invitation"),
];

/// Writes every member may make because they change only the caller's own values.
const OWN_VALUE_WRITES: &[(&str, &str)] = &[
    ("post", "/api/auth/changePassword"),
    ("post", "/api/users/changeValue"),
    ("put", "/api/options/front"),
    ("post", "/api/account/unuse"),
    // Column presets are the caller's own view (api/src/routes/fields/mod.rs).
    ("put", "/api/setFields/one"),
    ("patch", "/api/setFields/one/{id}"),
    ("delete", "/api/setFields/one/{id}"),
    // The activity log's read state is each member's own (readers mark too).
    ("patch", "/api/accountsActions/notifications/{type}"),
    ("patch", "/api/accountsActions/notifications/{type}/all"),
    // Accepting an invitation adds a workspace to the caller; it changes none of the current
    // workspace's things (docs/api/team.md).
    ("post", "/api/team/checkCode"),
    // Switching moves the caller's own session to another of their workspaces
    // (docs/api/team.md, "Workspaces").
    ("post", "/api/workspaces/switch"),
];

/// GET routes that change state (the spec keeps their method). Each is marked where it is
/// routed (`middleware::state_changing_gets`, documented as `x-state-changing`), so a
/// cross-site call is refused before it runs.
const STATE_CHANGING_GETS: &[&str] = &[
    "/api/account/oauth",
    "/api/account/urlOauth",
    "/api/account/use/{id}",
    "/api/asa/getAccountData",
    "/api/auth/logout",
    "/api/auth/recoveryPassword",
    "/api/pay/giveMeTrial",
    "/api/phrase/suggesterSearches/one/stop/{id}",
];

/// Path parameters that name a value (a table type), not a resource; they are checked by
/// the handler (400 for an unknown value), so they have no workspace scope.
const VALUE_PARAMS: &[(&str, &str)] = &[
    ("/api/setFields/all/{type}", "type"),
    ("/api/setFields/fields/{type}", "type"),
    // An App Store app (any app, not only the workspace's), checked by the handler.
    (
        "/api/phrase/getListByShuffleTitlesPopularities/{adamId}",
        "adamId",
    ),
    ("/api/timings/{type}/{countryCode}", "type"),
    ("/api/timings/{type}/{countryCode}", "countryCode"),
    // The goal optimisation type (CPA_GOAL, CPT_GOAL) the campaigns in the body turn on or
    // off (spec §7 keeps it in the path); the campaigns are resolved in the workspace.
    ("/api/optimization/rulesCampaigns/{id}", "id"),
    // Whether the activity log marks read or unread; the ids in the body are resolved in
    // the workspace (unknown ones ignored).
    ("/api/accountsActions/notifications/{type}", "type"),
    ("/api/accountsActions/notifications/{type}/all", "type"),
    // An invitation's email and role (POST), and what `{b}` names — member or invitation —
    // for DELETE, whose `{b}` is the workspace resource (docs/api/team.md).
    ("/api/team/one/{a}/{b}", "a"),
    ("/api/team/one/{a}/{b}", "b"),
    // A teammate's email, checked against the workspace's members and invitations (404 for
    // any other).
    ("/api/emails/one/{email}", "email"),
];

/// Reads sent as POST (a search text, an id list or a report body too large for a query
/// string) that change nothing, so every member, readers included, may make them.
const READS_BY_POST: &[(&str, &str)] = &[
    ("post", "/api/asa/findApp"),
    // The keyword suggester's App Store searches, competitor reads and estimates.
    ("post", "/api/suggester/competitors/findApp"),
    ("post", "/api/competitors/findApp"),
    ("post", "/api/competitors/find"),
    ("post", "/api/competitors/get/many"),
    ("post", "/api/reports/asa/getEstimatedImpressions"),
    ("post", "/api/reports/sov"),
    ("post", "/api/asa/geo"),
    ("post", "/api/asa/reports"),
    ("post", "/api/asa/campaigns/calculateActiveKeywords"),
    ("post", "/api/asa/reports/changes"),
    ("post", "/api/asa/reports/additionalInfo/{id}"),
    ("post", "/api/asa/reports/totalsForAllAccounts"),
    ("post", "/api/asa/reports/totalsForCampaignsGroups"),
    ("post", "/api/asa/reports/calculateForecasts"),
    // Custom product page ads per campaign or ad group, and an ad group's ads in place of
    // its retired creative sets (api/src/routes/product_pages).
    ("post", "/api/asa/campaigns/checkCustomProductPageAds"),
    (
        "post",
        "/api/asa/campaigns/checkCustomProductPageAdsByAdGroups",
    ),
    ("post", "/api/creativeSet/getDetails/{id}/{adGroupId}"),
    // Campaign creation's name check and CPA-goal check (api/src/routes/creation/mod.rs).
    ("post", "/api/asa/campaigns/exists"),
    ("post", "/api/asa/groups/checkCampaignGroupsCPAGoals"),
];

/// Quick and bulk edits (api/src/routes/edits): editor-only writes addressed by a synced campaign, so
/// the checks below cover them only while they stay documented with their guard.
const EDIT_ROUTES: &[(&str, &str)] = &[
    ("put", "/api/asa/campaigns/update/{id}"),
    ("put", "/api/asa/groups/updatesV2/{id}"),
    ("put", "/api/asa/keywords/update/{a}/{b}"),
    // Bulk edits (api/src/routes/edits/bulk_routes.rs).
    ("put", "/api/asa/campaigns/updates"),
    ("put", "/api/asa/groups/updates/{id}"),
    ("put", "/api/asa/keywords/update/targeting/{id}"),
    ("put", "/api/asa/groups/updatesAllGroupsByCampaigns"),
    ("patch", "/api/asa/campaigns/replacePartName"),
    ("put", "/api/asa/keywords/add/negative"),
    ("put", "/api/asa/keywords/add/negative/{campaignId}"),
    ("delete", "/api/asa/campaigns"),
    ("delete", "/api/asa/groups"),
    ("delete", "/api/asa/keywords"),
    // Status quick edits (api/src/routes/edits/statuses.rs).
    ("put", "/api/asa/ads/update/{a}/{b}"),
    ("put", "/api/asa/keywords/update/negative/{id}"),
];

/// Creates a resource of `kind` in the workspace of `token`'s user and returns its id.
async fn resource_in_workspace(app: &TestApp, kind: &str, token: &str) -> String {
    let me = app.get("/api/auth/me", Some(token)).await.json["result"]["item"].clone();
    let workspace_id = me["workspaceId"].as_str().unwrap();
    match kind {
        "task" => store::tasks::create(
            &app.state.db.pool,
            NewTask {
                workspace_id,
                user_id: me["id"].as_str(),
                kind: "sync-account",
                message: "Starting",
                total_steps: 1,
                account_id: None,
                org_id: None,
            },
        )
        .await
        .unwrap(),
        "account" => {
            let (workspace_id, id) = (workspace_id.to_string(), searchdeck_common::ids::new_id());
            let sealed = app.state.secrets.seal(
                &format!("account:{workspace_id}:1:refresh_token"),
                b"refresh",
            );
            store::accounts::upsert(
                &app.state.db.pool,
                store::accounts::NewAccount {
                    name: "Fixture",
                    method: "oauth",
                    refresh_token_sealed: Some(&sealed),
                    ..store::accounts::NewAccount::without_credentials(
                        &id,
                        &workspace_id,
                        me["id"].as_str().unwrap(),
                        "SEARCHADS.fixture",
                        1,
                    )
                },
            )
            .await
            .unwrap()
        }
        "tag" => {
            let id = searchdeck_common::ids::new_id();
            store::tags::create(
                &app.state.db.pool,
                store::tags::NewTag {
                    id: &id,
                    workspace_id,
                    kind: "CAMPAIGNS",
                    name: &format!("Fixture {id}"),
                    color: "Green",
                    now: 1,
                },
            )
            .await
            .unwrap();
            id
        }
        "column-preset" => {
            let id = searchdeck_common::ids::new_id();
            let fields = vec!["keyword".to_string()];
            store::presets::insert(
                &app.state.db.pool,
                store::presets::NewPreset {
                    id: &id,
                    workspace_id,
                    user_id: me["id"].as_str().unwrap(),
                    kind: "KEYWORDS",
                    name: &id,
                    fields: &fields,
                    now: 1,
                },
            )
            .await
            .unwrap();
            id
        }
        "campaign" => {
            // A synced campaign 4242 with an ad group 4242 (so `asa/groups/{a}/{b}` finds
            // both with one id) in campaign group 100 of the workspace's connection.
            let account = Box::pin(resource_in_workspace(app, "account", token)).await;
            let pool = &app.state.db.pool;
            sqlx::query("INSERT INTO sync_orgs (account_id, org_id) VALUES ($1, 100) ON CONFLICT (account_id, org_id) DO NOTHING")
                .bind(&account).execute(pool).await.unwrap();
            let org_key: i64 = sqlx::query_scalar(
                "SELECT org_key FROM sync_orgs WHERE account_id = $1 AND org_id = 100",
            )
            .bind(&account)
            .fetch_one(pool)
            .await
            .unwrap();
            sqlx::query("INSERT INTO asa_campaigns (org_key, id, name, status, synced_at) VALUES ($1, 4242, 'Fixture', 'ENABLED', 1) ON CONFLICT (org_key, id) DO NOTHING")
                .bind(org_key).execute(pool).await.unwrap();
            sqlx::query("INSERT INTO asa_ad_groups (org_key, id, campaign_id, name, status, synced_at) VALUES ($1, 4242, 4242, 'Fixture', 'ENABLED', 1) ON CONFLICT (org_key, id) DO NOTHING")
                .bind(org_key).execute(pool).await.unwrap();
            "4242".to_string()
        }
        "competitor" => {
            // App `n` with competitor `n` (so `suggester/competitors/{a}/{b}` finds both
            // with one id) saved in the workspace's competitor store.
            let n = fresh_app_id();
            store::competitors::save(
                &app.state.db.pool,
                workspace_id,
                &store::competitors::Competitor {
                    adam_id: n,
                    competitor_id: n,
                    name: "Fixture".into(),
                    developer: None,
                    icon: None,
                    genre: None,
                },
                1,
            )
            .await
            .unwrap();
            n.to_string()
        }
        "negative-list" => {
            let id = searchdeck_common::ids::new_id();
            store::negative_lists::create(
                &app.state.db.pool,
                &id,
                workspace_id,
                &format!("Fixture {id}"),
                1,
            )
            .await
            .unwrap();
            id
        }
        "ad-group" => {
            // The campaign fixture's ad group 4242.
            Box::pin(resource_in_workspace(app, "campaign", token)).await
        }
        "product-page" => {
            // Product page "4242" synced in the campaign fixture's campaign group.
            Box::pin(resource_in_workspace(app, "campaign", token)).await;
            let pool = &app.state.db.pool;
            let org_key: i64 = sqlx::query_scalar(
                "SELECT o.org_key FROM sync_orgs o JOIN accounts a ON a.id = o.account_id \
                 WHERE a.workspace_id = $1 AND o.org_id = 100 ORDER BY o.org_key DESC LIMIT 1",
            )
            .bind(workspace_id)
            .fetch_one(pool)
            .await
            .unwrap();
            sqlx::query("INSERT INTO asa_product_pages (org_key, id, adam_id, name, synced_at) VALUES ($1, '4242', 4242, 'Fixture', 1) ON CONFLICT (org_key, id) DO NOTHING")
                .bind(org_key).execute(pool).await.unwrap();
            "4242".to_string()
        }
        "rule" => {
            // A rule acting in the campaign fixture's campaign group 100.
            Box::pin(resource_in_workspace(app, "campaign", token)).await;
            let pool = &app.state.db.pool;
            let account_id: String = sqlx::query_scalar(
                "SELECT o.account_id FROM sync_orgs o JOIN accounts a ON a.id = o.account_id \
                 WHERE a.workspace_id = $1 AND o.org_id = 100 ORDER BY o.org_key DESC LIMIT 1",
            )
            .bind(workspace_id)
            .fetch_one(pool)
            .await
            .unwrap();
            let mut rule: searchdeck_common::rules::Rule = serde_json::from_value(json!({
                "name": "Fixture", "accountId": account_id, "orgId": "100", "level": "CAMPAIGNS",
                "conditions": {"operator": "AND", "groups": [{"operator": "AND", "conditions": [
                    {"type": "metric", "metric": "taps", "operator": "GREATER_THAN", "value": "1"}]}]},
                "window": {"type": "last", "days": 7}, "frequency": {"type": "hourly"},
                "actions": [{"type": "pause"}]
            }))
            .unwrap();
            rule.id = searchdeck_common::ids::new_id();
            store::rules::insert(pool, workspace_id, None, &rule, 100)
                .await
                .unwrap();
            rule.id
        }
        "notification" => {
            // A notification of the activity log without changes (its undo is a 400).
            let mut conn = app.state.db.pool.acquire().await.unwrap();
            let n = store::notifications::NewNotification {
                workspace_id: workspace_id.to_string(),
                key: format!("edit:{}", searchdeck_common::ids::new_id()),
                tag: store::notifications::TAG_MANUAL,
                kind: store::notifications::TYPE_CHANGE,
                title: "Fixture".into(),
                action: "UPDATE".into(),
                target: "KEYWORD".into(),
                source: store::notifications::SOURCE_USER,
                source_name: "Fixture".into(),
                user_id: None,
                email: None,
                rule_id: None,
                account_id: None,
                org_id: None,
                undo_of: None,
                created_at: searchdeck_common::ids::now_ms() / 1000,
            };
            store::notifications::record(&mut conn, &n).await.unwrap()
        }
        "rule_run" => {
            // A finished run of the rule fixture that changed one keyword.
            let rule = Box::pin(resource_in_workspace(app, "rule", token)).await;
            let account: String = sqlx::query_scalar("SELECT account_id FROM rules WHERE id = $1")
                .bind(&rule)
                .fetch_one(&app.state.db.pool)
                .await
                .unwrap();
            let id = searchdeck_common::ids::new_id();
            store::rule_runs::insert_run(
                &app.state.db.pool,
                &store::rule_runs::RunRow {
                    id: id.clone(),
                    workspace_id: workspace_id.to_string(),
                    rule_key: rule.clone(),
                    rule_id: Some(rule.clone()),
                    account_id: account,
                    org_id: 100,
                    source: "auto_rules".into(),
                    rule_name: "Fixture".into(),
                    body: "{}".into(),
                    currency: Some("USD".into()),
                    trigger: "MANUAL".into(),
                    period: format!("manual:{id}"),
                    status: "DONE".into(),
                    reason: None,
                    window_start: None,
                    window_end: None,
                    newest_complete_day: None,
                    matched: 1,
                    applied: 1,
                    refused: 0,
                    skipped: 0,
                    undo_of: None,
                    undone_by: None,
                    user_id: None,
                    user_email: None,
                    created_at: 1,
                    started_at: 1,
                    finished_at: Some(1),
                },
            )
            .await
            .unwrap();
            id
        }
        "team-member" | "team-entry" => {
            // A reader of the workspace, addressed by their user id (docs/api/team.md).
            let member = app.member(token, Role::Reader).await;
            app.get("/api/auth/me", Some(&member)).await.json["result"]["item"]["id"]
                .as_str()
                .unwrap()
                .to_string()
        }
        other => panic!("no fixture for resource kind {other:?}: add one here"),
    }
}

/// An App Store id no other fixture used.
fn fresh_app_id() -> i64 {
    static NEXT: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(0);
    searchdeck_common::ids::now_ms() * 1000
        + NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 1000
}

/// Every documented operation as (method, path, operation).
fn operations(doc: &Value) -> Vec<(String, String, Value)> {
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            ops.push((method.clone(), path.clone(), op.clone()));
        }
    }
    ops
}

/// `path` with every `{param}` replaced by `id`.
fn concrete(path: &str, id: &str) -> String {
    path.split('/')
        .map(|seg| if seg.starts_with('{') { id } else { seg })
        .collect::<Vec<_>>()
        .join("/")
}

fn method(m: &str) -> Method {
    Method::from_bytes(m.to_uppercase().as_bytes()).unwrap()
}

backend_tests! {
    async fn every_route_declares_and_enforces_its_session(app: TestApp) {
        let doc = app.get("/api/openapi.json", None).await.json;
        assert_eq!(doc["components"]["securitySchemes"]["session"], json!({"type": "apiKey", "in": "cookie", "name": "sd_session", "description": doc["components"]["securitySchemes"]["session"]["description"]}));
        assert!(doc["components"]["schemas"]["ErrorBody"].is_object(), "the error body the guards name");
        let mut checked = 0;
        for (m, path, op) in operations(&doc) {
            let public = PUBLIC_ROUTES.contains(&(m.as_str(), path.as_str()));
            let secured = op["security"] == json!([{"session": []}]);
            assert_eq!(secured, !public, "{m} {path}: security declared iff not public");
            if public {
                continue;
            }
            assert!(op["responses"]["401"].is_object(), "{m} {path} documents 401");
            let res = app.request(method(&m), &concrete(&path, "some-id"), Some(json!({})), None).await;
            assert_eq!(res.status, StatusCode::UNAUTHORIZED, "{m} {path} answers without a session");
            assert_eq!(res.message(), "Unauthorized");
            checked += 1;
        }
        println!("PROBE session: {checked} routes called without a session, each 401");
        assert!(checked >= 8, "only {checked} routes checked");
    }

    async fn every_write_route_refuses_a_reader(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let reader = app.member(&owner, Role::Reader).await;
        let doc = app.get("/api/openapi.json", None).await.json;
        for (m, path) in EDIT_ROUTES {
            let op = &doc["paths"][*path][*m];
            assert_eq!(op["x-roles"], json!(["owner", "admin", "writer"]), "{m} {path} is documented for editors");
            // campaigns/updates names its campaigns in the body and resolves them in the
            // caller's workspace itself (api/tests/bulk checks another workspace's 404).
            if path.contains('{') {
                assert_eq!(op["x-resource"]["kind"], "campaign", "{m} {path} is scoped to a synced campaign");
            }
        }
        let mut calls = 0;
        for (m, path, op) in operations(&doc) {
            let Some(roles) = op.get("x-roles") else {
                let own = OWN_VALUE_WRITES.contains(&(m.as_str(), path.as_str()))
                    || READS_BY_POST.contains(&(m.as_str(), path.as_str()));
                let public = PUBLIC_ROUTES.contains(&(m.as_str(), path.as_str()));
                assert!(m == "get" || own || public, "{m} {path} writes without an Editor or Manager guard");
                continue;
            };
            assert!(!roles.as_array().unwrap().contains(&json!("reader")), "{m} {path}");
            assert!(op["responses"]["403"].is_object(), "{m} {path} documents 403");
            let url = concrete(&path, "some-id");
            let res = app.request(method(&m), &url, Some(json!({})), Some(&reader)).await;
            assert_eq!(res.status, StatusCode::FORBIDDEN, "{m} {path} refuses a reader");
            let res = app.request(method(&m), &url, Some(json!({})), Some(&owner)).await;
            assert_ne!(res.status, StatusCode::FORBIDDEN, "{m} {path} admits the owner");
            calls += 2;
        }
        println!("PROBE roles: {calls} role × route calls (reader refused, owner admitted)");
    }

    async fn every_resource_id_is_scoped_to_the_workspace(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let stranger = app.register(&app.email(), "long password").await;
        let doc = app.get("/api/openapi.json", None).await.json;
        let mut checked = 0;
        for (m, path, op) in operations(&doc) {
            let resource = &op["x-resource"];
            let params: Vec<&str> = path.split('/').filter_map(|s| s.strip_prefix('{')?.strip_suffix('}')).collect();
            // A child parameter (`x-resource.children`) names a thing inside the resource,
            // looked up within it; the fixture's id names the resource and its child. A value
            // parameter (`VALUE_PARAMS`, e.g. a table type) is no resource at all.
            let children: Vec<&str> = resource["children"].as_array().map(|c| c.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            let public = op["x-public-id"]["param"].as_str();
            for p in params.iter().filter(|p| !VALUE_PARAMS.contains(&(path.as_str(), **p))) {
                assert!(resource["param"].as_str() == Some(*p) || children.contains(p) || public == Some(*p), "{m} {path}: path parameter {p} is not a workspace resource id");
            }
            if let Some(p) = public {
                assert_eq!(op["x-public-id"]["kind"], "app-store-app", "{m} {path}: the one public kind");
                let bad = app.request(method(&m), &concrete(&path, "not-an-app"), Some(json!({})), Some(&owner)).await;
                assert_eq!((bad.status, &bad.json["errors"][0]["field"]), (StatusCode::BAD_REQUEST, &json!(p)), "{m} {path}: not an App Store id");
                if m == "get" {
                    // The owner saved data for this app; another workspace sees none of it.
                    let saved = resource_in_workspace(&app, "competitor", &owner).await;
                    let seen = app.request(method(&m), &concrete(&path, &saved), None, Some(&stranger)).await;
                    let unsaved = app.request(method(&m), &concrete(&path, &fresh_app_id().to_string()), None, Some(&stranger)).await;
                    assert_eq!((seen.status, &seen.json), (unsaved.status, &unsaved.json), "{m} {path}: another workspace's saved app answers like an unsaved one");
                }
                checked += 1;
            }
            let Some(kind) = resource["kind"].as_str() else { continue };
            let param = resource["param"].as_str().unwrap();
            // A resource named in the query (`accountId`) beside value parameters in the path
            // (an App Store id) takes a valid value there.
            let url_for = |id: &str| if params.contains(&param) { concrete(&path, id) } else if params.is_empty() { format!("{path}?{param}={id}") } else { format!("{}?{param}={id}", concrete(&path, "1")) };
            let id = resource_in_workspace(&app, kind, &owner).await;
            let missing = app.request(method(&m), &url_for("no-such-id"), Some(json!({})), Some(&stranger)).await;
            assert_eq!(missing.status, StatusCode::NOT_FOUND, "{m} {path}: a missing id");
            assert!(op["responses"]["404"].is_object(), "{m} {path} documents 404");
            let foreign = app.request(method(&m), &url_for(&id), Some(json!({})), Some(&stranger)).await;
            assert_eq!((foreign.status, &foreign.json), (missing.status, &missing.json), "{m} {path}: another workspace's id answers like a missing one");
            let own = app.request(method(&m), &url_for(&id), Some(json!({})), Some(&owner)).await;
            assert_ne!(own.status, StatusCode::NOT_FOUND, "{m} {path}: the owner's own id is found");
            checked += 1;
        }
        println!("PROBE workspaces: {checked} routes × (missing, another workspace's, own) id");
        assert!(checked >= 1, "no resource routes checked");
    }

    async fn every_state_changing_get_refuses_cross_site_calls(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let doc = app.get("/api/openapi.json", None).await.json;
        let mut marked: Vec<String> = operations(&doc)
            .into_iter()
            .filter(|(m, _, op)| m == "get" && op["x-state-changing"] == json!(true))
            .map(|(_, path, _)| path)
            .collect();
        marked.sort();
        assert_eq!(marked, STATE_CHANGING_GETS, "the state-changing GETs are marked where routed");
        let account = resource_in_workspace(&app, "account", &owner).await;
        let used = app.get("/api/account/getUsed", Some(&owner)).await.json;
        for path in STATE_CHANGING_GETS {
            let op = &doc["paths"][*path]["get"];
            assert!(op["responses"]["403"].is_object(), "{path} documents 403");
            let url = format!("{}?accountId={account}&email=a%40example.com&accountName=X&code=c&state=s", concrete(path, &account));
            for cross in [("sec-fetch-site", "cross-site"), ("origin", "https://evil.example")] {
                let req = Request::get(&url)
                    .header("host", "localhost:8080")
                    .header("cookie", format!("sd_session={owner}"))
                    .header(cross.0, cross.1)
                    .body(Body::empty())
                    .unwrap();
                let res = app.send(req).await;
                assert_eq!(res.status, StatusCode::FORBIDDEN, "{path} with {cross:?}: {:?}", res.json);
                assert_eq!(res.message(), "Cross-site requests are not allowed");
            }
            // No cross-site header, but no X-Searchdeck-Client either (a page that suppressed
            // them all): refused too.
            let req = Request::get(&url)
                .header("host", "localhost:8080")
                .header("cookie", format!("sd_session={owner}"))
                .body(Body::empty())
                .unwrap();
            let res = app.send(req).await;
            assert_eq!(res.status, StatusCode::FORBIDDEN, "{path} without X-Searchdeck-Client: {:?}", res.json);
            assert!(res.message().starts_with("This request changes data"), "{path}: {:?}", res.json);
            assert!(op["parameters"].as_array().unwrap().iter().any(|p| p["name"] == "X-Searchdeck-Client" && p["in"] == "header" && p["required"] == true), "{path} documents the header");
        }
        println!("PROBE cross-site: {} state-changing GETs × 3 cross-site or header-less calls, each 403", STATE_CHANGING_GETS.len());
        assert_eq!(app.get("/api/account/getUsed", Some(&owner)).await.json, used, "the active account did not change");
        assert_eq!(app.get("/api/auth/me", Some(&owner)).await.status, StatusCode::OK, "still signed in");
    }
}
