//! Apple's change history as the sync reads it (`change_history_marks`, migration
//! `20261201002000_change_history`; contract `docs/api/activity.md`, "Changes made outside
//! Searchdeck"). Each entity sync of a campaign group reads Apple's history on from the
//! [`Mark`] of that group (the latest event time read and its transaction; none before the
//! first read, which looks back 30 days) and records each transaction not entirely ours as
//! one notification (`store::notifications::record`) with its field changes as change
//! records.
//!
//! A field change is **ours** ([`is_ours`]) when one of our own change records — a quick
//! edit, a bulk edit, a rule run; not one read from Apple's history — of the same
//! workspace, campaign group, level, entity and field set the same new value within
//! [`WINDOW_SECS`] of it: Apple's history lists our own writes too (as an API client's), and
//! they are in the log already. Values compare as the change records write them, amounts as
//! numbers (`1.5` is `1.50`). [`entity`] names a changed entity from the synced tables.
//!
//! Reading a change's fields costs one call per changed entity, so a transaction made
//! through Apple's API whose every entity one of our records changed within the window
//! ([`entity_changed_by_us`]) is taken as ours without reading its fields: a bulk edit of
//! 2,000 keywords costs no detail call at the next sync. A transaction made in Apple's UI
//! (or by Apple support) is always read field by field.

use std::str::FromStr;

use rust_decimal::Decimal;
use sqlx::Row;

use crate::store::Exec;

/// How far apart (seconds) Apple's event and our change record may be and still be the
/// same change.
pub const WINDOW_SECS: i64 = 600;

/// How far back the first read of a campaign group's history looks (days).
pub const FIRST_READ_DAYS: i64 = 30;

/// Where the last read of a campaign group's history stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// The latest event time read (unix milliseconds).
    pub event_time_ms: i64,
    /// Its transaction.
    pub transaction_id: Option<String>,
}

/// The mark of campaign group `org_id` of connection `account_id`, None before its first
/// read.
pub async fn mark(
    ex: impl Exec<'_>,
    account_id: &str,
    org_id: i64,
) -> Result<Option<Mark>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT event_time_ms, transaction_id FROM change_history_marks \
         WHERE account_id = $1 AND org_id = $2",
    )
    .bind(account_id)
    .bind(org_id)
    .fetch_optional(ex)
    .await?;
    row.map(|r| {
        Ok(Mark {
            event_time_ms: r.try_get("event_time_ms")?,
            transaction_id: r.try_get("transaction_id")?,
        })
    })
    .transpose()
}

/// Moves the mark of the campaign group to `mark` (read at `now_ms`); a mark older than the
/// stored one leaves it where it is.
pub async fn set_mark(
    ex: impl Exec<'_>,
    account_id: &str,
    org_id: i64,
    mark: &Mark,
    now_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO change_history_marks (account_id, org_id, event_time_ms, transaction_id, \
           read_at) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (account_id, org_id) DO UPDATE SET \
           transaction_id = CASE WHEN excluded.event_time_ms >= change_history_marks.event_time_ms \
             THEN excluded.transaction_id ELSE change_history_marks.transaction_id END, \
           event_time_ms = CASE WHEN excluded.event_time_ms >= change_history_marks.event_time_ms \
             THEN excluded.event_time_ms ELSE change_history_marks.event_time_ms END, \
           read_at = excluded.read_at",
    )
    .bind(account_id)
    .bind(org_id)
    .bind(mark.event_time_ms)
    .bind(&mark.transaction_id)
    .bind(now_ms)
    .execute(ex)
    .await?;
    Ok(())
}

/// One field change of Apple's history, to match against our change records.
#[derive(Debug, Clone, PartialEq)]
pub struct Detail<'a> {
    pub workspace_id: &'a str,
    pub org_id: i64,
    /// One of `store::changes::LEVELS`.
    pub level: &'a str,
    pub entity_id: i64,
    /// Our field name (the table's column name: `cptBid`, `status`, …).
    pub field: &'a str,
    /// The new value as our change records write it.
    pub new_value: Option<&'a str>,
    /// When it was made, on our clock (unix seconds).
    pub at: i64,
}

/// Whether two values as change records write them are the same: equal texts, or equal
/// amounts.
pub fn same_value(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) if a == b => true,
        (Some(a), Some(b)) => match (Decimal::from_str(a.trim()), Decimal::from_str(b.trim())) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        },
        _ => false,
    }
}

/// Our own change records (not ones read from Apple's history) of workspace `$1`, level
/// `$2`, entity `$3`, made between `$4` and `$5` in campaign group `$6`.
const OURS_NEARBY: &str = "WHERE c.workspace_id = $1 AND c.level = $2 AND c.entity_id = $3 \
       AND c.created_at >= $4 AND c.created_at <= $5 AND c.org_id = $6 \
       AND (c.notification_id IS NULL OR NOT EXISTS ( \
         SELECT 1 FROM notifications n WHERE n.id = c.notification_id \
           AND n.source = 'apple_ads'))";

/// Whether one of our own change records changed entity `entity_id` at `level` of campaign
/// group `org_id` within [`WINDOW_SECS`] of `at` (unix seconds, our clock), whatever field.
pub async fn entity_changed_by_us(
    ex: impl Exec<'_>,
    workspace_id: &str,
    org_id: i64,
    level: &str,
    entity_id: i64,
    at: i64,
) -> Result<bool, sqlx::Error> {
    let found = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT 1 FROM change_records c {OURS_NEARBY} LIMIT 1"
    )))
    .bind(workspace_id)
    .bind(level)
    .bind(entity_id)
    .bind(at - WINDOW_SECS)
    .bind(at + WINDOW_SECS)
    .bind(org_id)
    .fetch_optional(ex)
    .await?;
    Ok(found.is_some())
}

/// Whether `d` is ours: one of our own change records (not one read from Apple's history)
/// of the same workspace, campaign group, level, entity and field set the same new value
/// within [`WINDOW_SECS`] of it.
pub async fn is_ours(ex: impl Exec<'_>, d: &Detail<'_>) -> Result<bool, sqlx::Error> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT c.new_value FROM change_records c {OURS_NEARBY} AND c.field = $7"
    )))
    .bind(d.workspace_id)
    .bind(d.level)
    .bind(d.entity_id)
    .bind(d.at - WINDOW_SECS)
    .bind(d.at + WINDOW_SECS)
    .bind(d.org_id)
    .bind(d.field)
    .fetch_all(ex)
    .await?;
    for r in &rows {
        let value: Option<String> = r.try_get("new_value")?;
        if same_value(value.as_deref(), d.new_value) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// A synced entity's names: its own (a keyword's text), its campaign's and where it sits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub name: String,
    pub campaign_id: i64,
    pub ad_group_id: Option<i64>,
    pub campaign_name: String,
}

/// The synced entity `entity_id` of `level` in campaign group `org_key` (deleted ones
/// included), None when the sync never saw it.
pub async fn entity(
    ex: impl Exec<'_>,
    org_key: i64,
    level: &str,
    entity_id: i64,
) -> Result<Option<Named>, sqlx::Error> {
    let sql = match level {
        "CAMPAIGN" => {
            "SELECT e.name AS name, e.id AS campaign_id, CAST(NULL AS BIGINT) AS ad_group_id, \
               e.name AS campaign_name FROM asa_campaigns e \
             WHERE e.org_key = $1 AND e.id = $2"
        }
        "AD_GROUP" => {
            "SELECT e.name AS name, e.campaign_id AS campaign_id, e.id AS ad_group_id, \
               c.name AS campaign_name FROM asa_ad_groups e \
             LEFT JOIN asa_campaigns c ON c.org_key = e.org_key AND c.id = e.campaign_id \
             WHERE e.org_key = $1 AND e.id = $2"
        }
        "KEYWORD" => {
            "SELECT e.text AS name, e.campaign_id AS campaign_id, e.ad_group_id AS ad_group_id, \
               c.name AS campaign_name FROM asa_keywords e \
             LEFT JOIN asa_campaigns c ON c.org_key = e.org_key AND c.id = e.campaign_id \
             WHERE e.org_key = $1 AND e.id = $2"
        }
        "NEGATIVE_KEYWORD" => {
            "SELECT e.text AS name, e.campaign_id AS campaign_id, e.ad_group_id AS ad_group_id, \
               c.name AS campaign_name FROM asa_negative_keywords e \
             LEFT JOIN asa_campaigns c ON c.org_key = e.org_key AND c.id = e.campaign_id \
             WHERE e.org_key = $1 AND e.id = $2"
        }
        "AD" => {
            "SELECT e.name AS name, e.campaign_id AS campaign_id, e.ad_group_id AS ad_group_id, \
               c.name AS campaign_name FROM asa_ads e \
             LEFT JOIN asa_campaigns c ON c.org_key = e.org_key AND c.id = e.campaign_id \
             WHERE e.org_key = $1 AND e.id = $2"
        }
        _ => return Ok(None),
    };
    let row = sqlx::query(sql)
        .bind(org_key)
        .bind(entity_id)
        .fetch_optional(ex)
        .await?;
    row.map(|r| {
        Ok(Named {
            name: r.try_get("name")?,
            campaign_id: r.try_get("campaign_id")?,
            ad_group_id: r.try_get("ad_group_id")?,
            campaign_name: r
                .try_get::<Option<String>, _>("campaign_name")?
                .unwrap_or_default(),
        })
    })
    .transpose()
}

#[cfg(test)]
mod tests {
    use super::same_value;

    #[test]
    fn values_compare_as_text_and_amounts_as_numbers() {
        assert!(same_value(Some("1.5"), Some("1.50")));
        assert!(same_value(Some("PAUSED"), Some("PAUSED")));
        assert!(same_value(None, None));
        assert!(!same_value(Some("1.5"), Some("1.51")));
        assert!(!same_value(Some("PAUSED"), Some("ENABLED")));
        assert!(!same_value(Some("1"), None));
    }
}
