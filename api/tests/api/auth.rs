//! Accounts, sessions and password recovery through the real router.

use crate::common::{TestApp, TestBackend};
use axum::http::{Method, StatusCode};
use serde_json::json;

backend_tests! {
    async fn register_signs_in_with_an_owned_workspace(app: TestApp) {
        let email = app.email();
        let res = app
            .post("/api/auth/register", json!({"email": email.to_uppercase(), "password": "long password", "repeatPassword": "long password", "fullName": "Ann", "source": "ads"}), None)
            .await;
        assert_eq!(res.status, StatusCode::OK);
        assert_eq!(res.message(), "Account was created");
        let item = &res.json["result"]["item"];
        assert_eq!(item["email"], email, "stored lower-cased");
        assert_eq!(item["permission"], "owner");
        assert_eq!(item["fullName"], "Ann");
        let cookie = res.set_cookie_header();
        assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"), "{cookie}");
        assert!(!cookie.contains("Secure"), "no Secure flag on localhost: {cookie}");
        let token = res.session_cookie().unwrap();
        let me = app.get("/api/auth/me", Some(&token)).await;
        assert_eq!(me.status, StatusCode::OK);
        assert_eq!(me.json["result"]["item"]["id"], item["id"]);
        // The password is stored as an argon2id hash, the token only as its SHA-256.
        let hash: String = sqlx::query_scalar("SELECT password_hash FROM users WHERE email = $1").bind(&email).fetch_one(&app.state.db.pool).await.unwrap();
        assert!(hash.starts_with("$argon2id$"));
        let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions WHERE token_hash = $1").bind(&token).fetch_one(&app.state.db.pool).await.unwrap();
        assert_eq!(stored, 0, "raw tokens are never stored");
    }

    async fn register_validates_every_field_at_once(app: TestApp) {
        let res = app.post("/api/auth/register", json!({"email": "nope", "password": "short", "repeatPassword": "x"}), None).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        let fields: Vec<&str> = res.json["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
        assert_eq!(fields, ["email", "password"]);
        assert_eq!(res.message(), "Please enter a valid email address", "first error is the message");
        let res = app.post("/api/auth/register", json!({"email": app.email(), "password": "long password", "repeatPassword": "other password"}), None).await;
        assert_eq!(res.json["errors"][0], json!({"field": "repeatPassword", "message": "Passwords do not match"}));
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users").fetch_one(&app.state.db.pool).await.unwrap();
        assert_eq!(count, 0, "nothing half-written");
    }

    async fn duplicate_email_is_a_field_error_and_writes_nothing(app: TestApp) {
        let email = app.email();
        app.register(&email, "long password").await;
        let res = app.post("/api/auth/register", json!({"email": email, "password": "other password", "repeatPassword": "other password"}), None).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert_eq!(res.json["errors"][0]["field"], "email");
        assert_eq!(res.message(), "An account with this email already exists");
        let workspaces: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM workspaces").fetch_one(&app.state.db.pool).await.unwrap();
        assert_eq!(workspaces, 1);
    }

    async fn bad_bodies_answer_400_in_the_envelope(app: TestApp) {
        let req = axum::http::Request::post("/api/auth/login").header("content-type", "application/json").body(axum::body::Body::from("{not json")).unwrap();
        let res = app.send(req).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert_eq!(res.json["status"], 400);
        assert_eq!(res.message(), "The request body is not valid JSON");
        let res = app.post("/api/auth/login", json!({"email": 5}), None).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert_eq!(res.json["errors"], json!([{"field": "email", "message": "Must be a string"}]), "{:?}", res.json);
    }

    async fn login_rotates_the_session_and_logout_ends_it(app: TestApp) {
        let email = app.email();
        let first = app.register(&email, "long password").await;
        let res = app.post("/api/auth/login", json!({"email": email, "password": "long password"}), Some(&first)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["item"]["email"], email);
        let second = res.session_cookie().unwrap();
        assert_ne!(first, second, "login issues a new token");
        assert_eq!(app.get("/api/auth/me", Some(&first)).await.status, StatusCode::UNAUTHORIZED, "the presented token is retired");
        let relogin = app.get("/api/auth/relogin", Some(&second)).await;
        assert_eq!(relogin.status, StatusCode::OK);
        assert_eq!(relogin.json["result"]["item"]["email"], email);
        let out = app.get("/api/auth/logout", Some(&second)).await;
        assert_eq!(out.status, StatusCode::OK);
        assert!(out.set_cookie_header().contains("Max-Age=0"), "{}", out.set_cookie_header());
        let after = app.get("/api/auth/relogin", Some(&second)).await;
        assert_eq!(after.status, StatusCode::UNAUTHORIZED);
        assert_eq!(after.message(), "Unauthorized");
    }

    async fn wrong_password_and_unknown_email_answer_alike(app: TestApp) {
        let email = app.email();
        app.register(&email, "long password").await;
        for (e, p) in [(email.as_str(), "wrong password"), ("nobody@example.com", "long password")] {
            let res = app.post("/api/auth/login", json!({"email": e, "password": p}), None).await;
            assert_eq!(res.status, StatusCode::UNAUTHORIZED);
            assert_eq!(res.message(), "Login or password doesnt match");
            assert!(res.session_cookie().is_none());
        }
    }

    async fn login_is_throttled_per_email(app: TestApp) {
        let email = app.email();
        app.register(&email, "long password").await;
        for _ in 0..5 {
            let res = app.post("/api/auth/login", json!({"email": email, "password": "wrong password"}), None).await;
            assert_eq!(res.status, StatusCode::UNAUTHORIZED);
        }
        let res = app.post("/api/auth/login", json!({"email": email, "password": "long password"}), None).await;
        assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS);
        assert!(res.message().starts_with("Too many login attempts. Try again in"), "{}", res.message());
        assert!(res.headers.get("retry-after").is_some());
        let other = app.email();
        app.register(&other, "long password").await;
        let res = app.post("/api/auth/login", json!({"email": other, "password": "long password"}), None).await;
        assert_eq!(res.status, StatusCode::OK, "other accounts are not locked out");
    }

    async fn protected_routes_need_a_session(app: TestApp) {
        for (method, path) in [
            (Method::GET, "/api/auth/me"),
            (Method::GET, "/api/tasks"),
            (Method::GET, "/api/tasks/x"),
            (Method::GET, "/api/options/front"),
            (Method::PUT, "/api/options/front"),
            (Method::POST, "/api/users/changeValue"),
            (Method::POST, "/api/auth/changePassword"),
        ] {
            let res = app.request(method.clone(), path, Some(json!({})), None).await;
            assert_eq!(res.status, StatusCode::UNAUTHORIZED, "{method} {path}");
            let res = app.request(method.clone(), path, Some(json!({})), Some("forged-token")).await;
            assert_eq!(res.status, StatusCode::UNAUTHORIZED, "{method} {path} with a forged token");
            assert_eq!(res.message(), "Unauthorized");
        }
    }

    async fn expired_sessions_are_refused(app: TestApp) {
        let token = app.register(&app.email(), "long password").await;
        sqlx::query("UPDATE sessions SET expires_at = 0").execute(&app.state.db.pool).await.unwrap();
        assert_eq!(app.get("/api/auth/me", Some(&token)).await.status, StatusCode::UNAUTHORIZED);
    }

    async fn recovery_code_resets_the_password_once(app: TestApp) {
        let email = app.email();
        let old_session = app.register(&email, "long password").await;
        let res = app.get(&format!("/api/auth/recoveryPassword?email={email}"), None).await;
        assert_eq!(res.status, StatusCode::OK);
        let unknown = app.get("/api/auth/recoveryPassword?email=nobody%40example.com", None).await;
        assert_eq!(unknown.status, StatusCode::OK);
        assert_eq!(unknown.message(), res.message(), "no account enumeration");
        let mails = app.emails(1).await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert_eq!(app.email.outbox().await.unwrap().len(), 1, "one email, to the existing account only");
        assert_eq!(mails[0].to, email);
        let code = mails[0].body.split("code is ").nth(1).unwrap()[..8].to_string();
        let link = format!("{}/reset?code={code}", app.state.config.public_url);
        assert!(link.starts_with("http"), "{link}");
        assert!(mails[0].body.contains(&link), "an absolute link to the reset screen: {}", mails[0].body);

        let check = app.post("/api/auth/checkCode", json!({"code": code.to_lowercase()}), None).await;
        assert_eq!(check.status, StatusCode::OK);
        assert_eq!(check.json["result"]["valid"], true);
        let wrong = app.post("/api/auth/checkCode", json!({"code": "ZZZZZZZZ"}), None).await;
        assert_eq!(wrong.status, StatusCode::BAD_REQUEST);
        assert_eq!(wrong.message(), "The code is invalid or has expired");

        let set = app.post("/api/auth/changePasswordByCode", json!({"code": code, "newPassword": "brand new password", "repeatPassword": "brand new password"}), None).await;
        assert_eq!(set.status, StatusCode::OK, "{:?}", set.json);
        let again = app.post("/api/auth/changePasswordByCode", json!({"code": code, "newPassword": "another password", "repeatPassword": "another password"}), None).await;
        assert_eq!(again.status, StatusCode::BAD_REQUEST, "single use");
        assert_eq!(app.get("/api/auth/me", Some(&old_session)).await.status, StatusCode::UNAUTHORIZED, "sessions ended");
        let login = app.post("/api/auth/login", json!({"email": email, "password": "brand new password"}), None).await;
        assert_eq!(login.status, StatusCode::OK);
    }

    async fn recovery_codes_expire_and_newer_codes_replace_older(app: TestApp) {
        let email = app.email();
        app.register(&email, "long password").await;
        app.get(&format!("/api/auth/recoveryPassword?email={email}"), None).await;
        app.get(&format!("/api/auth/recoveryPassword?email={email}"), None).await;
        let mails = app.emails(2).await;
        let code = |i: usize| mails[i].body.split("code is ").nth(1).unwrap()[..8].to_string();
        // The two requests are handled in the background and their emails may arrive in
        // either order: whichever code was stored last replaced the other, so exactly one works.
        let mut statuses = Vec::new();
        for i in 0..2 {
            statuses.push(app.post("/api/auth/checkCode", json!({"code": code(i)}), None).await.status);
        }
        let live = statuses.iter().position(|s| *s == StatusCode::OK).expect("the newer code works");
        assert_eq!(statuses[1 - live], StatusCode::BAD_REQUEST, "replaced by the newer code");
        sqlx::query("UPDATE recovery_codes SET expires_at = 0").execute(&app.state.db.pool).await.unwrap();
        let expired = app.post("/api/auth/checkCode", json!({"code": code(live), "newPassword": "brand new password", "repeatPassword": "brand new password"}), None).await;
        assert_eq!(expired.status, StatusCode::BAD_REQUEST);
        assert_eq!(expired.message(), "The code is invalid or has expired");
    }

    async fn change_password_checks_the_old_one_and_keeps_this_session(app: TestApp) {
        let email = app.email();
        let here = app.register(&email, "long password").await;
        let elsewhere = app.post("/api/auth/login", json!({"email": email, "password": "long password"}), None).await.session_cookie().unwrap();
        let wrong = app.post("/api/auth/changePassword", json!({"oldPassword": "not it at all", "newPassword": "new long password", "repeatPassword": "new long password"}), Some(&here)).await;
        assert_eq!(wrong.status, StatusCode::BAD_REQUEST);
        assert_eq!(wrong.json["errors"][0]["field"], "oldPassword");
        let ok = app.post("/api/auth/changePassword", json!({"oldPassword": "long password", "newPassword": "new long password", "repeatPassword": "new long password"}), Some(&here)).await;
        assert_eq!(ok.status, StatusCode::OK);
        assert_eq!(app.get("/api/auth/me", Some(&here)).await.status, StatusCode::OK);
        assert_eq!(app.get("/api/auth/me", Some(&elsewhere)).await.status, StatusCode::UNAUTHORIZED);
    }
}
