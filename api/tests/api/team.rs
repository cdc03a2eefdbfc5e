//! The team (docs/api/team.md) on SQLite and PostgreSQL: invitations emailed, accepted once
//! by the invited email only, expiring, replaced by a resend, revoked; every role rule (only
//! managers manage, an admin cannot change, remove or make an owner, the last owner cannot be
//! demoted or leave, bulk changes all or nothing); removal ending the member's sessions in
//! that workspace at once; ids of another workspace answering like missing ones; the role
//! list, the member list and messages to teammates; a `team` notification for every change;
//! saved options per workspace (personal ones shared) and sign-in opening the workspace last
//! switched to; expired invitations listed as expired, resent or revoked.

use crate::common::{TestApp, TestBackend};
use axum::http::{Method, StatusCode};
use searchdeck_api::session::{Role, hash_token};
use searchdeck_common::{
    ids::{new_id, now_ms},
    store::{self, sessions::NewSession},
};
use serde_json::{Value, json};

/// The caller's (user id, workspace id, email).
async fn me(app: &TestApp, cookie: &str) -> (String, String, String) {
    let me = app.get("/api/auth/me", Some(cookie)).await.json["result"]["item"].clone();
    (
        me["id"].as_str().unwrap().to_string(),
        me["workspaceId"].as_str().unwrap().to_string(),
        me["email"].as_str().unwrap().to_string(),
    )
}

async fn call(
    app: &TestApp,
    m: Method,
    path: &str,
    body: Option<Value>,
    cookie: &str,
) -> crate::common::TestResponse {
    app.request(m, path, body, Some(cookie)).await
}

/// Invites `email` as `role` and returns the code from the email (the `n`th sent).
async fn invite(app: &TestApp, owner: &str, email: &str, role: &str, n: usize) -> String {
    let res = call(
        app,
        Method::POST,
        &format!("/api/team/one/{email}/{role}"),
        None,
        owner,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{:?}", res.json);
    assert_eq!(res.json["result"]["item"]["email"], email);
    assert_eq!(res.json["result"]["item"]["role"], role);
    let mails = app.emails(n).await;
    let mail = mails
        .iter()
        .rev()
        .find(|m| m.to == email)
        .expect("the invitation email");
    assert!(
        mail.subject.starts_with("Invitation to "),
        "{}",
        mail.subject
    );
    let code = mail
        .body
        .split("code=")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert_eq!(code.len(), 20, "{}", mail.body);
    code.to_string()
}

async fn check_code(app: &TestApp, cookie: &str, code: &str) -> crate::common::TestResponse {
    app.post("/api/team/checkCode", json!({"code": code}), Some(cookie))
        .await
}

fn field_error(res: &crate::common::TestResponse) -> (StatusCode, String, String) {
    (
        res.status,
        res.json["errors"][0]["field"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        res.json["errors"][0]["message"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
    )
}

/// The titles of the workspace's team notifications, newest first.
async fn team_titles(app: &TestApp, cookie: &str) -> Vec<String> {
    let res = app
        .get("/api/accountsActions/all?tag=team", Some(cookie))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    res.json["result"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            assert_eq!(
                (
                    n["tag"].as_str(),
                    n["source"].as_str(),
                    n["target"].as_str()
                ),
                (Some("team"), Some("user"), Some("MEMBER"))
            );
            assert!(n["key"].as_str().unwrap().starts_with("team:"));
            n["title"].as_str().unwrap().to_string()
        })
        .collect()
}

async fn role_in(app: &TestApp, owner: &str, user_id: &str) -> Option<String> {
    let list = app.get("/api/team/all", Some(owner)).await.json;
    list["result"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == user_id)
        .map(|m| m["role"].as_str().unwrap().to_string())
}

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

    async fn only_managers_manage_and_admins_leave_owners_alone(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let (owner_id, _, _) = me(&app, &owner).await;
        let admin = app.member(&owner, Role::Admin).await;
        let writer = app.member(&owner, Role::Writer).await;
        let reader = app.member(&owner, Role::Reader).await;
        let (writer_id, _, _) = me(&app, &writer).await;
        let (reader_id, _, _) = me(&app, &reader).await;
        for cookie in [&writer, &reader] {
            assert_eq!(app.get("/api/team/all", Some(cookie)).await.status, StatusCode::FORBIDDEN);
            let res = call(&app, Method::POST, &format!("/api/team/one/{}/reader", app.email()), None, cookie).await;
            assert_eq!(res.status, StatusCode::FORBIDDEN);
            let res = call(&app, Method::PATCH, &format!("/api/team/one/{reader_id}"), Some(json!({"role": "writer"})), cookie).await;
            assert_eq!(res.status, StatusCode::FORBIDDEN);
            let res = call(&app, Method::DELETE, "/api/team/many", Some(json!({"ids": [reader_id]})), cookie).await;
            assert_eq!(res.status, StatusCode::FORBIDDEN);
        }
        // An admin manages the others but no owner, and makes none.
        assert_eq!(app.get("/api/team/all", Some(&admin)).await.status, StatusCode::OK);
        let res = call(&app, Method::POST, &format!("/api/team/one/{}/owner", app.email()), None, &admin).await;
        assert_eq!((res.status, res.message()), (StatusCode::FORBIDDEN, "Only an owner can make an owner"));
        let res = call(&app, Method::PATCH, &format!("/api/team/one/{owner_id}"), Some(json!({"role": "reader"})), &admin).await;
        assert_eq!((res.status, res.message()), (StatusCode::FORBIDDEN, "An admin cannot change an owner"));
        let res = call(&app, Method::DELETE, &format!("/api/team/one/member/{owner_id}"), None, &admin).await;
        assert_eq!((res.status, res.message()), (StatusCode::FORBIDDEN, "An admin cannot change an owner"));
        let res = call(&app, Method::PATCH, &format!("/api/team/one/{writer_id}"), Some(json!({"role": "owner"})), &admin).await;
        assert_eq!((res.status, res.message()), (StatusCode::FORBIDDEN, "Only an owner can make an owner"));
        // All or nothing: the writer's change is not made when the owner's is refused.
        let res = call(&app, Method::PATCH, "/api/team/many", Some(json!({"ids": [writer_id, owner_id], "role": "reader"})), &admin).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN);
        assert_eq!(role_in(&app, &owner, &writer_id).await.as_deref(), Some("writer"));
        let res = call(&app, Method::PATCH, &format!("/api/team/one/{writer_id}"), Some(json!({"role": "reader"})), &admin).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["item"]["role"], "reader");
        // The new role holds from the member's next request.
        let res = call(&app, Method::PUT, "/api/rules/user", Some(json!({})), &writer).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "a reader now");
        // Setting the same role again changes nothing and writes nothing.
        let before = team_titles(&app, &owner).await.len();
        let res = call(&app, Method::PATCH, &format!("/api/team/one/{writer_id}"), Some(json!({"role": "reader"})), &admin).await;
        assert_eq!(res.status, StatusCode::OK);
        assert_eq!(team_titles(&app, &owner).await.len(), before);
        let res = call(&app, Method::PATCH, "/api/team/many", Some(json!({"ids": [writer_id, reader_id], "role": "writer"})), &owner).await;
        assert_eq!(res.json["result"]["updated"], 2, "{:?}", res.json);
        assert_eq!(team_titles(&app, &owner).await[0], "2 members' roles changed to Editor");
        // Bad bodies.
        let res = call(&app, Method::PATCH, &format!("/api/team/one/{writer_id}"), Some(json!({"role": "boss"})), &owner).await;
        assert_eq!(field_error(&res).1, "role");
        let res = call(&app, Method::PATCH, "/api/team/many", Some(json!({"ids": [], "role": "reader"})), &owner).await;
        assert_eq!(field_error(&res).1, "ids");
        let res = call(&app, Method::PATCH, "/api/team/many", Some(json!({"ids": [writer_id, writer_id], "role": "reader"})), &owner).await;
        assert_eq!(field_error(&res).1, "ids.1");
    }

    async fn the_last_owner_stays(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let (owner_id, _, _) = me(&app, &owner).await;
        let admin = app.member(&owner, Role::Admin).await;
        let (admin_id, _, _) = me(&app, &admin).await;
        let res = call(&app, Method::PATCH, &format!("/api/team/one/{owner_id}"), Some(json!({"role": "admin"})), &owner).await;
        assert_eq!((res.status, res.message()), (StatusCode::CONFLICT, "LAST_OWNER"));
        let res = call(&app, Method::DELETE, &format!("/api/team/one/member/{owner_id}"), None, &owner).await;
        assert_eq!((res.status, res.message()), (StatusCode::CONFLICT, "LAST_OWNER"));
        let res = call(&app, Method::DELETE, "/api/team/many", Some(json!({"ids": [admin_id, owner_id]})), &owner).await;
        assert_eq!(res.status, StatusCode::CONFLICT);
        assert_eq!(role_in(&app, &owner, &admin_id).await.as_deref(), Some("admin"), "nothing removed");
        assert_eq!(role_in(&app, &owner, &owner_id).await.as_deref(), Some("owner"));
        // With a second owner, the first may step down, then leave.
        let res = call(&app, Method::PATCH, &format!("/api/team/one/{admin_id}"), Some(json!({"role": "owner"})), &owner).await;
        assert_eq!(res.status, StatusCode::OK);
        let res = call(&app, Method::PATCH, &format!("/api/team/one/{owner_id}"), Some(json!({"role": "admin"})), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        // Now an admin, the first cannot touch the owner left.
        let res = call(&app, Method::PATCH, &format!("/api/team/one/{admin_id}"), Some(json!({"role": "admin"})), &owner).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN);
        let res = call(&app, Method::DELETE, &format!("/api/team/one/member/{owner_id}"), None, &owner).await;
        assert_eq!(res.status, StatusCode::OK, "leaving: {:?}", res.json);
        assert_eq!(app.get("/api/auth/me", Some(&owner)).await.status, StatusCode::UNAUTHORIZED, "left: the session ended");
        let res = call(&app, Method::PATCH, &format!("/api/team/one/{admin_id}"), Some(json!({"role": "reader"})), &admin).await;
        assert_eq!((res.status, res.message()), (StatusCode::CONFLICT, "LAST_OWNER"));
    }

    async fn two_owners_demoting_each_other_at_once_leave_one(app: TestApp) {
        let first = app.register(&app.email(), "long password").await;
        let second = app.member(&first, Role::Owner).await;
        let (first_id, ws, _) = me(&app, &first).await;
        let (second_id, _, _) = me(&app, &second).await;
        let (to_second, to_first) = (format!("/api/team/one/{second_id}"), format!("/api/team/one/{first_id}"));
        let (a, b) = tokio::join!(
            call(&app, Method::PATCH, &to_second, Some(json!({"role": "admin"})), &first),
            call(&app, Method::PATCH, &to_first, Some(json!({"role": "admin"})), &second),
        );
        // One wins; the other is refused: 409 when it ran beside the first, 403 when its
        // caller was already demoted when its session was read.
        let mut statuses = [a.status, b.status];
        statuses.sort();
        assert_eq!(statuses[0], StatusCode::OK, "{:?} {:?}", a.json, b.json);
        assert!(matches!(statuses[1], StatusCode::FORBIDDEN | StatusCode::CONFLICT), "{:?} {:?}", a.json, b.json);
        let owners: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM memberships WHERE role = 'owner' AND workspace_id = $1")
            .bind(&ws)
            .fetch_one(&app.state.db.pool).await.unwrap();
        assert_eq!(owners, 1);
    }

    async fn removal_ends_the_member_sessions_there_at_once(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let writer_email = app.email();
        let writer = app.register(&writer_email, "long password").await;
        let (writer_id, writer_ws, _) = me(&app, &writer).await;
        let code = invite(&app, &owner, &writer_email, "writer", 1).await;
        assert_eq!(check_code(&app, &writer, &code).await.status, StatusCode::OK);
        // A session of the writer in the owner's workspace (as after switching to it).
        let (_, ws, _) = me(&app, &owner).await;
        let there = format!("team-test-{}", new_id());
        let now = now_ms();
        let session = NewSession { id: &new_id(), token_hash: &hash_token(&there), user_id: &writer_id, workspace_id: &ws, now, expires_at: now + 3_600_000 };
        store::sessions::insert(&app.state.db.pool, session).await.unwrap();
        assert_eq!(me(&app, &there).await.1, ws);
        let readers = [app.member(&owner, Role::Reader).await, app.member(&owner, Role::Reader).await];
        let res = call(&app, Method::DELETE, &format!("/api/team/one/member/{writer_id}"), None, &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let ended = app.get("/api/auth/me", Some(&there)).await;
        assert_eq!(ended.status, StatusCode::UNAUTHORIZED, "ended at once");
        // Its next request says who removed them from which workspace (issue 42 item 16).
        let workspace = app.get("/api/workspaces/all", Some(&owner)).await.json["result"]["items"][0]["name"].as_str().unwrap().to_string();
        let by = app.get("/api/auth/me", Some(&owner)).await.json["result"]["item"]["fullName"].as_str().unwrap_or_default().to_string();
        assert!(!by.is_empty());
        assert_eq!(ended.json["message"], json!(format!("You were removed from {workspace} by {by}")), "{:?}", ended.json);
        assert_eq!(ended.json["meta"], json!({"reason": "REMOVED_FROM_WORKSPACE", "workspace": workspace, "by": by}));
        let relogin = app.get("/api/auth/relogin", Some(&there)).await;
        assert_eq!((relogin.status, relogin.json["meta"]["reason"].clone()), (StatusCode::UNAUTHORIZED, json!("REMOVED_FROM_WORKSPACE")));
        // A token that never was a session stays a plain 401.
        let unknown = app.get("/api/auth/me", Some(&format!("team-test-{}", new_id()))).await;
        assert_eq!((unknown.status, unknown.json["message"].clone(), unknown.json.get("meta").cloned()), (StatusCode::UNAUTHORIZED, json!("Unauthorized"), None));
        assert_eq!(me(&app, &writer).await.1, writer_ws, "their own workspace's session stays");
        assert_eq!(role_in(&app, &owner, &writer_id).await, None);
        let mut ids = Vec::new();
        for r in &readers {
            ids.push(me(&app, r).await.0);
        }
        let res = call(&app, Method::DELETE, "/api/team/many", Some(json!({"ids": ids})), &owner).await;
        assert_eq!(res.json["result"]["deleted"], 2, "{:?}", res.json);
        for r in &readers {
            assert_eq!(app.get("/api/auth/me", Some(r)).await.status, StatusCode::UNAUTHORIZED);
        }
        let titles = team_titles(&app, &owner).await;
        assert_eq!(titles[..2], ["2 members removed".to_string(), format!("{writer_email} removed")]);
    }

    async fn a_removed_or_demoted_admins_invitations_are_revoked(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let admin = app.member(&owner, Role::Admin).await;
        let (admin_id, _, admin_email) = me(&app, &admin).await;
        // The admin invites a second address of theirs as admin, and someone as writer.
        let (second, third) = (app.email(), app.email());
        let code = invite(&app, &admin, &second, "admin", 1).await;
        invite(&app, &admin, &third, "writer", 2).await;
        let res = call(&app, Method::DELETE, &format!("/api/team/one/member/{admin_id}"), None, &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let mut revoked = vec![second.clone(), third.clone()];
        revoked.sort();
        assert_eq!(res.json["result"]["revokedInvitations"], json!(revoked), "said to whoever removes them");
        let titles = team_titles(&app, &owner).await;
        assert!(titles[0].starts_with(&format!("{admin_email} removed; the 2 invitations they sent revoked")), "{titles:?}");
        let listed = app.get("/api/team/all", Some(&owner)).await.json;
        assert_eq!(listed["result"]["invitations"], json!([]), "{listed}");
        // The second account cannot join with the code any more.
        let joiner = app.register(&second, "long password").await;
        assert_eq!(field_error(&check_code(&app, &joiner, &code).await), (StatusCode::BAD_REQUEST, "code".into(), "This invitation code is not valid".into()));

        // Demoted to a role that cannot invite: their invitations go too; an owner made an
        // admin keeps the admin-level ones and loses the owner ones.
        let other = app.member(&owner, Role::Admin).await;
        let (other_id, _, _) = me(&app, &other).await;
        let invited = app.email();
        invite(&app, &other, &invited, "reader", 3).await;
        let res = call(&app, Method::PATCH, &format!("/api/team/one/{other_id}"), Some(json!({"role": "writer"})), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let listed = app.get("/api/team/all", Some(&owner)).await.json;
        assert_eq!(listed["result"]["invitations"], json!([]), "{listed}");
        assert!(team_titles(&app, &owner).await[0].ends_with(&format!("; the invitation they sent to {invited} revoked")));
        let co_owner = app.member(&owner, Role::Owner).await;
        let (co_id, _, _) = me(&app, &co_owner).await;
        let (as_owner, as_admin) = (app.email(), app.email());
        invite(&app, &co_owner, &as_owner, "owner", 4).await;
        invite(&app, &co_owner, &as_admin, "admin", 5).await;
        let res = call(&app, Method::PATCH, "/api/team/many", Some(json!({"ids": [co_id], "role": "admin"})), &owner).await;
        assert_eq!(res.json["result"], json!({"updated": 1, "revokedInvitations": [as_owner]}), "{:?}", res.json);
        let listed = app.get("/api/team/all", Some(&owner)).await.json;
        let left: Vec<&str> = listed["result"]["invitations"].as_array().unwrap().iter().map(|i| i["email"].as_str().unwrap()).collect();
        assert_eq!(left, [as_admin.as_str()]);
    }

    async fn a_workspace_has_its_own_name_which_managers_change(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let names = |cookie: String| {
            let app = &app;
            async move {
                let res = app.get("/api/workspaces/all", Some(&cookie)).await;
                res.json["result"]["items"][0]["name"].as_str().unwrap().to_string()
            }
        };
        assert_eq!(names(owner.clone()).await, "Test User's workspace");
        let invited = app.email();
        invite(&app, &owner, &invited, "writer", 1).await;
        let mail = app.emails(1).await.into_iter().find(|m| m.to == invited).unwrap();
        assert!(mail.body.contains("to join Test User's workspace on Searchdeck"), "{}", mail.body);
        let admin = app.member(&owner, Role::Admin).await;
        let res = call(&app, Method::PATCH, "/api/workspaces/current", Some(json!({"name": "  Acme Growth  "})), &admin).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["item"]["name"], "Acme Growth");
        assert_eq!(names(owner.clone()).await, "Acme Growth");
        let writer = app.member(&owner, Role::Writer).await;
        let res = call(&app, Method::PATCH, "/api/workspaces/current", Some(json!({"name": "Mine"})), &writer).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN);
        for (name, message) in [(json!("   "), "Please complete this field to continue".to_string()), (json!("x".repeat(101)), "At most 100 characters".to_string())] {
            let res = call(&app, Method::PATCH, "/api/workspaces/current", Some(json!({"name": name})), &owner).await;
            assert_eq!(field_error(&res), (StatusCode::BAD_REQUEST, "name".into(), message));
        }
        assert_eq!(names(owner).await, "Acme Growth");
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

    async fn ids_of_another_workspace_answer_like_missing_ones(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let stranger = app.register(&app.email(), "long password").await;
        let theirs = app.member(&stranger, Role::Reader).await;
        let (their_id, _, their_email) = me(&app, &theirs).await;
        let ours = app.member(&owner, Role::Reader).await;
        let (our_id, _, our_email) = me(&app, &ours).await;
        let missing = call(&app, Method::PATCH, "/api/team/one/no-such-id", Some(json!({"role": "writer"})), &owner).await;
        let foreign = call(&app, Method::PATCH, &format!("/api/team/one/{their_id}"), Some(json!({"role": "writer"})), &owner).await;
        assert_eq!((missing.status, &missing.json), (StatusCode::NOT_FOUND, &foreign.json));
        let res = call(&app, Method::DELETE, "/api/team/many", Some(json!({"ids": [our_id, their_id]})), &owner).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND);
        assert!(role_in(&app, &owner, &our_id).await.is_some(), "all or nothing");
        assert!(role_in(&app, &stranger, &their_id).await.is_some());
        // Messages go to teammates only.
        let body = json!({"name": "Bob", "text": "Line one\nline two"});
        let res = call(&app, Method::POST, &format!("/api/emails/one/{their_email}"), Some(body.clone()), &owner).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND);
        let res = call(&app, Method::POST, &format!("/api/emails/one/{our_email}"), Some(body), &owner).await;
        assert_eq!(res.status, StatusCode::ACCEPTED, "{:?}", res.json);
        let mail = app.emails(1).await.pop().unwrap();
        assert_eq!(mail.to, our_email);
        assert!(mail.body.starts_with("Hi Bob,\n\nLine one\nline two"), "{}", mail.body);
        for (body, field) in [
            (json!({"name": " ", "text": "x"}), "name"),
            (json!({"name": "B", "text": "x\u{7}"}), "text"),
            (json!({"name": "B", "text": "x".repeat(5_001)}), "text"),
        ] {
            let res = call(&app, Method::POST, &format!("/api/emails/one/{our_email}"), Some(body), &owner).await;
            assert_eq!(field_error(&res).1, field, "{:?}", res.json);
        }
        let res = call(&app, Method::POST, &format!("/api/emails/one/{our_email}"), Some(json!({"name": "B", "text": "x"})), &ours).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "readers write to nobody");
    }

    async fn every_member_reads_the_roles_and_the_members(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let reader = app.member(&owner, Role::Reader).await;
        let res = app.get("/api/permission/all", Some(&reader)).await;
        assert_eq!(res.status, StatusCode::OK);
        assert_eq!(res.json["result"]["current"], "reader");
        let names: Vec<(&str, &str, bool, bool)> = res.json["result"]["items"].as_array().unwrap().iter()
            .map(|p| (p["role"].as_str().unwrap(), p["name"].as_str().unwrap(), p["canEdit"].as_bool().unwrap(), p["canManageTeam"].as_bool().unwrap()))
            .collect();
        assert_eq!(names, [("owner", "Owner", true, true), ("admin", "Admin", true, true), ("writer", "Editor", true, false), ("reader", "Viewer", false, false)]);
        let res = app.get("/api/users/all", Some(&reader)).await;
        let roles: Vec<&str> = res.json["result"]["items"].as_array().unwrap().iter().map(|u| u["role"].as_str().unwrap()).collect();
        assert_eq!(roles, ["owner", "reader"]);
        assert!(res.json["result"]["items"][0].get("lastActive").is_none(), "activity is the managers' view");
    }

    async fn a_member_of_several_workspaces_switches_between_them(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let (_, team_ws, _) = me(&app, &owner).await;
        let email = app.email();
        let code = invite(&app, &owner, &email, "reader", 1).await;
        let mail = app.emails(1).await.into_iter().find(|m| m.to == email).unwrap();
        let link = format!("/invite?email={}&code={code}", email.replace('@', "%40"));
        assert!(mail.body.contains(&link), "the link names the email and ends with the code: {}", mail.body);
        let reader = app.register(&email, "long password").await;
        let (reader_id, own_ws, _) = me(&app, &reader).await;
        assert_eq!(check_code(&app, &reader, &code).await.status, StatusCode::OK);
        let list = app.get("/api/workspaces/all", Some(&reader)).await;
        assert_eq!(list.status, StatusCode::OK, "{:?}", list.json);
        let rows: Vec<(String, String, bool)> = list.json["result"]["items"].as_array().unwrap().iter()
            .map(|w| (w["id"].as_str().unwrap().to_string(), w["role"].as_str().unwrap().to_string(), w["current"].as_bool().unwrap()))
            .collect();
        assert_eq!(rows, [(own_ws.clone(), "owner".to_string(), true), (team_ws.clone(), "reader".to_string(), false)]);
        // Switching answers the user there and moves the session: every call is that workspace's.
        let res = app.post("/api/workspaces/switch", json!({"workspaceId": team_ws}), Some(&reader)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!((res.json["result"]["item"]["workspaceId"].as_str(), res.json["result"]["item"]["permission"].as_str()), (Some(team_ws.as_str()), Some("reader")));
        assert_eq!(me(&app, &reader).await.1, team_ws);
        assert_eq!(app.get("/api/team/all", Some(&reader)).await.status, StatusCode::FORBIDDEN, "a reader there");
        assert_eq!(app.get("/api/permission/all", Some(&reader)).await.json["result"]["current"], "reader");
        let list = app.get("/api/workspaces/all", Some(&reader)).await.json;
        assert_eq!(list["result"]["items"][1]["current"], true);
        // The owner sees the reader active in the team's workspace.
        let team = app.get("/api/team/all", Some(&owner)).await.json;
        let row = team["result"]["items"].as_array().unwrap().iter().find(|m| m["id"] == reader_id.as_str()).unwrap().clone();
        assert!(row["lastActive"].is_i64(), "{row:?}");
        // Switching to the current workspace changes nothing; another's, or none, is refused.
        let res = app.post("/api/workspaces/switch", json!({"workspaceId": team_ws}), Some(&reader)).await;
        assert_eq!(res.status, StatusCode::OK);
        let stranger = app.register(&app.email(), "long password").await;
        let (_, foreign_ws, _) = me(&app, &stranger).await;
        for id in [foreign_ws.as_str(), "no-such-workspace"] {
            let res = app.post("/api/workspaces/switch", json!({"workspaceId": id}), Some(&reader)).await;
            assert_eq!((res.status, res.message()), (StatusCode::NOT_FOUND, "Workspace not found"), "{id}");
        }
        assert_eq!(me(&app, &reader).await.1, team_ws, "a refused switch leaves the session");
        let res = app.post("/api/workspaces/switch", json!({"workspaceId": " "}), Some(&reader)).await;
        assert_eq!(field_error(&res), (StatusCode::BAD_REQUEST, "workspaceId".into(), "Please complete this field to continue".into()));
        let res = app.post("/api/workspaces/switch", json!({"workspaceId": own_ws, "role": "owner"}), Some(&reader)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "unknown fields are refused");
        // Back to their own workspace, as its owner.
        let res = app.post("/api/workspaces/switch", json!({"workspaceId": own_ws}), Some(&reader)).await;
        assert_eq!(res.json["result"]["item"]["permission"], "owner");
        assert_eq!(app.get("/api/team/all", Some(&reader)).await.status, StatusCode::OK);
        // Removed from the team while working there: that session ends at once.
        app.post("/api/workspaces/switch", json!({"workspaceId": team_ws}), Some(&reader)).await;
        let res = call(&app, Method::DELETE, &format!("/api/team/one/member/{reader_id}"), None, &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(app.get("/api/auth/me", Some(&reader)).await.status, StatusCode::UNAUTHORIZED);
        assert_eq!(app.post("/api/workspaces/switch", json!({"workspaceId": own_ws}), Some(&reader)).await.status, StatusCode::UNAUTHORIZED);
    }

    async fn options_follow_the_workspace_and_sign_in_opens_the_last_one(app: TestApp) {
        let app_ref = &app;
        let owner = app.register(&app.email(), "long password").await;
        let (_, team_ws, _) = me(&app, &owner).await;
        let email = app.email();
        let code = invite(&app, &owner, &email, "writer", 1).await;
        let ann = app.register(&email, "long password").await;
        let (ann_id, own_ws, _) = me(&app, &ann).await;
        assert_eq!(check_code(&app, &ann, &code).await.status, StatusCode::OK);
        let options = |cookie: String| async move { app_ref.get("/api/options/front", Some(&cookie)).await.json["result"]["item"].clone() };
        let put = |body: Value| app.request(Method::PUT, "/api/options/front", Some(body), Some(&ann));
        // Saved in her own workspace: columns per workspace, the theme hers everywhere.
        let res = put(json!({"optimization-column-presets": {"KEYWORDS": "mine"}, "theme": "dark"})).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let switch = |ws: String| app.post("/api/workspaces/switch", json!({"workspaceId": ws}), Some(&ann));
        assert_eq!(switch(team_ws.clone()).await.status, StatusCode::OK);
        assert_eq!(options(ann.clone()).await, json!({"theme": "dark"}), "the team's workspace has its own options");
        let stale_etag = res.json["result"]["version"].as_i64().unwrap();
        put(json!({"optimization-column-presets": {"KEYWORDS": "team"}})).await;
        // A save based on the version read in her own workspace is not refused for a key
        // written in the other one.
        assert_eq!(switch(own_ws.clone()).await.status, StatusCode::OK);
        let res = app.request(Method::PUT, "/api/options/front", Some(json!({"reporting-currency": "EUR"})), Some(&ann)).await;
        assert_eq!(res.status, StatusCode::OK);
        let conditional = axum::http::Request::put("/api/options/front")
            .header("content-type", "application/json")
            .header("if-match", format!("\"{stale_etag}\""))
            .header("cookie", format!("sd_session={ann}"));
        let res = app.send(conditional.body(axum::body::Body::from(r#"{"optimization-column-presets": {"KEYWORDS": "mine2"}}"#)).unwrap()).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(
            options(ann.clone()).await,
            json!({"optimization-column-presets": {"KEYWORDS": "mine2"}, "reporting-currency": "EUR", "theme": "dark"})
        );
        assert_eq!(switch(team_ws.clone()).await.status, StatusCode::OK);
        assert_eq!(options(ann.clone()).await, json!({"optimization-column-presets": {"KEYWORDS": "team"}, "theme": "dark"}));
        // She last switched to the team's workspace: signing in opens it.
        let login = || app.post("/api/auth/login", json!({"email": email, "password": "long password"}), None);
        let res = login().await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["item"]["workspaceId"], team_ws.as_str());
        let fresh = res.session_cookie().unwrap();
        assert_eq!(me(&app, &fresh).await.1, team_ws);
        // Removed from it: sign-in opens the workspace she joined first; the team's
        // options went with the membership.
        let res = call(&app, Method::DELETE, &format!("/api/team/one/member/{ann_id}"), None, &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let res = login().await;
        assert_eq!(res.json["result"]["item"]["workspaceId"], own_ws.as_str());
        let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM member_options WHERE user_id = $1 AND workspace_id = $2")
            .bind(&ann_id).bind(&team_ws).fetch_one(&app.state.db.pool).await.unwrap();
        assert_eq!(left, 0);
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
