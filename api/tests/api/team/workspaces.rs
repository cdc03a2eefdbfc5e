//! The workspace a member is in: its name, ids of another workspace answering like missing
//! ones, the roles and members every member reads, switching between several workspaces,
//! and the options and sign-in that follow the workspace.

use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use serde_json::{Value, json};

use super::{call, check_code, field_error, invite, me, role_in};
use crate::common::{TestApp, TestBackend};

backend_tests! {
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
}
