//! Notifications (`notifications`, migration `20261201001000_notifications`; contract
//! `docs/api/activity.md`): the activity log's items. One per user action or job run — or per
//! transaction of Apple's change history made outside Searchdeck — unique by its natural
//! `key`, with its field changes in `change_records` (`notification_id`).
//!
//! [`record`] is the one function every writer calls (quick and bulk edits, rule runs, goal
//! optimisation, campaign creation, undo, the change-history sync, team changes): it inserts
//! the notification or returns the one already written under the same key, so a retried job
//! never writes it twice. Each field change is then `store::changes::insert` with
//! `notification_id`, which keeps the notification's campaigns up to date.
//!
//! The log reads them through [`list`] (newest first, with the filters of the screen: tag,
//! campaign-name search, the caller's days, unread only, one connection or campaign group),
//! [`total`], [`counts`] per tag and [`unread`]; [`groups`] summarises a page's changes per
//! (field, action) in one query, and [`changes_of`] pages one notification's changes. Read
//! state is per user: single reads ([`mark`]) and a watermark over `seq` ([`mark_all`]).
//! [`set_undone_by`] links an undo to its original; [`delete_older`] is the retention.

use sqlx::Row;

use super::{Exec, placeholders};
use crate::ids;

/// spec §3 Notification.tag: a change a member made by hand (quick or bulk edit, an undo, or
/// a change outside Searchdeck).
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
/// `store::changes::insert` for each change it writes.
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

/// The unix-second bounds `[from, to)` of the days `from` to `to` (inclusive) as the caller
/// lives them: `gmt_minutes` is the caller's offset from UTC (`120` for UTC+2), so the caller's
/// midnight is UTC midnight minus the offset.
pub fn day_bounds(from: time::Date, to: time::Date, gmt_minutes: i64) -> (i64, i64) {
    let midnight = |d: time::Date| d.midnight().assume_utc().unix_timestamp() - gmt_minutes * 60;
    (midnight(from), midnight(to) + 86_400)
}

/// Which notifications the log lists, for member `user_id` of `workspace_id`.
#[derive(Debug, Clone, Default)]
pub struct Filter<'a> {
    pub workspace_id: &'a str,
    pub user_id: &'a str,
    /// One of [`TAGS`], or all.
    pub tag: Option<&'a str>,
    /// Matched case-insensitively anywhere in the name of any campaign it touched (trimmed by
    /// the caller; empty is no search).
    pub campaign_name: Option<&'a str>,
    /// Unix-second bounds `[from, to)` of `created_at` ([`day_bounds`]).
    pub from: Option<i64>,
    pub to: Option<i64>,
    /// Only those unread by the member.
    pub unread: bool,
    pub account_id: Option<&'a str>,
    pub org_id: Option<i64>,
}

/// A bind of a query built from a [`Filter`].
enum Arg {
    Text(String),
    Int(i64),
}

/// The `WHERE` of `f` over `notifications n` (binds from `$1`), leaving out the tag, the
/// dates or the unread condition when asked; the member's watermark is `read_seq`.
fn condition(
    f: &Filter<'_>,
    read_seq: i64,
    tag: bool,
    dates: bool,
    unread: bool,
) -> (String, Vec<Arg>) {
    let mut sql = String::from("n.workspace_id = $1");
    let mut args = vec![Arg::Text(f.workspace_id.to_string())];
    let mut push = |sql: &mut String, cond: &str, arg: Arg| {
        args.push(arg);
        sql.push_str(&cond.replace('?', &format!("${}", args.len())));
    };
    if let (true, Some(t)) = (tag, f.tag) {
        push(&mut sql, " AND n.tag = ?", Arg::Text(t.to_string()));
    }
    if let Some(name) = f.campaign_name.filter(|n| !n.is_empty()) {
        push(
            &mut sql,
            " AND n.campaign_names LIKE ? ESCAPE '\\'",
            Arg::Text(format!("%{}%", escape_like(&name.to_lowercase()))),
        );
    }
    if dates {
        if let Some(from) = f.from {
            push(&mut sql, " AND n.created_at >= ?", Arg::Int(from));
        }
        if let Some(to) = f.to {
            push(&mut sql, " AND n.created_at < ?", Arg::Int(to));
        }
    }
    if let Some(a) = f.account_id {
        push(&mut sql, " AND n.account_id = ?", Arg::Text(a.to_string()));
    }
    if let Some(o) = f.org_id {
        push(&mut sql, " AND n.org_id = ?", Arg::Int(o));
    }
    if unread && f.unread {
        unread_condition(&mut sql, &mut args, f.user_id, read_seq);
    }
    (sql, args)
}

/// Appends "unread by `user_id`": above the watermark and not read one by one.
fn unread_condition(sql: &mut String, args: &mut Vec<Arg>, user_id: &str, read_seq: i64) {
    args.push(Arg::Int(read_seq));
    sql.push_str(&format!(" AND n.seq > ${}", args.len()));
    args.push(Arg::Text(user_id.to_string()));
    sql.push_str(&format!(
        " AND NOT EXISTS (SELECT 1 FROM notification_reads r \
           WHERE r.notification_id = n.id AND r.user_id = ${})",
        args.len()
    ));
}

/// `text` with LIKE's wildcards and the escape character escaped (escape `\`).
fn escape_like(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

fn bind_all<'q>(
    mut q: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    args: Vec<Arg>,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
    for a in args {
        q = match a {
            Arg::Text(t) => q.bind(t),
            Arg::Int(i) => q.bind(i),
        };
    }
    q
}

/// Member `user_id`'s "Mark all as read" watermark in `workspace_id` (0: none).
pub async fn read_seq(
    ex: impl Exec<'_>,
    workspace_id: &str,
    user_id: &str,
) -> Result<i64, sqlx::Error> {
    let row = sqlx::query(
        "SELECT read_seq FROM notification_read_marks WHERE user_id = $1 AND workspace_id = $2",
    )
    .bind(user_id)
    .bind(workspace_id)
    .fetch_optional(ex)
    .await?;
    row.map_or(Ok(0), |r| r.try_get("read_seq"))
}

/// A listed notification with its read state for the member.
#[derive(Debug, Clone, PartialEq)]
pub struct Listed {
    pub row: NotificationRow,
    pub read: bool,
}

/// A page of the notifications `f` selects, newest first (`created_at`, then id);
/// `read_seq` is the member's watermark ([`read_seq`]).
pub async fn list(
    ex: impl Exec<'_>,
    f: &Filter<'_>,
    read_seq: i64,
    limit: i64,
    skip: i64,
) -> Result<Vec<Listed>, sqlx::Error> {
    let (cond, mut args) = condition(f, read_seq, true, true, true);
    args.push(Arg::Text(f.user_id.to_string()));
    let user = args.len();
    args.push(Arg::Int(limit));
    args.push(Arg::Int(skip));
    let sql = format!(
        "SELECT n.*, CASE WHEN EXISTS (SELECT 1 FROM notification_reads r \
           WHERE r.notification_id = n.id AND r.user_id = ${user}) THEN 1 ELSE 0 END AS single_read \
         FROM notifications n WHERE {cond} \
         ORDER BY n.created_at DESC, n.id DESC LIMIT ${} OFFSET ${}",
        user + 1,
        user + 2
    );
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), args)
        .fetch_all(ex)
        .await?;
    rows.iter()
        .map(|r| {
            let row = row(r)?;
            let single: i64 = r.try_get("single_read")?;
            Ok(Listed {
                read: single != 0 || row.seq <= read_seq,
                row,
            })
        })
        .collect()
}

/// How many notifications `f` selects (every page).
pub async fn total(ex: impl Exec<'_>, f: &Filter<'_>, read_seq: i64) -> Result<i64, sqlx::Error> {
    let (cond, args) = condition(f, read_seq, true, true, true);
    let sql = format!("SELECT COUNT(*) AS n FROM notifications n WHERE {cond}");
    bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), args)
        .fetch_one(ex)
        .await?
        .try_get("n")
}

/// How many notifications of each tag `f` selects whatever its tag and unread condition
/// (the left filter list's numbers): (tag, count), tags with none left out.
pub async fn counts(ex: impl Exec<'_>, f: &Filter<'_>) -> Result<Vec<(String, i64)>, sqlx::Error> {
    let (cond, args) = condition(f, 0, false, true, false);
    let sql =
        format!("SELECT n.tag, COUNT(*) AS n FROM notifications n WHERE {cond} GROUP BY n.tag");
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), args)
        .fetch_all(ex)
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("tag")?, r.try_get("n")?)))
        .collect()
}

/// How many notifications `f` selects, whatever its dates, that the member has not read (the
/// sidebar badge).
pub async fn unread(ex: impl Exec<'_>, f: &Filter<'_>, read_seq: i64) -> Result<i64, sqlx::Error> {
    let (mut cond, mut args) = condition(f, read_seq, true, false, false);
    unread_condition(&mut cond, &mut args, f.user_id, read_seq);
    let sql = format!("SELECT COUNT(*) AS n FROM notifications n WHERE {cond}");
    bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), args)
        .fetch_one(ex)
        .await?
        .try_get("n")
}

/// The action a change of `field` is: `CREATE` (field `created`), `DELETE` (`deleted`), else
/// `UPDATE`.
pub fn action_of(field: &str) -> &'static str {
    match field {
        "created" => "CREATE",
        "deleted" => "DELETE",
        _ => "UPDATE",
    }
}

/// The changes of one notification sharing a field (and so an action).
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub notification_id: String,
    pub field: String,
    pub action: &'static str,
    pub count: i64,
    /// The old value every change of the group shares (`Some(None)`: all unset), or None
    /// when they differ.
    pub old_value: Option<Option<String>>,
    /// The same for the new value.
    pub new_value: Option<Option<String>>,
    pub currency: Option<String>,
    /// The entity's name when the group has one change.
    pub entity_name: Option<String>,
    /// What was created or deleted (a list's terms, the campaigns made): the first
    /// [`GROUP_NAMES`] entity names in the order recorded; empty for updates.
    pub entities: Vec<String>,
}

/// How many names of what a group created or deleted are answered.
pub const GROUP_NAMES: usize = 5;

/// The changes of the notifications `ids` grouped per (notification, field), in one query;
/// by notification then field.
pub async fn groups(ex: impl Exec<'_>, ids: &[String]) -> Result<Vec<Group>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT notification_id, field, COUNT(*) AS n, \
           COUNT(old_value) AS n_old, MIN(old_value) AS min_old, MAX(old_value) AS max_old, \
           COUNT(new_value) AS n_new, MIN(new_value) AS min_new, MAX(new_value) AS max_new, \
           MIN(currency) AS currency, MIN(entity_name) AS entity_name \
         FROM change_records WHERE notification_id IN ({}) \
         GROUP BY notification_id, field ORDER BY notification_id, field",
        placeholders(1, ids.len())
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
    for id in ids {
        q = q.bind(id);
    }
    let rows = q.fetch_all(ex).await?;
    rows.iter()
        .map(|r| {
            let count: i64 = r.try_get("n")?;
            let shared = |n: &str, min: &str, max: &str| -> Result<_, sqlx::Error> {
                let present: i64 = r.try_get(n)?;
                let (lo, hi): (Option<String>, Option<String>) = (r.try_get(min)?, r.try_get(max)?);
                Ok(match present {
                    0 => Some(None),
                    p if p == count && lo == hi => Some(lo),
                    _ => None,
                })
            };
            let field: String = r.try_get("field")?;
            Ok(Group {
                notification_id: r.try_get("notification_id")?,
                action: action_of(&field),
                field,
                count,
                old_value: shared("n_old", "min_old", "max_old")?,
                new_value: shared("n_new", "min_new", "max_new")?,
                currency: r.try_get("currency")?,
                entity_name: if count == 1 {
                    r.try_get("entity_name")?
                } else {
                    None
                },
                // Filled from `created_or_deleted` by those who show them.
                entities: Vec::new(),
            })
        })
        .collect()
}

/// The entity names of what the notifications `ids` created or deleted: (notification id,
/// field, name), in the order recorded, at most [`GROUP_NAMES`] per notification and field.
pub async fn created_or_deleted(
    ex: impl Exec<'_>,
    ids: &[String],
) -> Result<Vec<(String, String, String)>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT notification_id, field, entity_name FROM change_records \
         WHERE notification_id IN ({}) AND field IN ('created', 'deleted') \
           AND entity_name IS NOT NULL AND entity_name <> '' \
         ORDER BY notification_id, field, id",
        placeholders(1, ids.len())
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
    for id in ids {
        q = q.bind(id);
    }
    let mut out: Vec<(String, String, String)> = Vec::new();
    let mut taken = 0;
    for r in q.fetch_all(ex).await? {
        let key: (String, String) = (r.try_get("notification_id")?, r.try_get("field")?);
        let same = out
            .last()
            .is_some_and(|(n, f, _)| (n, f) == (&key.0, &key.1));
        taken = if same { taken + 1 } else { 1 };
        if taken <= GROUP_NAMES {
            out.push((key.0, key.1, r.try_get("entity_name")?));
        }
    }
    Ok(out)
}

/// The distinct campaign names of the changes of the notifications `ids`: (notification id,
/// name), by notification then name.
pub async fn campaign_names(
    ex: impl Exec<'_>,
    ids: &[String],
) -> Result<Vec<(String, String)>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT DISTINCT notification_id, campaign_name FROM change_records \
         WHERE notification_id IN ({}) ORDER BY notification_id, campaign_name",
        placeholders(1, ids.len())
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
    for id in ids {
        q = q.bind(id);
    }
    let rows = q.fetch_all(ex).await?;
    rows.iter()
        .map(|r| Ok((r.try_get("notification_id")?, r.try_get("campaign_name")?)))
        .collect()
}

/// Marks the notifications `ids` of `workspace_id` read (or unread) for member `user_id`;
/// ids of another workspace or unknown are ignored. Returns how many changed state.
pub async fn mark(
    ex: &mut sqlx::AnyConnection,
    workspace_id: &str,
    user_id: &str,
    ids: &[String],
    read: bool,
) -> Result<u64, sqlx::Error> {
    if ids.is_empty() {
        return Ok(0);
    }
    let watermark = read_seq(&mut *ex, workspace_id, user_id).await?;
    let list = placeholders(4, ids.len());
    if read {
        let sql = format!(
            "INSERT INTO notification_reads (notification_id, user_id) \
             SELECT n.id, $1 FROM notifications n \
             WHERE n.workspace_id = $2 AND n.seq > $3 AND n.id IN ({list}) \
             ON CONFLICT DO NOTHING"
        );
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(user_id)
            .bind(workspace_id)
            .bind(watermark);
        for id in ids {
            q = q.bind(id);
        }
        return Ok(q.execute(&mut *ex).await?.rows_affected());
    }
    // Unread above the watermark: its single read goes.
    let sql = format!(
        "DELETE FROM notification_reads WHERE user_id = $1 AND notification_id IN \
           (SELECT n.id FROM notifications n WHERE n.workspace_id = $2 AND n.seq > $3 \
            AND n.id IN ({list}))"
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(user_id)
        .bind(workspace_id)
        .bind(watermark);
    for id in ids {
        q = q.bind(id);
    }
    let mut changed = q.execute(&mut *ex).await?.rows_affected();
    // Unread at or below the watermark: the watermark drops below the lowest of them, and
    // the others it no longer covers become single reads.
    let sql = format!(
        "SELECT COUNT(*) AS n, MIN(n.seq) AS low FROM notifications n \
         WHERE n.workspace_id = $1 AND n.seq <= $2 AND n.id IN ({})",
        placeholders(3, ids.len())
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(workspace_id)
        .bind(watermark);
    for id in ids {
        q = q.bind(id);
    }
    let below = q.fetch_one(&mut *ex).await?;
    let (n, low): (i64, Option<i64>) = (below.try_get("n")?, below.try_get("low")?);
    if let (true, Some(low)) = (n > 0, low) {
        let sql = format!(
            "INSERT INTO notification_reads (notification_id, user_id) \
             SELECT n.id, $1 FROM notifications n \
             WHERE n.workspace_id = $2 AND n.seq >= $3 AND n.seq <= $4 \
               AND n.id NOT IN ({}) ON CONFLICT DO NOTHING",
            placeholders(5, ids.len())
        );
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(user_id)
            .bind(workspace_id)
            .bind(low)
            .bind(watermark);
        for id in ids {
            q = q.bind(id);
        }
        q.execute(&mut *ex).await?;
        set_read_seq(&mut *ex, workspace_id, user_id, low - 1).await?;
        changed += n as u64;
    }
    Ok(changed)
}

async fn set_read_seq(
    ex: impl Exec<'_>,
    workspace_id: &str,
    user_id: &str,
    seq: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO notification_read_marks (user_id, workspace_id, read_seq) VALUES ($1, $2, $3) \
         ON CONFLICT (user_id, workspace_id) DO UPDATE SET read_seq = excluded.read_seq",
    )
    .bind(user_id)
    .bind(workspace_id)
    .bind(seq)
    .execute(ex)
    .await?;
    Ok(())
}

/// Marks every notification of `workspace_id` read (the watermark moves to the newest) or
/// unread (the watermark and single reads go) for member `user_id`. Returns how many changed
/// state.
pub async fn mark_all(
    ex: &mut sqlx::AnyConnection,
    workspace_id: &str,
    user_id: &str,
    read: bool,
) -> Result<u64, sqlx::Error> {
    let watermark = read_seq(&mut *ex, workspace_id, user_id).await?;
    let everyone = Filter {
        workspace_id,
        user_id,
        ..Filter::default()
    };
    let unread_before = unread(&mut *ex, &everyone, watermark).await?;
    if read {
        let newest: Option<i64> =
            sqlx::query("SELECT MAX(seq) AS s FROM notifications WHERE workspace_id = $1")
                .bind(workspace_id)
                .fetch_one(&mut *ex)
                .await?
                .try_get("s")?;
        let Some(newest) = newest.filter(|s| *s > watermark) else {
            return Ok(unread_before as u64);
        };
        set_read_seq(&mut *ex, workspace_id, user_id, newest).await?;
        clear_reads(&mut *ex, workspace_id, user_id).await?;
        return Ok(unread_before as u64);
    }
    let all: i64 = sqlx::query("SELECT COUNT(*) AS n FROM notifications WHERE workspace_id = $1")
        .bind(workspace_id)
        .fetch_one(&mut *ex)
        .await?
        .try_get("n")?;
    sqlx::query("DELETE FROM notification_read_marks WHERE user_id = $1 AND workspace_id = $2")
        .bind(user_id)
        .bind(workspace_id)
        .execute(&mut *ex)
        .await?;
    clear_reads(&mut *ex, workspace_id, user_id).await?;
    Ok((all - unread_before) as u64)
}

/// Drops member `user_id`'s single reads of `workspace_id`'s notifications.
async fn clear_reads(
    ex: impl Exec<'_>,
    workspace_id: &str,
    user_id: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "DELETE FROM notification_reads WHERE user_id = $1 AND notification_id IN \
           (SELECT id FROM notifications WHERE workspace_id = $2)",
    )
    .bind(user_id)
    .bind(workspace_id)
    .execute(ex)
    .await?;
    Ok(())
}

/// Deletes up to `batch` notifications (with their changes) made before `before` (unix
/// seconds), and up to `batch` change records of no notification made before it; returns how
/// many rows went. The retention calls it until it answers 0.
pub async fn delete_older(
    ex: &mut sqlx::AnyConnection,
    before: i64,
    batch: i64,
) -> Result<u64, sqlx::Error> {
    let notifications = sqlx::query(
        "DELETE FROM notifications WHERE id IN \
           (SELECT id FROM notifications WHERE created_at < $1 LIMIT $2)",
    )
    .bind(before)
    .bind(batch)
    .execute(&mut *ex)
    .await?
    .rows_affected();
    let orphans = sqlx::query(
        "DELETE FROM change_records WHERE id IN \
           (SELECT id FROM change_records WHERE notification_id IS NULL AND created_at < $1 \
            LIMIT $2)",
    )
    .bind(before)
    .bind(batch)
    .execute(&mut *ex)
    .await?
    .rows_affected();
    Ok(notifications + orphans)
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

/// Titles as the log shows them ("Bid changed", "Status changed on 2,000 keywords", "Rule
/// 'X' changed 12 keywords", "3 campaigns created").
pub mod titles {
    /// A field as a title names it.
    pub fn field(field: &str) -> &'static str {
        match field {
            "cptBid" | "bid" => "Bid",
            "defaultBidAmount" => "Default bid",
            "dailyBudget" => "Daily budget",
            "budgetAmount" => "Budget",
            "cpaGoal" => "CPA goal",
            "status" => "Status",
            "name" => "Name",
            "searchMatch" | "automatedKeywordsOptIn" => "Search Match",
            _ => "Setting",
        }
    }

    /// A level's noun, singular or plural.
    pub fn noun(level: &str, n: i64) -> &'static str {
        let (one, many) = match level {
            "CAMPAIGN" => ("campaign", "campaigns"),
            "AD_GROUP" => ("ad group", "ad groups"),
            "NEGATIVE_KEYWORD" => ("negative keyword", "negative keywords"),
            "AD" => ("ad", "ads"),
            "KEYWORD" => ("keyword", "keywords"),
            _ => ("item", "items"),
        };
        if n == 1 { one } else { many }
    }

    /// `n` with thousands separators (2,000).
    pub fn count(n: i64) -> String {
        let digits = n.unsigned_abs().to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        if n < 0 { format!("-{out}") } else { out }
    }

    fn capitalised(s: &str) -> String {
        let mut c = s.chars();
        c.next()
            .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
            .unwrap_or_default()
    }

    /// A member's change of `field` on `n` entities of `level`.
    pub fn manual(level: &str, field: &str, n: i64) -> String {
        match (field, n) {
            ("deleted", 1) => format!("{} deleted", capitalised(noun(level, 1))),
            ("deleted", n) => format!("{} {} deleted", count(n), noun(level, n)),
            ("created", 1) => format!("{} added", capitalised(noun(level, 1))),
            ("created", n) => format!("{} {} added", count(n), noun(level, n)),
            (f, 1) => format!("{} changed", self::field(f)),
            (f, n) => format!(
                "{} changed on {} {}",
                self::field(f),
                count(n),
                noun(level, n)
            ),
        }
    }

    /// A quick edit of `fields` of one entity of `level`.
    pub fn quick(level: &str, fields: &[&str]) -> String {
        match fields {
            [one] => manual(level, one, 1),
            _ => format!("{} changed", capitalised(noun(level, 1))),
        }
    }

    /// Rule `name`'s run that changed `n` entities of `level`.
    pub fn rule(name: &str, level: &str, n: i64) -> String {
        format!("Rule '{name}' changed {} {}", count(n), noun(level, n))
    }

    /// `n` campaigns created.
    pub fn created(n: i64) -> String {
        format!("{} {} created", count(n), noun("CAMPAIGN", n))
    }

    /// The undo of notification titled `original`.
    pub fn undo(original: &str) -> String {
        format!("Undone: {original}")
    }
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
