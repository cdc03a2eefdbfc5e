//! The keyword suggester's apps, competitors and estimates through the real router against
//! an in-process sandbox (App Store stand-ins and Apple Ads), on SQLite and PostgreSQL:
//! app details, App Store search (both findApp routes), the competitor store (save one or
//! many, read, delete, at most 10, another workspace's competitors invisible and a 404 to
//! delete, readers refused on writes), competitor suggestions, estimated impressions from
//! seeded synced reports, and share of voice from the provider's impression-share report.

use std::collections::HashSet;

use crate::common::{TestApp, TestBackend};
use crate::harness::{Connected, args, start_sandbox};
use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use searchdeck_common::{
    ids::{new_id, now_ms},
    store::{
        self,
        accounts::{NewAccount, OrgRow},
        popularity::{self, Popularity},
        report_facts::{self, Counters, DayRow, FactLevel},
    },
};
use serde_json::{Value, json};

/// An owner with a sandbox connection: (cookie, account id, org id, an app of the org and
/// a storefront it is sold in).
struct Setup {
    owner: String,
    account: String,
    org: i64,
    app: String,
    country: String,
    name: String,
}

async fn setup(t: &Connected) -> Setup {
    let owner = t.owner().await;
    let ids = t.registered_key(&owner).await;
    let res = t.create(&owner, "Main", &ids).await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    let account = res.json["result"]["item"]["_id"]
        .as_str()
        .unwrap()
        .to_string();
    let apps = t
        .get(&format!("/api/asa/apps?accountId={account}"), &owner)
        .await;
    assert_eq!(apps.status, StatusCode::OK, "{:?}", apps.json);
    let first = apps.json["result"]["items"][0].clone();
    Setup {
        owner,
        org: first["orgId"].as_str().unwrap().parse().unwrap(),
        app: first["adamId"].as_str().unwrap().to_string(),
        country: first["countryOrRegionCodes"][0]
            .as_str()
            .unwrap()
            .to_string(),
        name: first["appName"].as_str().unwrap().to_string(),
        account,
    }
}

fn ids_of(v: &Value) -> Vec<String> {
    v["result"]["items"]
        .as_array()
        .unwrap_or_else(|| panic!("items in {v}"))
        .iter()
        .map(|i| i["adamId"].as_str().unwrap().to_string())
        .collect()
}

fn fields(v: &Value) -> Vec<String> {
    v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap().to_string())
        .collect()
}

sandbox_tests! {
    async fn apps_and_competitors(t: Connected) {
        let s = setup(&t).await;
        let (app, country) = (s.app.as_str(), s.country.as_str());

        // Details: from the App Store; with the account, the storefronts from Apple Ads.
        let details = t.get(&format!("/api/suggester/adams/{app}?country={country}"), &s.owner).await;
        assert_eq!(details.status, StatusCode::OK, "{:?}", details.json);
        let item = &details.json["result"]["item"];
        assert_eq!(item["adamId"], app);
        assert_eq!(item["name"], s.name.as_str());
        assert!(item["genre"].as_str().is_some() && item["url"].as_str().is_some(), "{item}");
        assert_eq!(item["countries"], Value::Null);
        let with = t.get(&format!("/api/suggester/adams/{app}?country={country}&accountId={}&orgId={}", s.account, s.org), &s.owner).await;
        assert_eq!(with.status, StatusCode::OK, "{:?}", with.json);
        let sold = with.json["result"]["item"]["countries"].as_array().unwrap().clone();
        assert!(sold.contains(&json!(country)), "{sold:?}");
        let bad = t.get("/api/suggester/adams/photo", &s.owner).await;
        assert_eq!((bad.status, fields(&bad.json)), (StatusCode::BAD_REQUEST, vec!["id".to_string()]));
        assert_eq!(t.get("/api/suggester/adams/1", &s.owner).await.status, StatusCode::NOT_FOUND);
        assert_eq!(t.get(&format!("/api/suggester/adams/{app}?country=XX"), &s.owner).await.status, StatusCode::BAD_REQUEST);

        // App Store search: both routes are one function.
        let word = s.name.split_whitespace().next().unwrap();
        let query = json!({"query": word, "country": country});
        let found = t.call(Method::POST, "/api/suggester/competitors/findApp", query.clone(), &s.owner).await;
        assert_eq!(found.status, StatusCode::OK, "{:?}", found.json);
        assert!(ids_of(&found.json).contains(&s.app), "{:?}", found.json);
        assert!(ids_of(&found.json).len() <= 25);
        let settings = t.call(Method::POST, "/api/competitors/findApp", query, &s.owner).await;
        assert_eq!(settings.json, found.json);
        let invalid = t.call(Method::POST, "/api/competitors/findApp", json!({"query": " "}), &s.owner).await;
        assert_eq!(invalid.status, StatusCode::BAD_REQUEST);
        assert_eq!(fields(&invalid.json), ["query", "country"]);

        // Suggestions: apps of the genre and the name's terms, never the app itself.
        let suggested = t.call(Method::POST, "/api/competitors/find", json!({"adamId": app, "country": country}), &s.owner).await;
        assert_eq!(suggested.status, StatusCode::OK, "{:?}", suggested.json);
        let suggestions = ids_of(&suggested.json);
        assert!(!suggestions.is_empty() && !suggestions.contains(&s.app), "{suggestions:?}");
        // Every app the storefront sells says "app" in its description (sandbox world).
        let every = t.call(Method::POST, "/api/competitors/findApp", json!({"query": "app", "country": country}), &s.owner).await;
        let b = suggestions[0].clone();
        let candidates: Vec<String> = std::iter::once(b.clone())
            .chain(ids_of(&every.json).into_iter().filter(|id| *id != s.app && *id != b))
            .collect();
        assert!(candidates.len() >= 11, "enough apps to fill an app's competitors: {candidates:?}");
        let c = candidates[1].clone();

        // Save one, then many; the app itself and unknown apps are refused.
        let saved = t.call(Method::POST, "/api/suggester/competitors", json!({"adamId": app, "competitorId": b, "country": country}), &s.owner).await;
        assert_eq!(saved.status, StatusCode::OK, "{:?}", saved.json);
        assert_eq!(saved.json["result"]["item"]["adamId"], b.as_str());
        assert!(saved.json["result"]["item"]["name"].as_str().is_some_and(|n| !n.is_empty()));
        let itself = t.call(Method::POST, "/api/suggester/competitors", json!({"adamId": app, "competitorId": app, "country": country}), &s.owner).await;
        assert_eq!((itself.status, fields(&itself.json)), (StatusCode::BAD_REQUEST, vec!["competitorId".to_string()]));
        let unknown = t.call(Method::POST, "/api/suggester/competitors", json!({"adamId": app, "competitorId": "1", "country": country}), &s.owner).await;
        assert_eq!((unknown.status, fields(&unknown.json)), (StatusCode::NOT_FOUND, vec!["competitorId".to_string()]));
        let invalid = t.call(Method::POST, "/api/suggester/competitors", json!({"adamId": "x1", "competitorId": b, "country": country}), &s.owner).await;
        assert_eq!(fields(&invalid.json), ["adamId"]);
        let many = t.call(Method::POST, "/api/suggester/competitors/many", json!({"adamId": app, "competitorIds": [c, b], "country": country}), &s.owner).await;
        assert_eq!(many.status, StatusCode::OK, "{:?}", many.json);
        assert_eq!(ids_of(&many.json), [b.clone(), c.clone()]);
        let with_unknown = t.call(Method::POST, "/api/suggester/competitors/many", json!({"adamId": app, "competitorIds": [candidates[2], "1"], "country": country}), &s.owner).await;
        assert_eq!((with_unknown.status, fields(&with_unknown.json)), (StatusCode::NOT_FOUND, vec!["competitorIds.1".to_string()]));
        // At most 10 per app: 2 saved + 9 new is refused, nothing saved.
        let nine: Vec<&String> = candidates[2..11].iter().collect();
        let over = t.call(Method::POST, "/api/suggester/competitors/many", json!({"adamId": app, "competitorIds": nine, "country": country}), &s.owner).await;
        assert_eq!((over.status, fields(&over.json)), (StatusCode::BAD_REQUEST, vec!["competitorIds".to_string()]));
        let got = t.get(&format!("/api/competitors/get/{app}"), &s.owner).await;
        assert_eq!(ids_of(&got.json), [b.clone(), c.clone()]);
        // Saved ones are no longer suggested.
        let again = t.call(Method::POST, "/api/competitors/find", json!({"adamId": app, "country": country}), &s.owner).await;
        let left: HashSet<String> = ids_of(&again.json).into_iter().collect();
        assert!(!left.contains(&b) && !left.contains(&c));
        let by_app = t.call(Method::POST, "/api/competitors/get/many", json!({"adamIds": [app, "123", app]}), &s.owner).await;
        assert_eq!(by_app.status, StatusCode::OK, "{:?}", by_app.json);
        let rows = by_app.json["result"]["items"].as_array().unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0]["adamId"], app);
        assert_eq!(rows[0]["competitors"].as_array().unwrap().len(), 2);
        assert_eq!(rows[1], json!({"adamId": "123", "competitors": []}));
        let too_many: Vec<String> = (1..=51).map(|i| i.to_string()).collect();
        let refused = t.call(Method::POST, "/api/competitors/get/many", json!({"adamIds": too_many}), &s.owner).await;
        assert_eq!(fields(&refused.json), ["adamIds"]);

        // Readers read but do not write; another workspace sees nothing and deletes nothing.
        let reader = t.app.member(&s.owner, Role::Reader).await;
        assert_eq!(ids_of(&t.get(&format!("/api/competitors/get/{app}"), &reader).await.json), [b.clone(), c.clone()]);
        let refused = t.call(Method::POST, "/api/suggester/competitors", json!({"adamId": app, "competitorId": b, "country": country}), &reader).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        let refused = t.call(Method::DELETE, &format!("/api/suggester/competitors/{app}/{b}"), json!({}), &reader).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        let stranger = t.owner().await;
        assert!(ids_of(&t.get(&format!("/api/competitors/get/{app}"), &stranger).await.json).is_empty());
        let foreign = t.call(Method::DELETE, &format!("/api/suggester/competitors/{app}/{b}"), json!({}), &stranger).await;
        let missing = t.call(Method::DELETE, "/api/suggester/competitors/777/778", json!({}), &stranger).await;
        assert_eq!(foreign.status, StatusCode::NOT_FOUND);
        assert_eq!(foreign.json, missing.json);

        let deleted = t.call(Method::DELETE, &format!("/api/suggester/competitors/{app}/{b}"), json!({}), &s.owner).await;
        assert_eq!(deleted.status, StatusCode::OK, "{:?}", deleted.json);
        let twice = t.call(Method::DELETE, &format!("/api/suggester/competitors/{app}/{b}"), json!({}), &s.owner).await;
        assert_eq!(twice.status, StatusCode::NOT_FOUND);
        assert_eq!(ids_of(&t.get(&format!("/api/competitors/get/{app}"), &s.owner).await.json), [c]);
    }

    async fn share_of_voice_is_the_providers(t: Connected) {
        let s = setup(&t).await;
        // What Apple Ads' impression-share report holds for the org's apps last week.
        let client = t.app.state.provider.client_by_id(&t.app.state.db, &s.account).await.unwrap();
        let today = time::OffsetDateTime::now_utc().date();
        let start = today - time::Duration::days(7);
        let apps = t.get(&format!("/api/asa/apps?accountId={}&orgId={}", s.account, s.org), &s.owner).await;
        let mut found = None;
        for a in apps.json["result"]["items"].as_array().unwrap() {
            let adam = a["adamId"].as_str().unwrap();
            let rows = client.impression_share(s.org, &json!({
                "timeRange": {"start": start.to_string(), "end": today.to_string(), "granularity": "WEEKLY_SUN_SAT"},
                "filters": [{"field": "promotedObjectId", "operator": "EQUALS", "value": [adam]}],
                "pagination": {"pageSize": 5000}})).await.unwrap();
            let newest = rows.items.iter().map(|r| r["week"].as_str().unwrap().to_string()).max();
            if let Some(week) = newest
                && let Some(row) = rows.items.iter().find(|r| r["week"] == week.as_str())
            {
                found = Some((adam.to_string(), row.clone()));
                break;
            }
        }
        let (adam, row) = found.expect("the sandbox serves impression share for an app of the org");
        let term = row["searchTerm"].as_str().unwrap();
        let country = row["countryOrRegion"].as_str().unwrap();
        let url = format!("/api/reports/sov?accountId={}&orgId={}", s.account, s.org);
        let keywords = format!("{}\n\nzzqx never searched\n{}", term.to_uppercase(), term);
        let res = t.multipart(&url, &[("adamId", &adam), ("country", country), ("keywords", &keywords)], &s.owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["items"], json!([
            {"keyword": term, "lowImpressionShare": row["lowImpressionShare"], "highImpressionShare": row["highImpressionShare"], "rank": row["rank"]},
            {"keyword": "zzqx never searched", "lowImpressionShare": null, "highImpressionShare": null, "rank": null},
        ]));
        let res = t.multipart(&url, &[("adamId", "x"), ("dateRange", "LAST_YEAR")], &s.owner).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert_eq!(fields(&res.json), ["adamId", "country", "keywords", "dateRange"]);
        // Readers read it; another workspace's account is a 404.
        let reader = t.app.member(&s.owner, Role::Reader).await;
        let read = t.multipart(&url, &[("adamId", &adam), ("country", country), ("keywords", term)], &reader).await;
        assert_eq!(read.status, StatusCode::OK, "{:?}", read.json);
        let stranger = t.owner().await;
        let foreign = t.multipart(&url, &[("adamId", &adam), ("country", country), ("keywords", term)], &stranger).await;
        assert_eq!(foreign.status, StatusCode::NOT_FOUND);
    }
}

/// A connection of `cookie`'s workspace with synced campaign group 7000: campaign 1 (US),
/// keywords `photo editor` (EXACT, 40 impressions a day), `filters` (EXACT, 10 a day),
/// `photo editor` (BROAD, 120 a day) and `unused` (EXACT, none), over the last 5 days.
async fn estimate_world(app: &TestApp, cookie: &str) -> String {
    let db = &app.state.db;
    let me = app.get("/api/auth/me", Some(cookie)).await.json["result"]["item"].clone();
    let workspace_id = me["workspaceId"].as_str().unwrap();
    let id = new_id();
    let account = store::accounts::upsert(
        &db.pool,
        NewAccount {
            provider_user_id: 7000,
            name: "Ads",
            ..NewAccount::without_credentials(
                &id,
                workspace_id,
                me["id"].as_str().unwrap(),
                "SEARCHADS.e",
                now_ms(),
            )
        },
    )
    .await
    .unwrap();
    let org = OrgRow {
        org_id: 7000,
        display_name: "Group".into(),
        currency: Some("USD".into()),
        time_zone: Some("UTC".into()),
        permission: "API Account Manager".into(),
        selected: true,
    };
    store::accounts::upsert_org(&db.pool, &account, &org, now_ms())
        .await
        .unwrap();
    let org_key = store::synced::ensure_org(&db.pool, &account, 7000, Some("USD"), Some("UTC"))
        .await
        .unwrap();
    let now = now_ms();
    sqlx::query("INSERT INTO asa_campaigns (org_key, id, name, status, countries, synced_at) VALUES ($1, 1, 'US', 'ENABLED', '[\"US\"]', $2)")
        .bind(org_key).bind(now).execute(&db.pool).await.unwrap();
    sqlx::query("INSERT INTO asa_ad_groups (org_key, id, campaign_id, name, status, synced_at) VALUES ($1, 2, 1, 'G', 'ENABLED', $2)")
        .bind(org_key).bind(now).execute(&db.pool).await.unwrap();
    let keywords = [
        (11i64, "Photo Editor", "EXACT", 40i64),
        (12, "filters", "EXACT", 10),
        (13, "photo editor", "BROAD", 120),
        (14, "unused", "EXACT", 0),
    ];
    for (kid, text, kind, _) in keywords {
        sqlx::query("INSERT INTO asa_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, synced_at) VALUES ($1, $2, 1, 2, $3, $4, 'ACTIVE', $5)")
            .bind(org_key).bind(kid).bind(text).bind(kind).bind(now).execute(&db.pool).await.unwrap();
    }
    let today = time::OffsetDateTime::now_utc().date();
    let mut rows = Vec::new();
    for back in 1..=5 {
        for (kid, _, _, daily) in keywords.iter().filter(|k| k.3 > 0) {
            let mut c = Counters::default();
            c.0[0] = *daily;
            rows.push(DayRow {
                org_key,
                level: FactLevel::Keyword,
                day: today - time::Duration::days(back),
                entity_id: *kid,
                campaign_id: 1,
                ad_group_id: 2,
                counters: c,
            });
        }
    }
    report_facts::insert_days(db, &rows).await.unwrap();
    report_facts::refresh(
        db,
        org_key,
        FactLevel::Keyword,
        today - time::Duration::days(5),
    )
    .await
    .unwrap();
    let pop = |text: &str, value: i64| Popularity {
        text: text.into(),
        country: "US".into(),
        popularity: Some(value),
        fetched_at: now,
    };
    popularity::put_many(
        &db.pool,
        &[
            pop("photo editor", 57),
            pop("filters", 33),
            pop("collage", 52),
            pop("selfie", 38),
        ],
    )
    .await
    .unwrap();
    account
}

backend_tests! {
    async fn estimated_impressions_come_from_own_reports(app: TestApp) {
        let cookie = app.register(&app.email(), "long password").await;
        let account = estimate_world(&app, &cookie).await;
        let url = format!("/api/reports/asa/getEstimatedImpressions?accountId={account}&orgId=7000");
        let res = app.post(&url, json!({"keywords": ["photo editor", "Collage!", "selfie", "nothing known"], "countries": ["us"], "type": "EXACT"}), Some(&cookie)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        // Own EXACT `photo editor`: 200 / 30 days ≈ 7. Curve (EXACT keywords with data): decile
        // 5 ← photo editor (200/30), decile 3 ← filters (50/30 ≈ 1.67); collage (52) is decile
        // 5: 7; selfie (38) decile 3: 2; no popularity: 0.
        assert_eq!(res.json["result"]["items"], json!([
            {"keyword": "photo editor", "impressions": 7},
            {"keyword": "collage", "impressions": 7},
            {"keyword": "selfie", "impressions": 2},
            {"keyword": "nothing known", "impressions": 0},
        ]));
        // BROAD: own broad `photo editor` 600 / 30 = 20; the curve times broad/exact
        // (20 / mean(6.67, 1.67) = 4.8): collage 32, selfie 8.
        let res = app.post(&url, json!({"keywords": ["photo editor", "collage", "selfie"], "countries": ["US"], "type": "BROAD"}), Some(&cookie)).await;
        assert_eq!(res.json["result"]["items"].as_array().unwrap().iter().map(|i| i["impressions"].as_i64().unwrap()).collect::<Vec<_>>(), [20, 32, 8]);
        // Another storefront: no own data.
        let res = app.post(&url, json!({"keywords": ["photo editor"], "countries": ["GB"], "type": "EXACT"}), Some(&cookie)).await;
        assert_eq!(res.json["result"]["items"], json!([{"keyword": "photo editor", "impressions": 0}]));

        let res = app.post(&url, json!({"keywords": [], "countries": ["XX"], "type": "PHRASE"}), Some(&cookie)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert_eq!(fields(&res.json), ["keywords", "countries.0", "type"]);
        let too_many: Vec<String> = (0..1001).map(|i| format!("k{i}")).collect();
        let res = app.post(&url, json!({"keywords": too_many, "countries": ["US"], "type": "EXACT"}), Some(&cookie)).await;
        assert_eq!(fields(&res.json), ["keywords"]);
        // Readers read; another workspace's account answers 404.
        let reader = app.member(&cookie, Role::Reader).await;
        let res = app.post(&url, json!({"keywords": ["a"], "countries": ["US"], "type": "EXACT"}), Some(&reader)).await;
        assert_eq!(res.status, StatusCode::OK);
        let stranger = app.register(&app.email(), "long password").await;
        let res = app.post(&url, json!({"keywords": ["a"], "countries": ["US"], "type": "EXACT"}), Some(&stranger)).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND);
    }
}
