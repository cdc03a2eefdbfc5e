//! The activity log (docs/api/activity.md) on SQLite and PostgreSQL:
//!
//! - `log`: against a seeded log, the list newest first with its total, counts per tag and
//!   unread count; the tag filter, the campaign-name search, a date range in the caller's
//!   day (GMT) and paging; read state per member (ids, all, unread again); the query's 400s;
//!   another workspace's ids answering like missing ones; readers reading but not undoing;
//!   the routes as the OpenAPI document describes them.
//! - `undo`: against the sandbox, a quick edit and a bulk edit each appear once with who
//!   made them and their values, the bulk edit as one notification with its changes
//!   grouped; undo restores the old values, skipping an entity changed since, and is itself
//!   a notification; undoing twice is a 409; a rule run is one notification by the rule,
//!   undone from the log through the rules' own undo.

mod log;
mod undo;

use crate::common::TestApp;

const ALL: &str = "/api/accountsActions/all";

/// The caller's workspace and user ids.
async fn me(app: &TestApp, cookie: &str) -> (String, String) {
    let me = app.get("/api/auth/me", Some(cookie)).await.json["result"]["item"].clone();
    (
        me["workspaceId"].as_str().unwrap().to_string(),
        me["id"].as_str().unwrap().to_string(),
    )
}
