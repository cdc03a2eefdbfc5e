//! The activity log's list (`GET accountsActions/all`): one page of the workspace's
//! notifications under the filters, tag counts, each entry's change groups and whether it
//! can still be undone.

use std::collections::HashMap;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    ids,
    store::notifications::{self, Filter, Group, Listed, TAGS},
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::UNDOABLE_FIELDS;
use crate::{
    access::Member,
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::ApiQuery,
    state::AppState,
};

/// The query of `GET /api/accountsActions/all`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Page size (1–200, default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
    /// Notifications to skip (≥ 0, default 0).
    #[param(minimum = 0)]
    pub skip: Option<i64>,
    /// `manual_change`, `quick_start`, `auto_rules`, `goal_optimization` or `team`; omitted
    /// for all.
    pub tag: Option<String>,
    /// Matched case-insensitively anywhere in the name of a campaign it touched (trimmed).
    #[serde(rename = "campaignName")]
    pub campaign_name: Option<String>,
    /// YYYY-MM-DD, the caller's day (with `toDate`).
    #[serde(rename = "fromDate")]
    pub from_date: Option<String>,
    /// YYYY-MM-DD, inclusive (with `fromDate`).
    #[serde(rename = "toDate")]
    pub to_date: Option<String>,
    /// The caller's offset from UTC in minutes (120 for UTC+2; −840…840, default 0).
    #[serde(rename = "GMT")]
    #[param(rename = "GMT", minimum = -840, maximum = 840)]
    pub gmt: Option<i64>,
    /// `true`: only those the caller has not read.
    #[serde(rename = "new")]
    #[param(rename = "new")]
    pub new_only: Option<bool>,
    /// One connection.
    #[serde(rename = "accountId")]
    pub account_id: Option<String>,
    /// One campaign group (Apple's id).
    #[serde(rename = "orgId")]
    #[param(pattern = "^[0-9]{1,19}$")]
    pub org_id: Option<String>,
}

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

/// A date of the query, `YYYY-MM-DD`.
fn date(field: &str, v: &str, errors: &mut Vec<FieldError>) -> Option<time::Date> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    match time::Date::parse(v.trim(), &format) {
        Ok(d) => Some(d),
        Err(_) => {
            errors.push(FieldError::new(field, "Must be a date YYYY-MM-DD"));
            None
        }
    }
}

/// The checked query: page, filter parts.
struct Checked {
    limit: i64,
    skip: i64,
    tag: Option<&'static str>,
    search: Option<String>,
    bounds: Option<(i64, i64)>,
    unread: bool,
    account_id: Option<String>,
    org_id: Option<i64>,
}

fn check(q: &ListQuery) -> ApiResult<Checked> {
    let mut errors = Vec::new();
    let limit = q.limit.unwrap_or(50);
    if !(1..=200).contains(&limit) {
        errors.push(FieldError::new("limit", "Between 1 and 200"));
    }
    let skip = q.skip.unwrap_or(0);
    if skip < 0 {
        errors.push(FieldError::new("skip", "Must be at least 0"));
    }
    let tag = match q.tag.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(t) => match TAGS.iter().find(|k| **k == t) {
            Some(k) => Some(*k),
            None => {
                errors.push(FieldError::new(
                    "tag",
                    "One of manual_change, quick_start, auto_rules, goal_optimization, team",
                ));
                None
            }
        },
    };
    let gmt = q.gmt.unwrap_or(0);
    if !(-840..=840).contains(&gmt) {
        errors.push(FieldError::new("GMT", "Between -840 and 840 minutes"));
    }
    let bounds = match (q.from_date.as_deref(), q.to_date.as_deref()) {
        (None, None) => None,
        (Some(from), Some(to)) => {
            let from = date("fromDate", from, &mut errors);
            let to = date("toDate", to, &mut errors);
            match (from, to) {
                (Some(f), Some(t)) if f > t => {
                    errors.push(FieldError::new("fromDate", "Must not be after toDate"));
                    None
                }
                (Some(f), Some(t)) => Some(notifications::day_bounds(f, t, gmt)),
                _ => None,
            }
        }
        (None, Some(_)) => {
            errors.push(FieldError::new("fromDate", "Give both dates or neither"));
            None
        }
        (Some(_), None) => {
            errors.push(FieldError::new("toDate", "Give both dates or neither"));
            None
        }
    };
    let org_id = match q.org_id.as_deref() {
        None => None,
        Some(o) => match o.trim().parse::<i64>() {
            Ok(id) if id > 0 => Some(id),
            _ => {
                errors.push(FieldError::new("orgId", "Must be a campaign group id"));
                None
            }
        },
    };
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    Ok(Checked {
        limit,
        skip,
        tag,
        search: q
            .campaign_name
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string),
        bounds,
        unread: q.new_only.unwrap_or(false),
        account_id: q.account_id.clone().filter(|a| !a.trim().is_empty()),
        org_id,
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(q: ListQuery) -> Vec<String> {
        match check(&q) {
            Err(ApiError::Status { errors, .. }) => errors.into_iter().map(|e| e.field).collect(),
            _ => Vec::new(),
        }
    }

    fn dates(from: &str, to: &str) -> ListQuery {
        ListQuery {
            from_date: Some(from.into()),
            to_date: Some(to.into()),
            ..ListQuery::default()
        }
    }

    #[test]
    fn the_query_is_checked_field_by_field() {
        let tag = ListQuery {
            tag: Some("nope".into()),
            ..ListQuery::default()
        };
        assert_eq!(fields(tag), ["tag"]);
        let single = ListQuery {
            from_date: Some("2026-11-01".into()),
            ..ListQuery::default()
        };
        assert_eq!(fields(single), ["toDate"]);
        assert_eq!(fields(dates("2026-11-30", "2026-11-01")), ["fromDate"]);
        assert_eq!(fields(dates("2026-13-01", "2026-11-01")), ["fromDate"]);
        let gmt = ListQuery {
            gmt: Some(900),
            limit: Some(0),
            ..ListQuery::default()
        };
        assert_eq!(fields(gmt), ["limit", "GMT"]);
        let ok = ListQuery {
            gmt: Some(120),
            campaign_name: Some("  br  ".into()),
            ..dates("2026-11-27", "2026-11-27")
        };
        let ok = check(&ok).unwrap_or_else(|_| panic!("a valid query"));
        assert_eq!(
            ok.bounds,
            Some((1_795_737_600 - 7_200, 1_795_737_600 + 86_400 - 7_200))
        );
        assert_eq!(ok.search.as_deref(), Some("br"));
    }
}
