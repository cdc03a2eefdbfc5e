//! Attacks on sign-in and the API surface: throttles that stop guessers but not owners,
//! client addresses behind trusted proxies, cross-site requests, oversized or malformed
//! requests, look-alike emails and security headers.

use std::net::SocketAddr;

use crate::common::{TestApp, TestBackend, TestResponse};
use axum::{
    body::Body,
    extract::ConnectInfo,
    http::{Method, Request, StatusCode},
};
use serde_json::{Value, json};

/// A request from `peer` with extra headers.
fn from(
    peer: &str,
    method: Method,
    path: &str,
    body: Option<Value>,
    headers: &[(&str, &str)],
) -> Request<Body> {
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header("host", "localhost:8080");
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    let mut req = match body {
        Some(b) => req
            .header("content-type", "application/json")
            .body(Body::from(b.to_string())),
        None => req.body(Body::empty()),
    }
    .unwrap();
    let addr: SocketAddr = format!("{peer}:40000").parse().unwrap();
    req.extensions_mut().insert(ConnectInfo(addr));
    req
}

async fn login_from(
    app: &TestApp,
    peer: &str,
    email: &str,
    password: &str,
    headers: &[(&str, &str)],
) -> TestResponse {
    app.send(from(
        peer,
        Method::POST,
        "/api/auth/login",
        Some(json!({"email": email, "password": password})),
        headers,
    ))
    .await
}

backend_tests! {
    async fn a_guesser_elsewhere_does_not_lock_the_owner_out(app: TestApp) {
        let email = app.email();
        app.register(&email, "long password").await;
        for i in 0..10 {
            let res = login_from(&app, "6.6.6.6", &email, "wrong password", &[]).await;
            let expected = if i < 5 { StatusCode::UNAUTHORIZED } else { StatusCode::TOO_MANY_REQUESTS };
            assert_eq!(res.status, expected, "guess {i}");
        }
        let owner = login_from(&app, "1.1.1.1", &email, "long password", &[]).await;
        assert_eq!(owner.status, StatusCode::OK, "the owner signs in from their own address");
    }

    async fn only_failed_logins_are_counted(app: TestApp) {
        let email = app.email();
        app.register(&email, "long password").await;
        for i in 0..12 {
            let res = login_from(&app, "2.2.2.2", &email, "long password", &[]).await;
            assert_eq!(res.status, StatusCode::OK, "login {i}");
        }
        for _ in 0..5 {
            assert_eq!(login_from(&app, "2.2.2.2", &email, "wrong password", &[]).await.status, StatusCode::UNAUTHORIZED);
        }
        let res = login_from(&app, "2.2.2.2", &email, "long password", &[]).await;
        assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS);
        assert!(res.message().starts_with("Too many login attempts. Try again in"), "{}", res.message());
        assert!(res.headers.get("retry-after").is_some());
    }

    async fn change_password_has_its_own_limit(app: TestApp) {
        let email = app.email();
        let session = app.register(&email, "long password").await;
        for _ in 0..6 {
            app.post("/api/auth/login", json!({"email": email, "password": "wrong password"}), None).await;
        }
        let change = |old: &'static str| app.post("/api/auth/changePassword", json!({"oldPassword": old, "newPassword": "new long password", "repeatPassword": "new long password"}), Some(&session));
        for _ in 0..5 {
            assert_eq!(change("not the password").await.status, StatusCode::BAD_REQUEST);
        }
        assert_eq!(change("not the password").await.status, StatusCode::TOO_MANY_REQUESTS);
        let other = app.email();
        let other_session = app.register(&other, "long password").await;
        for _ in 0..6 {
            app.post("/api/auth/login", json!({"email": other, "password": "wrong password"}), None).await;
        }
        let res = app.post("/api/auth/changePassword", json!({"oldPassword": "long password", "newPassword": "new long password", "repeatPassword": "new long password"}), Some(&other_session)).await;
        assert_eq!(res.status, StatusCode::OK, "a login lockout does not block changing the password: {:?}", res.json);
    }

    async fn sign_ups_are_limited_per_address(app: TestApp) {
        for i in 0..10 {
            let res = app.send(from("5.5.5.5", Method::POST, "/api/auth/register", Some(json!({"email": app.email(), "password": "long password", "repeatPassword": "long password"})), &[])).await;
            assert_eq!(res.status, StatusCode::OK, "sign-up {i}: {:?}", res.json);
        }
        let res = app.send(from("5.5.5.5", Method::POST, "/api/auth/register", Some(json!({"email": app.email(), "password": "long password", "repeatPassword": "long password"})), &[])).await;
        assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(res.json["status"], 429);
        let res = app.send(from("5.5.5.6", Method::POST, "/api/auth/register", Some(json!({"email": app.email(), "password": "long password", "repeatPassword": "long password"})), &[])).await;
        assert_eq!(res.status, StatusCode::OK, "another address is not affected");
    }

    async fn cross_site_requests_cannot_change_state(app: TestApp) {
        let email = app.email();
        let session = app.register(&email, "long password").await;
        let cookie = format!("sd_session={session}");
        let cross = [("sec-fetch-site", "cross-site"), ("cookie", cookie.as_str())];
        let res = app.send(from("1.1.1.1", Method::GET, "/api/auth/logout", None, &cross)).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN);
        assert_eq!(res.json["status"], 403);
        assert_eq!(res.message(), "Cross-site requests are not allowed");
        assert_eq!(app.get("/api/auth/me", Some(&session)).await.status, StatusCode::OK, "still signed in");
        let head = app.send(from("1.1.1.1", Method::HEAD, "/api/auth/logout", None, &[("cookie", cookie.as_str())])).await;
        assert_eq!(head.status, StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(app.get("/api/auth/me", Some(&session)).await.status, StatusCode::OK, "HEAD does not sign out");
        let head = app.send(from("1.1.1.1", Method::HEAD, &format!("/api/auth/recoveryPassword?email={email}"), None, &[])).await;
        assert_eq!(head.status, StatusCode::METHOD_NOT_ALLOWED);
        // Cross-site recovery requests do not spend the owner's recovery throttle.
        for _ in 0..3 {
            let res = app.send(from("6.6.6.6", Method::GET, &format!("/api/auth/recoveryPassword?email={email}"), None, &[("sec-fetch-site", "cross-site")])).await;
            assert_eq!(res.status, StatusCode::FORBIDDEN);
        }
        let own = app.send(from("1.1.1.1", Method::GET, &format!("/api/auth/recoveryPassword?email={email}"), None, &[("sec-fetch-site", "same-origin"), ("x-searchdeck-client", "web")])).await;
        assert_eq!(own.status, StatusCode::OK);
        // Writes, every combination of the three headers: a foreign Origin or (without an
        // Origin) Referer refuses whatever Sec-Fetch-Site says; then Sec-Fetch-Site; no
        // header at all is not a browser's cross-site request.
        let body = json!({"email": email, "password": "long password"});
        let ours = [None, Some("http://localhost:8080"), Some("https://evil.example"), Some("null")];
        let referers = [None, Some("http://localhost:8080/settings"), Some("http://evil.example/x")];
        let sites = [None, Some("same-origin"), Some("none"), Some("same-site"), Some("cross-site")];
        let mut combinations = 0;
        for origin in ours {
            for referer in referers {
                for site in sites {
                    let mut headers = Vec::new();
                    headers.extend(origin.map(|o| ("origin", o)));
                    headers.extend(referer.map(|r| ("referer", r)));
                    headers.extend(site.map(|s| ("sec-fetch-site", s)));
                    let foreign = match origin {
                        Some(o) => o != "http://localhost:8080",
                        None => referer.is_some_and(|r| r.starts_with("http://evil")),
                    };
                    let cross = foreign || matches!(site, Some("same-site" | "cross-site"));
                    let res = app.send(from("1.1.1.1", Method::POST, "/api/auth/login", Some(body.clone()), &headers)).await;
                    let expected = if cross { StatusCode::FORBIDDEN } else { StatusCode::OK };
                    assert_eq!(res.status, expected, "{headers:?}: {:?}", res.json);
                    combinations += 1;
                }
            }
        }
        assert_eq!(combinations, 60);
        // A state-changing GET also needs X-Searchdeck-Client, which no cross-site navigation
        // sends: a page that suppresses Origin, Referer and Fetch Metadata still cannot make
        // one (here a trial start, as `GET pay/giveMeTrial` was).
        for headers in [
            vec![("cookie", cookie.as_str())],
            vec![("cookie", cookie.as_str()), ("referer", "http://evil.example/x")],
            vec![("cookie", cookie.as_str()), ("sec-fetch-site", "same-origin"), ("origin", "http://evil.example"), ("x-searchdeck-client", "web")],
            vec![("cookie", cookie.as_str()), ("x-searchdeck-client", " ")],
        ] {
            let res = app.send(from("1.1.1.1", Method::GET, "/api/pay/giveMeTrial", None, &headers)).await;
            assert_eq!(res.status, StatusCode::FORBIDDEN, "{headers:?}");
        }
        let res = app.get("/api/pay/giveMeTrial", Some(&session)).await;
        assert_eq!(res.message(), "Congratulations! Your 14-day Pro Plan trial has begun", "the refused calls started none: {:?}", res.json);
        let res = app.send(from("1.1.1.1", Method::GET, "/api/auth/logout", None, &[("cookie", cookie.as_str())])).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "no X-Searchdeck-Client");
        assert_eq!(res.message(), "This request changes data: send the header X-Searchdeck-Client (the web app sends it)");
        let res = app.send(from("1.1.1.1", Method::GET, "/api/auth/logout", None, &[("sec-fetch-site", "same-origin"), ("cookie", cookie.as_str()), ("x-searchdeck-client", "web")])).await;
        assert_eq!(res.status, StatusCode::OK);
        assert_eq!(app.get("/api/auth/me", Some(&session)).await.status, StatusCode::UNAUTHORIZED);
    }

    async fn oversized_and_malformed_requests_answer_in_the_envelope(app: TestApp) {
        let big = json!({"email": "a@example.com", "password": "x".repeat(2 * 1024 * 1024)});
        let res = app.post("/api/auth/login", big, None).await;
        assert_eq!(res.status, StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(res.json["status"], 413);
        assert!(res.message().contains("too large"), "{}", res.message());
        let res = app.get("/api/auth/recoveryPassword?email=a%40example.com&email=b%40example.com", None).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert_eq!(res.json["status"], 400, "{:?}", res.json);
        let session = app.register(&app.email(), "long password").await;
        let res = app.get("/api/tasks/%FF%FE", Some(&session)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert_eq!(res.json["status"], 400, "{:?}", res.json);
    }

    async fn control_characters_are_refused_where_they_are_sent(app: TestApp) {
        let control = json!([{"field": "fullName", "message": "Must not contain control characters"}]);
        let res = app.post("/api/auth/register", json!({"email": app.email(), "password": "long password", "repeatPassword": "long password", "fullName": "Ann\u{0}"}), None).await;
        assert_eq!((res.status, &res.json["errors"]), (StatusCode::BAD_REQUEST, &control), "{:?}", res.json);
        let session = app.register(&app.email(), "long password").await;
        let res = app.request(Method::PUT, "/api/setFields/one", Some(json!({"name": "Mine\u{1b}[31m", "type": "KEYWORDS", "fields": ["keyword"]})), Some(&session)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
        assert_eq!(res.json["errors"][0]["field"], "name");
        // Multi-line text may hold tabs and line breaks; the rule is the same everywhere else.
        let res = app.request(Method::PUT, "/api/options/front", Some(json!({"note": "a\tb\nc", "bad": ["x", "\u{0}"]})), Some(&session)).await;
        assert_eq!(res.json["errors"], json!([{"field": "bad.1", "message": "Must not contain control characters"}]));
        // Query values and names.
        let res = app.get("/api/auth/recoveryPassword?email=a%00b%40example.com", None).await;
        assert_eq!(res.json["errors"], json!([{"field": "email", "message": "Must not contain control characters"}]), "{:?}", res.json);
        let res = app.get("/api/setFields/all/KEY%00WORDS", Some(&session)).await;
        assert_eq!(res.json["errors"], json!([{"field": "type", "message": "Must not contain control characters"}]), "{:?}", res.json);
        // An id that cannot exist is a missing id.
        for (url, what) in [("/api/tasks/ab%00cd", "Task"), ("/api/account/one/ab%00cd", "Account"), ("/api/asa/getAcls?accountId=ab%00cd", "Account"), ("/api/asa/campaigns/ab%01cd", "Campaign")] {
            let res = app.get(url, Some(&session)).await;
            assert_eq!(res.status, StatusCode::NOT_FOUND, "{url}: {:?}", res.json);
            assert_eq!(res.message(), format!("{what} not found"), "{url}");
        }
    }

    async fn bodies_have_the_documented_shape(app: TestApp) {
        let email = app.email();
        app.register(&email, "long password").await;
        let res = app.post("/api/auth/login", json!([email, "long password"]), None).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "an array is no login: {:?}", res.json);
        assert_eq!(res.message(), "The request body must be a JSON object");
        assert!(res.session_cookie().is_none());
        let session = app.register(&app.email(), "long password").await;
        let res = app.post("/api/asa/reports/calculateForecasts", json!([null, null]), Some(&session)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
        // Field errors name the field by its path.
        let res = app.post("/api/auth/login", json!({"email": email, "password": 12345678}), None).await;
        assert_eq!(res.json["errors"], json!([{"field": "password", "message": "Must be a string"}]), "{:?}", res.json);
        let raw = |body: &str, content_type: &str| {
            let req = Request::post("/api/auth/login").header("host", "localhost:8080").header("content-type", content_type.to_string()).body(Body::from(body.to_string())).unwrap();
            app.send(req)
        };
        let res = raw(&format!(r#"{{"email":"{email}","email":"x@example.com","password":"long password"}}"#), "application/json").await;
        assert_eq!(res.json["errors"], json!([{"field": "email", "message": "Must be given once"}]), "{:?}", res.json);
        let res = raw(r#"{"email":"#, "application/json").await;
        assert_eq!((res.status, res.message()), (StatusCode::BAD_REQUEST, "The request body is not valid JSON"));
        let res = raw(r#"{"email":"a@example.com","password":"long password"}"#, "text/plain").await;
        assert_eq!((res.status, res.message()), (StatusCode::BAD_REQUEST, "Expected a JSON body (Content-Type: application/json)"));
        let res = app.get("/api/auth/recoveryPassword?email=a%40example.com&email=b%40example.com", None).await;
        assert_eq!(res.json["errors"], json!([{"field": "email", "message": "Must be given once"}]), "{:?}", res.json);
    }

    async fn composed_and_decomposed_emails_are_one_account(app: TestApp) {
        let composed = "jos\u{e9}@example.com";
        let decomposed = "jose\u{301}@example.com";
        app.register(composed, "long password").await;
        let res = app.post("/api/auth/register", json!({"email": decomposed, "password": "long password", "repeatPassword": "long password"}), None).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert_eq!(res.message(), "An account with this email already exists");
        let res = app.post("/api/auth/login", json!({"email": "JOSE\u{301}@EXAMPLE.COM", "password": "long password"}), None).await;
        assert_eq!(res.status, StatusCode::OK);
        assert_eq!(res.json["result"]["item"]["email"], composed);
        let res = app.post("/api/auth/register", json!({"email": "jos\u{e9}\u{200b}@example.com", "password": "long password", "repeatPassword": "long password"}), None).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert_eq!(res.json["errors"][0]["field"], "email");
    }

    async fn a_code_dies_after_a_few_wrong_guesses(app: TestApp) {
        let email = app.email();
        app.register(&email, "long password").await;
        app.get(&format!("/api/auth/recoveryPassword?email={email}"), None).await;
        let mails = app.emails(1).await;
        let code = mails[0].body.split("code is ").nth(1).unwrap()[..8].to_string();
        // Guesses aimed at this code (same leading characters), all wrong.
        let guess: String = code[..3].chars().chain(code[3..].chars().map(|c| if c == 'A' { 'B' } else { 'A' })).collect();
        for i in 0..5 {
            let res = app.send(from(&format!("3.3.3.{i}"), Method::POST, "/api/auth/checkCode", Some(json!({"code": guess})), &[])).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST);
        }
        let res = app.post("/api/auth/changePasswordByCode", json!({"code": code, "newPassword": "brand new password", "repeatPassword": "brand new password"}), None).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "the code is dead");
        assert_eq!(res.message(), "The code is invalid or has expired");
        assert_eq!(app.post("/api/auth/login", json!({"email": email, "password": "long password"}), None).await.status, StatusCode::OK);
    }

    async fn api_answers_are_not_cached_and_the_app_has_a_strict_csp(app: TestApp) {
        let res = app.get("/api/auth/relogin", None).await;
        assert_eq!(res.headers["cache-control"], "no-store");
        let csp = res.headers["content-security-policy"].to_str().unwrap().to_string();
        assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-eval") && csp.contains("frame-ancestors 'none'"), "{csp}");
        assert!(!csp.split(';').any(|d| d.trim().starts_with("script-src") && d.contains("unsafe-inline")), "{csp}");
        let page = app.send(Request::get("/login").body(Body::empty()).unwrap()).await;
        assert!(page.headers.get("content-security-policy").is_some());
        assert!(page.headers.get("strict-transport-security").is_none(), "plain HTTP gets no HSTS");
        let spoofed = app.send(from("8.8.8.8", Method::GET, "/login", None, &[("x-forwarded-proto", "https")])).await;
        assert!(spoofed.headers.get("strict-transport-security").is_none(), "untrusted peers cannot claim HTTPS");
    }

    async fn options_saves_based_on_an_old_read_are_refused(app: TestApp) {
        let t = app.register(&app.email(), "long password").await;
        let put = |body: Value, etag: Option<String>| {
            let mut req = Request::put("/api/options/front").header("content-type", "application/json").header("cookie", format!("sd_session={t}"));
            if let Some(e) = etag {
                req = req.header("if-match", e);
            }
            app.send(req.body(Body::from(body.to_string())).unwrap())
        };
        let first = put(json!({"optimization-filters-presets": [{"name": "A", "type": "KEYWORDS", "filters": []}]}), None).await;
        assert_eq!(first.status, StatusCode::OK);
        let read = app.get("/api/options/front", Some(&t)).await;
        let etag = read.headers["etag"].to_str().unwrap().to_string();
        assert_eq!(etag, format!("\"{}\"", read.json["result"]["version"]));
        // Two tabs read the same version; both append a preset.
        let tab1 = put(json!({"optimization-filters-presets": [{"name": "A", "type": "KEYWORDS", "filters": []}, {"name": "B", "type": "KEYWORDS", "filters": []}]}), Some(etag.clone())).await;
        assert_eq!(tab1.status, StatusCode::OK);
        let tab2 = put(json!({"optimization-filters-presets": [{"name": "A", "type": "KEYWORDS", "filters": []}, {"name": "C", "type": "KEYWORDS", "filters": []}]}), Some(etag.clone())).await;
        assert_eq!(tab2.status, StatusCode::PRECONDITION_FAILED);
        assert_eq!(tab2.json["status"], 412);
        assert_eq!(tab2.json["meta"]["version"], tab1.json["result"]["version"]);
        // Another key saved on the old read does not conflict; no If-Match merges as before.
        assert_eq!(put(json!({"onboarding-done": true}), Some(etag)).await.status, StatusCode::OK);
        let presets = app.get("/api/options/front", Some(&t)).await.json["result"]["item"]["optimization-filters-presets"].clone();
        assert_eq!(presets, json!([{"name": "A", "type": "KEYWORDS", "filters": []}, {"name": "B", "type": "KEYWORDS", "filters": []}]), "tab 1's preset is kept");
        assert_eq!(put(json!({"x": 1}), None).await.status, StatusCode::OK);
    }

    async fn options_are_capped_per_user(app: TestApp) {
        let t = app.register(&app.email(), "long password").await;
        let chunk = "x".repeat(200 * 1024);
        for i in 0..5 {
            let res = app.request(Method::PUT, "/api/options/front", Some(json!({format!("k{i}"): chunk})), Some(&t)).await;
            assert_eq!(res.status, StatusCode::OK, "{i}");
        }
        let res = app.request(Method::PUT, "/api/options/front", Some(json!({"k5": chunk})), Some(&t)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert!(res.message().starts_with("Saved options are limited"), "{}", res.message());
        assert!(app.get("/api/options/front", Some(&t)).await.json["result"]["item"].get("k5").is_none(), "nothing written");
    }
}

#[tokio::test]
async fn forwarded_addresses_are_believed_from_trusted_proxies_only() {
    let app =
        TestApp::sqlite_with(&["--trusted-proxies".to_string(), "10.0.0.0/8".to_string()]).await;
    let email = app.email();
    app.register(&email, "long password").await;
    for _ in 0..5 {
        login_from(
            &app,
            "10.0.0.1",
            &email,
            "wrong password",
            &[("x-forwarded-for", "7.7.7.7")],
        )
        .await;
    }
    let blocked = login_from(
        &app,
        "10.0.0.1",
        &email,
        "long password",
        &[("x-forwarded-for", "7.7.7.7")],
    )
    .await;
    assert_eq!(
        blocked.status,
        StatusCode::TOO_MANY_REQUESTS,
        "the guesser behind the proxy"
    );
    let other = login_from(
        &app,
        "10.0.0.1",
        &email,
        "long password",
        &[("x-forwarded-for", "8.8.8.8, 10.0.0.9")],
    )
    .await;
    assert_eq!(
        other.status,
        StatusCode::OK,
        "another client behind the same proxy"
    );
    // An untrusted peer cannot rotate its address through the header.
    for i in 0..5 {
        login_from(
            &app,
            "9.9.9.9",
            &email,
            "wrong password",
            &[("x-forwarded-for", &format!("4.4.4.{i}"))],
        )
        .await;
    }
    let res = login_from(
        &app,
        "9.9.9.9",
        &email,
        "long password",
        &[("x-forwarded-for", "4.4.4.200")],
    )
    .await;
    assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS);
    let https = app
        .send(from(
            "10.0.0.1",
            Method::GET,
            "/login",
            None,
            &[("x-forwarded-proto", "https")],
        ))
        .await;
    assert_eq!(
        https.headers["strict-transport-security"],
        "max-age=31536000; includeSubDomains"
    );
}

/// Median of request durations in microseconds.
fn median(mut v: Vec<u128>) -> u128 {
    v.sort_unstable();
    v[v.len() / 2]
}

#[tokio::test]
async fn recovery_requests_take_the_same_time_for_known_and_unknown_emails() {
    let app = TestApp::new(TestBackend::Sqlite).await;
    let hash = "$argon2id$v=19$m=19456,t=2,p=1$c2VhcmNoZGVja2R1bW15$yd0h8Xx5mZx2dAhq1r8M8y0o6HqJ0nQ2x3G8bC3y5U4";
    const N: usize = 25;
    let mut known = Vec::new();
    for i in 0..N {
        let email = format!("known{i}@example.com");
        sqlx::query("INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES ($1, $2, $3, 0, 0)")
            .bind(format!("u{i}"))
            .bind(&email)
            .bind(hash)
            .execute(&app.state.db.pool)
            .await
            .unwrap();
        known.push(email);
    }
    let (mut known_us, mut unknown_us) = (Vec::new(), Vec::new());
    for (i, known_email) in known.iter().enumerate() {
        for (email, times) in [
            (known_email.clone(), &mut known_us),
            (format!("nobody{i}@example.com"), &mut unknown_us),
        ] {
            let req = from(
                &format!("10.1.{}.{}", i, times.len()),
                Method::GET,
                &format!("/api/auth/recoveryPassword?email={email}"),
                None,
                &[("x-searchdeck-client", "web")],
            );
            let started = std::time::Instant::now();
            let res = app.send(req).await;
            times.push(started.elapsed().as_micros());
            assert_eq!(res.status, StatusCode::OK);
            // Let background work of this request finish before timing the next one.
            tokio::time::sleep(std::time::Duration::from_millis(40)).await;
        }
    }
    let (k, u) = (median(known_us), median(unknown_us));
    let ratio = k.max(u) as f64 / k.min(u).max(1) as f64;
    println!("recoveryPassword median: known {k} us, unknown {u} us, ratio {ratio:.2}");
    assert!(ratio < 1.5, "known {k} us vs unknown {u} us");
    assert_eq!(
        app.emails(N).await.len(),
        N,
        "every known address got its code"
    );
}
