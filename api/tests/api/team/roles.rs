//! Roles and removals: who may manage whom, the last owner kept, two owners demoting each
//! other at once, a removed member's sessions ended there at once, and the invitations of a
//! removed or demoted admin revoked.

use axum::http::{Method, StatusCode};
use searchdeck_api::session::{Role, hash_token};
use searchdeck_common::{
    ids::{new_id, now_ms},
    store::{self, sessions::NewSession},
};
use serde_json::json;

use super::{call, check_code, field_error, invite, me, role_in, team_titles};
use crate::common::{TestApp, TestBackend};

backend_tests! {
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
}
