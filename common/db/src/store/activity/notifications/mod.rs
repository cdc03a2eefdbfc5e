//! Notifications (`notifications`, migration `20261201001000_notifications`; contract
//! `docs/api/activity.md`): the activity log's items. One per user action or job run — or per
//! transaction of Apple's change history made outside Searchdeck — unique by its natural
//! `key`, with its field changes in `change_records` (`notification_id`).
//!
//! [`record`] is the one function every writer calls (quick and bulk edits, rule runs, goal
//! optimisation, campaign creation, undo, the change-history sync, team changes): it inserts
//! the notification or returns the one already written under the same key, so a retried job
//! never writes it twice. Each field change is then `store::activity::changes::insert` with
//! `notification_id`, which keeps the notification's campaigns up to date.
//!
//! The log reads them through [`list`] (newest first, with the filters of the screen: tag,
//! campaign-name search, the caller's days, unread only, one connection or campaign group),
//! [`total`], [`counts`] per tag and [`unread`]; [`groups`] summarises a page's changes per
//! (field, action) in one query, and [`changes_of`] pages one notification's changes. Read
//! state is per user: single reads ([`mark`]) and a watermark over `seq` ([`mark_all`]).
//! [`set_undone_by`] links an undo to its original; [`delete_older`] is the retention.

mod list;
mod read;
pub mod titles;

use sqlx::Row;

use crate::ids;
use crate::store::{Exec, placeholders};

pub use list::{
    Filter, GROUP_NAMES, Group, Listed, action_of, campaign_names, counts, created_or_deleted,
    day_bounds, groups, list, total, unread,
};
pub use read::{delete_older, mark, mark_all, read_seq};

/// The `tag` of docs/product.md#3-notification: a change a member made by hand (quick or bulk edit,
/// an undo, or a change outside Searchdeck).
pub const TAG_MANUAL: &str = "manual_change";
/// Campaigns created or copied (the suggester's Quick Start, campaign copies).
pub const TAG_QUICK_START: &str = "quick_start";
/// An automated rule's run.
pub const TAG_AUTO_RULES: &str = "auto_rules";
/// A campaign's goal optimisation.
pub const TAG_GOAL_OPTIMIZATION: &str = "goal_optimization";
/// A team change.
pub const TAG_TEAM: &str = "team";
/// Every tag, in the left filter list's order.
pub const TAGS: &[&str] = &[
    TAG_AUTO_RULES,
    TAG_GOAL_OPTIMIZATION,
    TAG_QUICK_START,
    TAG_MANUAL,
    TAG_TEAM,
];

/// Who made it: a member.
pub const SOURCE_USER: &str = "user";
/// An automated rule or goal optimisation.
pub const SOURCE_RULE: &str = "rule";
/// Someone outside Searchdeck (Apple's change history).
pub const SOURCE_APPLE_ADS: &str = "apple_ads";

/// A change.
pub const TYPE_CHANGE: &str = "change";
/// The undo of another notification.
pub const TYPE_UNDO: &str = "undo";

/// A notification to write.
#[derive(Debug, Clone, PartialEq)]
pub struct NewNotification {
    pub workspace_id: String,
    /// The natural key (docs/api/activity.md, Storage).
    pub key: String,
    /// One of [`TAGS`].
    pub tag: &'static str,
    /// [`TYPE_CHANGE`] or [`TYPE_UNDO`].
    pub kind: &'static str,
    pub title: String,
    /// UPDATE, CREATE, DELETE or UNDO.
    pub action: String,
    /// The level every change shares, or MIXED.
    pub target: String,
    /// [`SOURCE_USER`], [`SOURCE_RULE`] or [`SOURCE_APPLE_ADS`].
    pub source: &'static str,
    /// The member's or the rule's name, or "Apple Ads".
    pub source_name: String,
    pub user_id: Option<String>,
    pub email: Option<String>,
    pub rule_id: Option<String>,
    pub account_id: Option<String>,
    pub org_id: Option<i64>,
    /// The notification this one undoes.
    pub undo_of: Option<String>,
    /// When the change was made (unix seconds).
    pub created_at: i64,
}

/// Writes `n`, or finds the notification already written under its key; returns its id. An
/// undo ([`NewNotification::undo_of`]) becomes its original's `undone_by` (the first one).
pub async fn record(
    ex: &mut sqlx::AnyConnection,
    n: &NewNotification,
) -> Result<String, sqlx::Error> {
    sqlx::query(
        "INSERT INTO notifications (id, workspace_id, key, tag, type, title, action, target, \
           source, source_name, user_id, email, rule_id, account_id, org_id, undo_of, \
           created_at, seq) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) \
         ON CONFLICT (workspace_id, key) DO NOTHING",
    )
    .bind(ids::new_id())
    .bind(&n.workspace_id)
    .bind(&n.key)
    .bind(n.tag)
    .bind(n.kind)
    .bind(&n.title)
    .bind(&n.action)
    .bind(&n.target)
    .bind(n.source)
    .bind(&n.source_name)
    .bind(&n.user_id)
    .bind(&n.email)
    .bind(&n.rule_id)
    .bind(&n.account_id)
    .bind(n.org_id)
    .bind(&n.undo_of)
    .bind(n.created_at)
    .bind(ids::now_ms())
    .execute(&mut *ex)
    .await?;
    let row = sqlx::query("SELECT id FROM notifications WHERE workspace_id = $1 AND key = $2")
        .bind(&n.workspace_id)
        .bind(&n.key)
        .fetch_one(&mut *ex)
        .await?;
    let id: String = row.try_get("id")?;
    if let Some(original) = &n.undo_of {
        set_undone_by(&mut *ex, original, &id).await?;
    }
    Ok(id)
}

/// Adds campaign `campaign_id` named `name` to notification `id`'s campaigns (the first one
/// is kept as its campaign; the lower-cased names serve the campaign-name search). Called by
/// `store::activity::changes::insert` for each change it writes.
pub async fn add_campaign(
    ex: impl Exec<'_>,
    id: &str,
    campaign_id: i64,
    name: &str,
) -> Result<(), sqlx::Error> {
    let line = format!("\n{}\n", name.to_lowercase());
    let pattern = format!(
        "%{}%",
        line.replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_")
    );
    sqlx::query(
        "UPDATE notifications SET \
           campaign_id = COALESCE(campaign_id, $2), \
           campaign_name = COALESCE(campaign_name, $3), \
           campaign_count = campaign_count + 1, \
           campaign_names = CASE WHEN campaign_names = '' THEN $4 \
             ELSE campaign_names || SUBSTR($4, 2) END \
         WHERE id = $1 AND campaign_names NOT LIKE $5 ESCAPE '\\'",
    )
    .bind(id)
    .bind(campaign_id)
    .bind(name)
    .bind(&line)
    .bind(&pattern)
    .execute(ex)
    .await?;
    Ok(())
}

/// A stored notification.
#[derive(Debug, Clone, PartialEq)]
pub struct NotificationRow {
    pub id: String,
    pub workspace_id: String,
    pub key: String,
    pub tag: String,
    pub kind: String,
    pub title: String,
    pub action: String,
    pub target: String,
    pub source: String,
    pub source_name: String,
    pub user_id: Option<String>,
    pub email: Option<String>,
    pub rule_id: Option<String>,
    pub account_id: Option<String>,
    pub org_id: Option<i64>,
    pub campaign_id: Option<i64>,
    pub campaign_name: Option<String>,
    /// How many distinct campaign names its changes touched.
    pub campaign_count: i64,
    pub undo_of: Option<String>,
    pub undone_by: Option<String>,
    /// Unix seconds.
    pub created_at: i64,
    /// Unix milliseconds it was written.
    pub seq: i64,
}

/// Reads a `notifications` row.
pub fn row(r: &sqlx::any::AnyRow) -> Result<NotificationRow, sqlx::Error> {
    Ok(NotificationRow {
        id: r.try_get("id")?,
        workspace_id: r.try_get("workspace_id")?,
        key: r.try_get("key")?,
        tag: r.try_get("tag")?,
        kind: r.try_get("type")?,
        title: r.try_get("title")?,
        action: r.try_get("action")?,
        target: r.try_get("target")?,
        source: r.try_get("source")?,
        source_name: r.try_get("source_name")?,
        user_id: r.try_get("user_id")?,
        email: r.try_get("email")?,
        rule_id: r.try_get("rule_id")?,
        account_id: r.try_get("account_id")?,
        org_id: r.try_get("org_id")?,
        campaign_id: r.try_get("campaign_id")?,
        campaign_name: r.try_get("campaign_name")?,
        campaign_count: r.try_get("campaign_count")?,
        undo_of: r.try_get("undo_of")?,
        undone_by: r.try_get("undone_by")?,
        created_at: r.try_get("created_at")?,
        seq: r.try_get("seq")?,
    })
}

/// The notification of `workspace_id` written under `key`.
pub async fn by_key(
    ex: impl Exec<'_>,
    workspace_id: &str,
    key: &str,
) -> Result<Option<NotificationRow>, sqlx::Error> {
    sqlx::query("SELECT * FROM notifications WHERE workspace_id = $1 AND key = $2")
        .bind(workspace_id)
        .bind(key)
        .fetch_optional(ex)
        .await?
        .as_ref()
        .map(row)
        .transpose()
}

/// Notification `id` of `workspace_id` (None for another workspace's id).
pub async fn get(
    ex: impl Exec<'_>,
    workspace_id: &str,
    id: &str,
) -> Result<Option<NotificationRow>, sqlx::Error> {
    sqlx::query("SELECT * FROM notifications WHERE workspace_id = $1 AND id = $2")
        .bind(workspace_id)
        .bind(id)
        .fetch_optional(ex)
        .await?
        .as_ref()
        .map(row)
        .transpose()
}

/// Records that notification `id` was undone by notification `by` (the first undo wins).
/// Returns whether it changed.
pub async fn set_undone_by(ex: impl Exec<'_>, id: &str, by: &str) -> Result<bool, sqlx::Error> {
    let done =
        sqlx::query("UPDATE notifications SET undone_by = $2 WHERE id = $1 AND undone_by IS NULL")
            .bind(id)
            .bind(by)
            .execute(ex)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// The name a member's notifications show (their full name, else their email) and their
/// email.
pub async fn member_name(
    ex: impl Exec<'_>,
    user_id: &str,
) -> Result<Option<(String, String)>, sqlx::Error> {
    let row = sqlx::query("SELECT full_name, email FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(ex)
        .await?;
    row.map(|r| {
        let name: String = r.try_get("full_name")?;
        let email: String = r.try_get("email")?;
        Ok(if name.trim().is_empty() {
            (email.clone(), email)
        } else {
            (name, email)
        })
    })
    .transpose()
}

/// Sets notification `id`'s title (a job retitles its notification with what it did).
pub async fn set_title(ex: impl Exec<'_>, id: &str, title: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE notifications SET title = $2 WHERE id = $1")
        .bind(id)
        .bind(title)
        .execute(ex)
        .await?;
    Ok(())
}

/// How many changes notification `id` has.
pub async fn change_count(ex: impl Exec<'_>, id: &str) -> Result<i64, sqlx::Error> {
    sqlx::query("SELECT COUNT(*) AS n FROM change_records WHERE notification_id = $1")
        .bind(id)
        .fetch_one(ex)
        .await?
        .try_get("n")
}

#[cfg(test)]
mod tests {
    use super::titles;

    #[test]
    fn titles_read_like_the_log() {
        assert_eq!(titles::quick("KEYWORD", &["cptBid"]), "Bid changed");
        assert_eq!(
            titles::quick("AD_GROUP", &["status", "cpaGoal"]),
            "Ad group changed"
        );
        assert_eq!(
            titles::manual("KEYWORD", "status", 2_000),
            "Status changed on 2,000 keywords"
        );
        assert_eq!(titles::manual("KEYWORD", "deleted", 1), "Keyword deleted");
        assert_eq!(
            titles::rule("X", "KEYWORD", 12),
            "Rule 'X' changed 12 keywords"
        );
        assert_eq!(titles::created(3), "3 campaigns created");
        assert_eq!(titles::count(1_234_567), "1,234,567");
    }

    #[test]
    fn a_day_is_the_callers() {
        let d = time::Date::from_calendar_date(2026, time::Month::November, 27).unwrap();
        let (from, to) = super::day_bounds(d, d, -300);
        assert_eq!(
            (from, to),
            (1_795_737_600 + 18_000, 1_795_737_600 + 86_400 + 18_000)
        );
    }
}
