//! The status-only quick edits, which spec §7 names no call for (routes chosen to match the
//! keyword quick edit's shape, documented in the OpenAPI and docs/api/edits.md):
//! - `PUT asa/ads/update/{a}/{b}` `{adId, status}`: an ad of ad group `b` of campaign `a`;
//! - `PUT asa/keywords/update/negative/{id}` `{negativeKeywordId, status}`: a negative keyword
//!   (campaign or ad group level) of campaign `id`.
//!
//! Both run the quick edit's steps ([`super::apply`]): editors only, ENABLED or PAUSED, an
//! unchanged status not sent, the provider's answer stored with one change record.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store::{
    self,
    synced::edits::{AdState, NegativeState},
};
use searchdeck_provider::Entity;
use serde::Deserialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{
    Edited, Field, Level, ProviderBusy, Target, ad_group_in_path, apply, parse_status,
    request_status, text,
};
use crate::{
    access::{Campaign, CampaignOfAdGroup, EditRoles, InWorkspace, ScopeQuery, pick},
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath, ApiQuery},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(update_ad))
        .routes(route!(update_negative))
}

/// The body of `asa/ads/update/{a}/{b}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdEdit {
    /// The ad (Apple's id), of the ad group in the path.
    #[serde(default, with = "searchdeck_common::ids::string_id::option")]
    #[schema(value_type = searchdeck_common::ids::AppleId, required = true)]
    ad_id: Option<i64>,
    /// ENABLED or PAUSED.
    #[schema(schema_with = crate::schemas::status, required = true)]
    status: Option<String>,
}

/// The body of `asa/keywords/update/negative/{id}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NegativeEdit {
    /// The negative keyword (Apple's id), of the campaign in the path (either level).
    #[serde(default, with = "searchdeck_common::ids::string_id::option")]
    #[schema(value_type = searchdeck_common::ids::AppleId, required = true)]
    negative_keyword_id: Option<i64>,
    /// ENABLED or PAUSED.
    #[schema(schema_with = crate::schemas::status, required = true)]
    status: Option<String>,
}

/// The status `raw` as a request field, if it differs from `current`; 400 when missing or
/// not ENABLED / PAUSED.
fn status_request(raw: Option<&str>, current: &str) -> Result<Map<String, Value>, ApiError> {
    let Some(raw) = raw else {
        return Err(ApiError::field("status", crate::domain::REQUIRED));
    };
    let status = parse_status("status", raw).map_err(|e| ApiError::validation(vec![e]))?;
    let mut request = Map::new();
    request_status(&mut request, Some(status), current);
    Ok(request)
}

/// Pauses or enables an ad at Apple Ads, then stores the provider's answer and a change
/// record. Editors only; Apple's refusal is a 400 on `status` with its message, and nothing
/// is stored.
#[utoipa::path(put, path = "/api/asa/ads/update/{a}/{b}", tag = "edits",
    params(("a" = i64, Path, description = "Campaign id (Apple's)"),
           ("b" = i64, Path, description = "Ad group id (Apple's), of that campaign"), ScopeQuery),
    request_body = AdEdit,
    responses((status = 200, description = "The ad's status after the edit", body = Envelope<Item<Edited>>),
              (status = 400, description = "Invalid status, or refused by Apple Ads", body = ErrorBody),
              ProviderBusy))]
pub async fn update_ad(
    State(state): State<AppState>,
    campaign: InWorkspace<CampaignOfAdGroup, EditRoles>,
    ApiPath(path): ApiPath<(String, String)>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<AdEdit>,
) -> ApiResult<impl IntoResponse> {
    let c = pick(campaign.item.0, &query)?;
    let group_id = ad_group_in_path(&path)?;
    let Some(ad_id) = body.ad_id else {
        return Err(ApiError::field("adId", crate::domain::REQUIRED));
    };
    let ad = store::synced::edits::ad(&state.db.pool, c.org_key, group_id, ad_id)
        .await?
        .filter(|a| !a.deleted && a.campaign_id == c.id)
        .ok_or_else(|| ApiError::not_found("Ad"))?;
    let request = status_request(body.status.as_deref(), &ad.status)?;
    let before = AdState {
        status: ad.status.clone(),
        display_status: ad.display_status.clone(),
        modification_time: ad.modification_time.clone(),
        body: ad.body.clone().unwrap_or_default(),
    };
    let target = Target {
        id: ad.id,
        ad_group_id: Some(ad.ad_group_id),
        name: &ad.name,
    };
    let user = campaign.caller.user();
    let edited = apply(&state, user, &c, target, before, request).await?;
    Ok(envelope::item(edited))
}

/// Pauses or enables a negative keyword (campaign or ad group level) at Apple Ads, then
/// stores the provider's answer and a change record. Editors only; Apple's refusal is a 400
/// on `status` with its message, and nothing is stored.
#[utoipa::path(put, path = "/api/asa/keywords/update/negative/{id}", tag = "edits",
    params(("id" = i64, Path, description = "Campaign id (Apple's)"), ScopeQuery),
    request_body = NegativeEdit,
    responses((status = 200, description = "The negative keyword's status after the edit", body = Envelope<Item<Edited>>),
              (status = 400, description = "Invalid status, or refused by Apple Ads", body = ErrorBody),
              ProviderBusy))]
pub async fn update_negative(
    State(state): State<AppState>,
    campaign: InWorkspace<Campaign, EditRoles>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<NegativeEdit>,
) -> ApiResult<impl IntoResponse> {
    let c = pick(campaign.item.0, &query)?;
    let Some(id) = body.negative_keyword_id else {
        return Err(ApiError::field(
            "negativeKeywordId",
            crate::domain::REQUIRED,
        ));
    };
    let n = store::synced::edits::negative(&state.db.pool, c.org_key, c.id, id)
        .await?
        .filter(|n| !n.deleted)
        .ok_or_else(|| ApiError::not_found("Negative keyword"))?;
    let request = status_request(body.status.as_deref(), &n.status)?;
    let before = NegativeState {
        status: n.status.clone(),
        modification_time: n.modification_time.clone(),
    };
    let target = Target {
        id: n.id,
        ad_group_id: n.ad_group_id,
        name: &n.text,
    };
    let user = campaign.caller.user();
    let edited = apply(&state, user, &c, target, before, request).await?;
    Ok(envelope::item(edited))
}

impl Level for AdState {
    const LEVEL: &'static str = "AD";
    const ENTITY: Entity = Entity::Ads;
    const WHAT: &'static str = "Ad";
    const FIELDS: &'static [(&'static str, &'static str)] = &[("status", "status")];
    fn after(&self, answer: &Value) -> Self {
        AdState {
            status: text(&answer["status"]).unwrap_or_else(|| self.status.clone()),
            display_status: text(&answer["displayStatus"]),
            modification_time: text(&answer["modificationTime"]),
            body: answer.to_string(),
        }
    }

    fn editable(&self) -> Vec<(&'static str, Field<'_>)> {
        vec![("status", Field::Status(&self.status))]
    }

    async fn store(
        &self,
        ex: &mut sqlx::AnyConnection,
        org_key: i64,
        id: i64,
    ) -> Result<bool, sqlx::Error> {
        store::synced::edits::set_ad(ex, org_key, id, self).await
    }
}

impl Level for NegativeState {
    const LEVEL: &'static str = "NEGATIVE_KEYWORD";
    const ENTITY: Entity = Entity::NegativeKeywords;
    const WHAT: &'static str = "Negative keyword";
    const FIELDS: &'static [(&'static str, &'static str)] = &[("status", "status")];
    fn after(&self, answer: &Value) -> Self {
        NegativeState {
            status: text(&answer["status"]).unwrap_or_else(|| self.status.clone()),
            modification_time: text(&answer["modificationTime"]),
        }
    }

    fn editable(&self) -> Vec<(&'static str, Field<'_>)> {
        vec![("status", Field::Status(&self.status))]
    }

    async fn store(
        &self,
        ex: &mut sqlx::AnyConnection,
        org_key: i64,
        id: i64,
    ) -> Result<bool, sqlx::Error> {
        store::synced::edits::set_negative(ex, org_key, id, self).await
    }
}
