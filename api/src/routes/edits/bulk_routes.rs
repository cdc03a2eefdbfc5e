//! The bulk-edit routes: `PUT asa/campaigns/updates` (campaigns of one campaign group),
//! `PUT asa/groups/updates/{id}` (ad groups of campaign `id`) and
//! `PUT asa/keywords/update/targeting/{id}` (targeting keywords of campaign `id`). Each
//! validates, computes the targets and answers the `bulk-edit` task to poll ([`super::bulk`]).

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store;
use utoipa_axum::router::OpenApiRouter;

use super::bulk::{BulkEditRequest, BulkEditStarted, Scope, start};
use crate::{
    access::{EditRoles, Editor, InWorkspace},
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiQuery},
    route,
    routes::campaigns::{Campaign, ScopeQuery, pick},
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(campaigns))
        .routes(route!(ad_groups))
        .routes(route!(keywords))
}

/// Bulk-edits campaigns of one campaign group: daily budget (set, raise or lower by an
/// amount or a percentage, with optional floor and cap) or status (pause, enable). Editors
/// only; at most 10,000 campaigns; every id must be a campaign of the caller's workspace
/// (else 404). Runs as a `bulk-edit` job: the answer is its task, whose details list every
/// item's result (applied, refused with Apple's message, skipped as unchanged).
#[utoipa::path(put, path = "/api/asa/campaigns/updates", tag = "edits",
    params(("accountId" = Option<String>, Query, description = "Account id (when several connections reach the campaigns)"),
           ("orgId" = Option<i64>, Query, description = "Campaign group")),
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
    let Some(first) = body.ids.as_ref().and_then(|ids| ids.first().copied()) else {
        return Err(ApiError::field("ids", crate::domain::REQUIRED));
    };
    let copies =
        store::synced_reads::campaign_in_workspace(&state.db.pool, &caller.workspace_id, first)
            .await?;
    if copies.is_empty() {
        return Err(ApiError::not_found("Campaign"));
    }
    let c = pick(copies, &query)?;
    let started = start(
        &state,
        Scope {
            user: caller.user(),
            account_id: &c.account_id,
            org_key: c.org_key,
            org_id: c.org_id,
            currency: c.currency.as_deref(),
            campaign_id: None,
        },
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
#[utoipa::path(put, path = "/api/asa/groups/updates/{id}", tag = "edits",
    params(("id" = i64, Path, description = "Campaign id (Apple's)"),
           ("accountId" = Option<String>, Query, description = "Account id (when several connections reach the campaign)"),
           ("orgId" = Option<i64>, Query, description = "Campaign group")),
    request_body = BulkEditRequest,
    responses((status = 200, description = "The bulk edit is queued: its task", body = Envelope<Item<BulkEditStarted>>),
              (status = 400, description = "Invalid request (field errors), or over 10,000 items", body = ErrorBody)))]
pub async fn ad_groups(
    State(state): State<AppState>,
    campaign: InWorkspace<Campaign, EditRoles>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<BulkEditRequest>,
) -> ApiResult<impl IntoResponse> {
    let c = pick(campaign.item.0, &query)?;
    let started = start(
        &state,
        Scope {
            user: campaign.caller.user(),
            account_id: &c.account_id,
            org_key: c.org_key,
            org_id: c.org_id,
            currency: c.currency.as_deref(),
            campaign_id: Some(c.id),
        },
        "AD_GROUP",
        "Ad group",
        body,
    )
    .await?;
    Ok(envelope::item(started))
}

/// Bulk-edits targeting keywords of campaign `id` (of any of its ad groups): bid (set, raise
/// or lower by an amount or a percentage, with optional floor and cap) or status (pause,
/// enable). Editors only; at most 10,000 keywords, each of this campaign (else 404). Runs as
/// a `bulk-edit` job sending Apple's keyword bulk update in chunks of 1,000; the answer is its
/// task.
#[utoipa::path(put, path = "/api/asa/keywords/update/targeting/{id}", tag = "edits",
    params(("id" = i64, Path, description = "Campaign id (Apple's)"),
           ("accountId" = Option<String>, Query, description = "Account id (when several connections reach the campaign)"),
           ("orgId" = Option<i64>, Query, description = "Campaign group")),
    request_body = BulkEditRequest,
    responses((status = 200, description = "The bulk edit is queued: its task", body = Envelope<Item<BulkEditStarted>>),
              (status = 400, description = "Invalid request (field errors), or over 10,000 items", body = ErrorBody)))]
pub async fn keywords(
    State(state): State<AppState>,
    campaign: InWorkspace<Campaign, EditRoles>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<BulkEditRequest>,
) -> ApiResult<impl IntoResponse> {
    let c = pick(campaign.item.0, &query)?;
    let started = start(
        &state,
        Scope {
            user: campaign.caller.user(),
            account_id: &c.account_id,
            org_key: c.org_key,
            org_id: c.org_id,
            currency: c.currency.as_deref(),
            campaign_id: Some(c.id),
        },
        "KEYWORD",
        "Keyword",
        body,
    )
    .await?;
    Ok(envelope::item(started))
}
