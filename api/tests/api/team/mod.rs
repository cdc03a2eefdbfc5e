//! The team (docs/api/team.md) on SQLite and PostgreSQL:
//!
//! - `invitations`: invitations emailed, accepted once by the invited email only, expiring,
//!   replaced by a resend, revoked; wrong codes throttled; expired invitations listed as
//!   expired until resent or revoked.
//! - `roles`: every role rule (only managers manage, an admin cannot change, remove or make
//!   an owner, the last owner cannot be demoted or leave, bulk changes all or nothing);
//!   removal ending the member's sessions in that workspace at once; a removed or demoted
//!   admin's invitations revoked.
//! - `workspaces`: the workspace's name; ids of another workspace answering like missing
//!   ones; the role list, the member list and messages to teammates; a member of several
//!   workspaces switching between them; saved options per workspace (personal ones shared)
//!   and sign-in opening the workspace last switched to.
//!
//! Every change is a `team` notification ([`team_titles`]).

mod invitations;
mod roles;
mod workspaces;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;

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
