//! `PUT asa/groups/updatesV2/{id}`: an ad group's quick edits — default bid, CPA goal, status
//! and Search Match (`automatedKeywordsOptIn`) — for ad group `adGroupId` of campaign `id`.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store::{self, campaign_views::CampaignRow, synced::edits::AdGroupState};
use searchdeck_provider::Entity;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{
    Edited, Field, Level, NOTHING_TO_CHANGE, ProviderBusy, Target, edit, money, parse_status,
    request_status, text,
};
use crate::{
    access::{Campaign, EditRoles, InWorkspace, ScopeQuery},
    domain::Fields,
    envelope::{Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiQuery},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(route!(update))
}

/// The body of `asa/groups/updatesV2/{id}`: the ad group and at least one field.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdGroupEdit {
    /// The ad group (Apple's id), of the campaign in the path.
    #[serde(default, with = "searchdeck_common::ids::string_id::option")]
    #[schema(value_type = searchdeck_common::ids::AppleId, required = true)]
    ad_group_id: Option<i64>,
    /// The new default bid (cost per tap).
    #[schema(value_type = Option<money::MoneyIn>)]
    default_bid_amount: Option<Value>,
    /// The new CPA goal.
    #[schema(value_type = Option<money::MoneyIn>)]
    cpa_goal: Option<Value>,
    /// ENABLED or PAUSED.
    #[schema(schema_with = crate::schemas::status_or_null)]
    status: Option<String>,
    /// Search Match on or off.
    automated_keywords_opt_in: Option<bool>,
}

/// Changes an ad group's default bid, CPA goal, status and/or Search Match at Apple Ads,
/// then stores the provider's answer and one change record per changed field. Editors only.
/// Money is checked against the campaign group's currency; Apple's refusal (e.g. a bid below
/// its minimum) is a 400 on the field with Apple's message, and nothing is stored.
#[utoipa::path(put, path = "/api/asa/groups/updatesV2/{id}", operation_id = "update_ad_group", tag = "edits",
    params(("id" = i64, Path, description = "Campaign id (Apple's)"), ScopeQuery),
    request_body = AdGroupEdit,
    responses((status = 200, description = "The ad group's values after the edit", body = Envelope<Item<Edited>>),
              (status = 400, description = "Invalid value, or refused by Apple Ads", body = ErrorBody),
              ProviderBusy))]
pub async fn update(
    State(state): State<AppState>,
    campaign: InWorkspace<Campaign, EditRoles>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<AdGroupEdit>,
) -> ApiResult<impl IntoResponse> {
    edit(&state, campaign, &query, (), body).await
}

impl Level for AdGroupEdit {
    const LEVEL: &'static str = "AD_GROUP";
    const ENTITY: Entity = Entity::AdGroups;
    const WHAT: &'static str = "Ad group";
    const FIELDS: &'static [(&'static str, &'static str)] = &[
        ("bidStrategy", "defaultBidAmount"),
        ("bidStrategy.bid", "defaultBidAmount"),
        ("cpaCap", "cpaGoal"),
        ("cpaCap.value", "cpaGoal"),
        ("status", "status"),
        ("automatedKeywordsOptIn", "automatedKeywordsOptIn"),
    ];
    type State = AdGroupState;
    type Path = ();

    async fn find(
        &self,
        state: &AppState,
        c: &CampaignRow,
        (): (),
    ) -> Result<(Target, AdGroupState), ApiError> {
        let Some(group_id) = self.ad_group_id else {
            return Err(ApiError::field("adGroupId", crate::domain::REQUIRED));
        };
        let g = store::campaign_views::ad_group(&state.db.pool, c.org_key, c.id, group_id)
            .await?
            .filter(|g| !g.deleted)
            .ok_or_else(|| ApiError::not_found("Ad group"))?;
        let before = AdGroupState {
            status: g.status,
            display_status: g.display_status,
            default_bid_micros: g.default_bid_micros,
            cpa_goal_micros: g.cpa_goal_micros,
            automated_keywords_opt_in: g.automated_keywords_opt_in,
            modification_time: g.modification_time,
            body: g.body.unwrap_or_default(),
        };
        let target = Target {
            id: g.id,
            ad_group_id: Some(g.id),
            name: g.name,
        };
        Ok((target, before))
    }

    fn request(
        self,
        before: &AdGroupState,
        currency: Option<&str>,
    ) -> Result<Map<String, Value>, ApiError> {
        let mut fields = Fields::default();
        fields.ensure(
            self.default_bid_amount.is_some()
                || self.cpa_goal.is_some()
                || self.status.is_some()
                || self.automated_keywords_opt_in.is_some(),
            "defaultBidAmount",
            NOTHING_TO_CHANGE,
        );
        let mut amount = |field: &str, label: &str, v: Option<&Value>| {
            v.and_then(|v| fields.keep(money::parse(field, label, v, currency)))
        };
        let bid = amount(
            "defaultBidAmount",
            "Default bid",
            self.default_bid_amount.as_ref(),
        );
        let cpa = amount("cpaGoal", "CPA goal", self.cpa_goal.as_ref());
        let status = (self.status.as_deref()).and_then(|s| fields.keep(parse_status("status", s)));
        fields.finish()?;

        let mut request = Map::new();
        if let Some(b) = bid.filter(|b| Some(*b) != before.default_bid_micros) {
            request.insert(
                "bidStrategy".into(),
                json!({ "bid": money::wire(b, currency) }),
            );
        }
        if let Some(v) = cpa.filter(|v| Some(*v) != before.cpa_goal_micros) {
            request.insert(
                "cpaCap".into(),
                json!({ "value": money::wire(v, currency) }),
            );
        }
        request_status(&mut request, status, &before.status);
        if let Some(o) = self
            .automated_keywords_opt_in
            .filter(|o| *o != before.automated_keywords_opt_in)
        {
            request.insert("automatedKeywordsOptIn".into(), json!(o));
        }
        Ok(request)
    }

    fn after(before: &AdGroupState, answer: &Value) -> AdGroupState {
        AdGroupState {
            status: text(&answer["status"]).unwrap_or_else(|| before.status.clone()),
            display_status: text(&answer["displayStatus"]),
            default_bid_micros: money::wire_micros(&answer["bidStrategy"]["bid"])
                .or_else(|| money::wire_micros(&answer["defaultBidAmount"])),
            cpa_goal_micros: money::wire_micros(&answer["cpaCap"]),
            automated_keywords_opt_in: answer["automatedKeywordsOptIn"]
                .as_bool()
                .unwrap_or(before.automated_keywords_opt_in),
            modification_time: text(&answer["modificationTime"]),
            body: answer.to_string(),
        }
    }

    fn editable(state: &AdGroupState) -> Vec<(&'static str, Field<'_>)> {
        vec![
            ("defaultBidAmount", Field::Money(state.default_bid_micros)),
            ("cpaGoal", Field::Money(state.cpa_goal_micros)),
            ("status", Field::Status(&state.status)),
            (
                "automatedKeywordsOptIn",
                Field::Flag(state.automated_keywords_opt_in),
            ),
        ]
    }

    async fn store(
        state: &AdGroupState,
        ex: &mut sqlx::AnyConnection,
        org_key: i64,
        id: i64,
    ) -> Result<bool, sqlx::Error> {
        store::synced::edits::set_ad_group(ex, org_key, id, state).await
    }
}
