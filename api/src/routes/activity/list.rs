//! The activity log's list (`GET accountsActions/all`): one page of the workspace's
//! notifications under the filters, tag counts, each entry's change groups and whether it
//! can still be undone.

use std::collections::HashMap;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    ids,
    store::activity::notifications::{self, Filter, Group, Listed},
};
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    UNDOABLE_FIELDS,
    query::{ListQuery, check},
};
use crate::{
    access::Member,
    envelope::{self, Envelope},
    error::{ApiResult, ErrorBody},
    extract::ApiQuery,
    state::AppState,
};

/// One change's value as `oldData` / `saveData` show it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChangeValue {
    pub entity: Option<String>,
    pub field: String,
    pub value: Option<String>,
    pub currency: Option<String>,
}

/// The changes of a notification sharing a field (spec §3 `notificationsData`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangeGroup {
    /// `user`, `rule` or `apple_ads`.
    pub source: String,
    /// The field (`cptBid`, `status`, …; `created`, `deleted`).
    pub type_of_change: String,
    /// UPDATE, CREATE or DELETE.
    pub action: String,
    pub count: i64,
    /// The old value when every change of the group shares it, else null.
    pub old_data: Option<String>,
    /// The new value when every change of the group shares it, else null.
    pub save_data: Option<String>,
    pub currency: Option<String>,
    /// What a CREATE or DELETE group made or removed (a list's terms, the campaigns
    /// created): up to 5 entity names in the order recorded, `count` saying how many in
    /// all; empty for updates.
    pub entities: Vec<String>,
}

/// Whether the notification can be undone, and its undo links.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UndoState {
    pub possible: bool,
    pub undone_by: Option<String>,
    pub undo_of: Option<String>,
}

/// A notification (spec §3).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotificationOut {
    #[serde(rename = "_id")]
    pub id: String,
    pub title: String,
    pub tag: String,
    /// UPDATE, CREATE, DELETE or UNDO.
    pub action: String,
    /// CAMPAIGN, AD_GROUP, KEYWORD, NEGATIVE_KEYWORD, AD or MIXED.
    pub target: String,
    /// `user`, `rule` or `apple_ads`.
    pub source: String,
    /// The member's or the rule's name, or "Apple Ads".
    pub source_name: String,
    pub email: Option<String>,
    pub rule_id: Option<String>,
    pub key: String,
    /// `change` or `undo`.
    #[serde(rename = "type")]
    pub kind: String,
    /// RFC 3339.
    pub date_created: String,
    pub read: bool,
    pub account_id: Option<String>,
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub org_id: Option<String>,
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub campaign_id: Option<String>,
    /// The one campaign's name, or "3 campaigns".
    pub campaign_name: Option<String>,
    pub campaign_names: Vec<String>,
    /// The single change when `count` is 1, else null.
    pub old_data: Option<ChangeValue>,
    pub save_data: Option<ChangeValue>,
    pub count: i64,
    pub notifications_data: Vec<ChangeGroup>,
    pub undo: UndoState,
}

/// Notifications per tag within the same dates, search and account filters.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct TagCounts {
    pub all: i64,
    pub manual_change: i64,
    pub quick_start: i64,
    pub auto_rules: i64,
    pub goal_optimization: i64,
    pub team: i64,
}

/// A page of the log.
#[derive(Debug, Serialize, ToSchema)]
pub struct NotificationPage {
    pub items: Vec<NotificationOut>,
    /// Every notification the filters select.
    pub total: i64,
    /// The caller's unread notifications within the filters, whatever the dates.
    pub unread: i64,
    pub counts: TagCounts,
}

/// The log: a page of the caller's workspace's notifications, newest first, with the
/// filters' total, the counts per tag and the caller's unread count.
#[utoipa::path(get, path = "/api/accountsActions/all", operation_id = "list_notifications", tag = "activity",
    params(ListQuery),
    responses((status = 200, description = "A page of notifications", body = Envelope<NotificationPage>),
              (status = 400, description = "Invalid tag, date, dates, limit or skip", body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    user: Member,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> ApiResult<impl IntoResponse> {
    let q = check(&query)?;
    let f = Filter {
        workspace_id: &user.workspace_id,
        user_id: &user.user_id,
        tag: q.tag,
        campaign_name: q.search.as_deref(),
        from: q.bounds.map(|b| b.0),
        to: q.bounds.map(|b| b.1),
        unread: q.unread,
        account_id: q.account_id.as_deref(),
        org_id: q.org_id,
    };
    let mut conn = state.db.pool.acquire().await?;
    let seq = notifications::read_seq(&mut *conn, &user.workspace_id, &user.user_id).await?;
    let page = notifications::list(&mut *conn, &f, seq, q.limit, q.skip).await?;
    let total = if q.skip == 0 && (page.len() as i64) < q.limit {
        page.len() as i64
    } else {
        notifications::total(&mut *conn, &f, seq).await?
    };
    let mut counts = TagCounts::default();
    for (tag, n) in notifications::counts(&mut *conn, &f).await? {
        counts.all += n;
        match tag.as_str() {
            notifications::TAG_MANUAL => counts.manual_change = n,
            notifications::TAG_QUICK_START => counts.quick_start = n,
            notifications::TAG_AUTO_RULES => counts.auto_rules = n,
            notifications::TAG_GOAL_OPTIMIZATION => counts.goal_optimization = n,
            _ => counts.team = n,
        }
    }
    let unread = notifications::unread(&mut *conn, &f, seq).await?;
    let ids: Vec<String> = page.iter().map(|l| l.row.id.clone()).collect();
    let mut groups: HashMap<String, Vec<Group>> = HashMap::new();
    for g in notifications::groups(&mut *conn, &ids).await? {
        groups.entry(g.notification_id.clone()).or_default().push(g);
    }
    for (id, field, name) in notifications::created_or_deleted(&mut *conn, &ids).await? {
        if let Some(g) = groups
            .get_mut(&id)
            .and_then(|gs| gs.iter_mut().find(|g| g.field == field))
        {
            g.entities.push(name);
        }
    }
    let mut names: HashMap<String, Vec<String>> = HashMap::new();
    for (id, name) in notifications::campaign_names(&mut *conn, &ids).await? {
        names.entry(id).or_default().push(name);
    }
    let items = page
        .into_iter()
        .map(|l| {
            let g = groups.remove(&l.row.id).unwrap_or_default();
            let n = names.remove(&l.row.id).unwrap_or_default();
            notification_out(l, g, n)
        })
        .collect();
    Ok(envelope::ok(NotificationPage {
        items,
        total,
        unread,
        counts,
    }))
}

/// Whether a notification with `groups` can be undone.
pub fn undoable(row: &notifications::NotificationRow, groups: &[Group]) -> bool {
    row.kind == notifications::TYPE_CHANGE
        && row.undone_by.is_none()
        && row.tag != notifications::TAG_QUICK_START
        && row.tag != notifications::TAG_TEAM
        && groups
            .iter()
            .any(|g| UNDOABLE_FIELDS.contains(&g.field.as_str()))
}

fn notification_out(l: Listed, groups: Vec<Group>, names: Vec<String>) -> NotificationOut {
    let r = l.row;
    let count: i64 = groups.iter().map(|g| g.count).sum();
    let single = match groups.as_slice() {
        [g] if g.count == 1 => Some(g),
        _ => None,
    };
    let value = |g: &Group, v: &Option<Option<String>>| ChangeValue {
        entity: g.entity_name.clone(),
        field: g.field.clone(),
        value: v.clone().flatten(),
        currency: g.currency.clone(),
    };
    let possible = undoable(&r, &groups);
    NotificationOut {
        old_data: single.map(|g| value(g, &g.old_value)),
        save_data: single.map(|g| value(g, &g.new_value)),
        count,
        notifications_data: groups
            .iter()
            .map(|g| ChangeGroup {
                source: r.source.clone(),
                type_of_change: g.field.clone(),
                action: g.action.to_string(),
                count: g.count,
                old_data: g.old_value.clone().flatten(),
                save_data: g.new_value.clone().flatten(),
                currency: g.currency.clone(),
                entities: g.entities.clone(),
            })
            .collect(),
        undo: UndoState {
            possible,
            undone_by: r.undone_by,
            undo_of: r.undo_of,
        },
        campaign_name: match r.campaign_count {
            0 | 1 => r.campaign_name,
            n => Some(format!("{n} campaigns")),
        },
        campaign_names: names,
        id: r.id,
        title: r.title,
        tag: r.tag,
        action: r.action,
        target: r.target,
        source: r.source,
        source_name: r.source_name,
        email: r.email,
        rule_id: r.rule_id,
        key: r.key,
        kind: r.kind,
        date_created: ids::rfc3339(r.created_at * 1000),
        read: l.read,
        account_id: r.account_id,
        org_id: r.org_id.map(|o| o.to_string()),
        campaign_id: r.campaign_id.map(|c| c.to_string()),
    }
}
