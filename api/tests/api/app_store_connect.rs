//! App Store Connect end to end against the sandbox's stand-in (docs/api/app-store-connect.md),
//! on SQLite and PostgreSQL: the stand-in refuses tokens Apple would refuse; connecting is
//! refused to readers, names each malformed field, and stores nothing when App Store
//! Connect refuses the key or the vendor number; a good key is connected (its apps found,
//! the key never answered), the job backfills 30 days and the proceeds answered equal what
//! the stand-in's reports say; the User item lists the connection with `history`; a second
//! connect of the same key reads the days again without adding to them; another
//! workspace's id is 404; disconnecting forgets the connection, its sales and its schedule.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::common::{TestApp, TestResponse};
use crate::harness::{Connected, args, start_sandbox};
use axum::{
    body::Body,
    http::{Method, Request, StatusCode, header},
};
use searchdeck_api::session::Role;
use searchdeck_provider::KeyPair;
use searchdeck_provider::appstore_connect::{AppStoreConnect, AscConfig, AscKey, sales};
use secrecy::ExposeSecret;
use serde_json::{Value, json};

const BOUNDARY: &str = "asc-test-boundary";
const PATH: &str = "/api/users/one/connect/appStore";

/// `PUT` of the connect form with `fields` (the key as a `.p8` file part).
async fn put(t: &Connected, cookie: &str, fields: &[(&str, &str)]) -> TestResponse {
    let mut body = String::new();
    for (name, value) in fields {
        let file = if *name == "key" {
            "; filename=\"AuthKey.p8\""
        } else {
            ""
        };
        body.push_str(&format!(
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"{file}\r\n\r\n{value}\r\n"
        ));
    }
    body.push_str(&format!("--{BOUNDARY}--\r\n"));
    let req = Request::builder()
        .method(Method::PUT)
        .uri(PATH)
        .header(header::HOST, "localhost:8080")
        .header("x-searchdeck-client", "web")
        .header(header::COOKIE, format!("sd_session={cookie}"))
        .header(
            header::CONTENT_TYPE,
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(Body::from(body))
        .unwrap();
    t.app.send(req).await
}

/// A key registered with the stand-in: (key, issuer id, key id, vendor number).
async fn registered(t: &Connected) -> (KeyPair, String, String, String) {
    let key = KeyPair::generate();
    let ids: Value = t
        .http
        .post(format!("{}/sandbox/appstoreconnect/keys", t.sandbox))
        .body(key.public_pem())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let f = |k: &str| ids[k].as_str().unwrap().to_string();
    (key, f("issuerId"), f("keyId"), f("vendorNumber"))
}

async fn count(t: &Connected, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string()))
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

/// Waits until the connection's read succeeded after `after` (unix ms), or failed.
async fn read(t: &Connected, cookie: &str, after: i64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(300);
    while Instant::now() < deadline {
        let res = t.get(PATH, cookie).await;
        let item = res.json["result"]["items"][0].clone();
        if item["lastSuccessAt"].as_i64().is_some_and(|s| s > after)
            || item["lastError"].is_string()
        {
            return item;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("the sales read did not finish");
}

/// (units, proceeds micros) per (app, day) of `items` as the proceeds route answers them.
fn by_app_day(items: &Value) -> BTreeMap<(i64, String), (i64, i64)> {
    let mut out = BTreeMap::new();
    for i in items.as_array().unwrap() {
        let proceeds: rust_decimal::Decimal = i["proceeds"].to_string().parse().unwrap();
        let micros = (proceeds * rust_decimal::Decimal::from(1_000_000)).round();
        out.insert(
            (
                i["adamId"].as_i64().unwrap(),
                i["day"].as_str().unwrap().to_string(),
            ),
            (
                i["units"].as_i64().unwrap(),
                micros.to_string().parse().unwrap(),
            ),
        );
    }
    out
}

async fn stand_in_refuses_what_apple_refuses(t: &Connected) {
    let (pair, issuer, key_id, _) = registered(t).await;
    let apps = format!("{}/appstoreconnect/v1/apps", t.sandbox);
    let status = |token: Option<String>| {
        let mut req = t.http.get(&apps);
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        async move { req.send().await.unwrap() }
    };
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let sign = |claims: Value| {
        pair.sign_jwt(
            &json!({"alg": "ES256", "kid": key_id, "typ": "JWT"}),
            &claims,
        )
    };
    let none = status(None).await;
    assert_eq!(none.status(), 401);
    let body: Value = none.json().await.unwrap();
    assert_eq!(body["errors"][0]["code"], "NOT_AUTHORIZED", "{body}");
    for claims in [
        json!({"iss": issuer, "iat": now, "exp": now + 600, "aud": "appstoreconnect-v2"}),
        json!({"iss": issuer, "iat": now, "exp": now + 3600, "aud": "appstoreconnect-v1"}),
        json!({"iss": issuer, "iat": now - 1200, "exp": now - 60, "aud": "appstoreconnect-v1"}),
        json!({"iss": "57246542-96fe-1a63-e053-0824d011072a", "iat": now, "exp": now + 600, "aud": "appstoreconnect-v1"}),
    ] {
        assert_eq!(
            status(Some(sign(claims.clone()))).await.status(),
            401,
            "{claims}"
        );
    }
    let good =
        sign(json!({"iss": issuer, "iat": now, "exp": now + 600, "aud": "appstoreconnect-v1"}));
    assert_eq!(status(Some(good)).await.status(), 200);
}

async fn end_to_end(t: Connected) {
    stand_in_refuses_what_apple_refuses(&t).await;
    let owner = t.owner().await;
    let reader = t.app.member(&owner, Role::Reader).await;
    let writer = t.app.member(&owner, Role::Writer).await;
    let (pair, issuer, key_id, vendor) = registered(&t).await;
    let pem = pair.private_pem().expose_secret().to_string();
    let good = [
        ("issuerId", issuer.as_str()),
        ("keyId", key_id.as_str()),
        ("vendorNumber", vendor.as_str()),
        ("key", pem.as_str()),
    ];

    // Readers may not; malformed fields are named, all at once; nothing is stored.
    assert_eq!(put(&t, &reader, &good).await.status, StatusCode::FORBIDDEN);
    let res = put(
        &t,
        &writer,
        &[
            ("issuerId", "not-a-uuid"),
            ("keyId", "abc"),
            ("vendorNumber", "V-1"),
            ("key", &pair.public_pem()),
        ],
    )
    .await;
    let fields: Vec<&str> = res.json["errors"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["field"].as_str())
        .collect();
    assert_eq!(
        (res.status, fields),
        (
            StatusCode::BAD_REQUEST,
            vec!["issuerId", "keyId", "vendorNumber", "key"]
        ),
        "{:?}",
        res.json
    );
    let res = put(
        &t,
        &writer,
        &[
            ("issuerId", &issuer),
            ("keyId", &key_id),
            ("vendorNumber", &vendor),
        ],
    )
    .await;
    assert_eq!(
        (res.status, res.json["errors"][0]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("key"))
    );

    // A key App Store Connect does not know, and a vendor number not the team's: refused.
    let stranger_key = KeyPair::generate()
        .private_pem()
        .expose_secret()
        .to_string();
    let res = put(
        &t,
        &writer,
        &[
            ("issuerId", &issuer),
            ("keyId", &key_id),
            ("vendorNumber", &vendor),
            ("key", &stranger_key),
        ],
    )
    .await;
    assert_eq!(
        (res.status, res.json["errors"][0]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("key")),
        "{:?}",
        res.json
    );
    let message = res.json["errors"][0]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(
        message.starts_with("App Store Connect refused this key: "),
        "{message}"
    );
    let res = put(
        &t,
        &writer,
        &[
            ("issuerId", &issuer),
            ("keyId", &key_id),
            ("vendorNumber", "11111111"),
            ("key", &pem),
        ],
    )
    .await;
    assert_eq!(
        (res.status, res.json["errors"][0]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("vendorNumber")),
        "{:?}",
        res.json
    );
    assert_eq!(
        count(&t, "SELECT COUNT(*) FROM app_store_connections").await,
        0
    );

    // Connected: the apps found, the key never answered; the backfill reads 30 days.
    let before = searchdeck_common::ids::now_ms();
    let res = put(&t, &writer, &good).await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    let item = res.json["result"]["item"].clone();
    let id = item["id"].as_str().unwrap().to_string();
    assert_eq!(
        (item["name"].as_str(), item["history"].as_bool()),
        (Some(key_id.as_str()), Some(false))
    );
    assert!(!item["apps"].as_array().unwrap().is_empty(), "{item}");
    assert!(
        !res.json.to_string().contains("PRIVATE KEY"),
        "the key is never answered"
    );
    let done = read(&t, &reader, before).await;
    assert!(done["lastError"].is_null(), "{done}");
    let yesterday = time::OffsetDateTime::now_utc().date() - time::Duration::days(1);
    let first = yesterday - time::Duration::days(29);
    assert_eq!(
        (done["history"].as_bool(), done["lastDay"].as_str()),
        (Some(true), Some(yesterday.to_string().as_str()))
    );
    assert_eq!(
        count(&t, "SELECT COUNT(*) FROM app_store_sales_days").await,
        30
    );
    assert_eq!(
        count(
            &t,
            "SELECT COUNT(*) FROM schedules WHERE key LIKE 'app-store-sales:%'"
        )
        .await,
        1
    );

    // The proceeds are what the stand-in's reports say (read here with the provider's client).
    let client = AppStoreConnect::new(AscConfig::sandbox(&t.sandbox)).unwrap();
    let key = AscKey::new(&issuer, &key_id, &pem).unwrap();
    let apps = client.apps(&key).await.unwrap();
    let mut truth: BTreeMap<(i64, String), (i64, i64)> = BTreeMap::new();
    let mut day = first;
    while day <= yesterday {
        let rows = client
            .daily_sales(&key, &vendor, day)
            .await
            .unwrap()
            .unwrap_or_default();
        for s in sales::attribute(&rows, &apps) {
            let e = truth.entry((s.adam_id, s.day.to_string())).or_default();
            (e.0, e.1) = (e.0 + s.units, e.1 + s.proceeds_micros);
        }
        day += time::Duration::days(1);
    }
    assert!(
        truth.values().any(|(_, p)| *p > 0),
        "the world sold something"
    );
    let q = format!("{PATH}/{id}/proceeds?from={first}&through={yesterday}");
    let res = t.get(&q, &reader).await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    assert_eq!(by_app_day(&res.json["result"]["items"]), truth);
    let res = t
        .get(
            &format!("{PATH}/{id}/proceeds?from={yesterday}&through={first}"),
            &reader,
        )
        .await;
    assert_eq!(
        (res.status, res.json["errors"][0]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("through"))
    );

    // The User item lists the connection.
    let me = t.get("/api/auth/me", &reader).await;
    assert_eq!(
        me.json["result"]["item"]["connects"]["appStore"],
        json!([{"id": id, "name": key_id, "history": true}])
    );

    // The same key again: the same connection, the days read again and stored once.
    let rows = count(&t, "SELECT COUNT(*) FROM app_store_sales").await;
    let before = searchdeck_common::ids::now_ms();
    let res = put(&t, &owner, &good).await;
    assert_eq!(res.json["result"]["item"]["id"].as_str(), Some(id.as_str()));
    read(&t, &reader, before).await;
    assert_eq!(
        count(&t, "SELECT COUNT(*) FROM app_store_sales").await,
        rows
    );
    assert_eq!(
        by_app_day(&t.get(&q, &reader).await.json["result"]["items"]),
        truth
    );

    // Another workspace's id is not found; readers may not disconnect; a writer may.
    let stranger = t.owner().await;
    let other = t
        .call(
            Method::DELETE,
            &format!("{PATH}/{id}"),
            json!({}),
            &stranger,
        )
        .await;
    assert_eq!(other.status, StatusCode::NOT_FOUND);
    assert_eq!(t.get(&q, &stranger).await.status, StatusCode::NOT_FOUND);
    let res = t
        .call(Method::DELETE, &format!("{PATH}/{id}"), json!({}), &reader)
        .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    let res = t
        .call(Method::DELETE, &format!("{PATH}/{id}"), json!({}), &writer)
        .await;
    assert_eq!(
        (res.status, res.json["result"]["items"].clone()),
        (StatusCode::OK, json!([]))
    );
    assert_eq!(count(&t, "SELECT COUNT(*) FROM app_store_sales").await, 0);
    assert_eq!(
        count(
            &t,
            "SELECT COUNT(*) FROM schedules WHERE key LIKE 'app-store-sales:%'"
        )
        .await,
        0
    );
    let me = t.get("/api/auth/me", &reader).await;
    assert_eq!(me.json["result"]["item"]["connects"]["appStore"], json!([]));
}

crate::sandbox_tests! {
    async fn app_store_connect_connects_backfills_and_disconnects(t: Connected) {
        end_to_end(t).await
    }
}
