//! `PUT asa/campaigns/update/{id}`: a campaign's quick edits — daily budget and status.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store::{self, synced::edits::CampaignState};
use searchdeck_provider::Entity;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{
    Edited, Field, Level, NOTHING_TO_CHANGE, ProviderBusy, Target, apply, money, parse_status,
    request_status, text,
};
use crate::{
    access::{Campaign, EditRoles, InWorkspace, ScopeQuery, pick},
    domain::Fields,
    envelope::{self, Envelope, Item},
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
#[utoipa::path(put, path = "/api/asa/campaigns/update/{id}", tag = "edits",
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
    let c = pick(campaign.item.0, &query)?;
    if c.deleted {
        return Err(ApiError::not_found("Campaign"));
    }
    let currency = c.currency.as_deref();
    let mut fields = Fields::default();
    fields.ensure(
        body.daily_budget_amount.is_some() || body.status.is_some(),
        "dailyBudgetAmount",
        NOTHING_TO_CHANGE,
    );
    let budget = body.daily_budget_amount.as_ref().and_then(|v| {
        fields.keep(money::parse(
            "dailyBudgetAmount",
            "Daily budget",
            v,
            currency,
        ))
    });
    let status = (body.status.as_deref()).and_then(|s| fields.keep(parse_status("status", s)));
    fields.finish()?;

    let before = CampaignState {
        status: c.status.clone(),
        display_status: c.display_status.clone(),
        daily_budget_micros: c.daily_budget_micros,
        modification_time: c.modification_time.clone(),
        body: c.body.clone().unwrap_or_default(),
    };
    let mut request = Map::new();
    if let Some(b) = budget.filter(|b| Some(*b) != c.daily_budget_micros) {
        request.insert(
            "dailyBudget".into(),
            json!({ "value": money::wire(b, currency) }),
        );
    }
    request_status(&mut request, status, &c.status);
    let user = campaign.caller.user();
    let edited = apply(&state, user, &c, Target::campaign(&c), before, request).await?;
    Ok(envelope::item(edited))
}

impl Level for CampaignState {
    const LEVEL: &'static str = "CAMPAIGN";
    const ENTITY: Entity = Entity::Campaigns;
    const WHAT: &'static str = "Campaign";
    const FIELDS: &'static [(&'static str, &'static str)] = &[
        ("dailyBudget", "dailyBudgetAmount"),
        ("dailyBudget.value", "dailyBudgetAmount"),
        ("dailyBudget.value.amount", "dailyBudgetAmount"),
        ("status", "status"),
    ];
    fn after(&self, answer: &Value) -> Self {
        CampaignState {
            status: text(&answer["status"]).unwrap_or_else(|| self.status.clone()),
            display_status: text(&answer["displayStatus"]),
            daily_budget_micros: money::wire_micros(&answer["dailyBudget"]),
            modification_time: text(&answer["modificationTime"]),
            body: answer.to_string(),
        }
    }

    fn editable(&self) -> Vec<(&'static str, Field<'_>)> {
        vec![
            ("dailyBudget", Field::Money(self.daily_budget_micros)),
            ("status", Field::Status(&self.status)),
        ]
    }

    async fn store(
        &self,
        ex: &mut sqlx::AnyConnection,
        org_key: i64,
        id: i64,
    ) -> Result<bool, sqlx::Error> {
        store::synced::edits::set_campaign(ex, org_key, id, self).await
    }
}
