//! `PUT asa/keywords/update/{a}/{b}`: a keyword's quick edits — its bid (`cptBid`) and status —
//! for keyword `keywordId` of ad group `b` of campaign `a`.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store::{self, campaign_views::CampaignRow, synced::edits::KeywordState};
use searchdeck_provider::Entity;
use serde::Deserialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{
    Edited, Field, Level, NOTHING_TO_CHANGE, ProviderBusy, Target, ad_group_in_path, edit, money,
    parse_status, request_status, text,
};
use crate::{
    access::{CampaignOfAdGroup, EditRoles, InWorkspace, ScopeQuery},
    domain::Fields,
    envelope::{Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath, ApiQuery},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(route!(update))
}

/// The body of `asa/keywords/update/{a}/{b}`: the keyword and at least one field.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeywordEdit {
    /// The keyword (Apple's id), of the ad group in the path.
    #[serde(default, with = "searchdeck_common::ids::string_id::option")]
    #[schema(value_type = searchdeck_common::ids::AppleId, required = true)]
    keyword_id: Option<i64>,
    /// The new bid (cost per tap; also accepted as `bidAmount`).
    #[serde(alias = "bidAmount")]
    #[schema(value_type = Option<money::MoneyIn>)]
    cpt_bid: Option<Value>,
    /// ENABLED (shown ACTIVE) or PAUSED.
    #[schema(schema_with = crate::schemas::status_or_null)]
    status: Option<String>,
}

/// Changes a keyword's bid and/or status at Apple Ads, then stores the provider's answer and
/// one change record per changed field. Editors only. The bid is checked against the
/// campaign group's currency; Apple's refusal (e.g. a bid below its minimum) is a 400 on
/// `cptBid` with Apple's message, and nothing is stored.
#[utoipa::path(put, path = "/api/asa/keywords/update/{a}/{b}", operation_id = "update_keyword", tag = "edits",
    params(("a" = i64, Path, description = "Campaign id (Apple's)"),
           ("b" = i64, Path, description = "Ad group id (Apple's), of that campaign"), ScopeQuery),
    request_body = KeywordEdit,
    responses((status = 200, description = "The keyword's values after the edit", body = Envelope<Item<Edited>>),
              (status = 400, description = "Invalid value, or refused by Apple Ads", body = ErrorBody),
              ProviderBusy))]
pub async fn update(
    State(state): State<AppState>,
    campaign: InWorkspace<CampaignOfAdGroup, EditRoles>,
    ApiPath(path): ApiPath<(String, String)>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<KeywordEdit>,
) -> ApiResult<impl IntoResponse> {
    edit(&state, campaign, &query, path, body).await
}

impl Level for KeywordEdit {
    const LEVEL: &'static str = "KEYWORD";
    const ENTITY: Entity = Entity::Keywords;
    const WHAT: &'static str = "Keyword";
    const FIELDS: &'static [(&'static str, &'static str)] = &[
        ("bid", "cptBid"),
        ("bid.amount", "cptBid"),
        ("status", "status"),
    ];
    type State = KeywordState;
    type Path = (String, String);

    async fn find(
        &self,
        state: &AppState,
        c: &CampaignRow,
        path: (String, String),
    ) -> Result<(Target, KeywordState), ApiError> {
        let group_id = ad_group_in_path(&path)?;
        let g = store::campaign_views::ad_group(&state.db.pool, c.org_key, c.id, group_id)
            .await?
            .ok_or_else(|| ApiError::not_found("Ad group"))?;
        let Some(keyword_id) = self.keyword_id else {
            return Err(ApiError::field("keywordId", crate::domain::REQUIRED));
        };
        let k = store::synced::edits::keyword(&state.db.pool, c.org_key, g.id, keyword_id)
            .await?
            .filter(|k| !k.deleted)
            .ok_or_else(|| ApiError::not_found("Keyword"))?;
        let before = KeywordState {
            status: k.status,
            display_status: k.display_status,
            bid_micros: k.bid_micros,
            modification_time: None,
        };
        let target = Target {
            id: k.id,
            ad_group_id: Some(g.id),
            name: k.text,
        };
        Ok((target, before))
    }

    fn request(
        self,
        before: &KeywordState,
        currency: Option<&str>,
    ) -> Result<Map<String, Value>, ApiError> {
        let mut fields = Fields::default();
        fields.ensure(
            self.cpt_bid.is_some() || self.status.is_some(),
            "cptBid",
            NOTHING_TO_CHANGE,
        );
        let bid = (self.cpt_bid.as_ref())
            .and_then(|v| fields.keep(money::parse("cptBid", "Bid", v, currency)));
        let status = (self.status.as_deref()).and_then(|s| fields.keep(parse_status("status", s)));
        fields.finish()?;

        let mut request = Map::new();
        if let Some(b) = bid.filter(|b| Some(*b) != before.bid_micros) {
            request.insert("bid".into(), money::wire(b, currency));
        }
        request_status(&mut request, status, &before.status);
        Ok(request)
    }

    fn after(before: &KeywordState, answer: &Value) -> KeywordState {
        KeywordState {
            status: text(&answer["status"]).unwrap_or_else(|| before.status.clone()),
            display_status: text(&answer["displayStatus"]),
            bid_micros: money::wire_micros(&answer["bid"]),
            modification_time: text(&answer["modificationTime"]),
        }
    }

    fn editable(state: &KeywordState) -> Vec<(&'static str, Field<'_>)> {
        vec![
            ("cptBid", Field::Money(state.bid_micros)),
            ("status", Field::Status(&state.status)),
        ]
    }

    async fn store(
        state: &KeywordState,
        ex: &mut sqlx::AnyConnection,
        org_key: i64,
        id: i64,
    ) -> Result<bool, sqlx::Error> {
        store::synced::edits::set_keyword(ex, org_key, id, state).await
    }
}
