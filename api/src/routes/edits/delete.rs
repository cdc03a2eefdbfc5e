//! The bulk deletions (docs/product.md#7-the-calls-it-makes `DELETE asa/campaigns`,
//! `DELETE asa/groups`, `DELETE asa/keywords`): campaigns of one campaign group, ad groups of one
//! campaign, and targeting or negative keywords of one campaign, deleted at Apple Ads by a
//! `bulk-edit` job (keywords and negative keywords through Apple's bulk delete, 1,000 a call;
//! campaigns and ad groups one `DELETE` each). Each deleted entity is marked deleted here with a
//! change record (field `deleted`, `false` → `true`); one Apple already deleted counts as deleted,
//! so a retried job deletes nothing twice.

use axum::{Json, extract::State, response::IntoResponse};
use searchdeck_common::{
    jobs::{BulkEditItem, DELETED},
    store::campaign_views::CampaignRow,
};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{
    bulk::{BulkEditStarted, ids},
    check,
    selection::{Selection, addressed, queue},
};
use crate::{
    access::{Editor, ScopeQuery},
    envelope::{Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiQuery},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(delete_campaigns))
        .routes(route!(delete_ad_groups))
        .routes(route!(delete_keywords))
}

/// The body of a bulk deletion.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeleteRequest {
    /// The campaign (Apple's id) whose ad groups or keywords are deleted; not used to delete
    /// campaigns.
    #[serde(default, with = "searchdeck_common::ids::string_id::option")]
    #[schema(value_type = Option<searchdeck_common::ids::AppleId>)]
    pub campaign_id: Option<i64>,
    /// Apple's ids of the campaigns, ad groups or targeting keywords to delete (per route);
    /// at most 10,000. Also accepted as `campaignIds`, `adGroupIds`, `keywordIds`.
    #[serde(alias = "campaignIds", alias = "adGroupIds", alias = "keywordIds")]
    #[serde(default, with = "searchdeck_common::ids::string_id::option_list")]
    #[schema(value_type = Option<Vec<searchdeck_common::ids::AppleId>>, min_items = 1, max_items = 10000)]
    pub ids: Option<Vec<i64>>,
    /// `DELETE asa/keywords` only, instead of `ids`: negative keywords (campaign or ad group
    /// level) of the campaign to delete.
    #[serde(default, with = "searchdeck_common::ids::string_id::option_list")]
    #[schema(value_type = Option<Vec<searchdeck_common::ids::AppleId>>, min_items = 1, max_items = 10000)]
    pub negative_keyword_ids: Option<Vec<i64>>,
}

/// Checks the ids (sent as `field`) and enqueues the deletion of `level` entities in
/// campaign `c` (campaigns: in its campaign group).
async fn delete(
    state: &AppState,
    caller: &Editor,
    c: &CampaignRow,
    (level, what): (&'static str, &'static str),
    raw: Option<Vec<i64>>,
    field: &str,
) -> ApiResult<Json<Envelope<Item<BulkEditStarted>>>> {
    let mut errors = Vec::new();
    let ids = ids(raw, field, &mut errors);
    check(errors)?;
    let selection = Selection {
        level,
        what,
        field: DELETED,
        ids: &ids,
    };
    queue(state, caller, c, selection, |_| {
        let operation = format!("Delete {} {}", ids.len(), plural(what, ids.len()));
        let items = ids
            .iter()
            .map(|id| BulkEditItem::to(*id, Some(true.to_string())))
            .collect();
        Ok((operation, items))
    })
    .await
}

fn plural(what: &str, n: usize) -> String {
    let what = what.to_lowercase();
    if n == 1 { what } else { format!("{what}s") }
}

/// The live campaign named by `campaignId` in the caller's workspace.
async fn campaign_of(
    state: &AppState,
    caller: &Editor,
    query: &ScopeQuery,
    level: &str,
    body: &DeleteRequest,
) -> Result<CampaignRow, ApiError> {
    let c = addressed(state, caller, query, level, body.campaign_id, None).await?;
    if c.deleted {
        return Err(ApiError::not_found("Campaign"));
    }
    Ok(c)
}

/// Deletes campaigns of one campaign group at Apple Ads (and here). Editors only; at most
/// 10,000; every id must be a live campaign of the caller's workspace (else 404). Runs as a
/// `bulk-edit` job: the answer is its task, whose details list every campaign's result
/// (applied, refused with Apple's message, skipped when already deleted).
#[utoipa::path(delete, path = "/api/asa/campaigns", tag = "edits",
    params(ScopeQuery),
    request_body = DeleteRequest,
    responses((status = 200, description = "The deletion is queued: its task", body = Envelope<Item<BulkEditStarted>>),
              (status = 400, description = "No ids, or over 10,000", body = ErrorBody),
              (status = 404, description = "A campaign is not in the workspace", body = ErrorBody)))]
pub async fn delete_campaigns(
    State(state): State<AppState>,
    caller: Editor,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<DeleteRequest>,
) -> ApiResult<impl IntoResponse> {
    let level = ("CAMPAIGN", "Campaign");
    let c = addressed(&state, &caller, &query, level.0, None, body.ids.as_ref()).await?;
    delete(&state, &caller, &c, level, body.ids, "ids").await
}

/// Deletes ad groups of campaign `campaignId` at Apple Ads (and here). Editors only; at most
/// 10,000, each a live ad group of that campaign (else 404). Runs as a `bulk-edit` job; the
/// answer is its task.
#[utoipa::path(delete, path = "/api/asa/groups", tag = "edits",
    params(ScopeQuery),
    request_body = DeleteRequest,
    responses((status = 200, description = "The deletion is queued: its task", body = Envelope<Item<BulkEditStarted>>),
              (status = 400, description = "No campaign or ids, or over 10,000", body = ErrorBody),
              (status = 404, description = "The campaign or an ad group is not in the workspace", body = ErrorBody)))]
pub async fn delete_ad_groups(
    State(state): State<AppState>,
    caller: Editor,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<DeleteRequest>,
) -> ApiResult<impl IntoResponse> {
    let level = ("AD_GROUP", "Ad group");
    let c = campaign_of(&state, &caller, &query, level.0, &body).await?;
    delete(&state, &caller, &c, level, body.ids, "ids").await
}

/// Deletes targeting keywords (`ids`) or negative keywords (`negativeKeywordIds`) of campaign
/// `campaignId` at Apple Ads (and here), through Apple's bulk delete. Editors only; at most
/// 10,000, each a live keyword of that campaign (else 404). Runs as a `bulk-edit` job; the
/// answer is its task.
#[utoipa::path(delete, path = "/api/asa/keywords", tag = "edits",
    params(ScopeQuery),
    request_body = DeleteRequest,
    responses((status = 200, description = "The deletion is queued: its task", body = Envelope<Item<BulkEditStarted>>),
              (status = 400, description = "No campaign or ids, both kinds of ids, or over 10,000", body = ErrorBody),
              (status = 404, description = "The campaign or a keyword is not in the workspace", body = ErrorBody)))]
pub async fn delete_keywords(
    State(state): State<AppState>,
    caller: Editor,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<DeleteRequest>,
) -> ApiResult<impl IntoResponse> {
    let c = campaign_of(&state, &caller, &query, "KEYWORD", &body).await?;
    match (body.ids, body.negative_keyword_ids) {
        (Some(_), Some(_)) => Err(ApiError::validation(vec![FieldError::new(
            "negativeKeywordIds",
            "Delete targeting keywords (ids) or negative keywords (negativeKeywordIds), not both",
        )])),
        (None, Some(negatives)) => {
            let level = ("NEGATIVE_KEYWORD", "Negative keyword");
            delete(
                &state,
                &caller,
                &c,
                level,
                Some(negatives),
                "negativeKeywordIds",
            )
            .await
        }
        (ids, None) => delete(&state, &caller, &c, ("KEYWORD", "Keyword"), ids, "ids").await,
    }
}
