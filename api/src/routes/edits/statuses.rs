//! The status-only quick edits, which docs/product.md#7-the-calls-it-makes names no call for
//! (routes chosen to match the keyword quick edit's shape, documented in the OpenAPI and
//! docs/api/edits.md):
//! - `PUT asa/ads/update/{a}/{b}` `{adId, status}`: an ad of ad group `b` of campaign `a`;
//! - `PUT asa/keywords/update/negative/{id}` `{negativeKeywordId, status}`: a negative keyword
//!   (campaign or ad group level) of campaign `id`.
//!
//! Both run the quick edit's steps ([`super::edit`]): editors only, ENABLED or PAUSED, an
//! unchanged status not sent, the provider's answer stored with one change record.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store::{
    self,
    campaign_views::CampaignRow,
    synced::edits::{AdState, NegativeState},
};
use searchdeck_provider::Entity;
use serde::Deserialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{
    Edited, Field, Level, ProviderBusy, Target, ad_group_in_path, edit, parse_status,
    request_status, text,
};
use crate::{
    access::{Campaign, CampaignOfAdGroup, EditRoles, InWorkspace, ScopeQuery},
    envelope::{Envelope, Item},
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
    edit(&state, campaign, &query, path, body).await
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
    edit(&state, campaign, &query, (), body).await
}

impl Level for AdEdit {
    const LEVEL: &'static str = "AD";
    const ENTITY: Entity = Entity::Ads;
    const WHAT: &'static str = "Ad";
    const FIELDS: &'static [(&'static str, &'static str)] = &[("status", "status")];
    type State = AdState;
    type Path = (String, String);

    async fn find(
        &self,
        state: &AppState,
        c: &CampaignRow,
        path: (String, String),
    ) -> Result<(Target, AdState), ApiError> {
        let group_id = ad_group_in_path(&path)?;
        let Some(ad_id) = self.ad_id else {
            return Err(ApiError::field("adId", crate::domain::REQUIRED));
        };
        let ad = store::synced::edits::ad(&state.db.pool, c.org_key, group_id, ad_id)
            .await?
            .filter(|a| !a.deleted && a.campaign_id == c.id)
            .ok_or_else(|| ApiError::not_found("Ad"))?;
        let before = AdState {
            status: ad.status,
            display_status: ad.display_status,
            modification_time: ad.modification_time,
            body: ad.body.unwrap_or_default(),
        };
        let target = Target {
            id: ad.id,
            ad_group_id: Some(ad.ad_group_id),
            name: ad.name,
        };
        Ok((target, before))
    }

    fn request(self, before: &AdState, _: Option<&str>) -> Result<Map<String, Value>, ApiError> {
        status_request(self.status.as_deref(), &before.status)
    }

    fn after(before: &AdState, answer: &Value) -> AdState {
        AdState {
            status: text(&answer["status"]).unwrap_or_else(|| before.status.clone()),
            display_status: text(&answer["displayStatus"]),
            modification_time: text(&answer["modificationTime"]),
            body: answer.to_string(),
        }
    }

    fn editable(state: &AdState) -> Vec<(&'static str, Field<'_>)> {
        vec![("status", Field::Status(&state.status))]
    }

    async fn store(
        state: &AdState,
        ex: &mut sqlx::AnyConnection,
        org_key: i64,
        id: i64,
    ) -> Result<bool, sqlx::Error> {
        store::synced::edits::set_ad(ex, org_key, id, state).await
    }
}

impl Level for NegativeEdit {
    const LEVEL: &'static str = "NEGATIVE_KEYWORD";
    const ENTITY: Entity = Entity::NegativeKeywords;
    const WHAT: &'static str = "Negative keyword";
    const FIELDS: &'static [(&'static str, &'static str)] = &[("status", "status")];
    type State = NegativeState;
    type Path = ();

    async fn find(
        &self,
        state: &AppState,
        c: &CampaignRow,
        (): (),
    ) -> Result<(Target, NegativeState), ApiError> {
        let Some(id) = self.negative_keyword_id else {
            return Err(ApiError::field(
                "negativeKeywordId",
                crate::domain::REQUIRED,
            ));
        };
        let n = store::synced::edits::negative(&state.db.pool, c.org_key, c.id, id)
            .await?
            .filter(|n| !n.deleted)
            .ok_or_else(|| ApiError::not_found("Negative keyword"))?;
        let before = NegativeState {
            status: n.status,
            modification_time: n.modification_time,
        };
        let target = Target {
            id: n.id,
            ad_group_id: n.ad_group_id,
            name: n.text,
        };
        Ok((target, before))
    }

    fn request(
        self,
        before: &NegativeState,
        _: Option<&str>,
    ) -> Result<Map<String, Value>, ApiError> {
        status_request(self.status.as_deref(), &before.status)
    }

    fn after(before: &NegativeState, answer: &Value) -> NegativeState {
        NegativeState {
            status: text(&answer["status"]).unwrap_or_else(|| before.status.clone()),
            modification_time: text(&answer["modificationTime"]),
        }
    }

    fn editable(state: &NegativeState) -> Vec<(&'static str, Field<'_>)> {
        vec![("status", Field::Status(&state.status))]
    }

    async fn store(
        state: &NegativeState,
        ex: &mut sqlx::AnyConnection,
        org_key: i64,
        id: i64,
    ) -> Result<bool, sqlx::Error> {
        store::synced::edits::set_negative(ex, org_key, id, state).await
    }
}
