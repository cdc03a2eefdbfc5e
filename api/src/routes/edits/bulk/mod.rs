//! Bulk edits (issue 10; docs/product.md#2-layout bulk edit headers, docs/product.md#5-money,
//! docs/product.md#7-the-calls-it-makes `asa/campaigns/updates`, `asa/groups/updates/{id}`,
//! `asa/keywords/update/targeting/{id}`): one field of up to 10,000 campaigns, ad groups or
//! keywords of one campaign group — set a value, raise or lower by an amount or a percentage (with
//! an optional floor and cap), pause or enable — run as a `bulk-edit` job whose task the browser
//! polls (`GET /api/tasks/{id}`).
//!
//! The route checks everything before anything is enqueued: the editor guard (readers 403),
//! the entities in the caller's workspace (an unknown id or another workspace's answers 404),
//! the money rules of the quick edits, at most 10,000 items. It then computes each item's
//! new value from our stored current value, once: the job only sends absolute values, so a
//! retried job can never apply a relative change twice.
//!
//! The request is checked and planned in `start`, each item's new amount is `target`'s, the
//! task's message `describe`'s; this module holds the request and its answer, the campaign
//! group an edit runs in and the steps every bulk route shares (ids, live rows, the job).

mod describe;
mod start;
mod target;

use std::collections::{HashMap, HashSet};

use searchdeck_common::{
    jobs::{BULK_EDIT_MAX_ITEMS, BulkEdit, BulkEditItem},
    queue::Job,
    store::{campaign_views::CampaignRow, synced::bulk},
    tasks::NewTask,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

pub use start::{ACTIONS, start};
pub use target::{Change, target};

use super::money;
use crate::{
    access::Editor,
    error::{ApiError, FieldError},
    session::CurrentUser,
    state::AppState,
};

/// Message of a bulk edit over [`BULK_EDIT_MAX_ITEMS`].
pub const TOO_MANY: &str = "A bulk edit takes at most 10,000 items. Select fewer and try again";

/// The body of a bulk edit: which entities, which field, what to do.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkEditRequest {
    /// Apple's ids of the entities (campaigns, ad groups or keywords, per route); at most
    /// 10,000. Also accepted as `campaignIds`, `adGroupIds`, `keywordIds`.
    #[serde(alias = "campaignIds", alias = "adGroupIds", alias = "keywordIds")]
    #[serde(default, with = "searchdeck_common::ids::string_id::option_list")]
    #[schema(value_type = Option<Vec<String>>)]
    pub ids: Option<Vec<i64>>,
    /// The column: `dailyBudget` (campaigns), `defaultBidAmount` or `cpaGoal` (ad groups),
    /// `cptBid` (keywords), or `status`. Defaults to `status` for pause and enable.
    pub field: Option<String>,
    /// `set`, `raise`, `lower`, `pause` or `enable`.
    pub action: Option<String>,
    /// The amount to set, or to raise or lower by (money in the campaign group's currency;
    /// for `set` on `status`, ENABLED or PAUSED).
    #[schema(value_type = Option<money::MoneyIn>)]
    pub value: Option<Value>,
    /// The percentage to raise or lower by (instead of `value`), e.g. 10.
    #[schema(value_type = Option<f64>)]
    pub percent: Option<Value>,
    /// No new amount below this (raise and lower).
    #[schema(value_type = Option<money::MoneyIn>)]
    pub floor: Option<Value>,
    /// No new amount above this (raise and lower).
    #[schema(value_type = Option<money::MoneyIn>)]
    pub cap: Option<Value>,
}

/// The answer of a bulk edit: the task to poll.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkEditStarted {
    /// The background task (`GET /api/tasks/{id}`); its details list every item's result.
    pub task_id: String,
    pub level: String,
    pub field: String,
    pub operation: String,
    /// Items in the job.
    pub total: usize,
}

/// The campaign group a bulk edit runs in.
pub struct Scope<'a> {
    pub user: &'a CurrentUser,
    pub account_id: &'a str,
    pub org_key: i64,
    pub org_id: i64,
    pub currency: Option<&'a str>,
    /// Only entities of this campaign (ad groups and keywords).
    pub campaign_id: Option<i64>,
}

/// The distinct ids of `raw` (sent as `field`): at least one, at most 10,000; else a field
/// error in `errors`.
pub fn ids(raw: Option<Vec<i64>>, field: &str, errors: &mut Vec<FieldError>) -> Vec<i64> {
    let mut seen = HashSet::new();
    let ids: Vec<i64> = raw
        .unwrap_or_default()
        .into_iter()
        .filter(|id| seen.insert(*id))
        .collect();
    if ids.is_empty() {
        errors.push(FieldError::new(field, crate::domain::REQUIRED));
    } else if ids.len() > BULK_EDIT_MAX_ITEMS {
        errors.push(FieldError::new(field, TOO_MANY));
    }
    ids
}

/// Entities `ids` of `level` in the scope's campaign group (and campaign), with the current
/// value of `field`: every id must be a live one, else 404 naming `what`.
pub async fn live_rows(
    state: &AppState,
    scope: &Scope<'_>,
    level: &str,
    field: &str,
    ids: &[i64],
    what: &'static str,
) -> Result<HashMap<i64, bulk::BulkRow>, ApiError> {
    let mut conn = state.db.pool.acquire().await?;
    let rows: HashMap<i64, bulk::BulkRow> = bulk::rows(
        &mut conn,
        scope.org_key,
        level,
        field,
        scope.campaign_id,
        ids,
    )
    .await?
    .into_iter()
    .filter(|r| !r.deleted)
    .map(|r| (r.id, r))
    .collect();
    if let Some(missing) = ids.iter().find(|id| !rows.contains_key(id)) {
        tracing::info!(id = missing, level, "bulk edit names an unknown entity");
        return Err(ApiError::not_found(what));
    }
    Ok(rows)
}

/// Enqueues the `bulk-edit` job of `items` with its task, described by `operation`.
pub async fn enqueue(
    state: &AppState,
    scope: &Scope<'_>,
    level: &str,
    field: &str,
    operation: String,
    items: Vec<BulkEditItem>,
) -> Result<BulkEditStarted, ApiError> {
    let total = items.len();
    let job = BulkEdit {
        workspace_id: scope.user.workspace_id.clone(),
        user_id: Some(scope.user.user_id.clone()),
        user_email: Some(scope.user.email.clone()),
        account_id: scope.account_id.to_string(),
        org_key: scope.org_key,
        org_id: scope.org_id,
        currency: scope.currency.map(str::to_string),
        level: level.to_string(),
        field: field.to_string(),
        operation: operation.clone(),
        items,
    };
    let task_id = state
        .start_task(
            NewTask {
                workspace_id: &scope.user.workspace_id,
                user_id: Some(&scope.user.user_id),
                kind: BulkEdit::KIND,
                message: &operation,
                total_steps: total as i64,
                account_id: Some(scope.account_id),
                org_id: Some(scope.org_id),
            },
            &job,
        )
        .await?;
    tracing::info!(task.id = %task_id, level, field, items = total, "bulk edit queued");
    Ok(BulkEditStarted {
        task_id,
        level: level.to_string(),
        field: field.to_string(),
        operation,
        total,
    })
}

/// The scope of campaign `c`: its entities only.
pub fn campaign_scope<'a>(caller: &'a Editor, c: &'a CampaignRow) -> Scope<'a> {
    Scope {
        campaign_id: Some(c.id),
        ..group_scope(caller, c)
    }
}

/// The scope of the campaign group of `c`, every campaign of it.
pub fn group_scope<'a>(caller: &'a Editor, c: &'a CampaignRow) -> Scope<'a> {
    Scope {
        user: caller.user(),
        account_id: &c.account_id,
        org_key: c.org_key,
        org_id: c.org_id,
        currency: c.currency.as_deref(),
        campaign_id: None,
    }
}
