//! The activity log as the screen reads it: the filters (tag, campaign-name search, the
//! caller's days, unread only, one connection or campaign group), the page of
//! notifications newest first with its total, the counts per tag and the unread count, and
//! the summary of a page's changes per (field, action).

use sqlx::Row;

use super::*;

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
