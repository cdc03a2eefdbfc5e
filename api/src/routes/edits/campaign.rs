//! `PUT asa/campaigns/update/{id}`: a campaign's quick edits — daily budget and status.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store::{self, synced::edits::CampaignState};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{
    Changed, Edited, NOTHING_TO_CHANGE, Origin, Target, check, client, money, parse_status, record,
    refused, text,
};
use crate::{
    access::{EditRoles, InWorkspace},
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiQuery},
    route,
    routes::campaigns::{Campaign, ScopeQuery, pick},
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
    status: Option<String>,
}

/// Our names of the provider's campaign fields, for its refusals.
const FIELDS: &[(&str, &str)] = &[
    ("dailyBudget", "dailyBudgetAmount"),
    ("dailyBudget.value", "dailyBudgetAmount"),
    ("dailyBudget.value.amount", "dailyBudgetAmount"),
    ("status", "status"),
];

/// Changes a campaign's daily budget and/or status at Apple Ads, then stores the provider's
/// answer and one change record per changed field. Editors only. Money is checked against
/// the campaign group's currency (a number, not negative, no more decimals than the
/// currency has); Apple's refusal (e.g. a budget below its minimum) is a 400 on the field with
/// Apple's message, and nothing is stored. Values already set are not sent.
#[utoipa::path(put, path = "/api/asa/campaigns/update/{id}", tag = "edits",
    params(("id" = i64, Path, description = "Campaign id (Apple's)"),
           ("accountId" = Option<String>, Query, description = "Account id (when several connections reach the campaign)"),
           ("orgId" = Option<i64>, Query, description = "Campaign group")),
    request_body = CampaignEdit,
    responses((status = 200, description = "The campaign's values after the edit", body = Envelope<Item<Edited>>),
              (status = 400, description = "Invalid value, or refused by Apple Ads", body = ErrorBody),
              (status = 429, description = "Apple Ads rate limit", body = ErrorBody),
              (status = 502, description = "Apple Ads did not answer", body = ErrorBody)))]
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
    let mut errors = Vec::new();
    if body.daily_budget_amount.is_none() && body.status.is_none() {
        errors.push(FieldError::new("dailyBudgetAmount", NOTHING_TO_CHANGE));
    }
    let budget = body.daily_budget_amount.as_ref().and_then(|v| {
        money::parse("dailyBudgetAmount", "Daily budget", v, currency)
            .map_err(|e| errors.push(e))
            .ok()
    });
    let status = body
        .status
        .as_deref()
        .and_then(|s| parse_status("status", s).map_err(|e| errors.push(e)).ok());
    check(errors)?;

    let mut request = Map::new();
    if let Some(b) = budget.filter(|b| Some(*b) != c.daily_budget_micros) {
        request.insert(
            "dailyBudget".into(),
            json!({ "value": money::wire(b, currency) }),
        );
    }
    if let Some(s) = status.filter(|s| *s != c.status) {
        request.insert("status".into(), json!(s));
    }
    let values = |budget: Option<i64>, status: &str| json!({ "dailyBudget": money::answer(budget, currency), "status": status });
    let mut answer = Edited {
        level: "CAMPAIGN".into(),
        id: c.id,
        campaign_id: c.id,
        ad_group_id: None,
        org_id: c.org_id,
        account_id: c.account_id.clone(),
        currency: c.currency.clone(),
        values: values(c.daily_budget_micros, &c.status),
        changes: Vec::new(),
    };
    if request.is_empty() {
        return Ok(envelope::item(answer));
    }

    let client = client(&state, &c.account_id).await?;
    let after: Value = client
        .update(c.org_id, "campaigns", c.id, &Value::Object(request))
        .await
        .map_err(|e| refused(e, FIELDS, "Campaign"))?;
    let now = CampaignState {
        status: text(&after["status"]).unwrap_or_else(|| c.status.clone()),
        display_status: text(&after["displayStatus"]),
        daily_budget_micros: money::wire_micros(&after["dailyBudget"]),
        modification_time: text(&after["modificationTime"]),
        body: after.to_string(),
    };
    let changed: Vec<Changed> = [
        Changed::of(
            "dailyBudget",
            money::text(c.daily_budget_micros),
            money::text(now.daily_budget_micros),
        ),
        Changed::of("status", Some(c.status.clone()), Some(now.status.clone())),
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut tx = state.db.pool.begin().await?;
    store::synced::edits::set_campaign(&mut *tx, c.org_key, c.id, &now).await?;
    record(
        &mut tx,
        &Origin {
            user: campaign.caller.user(),
            account_id: &c.account_id,
            org_id: c.org_id,
            currency,
        },
        &Target {
            level: "CAMPAIGN",
            id: c.id,
            campaign_id: c.id,
            ad_group_id: None,
            name: &c.name,
            campaign_name: &c.name,
        },
        &changed,
        &["dailyBudget"],
    )
    .await?;
    tx.commit().await?;
    tracing::info!(
        campaign.id = c.id,
        org.id = c.org_id,
        changes = changed.len(),
        "campaign edited"
    );
    answer.values = values(now.daily_budget_micros, &now.status);
    answer.changes = changed;
    Ok(envelope::item(answer))
}
