//! Hiding campaigns from the tables (`asa/campaigns/mark-hidden`, a Searchdeck flag on the
//! synced campaign, never sent to Apple) and counting each campaign's active keywords
//! (`asa/campaigns/calculateActiveKeywords`, the Growth-only metric `activeKeywords`).

use std::collections::BTreeMap;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{Scope, growth_locked};
use crate::{
    access::{EditRoles, InWorkspace, QueriedAccount, ScopeQuery},
    envelope::{self, Envelope, Items},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiQuery},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(mark_hidden))
        .routes(route!(active_keywords))
}

/// Most campaigns one request may name.
pub const MAX_CAMPAIGN_IDS: usize = 1000;

/// The body of `asa/campaigns/mark-hidden`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarkHiddenBody {
    /// Campaigns to hide (or show): at least one, at most 1000, each synced in scope.
    #[serde(default, with = "searchdeck_common::ids::string_id::option_list")]
    #[schema(value_type = Vec<searchdeck_common::ids::AppleId>, required = true, min_items = 1, max_items = 1000)]
    campaign_ids: Option<Vec<i64>>,
    /// `true` (default) hides them from the tables, `false` shows them again.
    hidden: Option<bool>,
}

/// One campaign's hidden flag after the change.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HiddenItem {
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub campaign_id: i64,
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub org_id: i64,
    pub hidden: bool,
}

/// The campaign ids of a request body: at least one, at most [`MAX_CAMPAIGN_IDS`].
fn campaign_ids(ids: Option<Vec<i64>>) -> Result<Vec<i64>, ApiError> {
    let ids = ids.unwrap_or_default();
    if ids.is_empty() {
        return Err(ApiError::field(
            "campaignIds",
            "Choose at least one campaign",
        ));
    }
    if ids.len() > MAX_CAMPAIGN_IDS {
        return Err(ApiError::field(
            "campaignIds",
            &format!("At most {MAX_CAMPAIGN_IDS} campaigns at once"),
        ));
    }
    Ok(ids)
}

/// Hides campaigns from the report tables (or, with `hidden: false`, shows them again) in
/// every campaign group in scope that has them. Editors only; every id must be a campaign
/// synced in scope (else 400 on `campaignIds.<i>` and nothing changes).
#[utoipa::path(post, path = "/api/asa/campaigns/mark-hidden", tag = "campaigns",
    params(("accountId" = String, Query, description = "Account id"),
           ("orgId" = Option<String>, Query, description = "Campaign group; all of the account's in use when absent")),
    request_body = MarkHiddenBody,
    responses((status = 200, description = "The campaigns' hidden flags", body = Envelope<Items<HiddenItem>>),
              (status = 400, description = "No, too many or unknown campaigns", body = ErrorBody)))]
pub async fn mark_hidden(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount, EditRoles>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<MarkHiddenBody>,
) -> ApiResult<impl IntoResponse> {
    let scope = Scope::resolve(&state, account.item.0, query.org_id()?).await?;
    let ids = campaign_ids(body.campaign_ids)?;
    let hidden = body.hidden.unwrap_or(true);
    // Which campaign groups in scope have each campaign (deleted ones included).
    let mut found: BTreeMap<i64, Vec<(i64, i64)>> = BTreeMap::new();
    for org in &scope.orgs {
        for c in store::campaign_views::campaigns(&state.db.pool, org.org_key, true).await? {
            found
                .entry(c.id)
                .or_default()
                .push((org.org_key, org.org_id));
        }
    }
    let errors: Vec<FieldError> = ids
        .iter()
        .enumerate()
        .filter(|(_, id)| !found.contains_key(id))
        .map(|(i, _)| {
            FieldError::new(
                format!("campaignIds.{i}"),
                "This campaign is not in the account",
            )
        })
        .collect();
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let mut items = Vec::new();
    let mut tx = state.db.begin_write().await?;
    let mut seen = std::collections::HashSet::new();
    for id in ids.iter().filter(|id| seen.insert(**id)) {
        for (org_key, org_id) in &found[id] {
            store::campaign_views::set_hidden(&mut *tx, *org_key, *id, hidden).await?;
            // The reports' cached row universes carry the flag: make them stale.
            store::synced::entities_changed(&mut *tx, *org_key).await?;
            items.push(HiddenItem {
                campaign_id: *id,
                org_id: *org_id,
                hidden,
            });
        }
    }
    tx.commit().await?;
    Ok(envelope::items(items))
}

/// The body of `asa/campaigns/calculateActiveKeywords`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActiveKeywordsBody {
    /// Only these campaigns (at most 1000); every campaign in scope when absent.
    #[serde(default, with = "searchdeck_common::ids::string_id::option_list")]
    #[schema(value_type = Option<Vec<searchdeck_common::ids::AppleId>>, min_items = 1, max_items = 1000)]
    campaign_ids: Option<Vec<i64>>,
}

/// One campaign's keyword counts.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActiveKeywordsItem {
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub campaign_id: i64,
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub org_id: i64,
    /// Keywords with status ACTIVE in an ad group with status ENABLED, neither deleted
    /// (spec §6 Growth-only metric `activeKeywords`: null when the plan locks it).
    pub active_keywords: Option<i64>,
    /// Every keyword not deleted in an ad group not deleted.
    pub keywords: i64,
}

/// Keyword counts per campaign, with the Growth-only metrics the plan locks.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActiveKeywordsAnswer {
    pub items: Vec<ActiveKeywordsItem>,
    /// Growth-only metrics answered as null because the workspace's plan locks them
    /// (`activeKeywords` unless the plan is growth, growth_trial or agency).
    pub locked: Vec<String>,
}

/// Active keyword counts of the campaigns in scope (not deleted), by campaign group then
/// campaign id; a campaign without keywords counts 0. `activeKeywords` is Growth-only
/// (spec §6): null, and listed in `locked`, unless the workspace's plan allows it.
/// Requested ids that are not campaigns in scope answer 400 on `campaignIds.<i>`.
#[utoipa::path(post, path = "/api/asa/campaigns/calculateActiveKeywords", tag = "campaigns",
    params(("accountId" = String, Query, description = "Account id"),
           ("orgId" = Option<String>, Query, description = "Campaign group; all of the account's in use when absent")),
    request_body = ActiveKeywordsBody,
    responses((status = 200, description = "Keyword counts per campaign", body = Envelope<ActiveKeywordsAnswer>),
              (status = 400, description = "Unknown campaigns", body = ErrorBody)))]
pub async fn active_keywords(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<ActiveKeywordsBody>,
) -> ApiResult<impl IntoResponse> {
    let workspace_id = account.caller.workspace_id.clone();
    let scope = Scope::resolve(&state, account.item.0, query.org_id()?).await?;
    let wanted = match body.campaign_ids {
        Some(ids) => Some(campaign_ids(Some(ids))?),
        None => None,
    };
    let mut items = keyword_counts(&state, &scope, wanted.as_deref()).await?;
    let locked = growth_locked(&state, &workspace_id, &["activeKeywords"]).await?;
    if !locked.is_empty() {
        for item in &mut items {
            item.active_keywords = None;
        }
    }
    Ok(envelope::ok(ActiveKeywordsAnswer { items, locked }))
}

/// The keyword counts of the campaigns in `scope` (all, or `wanted`: each must be one of
/// them, else 400 on `campaignIds.<i>`), unlocked.
pub async fn keyword_counts(
    state: &AppState,
    scope: &Scope,
    wanted: Option<&[i64]>,
) -> Result<Vec<ActiveKeywordsItem>, ApiError> {
    let mut items = Vec::new();
    for org in &scope.orgs {
        let counts: BTreeMap<i64, store::campaign_views::KeywordCount> =
            store::campaign_views::keyword_counts(&state.db.pool, org.org_key)
                .await?
                .into_iter()
                .map(|k| (k.campaign_id, k))
                .collect();
        let mut ids: Vec<i64> =
            store::campaign_views::campaigns(&state.db.pool, org.org_key, false)
                .await?
                .iter()
                .map(|c| c.id)
                .collect();
        ids.sort_unstable();
        for id in ids {
            if wanted.is_some_and(|w| !w.contains(&id)) {
                continue;
            }
            let count = counts.get(&id);
            items.push(ActiveKeywordsItem {
                campaign_id: id,
                org_id: org.org_id,
                active_keywords: Some(count.map_or(0, |k| k.active)),
                keywords: count.map_or(0, |k| k.total),
            });
        }
    }
    if let Some(wanted) = wanted {
        let errors: Vec<FieldError> = wanted
            .iter()
            .enumerate()
            .filter(|(_, id)| !items.iter().any(|i| i.campaign_id == **id))
            .map(|(i, _)| {
                FieldError::new(
                    format!("campaignIds.{i}"),
                    "This campaign is not in the account",
                )
            })
            .collect();
        if !errors.is_empty() {
            return Err(ApiError::validation(errors));
        }
    }
    Ok(items)
}
