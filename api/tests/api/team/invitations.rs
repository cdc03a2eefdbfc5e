//! Invitations: accepted once and by the invited email only, expiring, replaced by a
//! resend, revoked, throttled on wrong codes, and listed as expired until resent or revoked.

use axum::http::{Method, StatusCode};
use searchdeck_common::ids::now_ms;
use serde_json::json;

use super::{call, check_code, field_error, invite, me, role_in, team_titles};
use crate::common::{TestApp, TestBackend};

backend_tests! {
    async fn invitations_are_accepted_once_by_the_invited_email(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let (owner_id, ws, _) = me(&app, &owner).await;
        let invitee_email = app.email();
        let code = invite(&app, &owner, &invitee_email, "reader", 1).await;
        let list = app.get("/api/team/all", Some(&owner)).await.json;
        let invitation = &list["result"]["invitations"][0];
        assert_eq!((invitation["email"].as_str(), invitation["role"].as_str()), (Some(invitee_email.as_str()), Some("reader")));
        let week = invitation["expiresAt"].as_i64().unwrap() - invitation["createdAt"].as_i64().unwrap();
        assert_eq!(week, 7 * 24 * 3600, "valid for 7 days");
        assert_eq!(list["result"]["items"].as_array().unwrap().len(), 1);
        assert_eq!(list["result"]["items"][0]["id"], owner_id.as_str());
        assert_eq!(list["result"]["items"][0]["you"], true);
        assert!(list["result"]["items"][0]["lastActive"].is_i64(), "the owner's session was used");
        // The code is stored hashed only.
        let stored: Vec<String> = sqlx::query_scalar("SELECT code_hash FROM team_invitations").fetch_all(&app.state.db.pool).await.unwrap();
        assert_eq!(stored.len(), 1);
        assert_ne!(stored[0], code);
        assert!(!stored[0].contains(&code));
        // Someone else, signed in with another email, cannot use it; it stays usable.
        let other = app.register(&app.email(), "long password").await;
        let res = check_code(&app, &other, &code).await;
        assert_eq!(field_error(&res), (StatusCode::BAD_REQUEST, "code".into(), "This invitation was sent to another email address".into()));
        // Unknown code.
        let res = check_code(&app, &other, "NOTACODEATALLNOTACOD").await;
        assert_eq!(field_error(&res).2, "This invitation code is not valid");
        // Signed out, the link's email and code say what the invitation offers; the code with
        // another email, or an unknown one, says nothing of it.
        let offer = app.post("/api/team/invitation", json!({"email": invitee_email.to_uppercase(), "code": code.to_lowercase()}), None).await;
        assert_eq!(offer.status, StatusCode::OK, "{:?}", offer.json);
        let name: String = sqlx::query_scalar("SELECT name FROM workspaces WHERE id = $1").bind(&ws).fetch_one(&app.state.db.pool).await.unwrap();
        let owner_name: String = sqlx::query_scalar("SELECT full_name FROM users WHERE id = $1").bind(&owner_id).fetch_one(&app.state.db.pool).await.unwrap();
        let expected_inviter = if owner_name.trim().is_empty() { json!(list["result"]["items"][0]["email"]) } else { json!(owner_name) };
        assert_eq!(offer.json["result"], json!({"workspaceName": name, "inviter": expected_inviter, "role": "reader", "expiresAt": invitation["expiresAt"]}));
        let stranger = app.email();
        let res = app.post("/api/team/invitation", json!({"email": stranger, "code": code}), None).await;
        assert_eq!((res.status, res.message()), (StatusCode::NOT_FOUND, "This invitation code is not valid"));
        let res = app.post("/api/team/invitation", json!({"email": invitee_email, "code": "NOTACODEATALLNOTACOD"}), None).await;
        assert_eq!((res.status, res.message()), (StatusCode::NOT_FOUND, "This invitation code is not valid"));
        assert_eq!(field_error(&app.post("/api/team/invitation", json!({"email": invitee_email, "code": " "}), None).await).1, "code");
        let res = app.post("/api/team/invitation", json!({"email": "not an email", "code": code}), None).await;
        assert_eq!(field_error(&res).1, "email");
        let res = app.post("/api/team/invitation", json!({"email": invitee_email, "code": code, "role": "owner"}), None).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "unknown fields refused");
        // The invited person registers with the invited email and accepts (any case).
        let invitee = app.register(&invitee_email, "long password").await;
        let (invitee_id, own_ws, _) = me(&app, &invitee).await;
        let res = check_code(&app, &invitee, &format!("  {}  ", code.to_lowercase())).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["workspaceId"], ws.as_str());
        assert_eq!(res.json["result"]["role"], "reader");
        assert_eq!(me(&app, &invitee).await.1, own_ws, "the session stays in its workspace");
        assert_eq!(role_in(&app, &owner, &invitee_id).await.as_deref(), Some("reader"));
        assert!(app.get("/api/team/all", Some(&owner)).await.json["result"]["invitations"].as_array().unwrap().is_empty());
        // Single use.
        let res = check_code(&app, &invitee, &code).await;
        assert_eq!(field_error(&res), (StatusCode::BAD_REQUEST, "code".into(), "This invitation has already been used".into()));
        let res = app.post("/api/team/invitation", json!({"email": invitee_email, "code": code}), None).await;
        assert_eq!((res.status, res.message()), (StatusCode::GONE, "This invitation has already been used"));
        let titles = team_titles(&app, &owner).await;
        assert_eq!(titles, [format!("{invitee_email} joined as Viewer"), format!("{invitee_email} invited as Viewer")]);
        // Already a member: no second invitation.
        let res = call(&app, Method::POST, &format!("/api/team/one/{invitee_email}/writer"), None, &owner).await;
        assert_eq!((res.status, res.message()), (StatusCode::CONFLICT, "ALREADY_A_MEMBER"));
        // Bad path values.
        let res = call(&app, Method::POST, "/api/team/one/not-an-email/writer", None, &owner).await;
        assert_eq!(field_error(&res).1, "a");
        let res = call(&app, Method::POST, &format!("/api/team/one/{}/boss", app.email()), None, &owner).await;
        assert_eq!(field_error(&res).1, "b");
        assert_eq!(field_error(&check_code(&app, &owner, "  ").await).1, "code");
    }

    async fn invitations_expire_and_resends_and_revokes_end_them(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let email = app.email();
        let first = invite(&app, &owner, &email, "writer", 1).await;
        let second = invite(&app, &owner, &email, "admin", 2).await;
        assert_ne!(first, second);
        let invitee = app.register(&email, "long password").await;
        // The resend replaced the first code.
        assert_eq!(field_error(&check_code(&app, &invitee, &first).await).2, "This invitation code is not valid");
        let list = app.get("/api/team/all", Some(&owner)).await.json;
        assert_eq!(list["result"]["invitations"].as_array().unwrap().len(), 1);
        // Expired.
        sqlx::query("UPDATE team_invitations SET expires_at = 1").execute(&app.state.db.pool).await.unwrap();
        assert_eq!(field_error(&check_code(&app, &invitee, &second).await).2, "This invitation has expired");
        assert!(app.get("/api/team/all", Some(&owner)).await.json["result"]["invitations"].as_array().unwrap().is_empty());
        // Revoked.
        let third = invite(&app, &owner, &email, "writer", 3).await;
        let id = app.get("/api/team/all", Some(&owner)).await.json["result"]["invitations"][0]["id"].as_str().unwrap().to_string();
        let res = call(&app, Method::DELETE, &format!("/api/team/one/member/{id}"), None, &owner).await;
        assert_eq!(field_error(&res).1, "a", "an invitation is not a member");
        let res = call(&app, Method::DELETE, &format!("/api/team/one/invitation/{id}"), None, &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["deleted"], 1);
        assert_eq!(field_error(&check_code(&app, &invitee, &third).await).2, "This invitation code is not valid");
        let res = call(&app, Method::DELETE, &format!("/api/team/one/invitation/{id}"), None, &owner).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND);
        assert_eq!(team_titles(&app, &owner).await[0], format!("Invitation of {email} revoked"));
    }

    async fn wrong_invitation_codes_are_throttled(app: TestApp) {
        let user = app.register(&app.email(), "long password").await;
        for i in 0..5 {
            let res = check_code(&app, &user, &format!("WRONGCODE{i:011}")).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST, "guess {i}: {:?}", res.json);
        }
        let res = check_code(&app, &user, "WRONGCODE00000000099").await;
        assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS, "{:?}", res.json);
        assert!(res.json["message"].as_str().unwrap().starts_with("Too many attempts"), "{:?}", res.json);
        // Another user is not held back by it.
        let other = app.register(&app.email(), "long password").await;
        assert_eq!(check_code(&app, &other, "WRONGCODE00000000099").await.status, StatusCode::BAD_REQUEST);
        // Signed out, the invitation a link offers is asked under the same per-address budget
        // (10, shared with the codes above): guessing codes there ends in 429 too.
        let mut answers = Vec::new();
        for i in 0..12 {
            let res = app.post("/api/team/invitation", json!({"email": app.email(), "code": format!("WRONGCODE{i:011}")}), None).await;
            answers.push(res.status);
            if res.status == StatusCode::TOO_MANY_REQUESTS {
                assert!(res.json["message"].as_str().unwrap().starts_with("Too many attempts"), "{:?}", res.json);
                break;
            }
        }
        assert_eq!(answers.last(), Some(&StatusCode::TOO_MANY_REQUESTS), "{answers:?}");
        assert!(answers[..answers.len() - 1].iter().all(|s| *s == StatusCode::NOT_FOUND), "{answers:?}");
    }

    async fn expired_invitations_are_listed_as_expired_until_resent_or_revoked(app: TestApp) {
        let app_ref = &app;
        let owner = app.register(&app.email(), "long password").await;
        let (bob, eve) = (app.email(), app.email());
        invite(&app, &owner, &bob, "writer", 1).await;
        invite(&app, &owner, &eve, "reader", 2).await;
        let day = 24 * 3600 * 1000;
        let set_expiry = |email: String, at: i64| async move {
            sqlx::query("UPDATE team_invitations SET expires_at = $2 WHERE email = $1")
                .bind(email).bind(at).execute(&app_ref.state.db.pool).await.unwrap();
        };
        // Bob's expired a day ago (listed as expired), Eve's 31 days ago (no longer listed).
        set_expiry(bob.clone(), now_ms() - day).await;
        set_expiry(eve.clone(), now_ms() - 31 * day).await;
        let listed = || async {
            let list = app.get("/api/team/all", Some(&owner)).await.json;
            list["result"]["invitations"].as_array().unwrap().iter()
                .map(|i| (i["email"].as_str().unwrap().to_string(), i["expired"].as_bool().unwrap(), i["id"].as_str().unwrap().to_string()))
                .collect::<Vec<_>>()
        };
        let rows = listed().await;
        assert_eq!(rows.iter().map(|r| (r.0.as_str(), r.1)).collect::<Vec<_>>(), [(bob.as_str(), true)]);
        // An expired one is revoked like a pending one; Eve's is gone from the screen's reach.
        let res = call(&app, Method::DELETE, &format!("/api/team/one/invitation/{}", rows[0].2), None, &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let eve_id: String = sqlx::query_scalar("SELECT id FROM team_invitations WHERE email = $1")
            .bind(&eve).fetch_one(&app.state.db.pool).await.unwrap();
        let res = call(&app, Method::DELETE, &format!("/api/team/one/invitation/{eve_id}"), None, &owner).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND);
        // Resending replaces an expired invitation: one pending row for the email.
        invite(&app, &owner, &bob, "writer", 3).await;
        set_expiry(bob.clone(), now_ms() - day).await;
        let code = invite(&app, &owner, &bob, "admin", 4).await;
        let rows = listed().await;
        assert_eq!(rows.iter().map(|r| (r.0.as_str(), r.1)).collect::<Vec<_>>(), [(bob.as_str(), false)]);
        let invitee = app.register(&bob, "long password").await;
        assert_eq!(check_code(&app, &invitee, &code).await.status, StatusCode::OK);
    }
}
