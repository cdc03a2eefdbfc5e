//! The bulk-edit routes: `PUT asa/campaigns/updates` (campaigns of one campaign group),
//! `PUT asa/groups/updates/{id}` (ad groups of campaign `id`),
//! `PUT asa/groups/updatesAllGroupsByCampaigns` (every ad group of some campaigns) and
//! `PUT asa/keywords/update/targeting/{id}` (targeting keywords of campaign `id`). Each
//! validates, computes the targets and answers the `bulk-edit` task to poll ([`super::bulk`]).

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store::synced::bulk::ad_groups_of;
use utoipa_axum::router::OpenApiRouter;

use super::bulk::{
    BulkEditRequest, BulkEditStarted, campaign_scope, group_scope, live_rows, start,
};
use crate::{
    access::{Campaign, EditRoles, Editor, InWorkspace, ScopeQuery, first_campaign, pick},
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiQuery},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(campaigns))
        .routes(route!(ad_groups))
        .routes(route!(all_ad_groups))
        .routes(route!(keywords))
}

/// Starts the bulk edit of `level` entities (`what` in messages) of the campaign in the
/// path: the copy the query names, its entities only.
async fn start_in_campaign(
    state: &AppState,
    campaign: InWorkspace<Campaign, EditRoles>,
    query: &ScopeQuery,
    level: &'static str,
    what: &'static str,
    body: BulkEditRequest,
) -> Result<BulkEditStarted, ApiError> {
    let c = pick(campaign.item.0, query)?;
    start(
        state,
        campaign_scope(&campaign.caller, &c),
        level,
        what,
        body,
    )
    .await
}

/// Bulk-edits campaigns of one campaign group: daily budget (set, raise or lower by an
/// amount or a percentage, with optional floor and cap) or status (pause, enable). Editors
/// only; at most 10,000 campaigns; every id must be a campaign of the caller's workspace
/// (else 404). Runs as a `bulk-edit` job: the answer is its task, whose details list every
/// item's result (applied, refused with Apple's message, skipped as unchanged).
#[utoipa::path(put, path = "/api/asa/campaigns/updates", tag = "edits",
    params(ScopeQuery),
    request_body = BulkEditRequest,
    responses((status = 200, description = "The bulk edit is queued: its task", body = Envelope<Item<BulkEditStarted>>),
              (status = 400, description = "Invalid request (field errors), or over 10,000 items", body = ErrorBody),
              (status = 404, description = "A campaign is not in the workspace", body = ErrorBody)))]
pub async fn campaigns(
    State(state): State<AppState>,
    caller: Editor,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<BulkEditRequest>,
) -> ApiResult<impl IntoResponse> {
    // The campaign group is the first campaign's (narrowed by the query); every other id
    // must be in it.
    let c = first_campaign(&state, &caller, &query, body.ids.as_ref(), "ids").await?;
    let started = start(
        &state,
        group_scope(&caller, &c),
        "CAMPAIGN",
        "Campaign",
        body,
    )
    .await?;
    Ok(envelope::item(started))
}

/// Bulk-edits ad groups of campaign `id`: default bid or CPA goal (set, raise or lower by an
/// amount or a percentage, with optional floor and cap) or status (pause, enable). Editors
/// only; at most 10,000 ad groups, each of this campaign (else 404). Runs as a `bulk-edit`
/// job; the answer is its task.
#[utoipa::path(put, path = "/api/asa/groups/updates/{id}", operation_id = "bulk_edit_ad_groups", tag = "edits",
    params(("id" = i64, Path, description = "Campaign id (Apple's)"), ScopeQuery),
    request_body = BulkEditRequest,
    responses((status = 200, description = "The bulk edit is queued: its task", body = Envelope<Item<BulkEditStarted>>),
              (status = 400, description = "Invalid request (field errors), or over 10,000 items", body = ErrorBody)))]
pub async fn ad_groups(
    State(state): State<AppState>,
    campaign: InWorkspace<Campaign, EditRoles>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<BulkEditRequest>,
) -> ApiResult<impl IntoResponse> {
    let started = start_in_campaign(&state, campaign, &query, "AD_GROUP", "Ad group", body).await?;
    Ok(envelope::item(started))
}

/// Bulk-edits every live ad group of some campaigns of one campaign group (`ids`: the
/// campaigns): default bid or CPA goal (set, raise or lower by an amount or a percentage,
/// with optional floor and cap) or status (pause, enable), as `asa/groups/updates/{id}` does
/// for one campaign. Editors only; every campaign must be of the caller's workspace (else
/// 404); at most 10,000 ad groups in all. Runs as a `bulk-edit` job; the answer is its task.
#[utoipa::path(put, path = "/api/asa/groups/updatesAllGroupsByCampaigns", tag = "edits",
    params(ScopeQuery),
    request_body = BulkEditRequest,
    responses((status = 200, description = "The bulk edit is queued: its task", body = Envelope<Item<BulkEditStarted>>),
              (status = 400, description = "Invalid request (field errors), no ad groups, or over 10,000 ad groups", body = ErrorBody),
              (status = 404, description = "A campaign is not in the workspace", body = ErrorBody)))]
pub async fn all_ad_groups(
    State(state): State<AppState>,
    caller: Editor,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(mut body): ApiJson<BulkEditRequest>,
) -> ApiResult<impl IntoResponse> {
    let c = first_campaign(&state, &caller, &query, body.ids.as_ref(), "ids").await?;
    let scope = group_scope(&caller, &c);
    let mut errors = Vec::new();
    let campaigns = super::bulk::ids(body.ids.take(), "ids", &mut errors);
    super::check(errors)?;
    live_rows(&state, &scope, "CAMPAIGN", "status", &campaigns, "Campaign").await?;
    let mut conn = state.db.pool.acquire().await?;
    let groups = ad_groups_of(&mut conn, c.org_key, &campaigns).await?;
    drop(conn);
    if groups.is_empty() {
        return Err(ApiError::field("ids", NO_AD_GROUPS));
    }
    body.ids = Some(groups);
    let started = start(&state, scope, "AD_GROUP", "Ad group", body).await?;
    Ok(envelope::item(started))
}

/// Message of `updatesAllGroupsByCampaigns` over campaigns without ad groups.
pub const NO_AD_GROUPS: &str = "These campaigns have no ad groups to edit";

/// Bulk-edits targeting keywords of campaign `id` (of any of its ad groups): bid (set, raise
/// or lower by an amount or a percentage, with optional floor and cap) or status (pause,
/// enable). Editors only; at most 10,000 keywords, each of this campaign (else 404). Runs as
/// a `bulk-edit` job sending Apple's keyword bulk update in chunks of 1,000; the answer is its
/// task.
#[utoipa::path(put, path = "/api/asa/keywords/update/targeting/{id}", tag = "edits",
    params(("id" = i64, Path, description = "Campaign id (Apple's)"), ScopeQuery),
    request_body = BulkEditRequest,
    responses((status = 200, description = "The bulk edit is queued: its task", body = Envelope<Item<BulkEditStarted>>),
              (status = 400, description = "Invalid request (field errors), or over 10,000 items", body = ErrorBody)))]
pub async fn keywords(
    State(state): State<AppState>,
    campaign: InWorkspace<Campaign, EditRoles>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<BulkEditRequest>,
) -> ApiResult<impl IntoResponse> {
    let started = start_in_campaign(&state, campaign, &query, "KEYWORD", "Keyword", body).await?;
    Ok(envelope::item(started))
}
