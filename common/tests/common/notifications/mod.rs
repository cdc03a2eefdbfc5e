//! Conformance of the notifications store (`store::notifications`, the activity log) on
//! SQLite and, with `TEST_DATABASE_URL`, PostgreSQL:
//!
//! - `log`: a notification written once per key with the campaigns of its changes; the log's
//!   list newest first with its filters (tag, campaign-name search with LIKE's wildcards
//!   taken literally, the caller's days, unread, connection and campaign group), total,
//!   counts per tag and the unread count; the retention deleting in batches.
//! - `read_state`: read state per member (single reads and the "Mark all as read"
//!   watermark, unread again below it, another workspace's ids ignored).
//! - `change_pages`: a page's changes grouped per field with their shared values; one
//!   notification's changes paged.
//!
//! Every case runs as `notifications::sqlite::<case>` and `notifications::postgres::<case>`;
//! the notifications they seed are written by the fixtures below.

mod log;
use log::{
    a_notification_is_written_once_per_key_with_its_campaigns,
    retention_deletes_old_notifications_in_batches, the_log_is_listed_newest_first_and_filtered,
};
mod read_state;
use read_state::read_state_is_per_member;
mod change_pages;
use change_pages::{
    a_notifications_changes_are_paged_in_order, changes_are_grouped_per_field_with_shared_values,
};

use searchdeck_common::{
    Db,
    store::{
        changes,
        notifications::{self, Filter, NewNotification},
    },
};

use super::changes::change;

conformance!("sd_notifications";
    a_notification_is_written_once_per_key_with_its_campaigns,
    the_log_is_listed_newest_first_and_filtered,
    read_state_is_per_member,
    changes_are_grouped_per_field_with_shared_values,
    a_notifications_changes_are_paged_in_order,
    retention_deletes_old_notifications_in_batches,
);

type Workspace = (String, String, String);

fn notification(w: &Workspace, key: &str, tag: &'static str, at: i64) -> NewNotification {
    NewNotification {
        workspace_id: w.0.clone(),
        key: key.into(),
        tag,
        kind: notifications::TYPE_CHANGE,
        title: format!("Made by {key}"),
        action: "UPDATE".into(),
        target: "KEYWORD".into(),
        source: notifications::SOURCE_USER,
        source_name: "Ann Lee".into(),
        user_id: Some(w.1.clone()),
        email: Some("ann@example.com".into()),
        rule_id: None,
        account_id: Some(w.2.clone()),
        org_id: Some(100),
        undo_of: None,
        created_at: at,
    }
}

/// Writes notification `n` with one change in campaign `campaign` (id, name) per `fields`.
async fn seed(db: &Db, w: &Workspace, n: &NewNotification, campaign: (i64, &str)) -> String {
    let mut conn = db.pool.acquire().await.unwrap();
    let id = notifications::record(&mut conn, n).await.unwrap();
    let mut c = change(w, "KEYWORD", 1001, "cptBid", n.created_at);
    c.campaign_id = campaign.0;
    c.campaign_name = campaign.1.into();
    c.notification_id = Some(id.clone());
    assert!(changes::insert(&mut conn, &c).await.unwrap());
    id
}

fn base<'a>(w: &'a Workspace) -> Filter<'a> {
    Filter {
        workspace_id: &w.0,
        user_id: &w.1,
        ..Filter::default()
    }
}

/// The keys of a page.
async fn keys(db: &Db, f: &Filter<'_>, limit: i64, skip: i64) -> Vec<String> {
    let seq = notifications::read_seq(&db.pool, f.workspace_id, f.user_id)
        .await
        .unwrap();
    notifications::list(&db.pool, f, seq, limit, skip)
        .await
        .unwrap()
        .into_iter()
        .map(|l| l.row.key)
        .collect()
}
