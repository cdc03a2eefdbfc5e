//! The steps the deletions and the rename share (`DELETE asa/campaigns|groups|keywords`,
//! `PATCH asa/campaigns/replacePartName`): the campaign the selection is in ([`addressed`]),
//! then — once the route has checked its ids — every id a live entity there, the route's
//! items computed from the stored rows, and the `bulk-edit` job enqueued ([`queue`]). Each
//! route declares only what differs: its level, field, checks and items.

use std::collections::HashMap;

use axum::Json;
use searchdeck_common::{
    jobs::BulkEditItem,
    store::{campaign_views::CampaignRow, synced::bulk::BulkRow},
};

use super::bulk::{BulkEditStarted, Scope, enqueue, group_scope, live_rows};
use crate::{
    access::{Editor, ScopeQuery, campaign_by_id, first_campaign},
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult},
    state::AppState,
};

/// The campaign a selection of `level` entities is in, in the caller's workspace (narrowed
/// by the query's account and campaign group; 404 when not there): for campaigns the first
/// of `ids` (400 on `ids` when there is none), whose campaign group every other must be in;
/// for ad groups and keywords campaign `campaign_id` (400 on `campaignId` when absent).
pub async fn addressed(
    state: &AppState,
    caller: &Editor,
    query: &ScopeQuery,
    level: &str,
    campaign_id: Option<i64>,
    ids: Option<&Vec<i64>>,
) -> Result<CampaignRow, ApiError> {
    if level == "CAMPAIGN" {
        return first_campaign(state, caller, query, ids, "ids").await;
    }
    let Some(id) = campaign_id else {
        return Err(ApiError::field("campaignId", crate::domain::REQUIRED));
    };
    campaign_by_id(state, caller, query, id).await
}

/// What a deletion or rename selects and sets.
pub struct Selection<'a> {
    /// CAMPAIGN, AD_GROUP, KEYWORD or NEGATIVE_KEYWORD.
    pub level: &'static str,
    /// What a 404 names (`Campaign`, `Ad group`, ...).
    pub what: &'static str,
    /// The field the job sets (`deleted`, `name`).
    pub field: &'static str,
    /// The entities, already checked: distinct, 1 to 10,000.
    pub ids: &'a [i64],
}

/// Queues the `bulk-edit` job of `selection` in campaign `c` — its campaign group for
/// campaigns, the campaign itself for ad groups and keywords. Every id must be a live
/// entity there (else 404); `plan` turns their stored rows into the task's message and
/// items (or a 400). Answers the task.
pub async fn queue(
    state: &AppState,
    caller: &Editor,
    c: &CampaignRow,
    selection: Selection<'_>,
    plan: impl FnOnce(&HashMap<i64, BulkRow>) -> Result<(String, Vec<BulkEditItem>), ApiError>,
) -> ApiResult<Json<Envelope<Item<BulkEditStarted>>>> {
    let Selection {
        level,
        what,
        field,
        ids,
    } = selection;
    let scope = Scope {
        campaign_id: (level != "CAMPAIGN").then_some(c.id),
        ..group_scope(caller, c)
    };
    let rows = live_rows(state, &scope, level, field, ids, what).await?;
    let (operation, items) = plan(&rows)?;
    let started = enqueue(state, &scope, level, field, operation, items).await?;
    Ok(envelope::item(started))
}
