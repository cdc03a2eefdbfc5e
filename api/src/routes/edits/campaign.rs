//! `PUT asa/campaigns/update/{id}`: a campaign's quick edits — daily budget and status.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store::{self, campaign_views::CampaignRow, synced::edits::CampaignState};
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

/// The body of `asa/campaigns/update/{id}`: at least one field.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignEdit {
    /// The new daily budget (spec §3 `dailyBudgetAmount`; also accepted as `dailyBudget`).
    #[serde(alias = "dailyBudget")]
    #[schema(value_type = Option<money::MoneyIn>)]
    daily_budget_amount: Option<Value>,
    /// ENABLED or PAUSED.
    #[schema(schema_with = crate::schemas::status_or_null)]
    status: Option<String>,
}

/// Changes a campaign's daily budget and/or status at Apple Ads, then stores the provider's
/// answer and one change record per changed field. Editors only. Money is checked against
/// the campaign group's currency (a number, not negative, no more decimals than the
/// currency has); Apple's refusal (e.g. a budget below its minimum) is a 400 on the field with
/// Apple's message, and nothing is stored. Values already set are not sent.
#[utoipa::path(put, path = "/api/asa/campaigns/update/{id}", operation_id = "update_campaign", tag = "edits",
    params(("id" = i64, Path, description = "Campaign id (Apple's)"), ScopeQuery),
    request_body = CampaignEdit,
    responses((status = 200, description = "The campaign's values after the edit", body = Envelope<Item<Edited>>),
              (status = 400, description = "Invalid value, or refused by Apple Ads", body = ErrorBody),
              ProviderBusy))]
pub async fn update(
    State(state): State<AppState>,
    campaign: InWorkspace<Campaign, EditRoles>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<CampaignEdit>,
) -> ApiResult<impl IntoResponse> {
    edit(&state, campaign, &query, (), body).await
}

impl Level for CampaignEdit {
    const LEVEL: &'static str = "CAMPAIGN";
    const ENTITY: Entity = Entity::Campaigns;
    const WHAT: &'static str = "Campaign";
    const FIELDS: &'static [(&'static str, &'static str)] = &[
        ("dailyBudget", "dailyBudgetAmount"),
        ("dailyBudget.value", "dailyBudgetAmount"),
        ("dailyBudget.value.amount", "dailyBudgetAmount"),
        ("status", "status"),
    ];
    type State = CampaignState;
    type Path = ();

    async fn find(
        &self,
        _: &AppState,
        c: &CampaignRow,
        (): (),
    ) -> Result<(Target, CampaignState), ApiError> {
        if c.deleted {
            return Err(ApiError::not_found("Campaign"));
        }
        let before = CampaignState {
            status: c.status.clone(),
            display_status: c.display_status.clone(),
            daily_budget_micros: c.daily_budget_micros,
            modification_time: c.modification_time.clone(),
            body: c.body.clone().unwrap_or_default(),
        };
        let target = Target {
            id: c.id,
            ad_group_id: None,
            name: c.name.clone(),
        };
        Ok((target, before))
    }

    fn request(
        self,
        before: &CampaignState,
        currency: Option<&str>,
    ) -> Result<Map<String, Value>, ApiError> {
        let mut fields = Fields::default();
        fields.ensure(
            self.daily_budget_amount.is_some() || self.status.is_some(),
            "dailyBudgetAmount",
            NOTHING_TO_CHANGE,
        );
        let budget = self.daily_budget_amount.as_ref().and_then(|v| {
            fields.keep(money::parse(
                "dailyBudgetAmount",
                "Daily budget",
                v,
                currency,
            ))
        });
        let status = (self.status.as_deref()).and_then(|s| fields.keep(parse_status("status", s)));
        fields.finish()?;

        let mut request = Map::new();
        if let Some(b) = budget.filter(|b| Some(*b) != before.daily_budget_micros) {
            request.insert(
                "dailyBudget".into(),
                json!({ "value": money::wire(b, currency) }),
            );
        }
        request_status(&mut request, status, &before.status);
        Ok(request)
    }

    fn after(before: &CampaignState, answer: &Value) -> CampaignState {
        CampaignState {
            status: text(&answer["status"]).unwrap_or_else(|| before.status.clone()),
            display_status: text(&answer["displayStatus"]),
            daily_budget_micros: money::wire_micros(&answer["dailyBudget"]),
            modification_time: text(&answer["modificationTime"]),
            body: answer.to_string(),
        }
    }

    fn editable(state: &CampaignState) -> Vec<(&'static str, Field<'_>)> {
        vec![
            ("dailyBudget", Field::Money(state.daily_budget_micros)),
            ("status", Field::Status(&state.status)),
        ]
    }

    async fn store(
        state: &CampaignState,
        ex: &mut sqlx::AnyConnection,
        org_key: i64,
        id: i64,
    ) -> Result<bool, sqlx::Error> {
        store::synced::edits::set_campaign(ex, org_key, id, state).await
    }
}
