//! The change history of a campaign group (`asa/reports/changes`), read live from the
//! provider's change history (`POST /change-history/query`, and `GET /change-history/{id}`
//! for field-level changes): who changed what and when, newest first.

use crate::domain::ENTITY_TYPES;
use axum::{extract::State, response::IntoResponse};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{day_text, parse_range};
use crate::{
    access::{InWorkspace, QueriedAccount, ScopeQuery},
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiQuery},
    provider::provider_error,
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(route!(changes))
}

/// Default and largest page of change rows.
pub const PAGE_SIZE: u32 = 50;
/// Largest page of change rows.
pub const MAX_PAGE_SIZE: u32 = 200;
/// Largest page when field-level changes are asked for (one provider call per row).
pub const MAX_DETAILED_PAGE_SIZE: u32 = 20;

/// The body of `asa/reports/changes`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangesBody {
    /// First day (YYYY-MM-DD, UTC), inclusive.
    #[schema(value_type = searchdeck_common::ids::Day, required = true)]
    start_date: Option<String>,
    /// Last day (YYYY-MM-DD, UTC), inclusive.
    #[schema(value_type = searchdeck_common::ids::Day, required = true)]
    end_date: Option<String>,
    /// Only changes inside this campaign (its ad groups, keywords and negative keywords).
    #[serde(default, with = "searchdeck_common::ids::string_id::option")]
    #[schema(value_type = Option<searchdeck_common::ids::AppleId>)]
    campaign_id: Option<i64>,
    /// Only changes inside this ad group (its keywords and negative keywords).
    #[serde(default, with = "searchdeck_common::ids::string_id::option")]
    #[schema(value_type = Option<searchdeck_common::ids::AppleId>)]
    ad_group_id: Option<i64>,
    /// Only these entity types (Campaign, AdGroup, Keyword, NegativeKeyword, Ad, Creative).
    #[schema(schema_with = crate::schemas::change_entity_types)]
    entity_types: Option<Vec<String>>,
    /// 1-based page (default 1).
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 4294967295_i64)]
    page: Option<u32>,
    /// Rows per page (default 50, at most 200; at most 20 with `details`).
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 200)]
    page_size: Option<u32>,
    /// Also fetch each row's field-level changes.
    details: Option<bool>,
}

/// One field's change.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FieldChange {
    pub entity_id: String,
    pub field: String,
    pub old_values: Vec<String>,
    pub new_values: Vec<String>,
}

/// One change row: the entities of one type one transaction created, updated or deleted.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangeItem {
    pub transaction_id: String,
    /// CREATE, UPDATE or DELETE.
    pub event_type: String,
    /// RFC 3339, UTC.
    pub event_time: String,
    /// Campaign, AdGroup, Keyword, NegativeKeyword, Ad or Creative.
    pub entity_type: String,
    /// How many entities changed.
    pub count: i64,
    /// The changed entities with their names as the provider gives them
    /// (`{entityId, detailId, meta: {name|text: ...}}`; `entityId` a string of digits).
    #[schema(value_type = Vec<Object>)]
    pub entities: Vec<Value>,
    /// APPLE_SUPPORT, CUSTOMER or CUSTOMER_API.
    pub user_type: Option<String>,
    pub modified_by: Option<String>,
    /// Field-level changes (only with `details`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes: Option<Vec<FieldChange>>,
}

/// A page of change rows.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangesPage {
    pub items: Vec<ChangeItem>,
    /// Rows matching, over all pages.
    pub total: u64,
    pub page: u32,
    pub page_size: u32,
}

/// A changed entity of a summary's `metas` (`{"<EntityType>": "<id>", "detailId", "meta"}`)
/// as the answer shows it: `{entityId, detailId, meta}`, `entityId` a string (ids past 2^53
/// would be rounded by the browser as numbers; see `ids::string_id`).
fn entity_of(meta: Value, entity_type: &str) -> Value {
    let id = meta
        .get(entity_type)
        .or_else(|| meta.get("entityId"))
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string));
    json!({"entityId": id, "detailId": meta.get("detailId"), "meta": meta.get("meta").cloned().unwrap_or_else(|| json!({}))})
}

fn text(v: &Value) -> Option<String> {
    v.as_str().map(str::to_string)
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|s| s.as_str().map_or_else(|| s.to_string(), str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The provider's `AuditQuery` for a checked body.
fn audit_query(
    body: &ChangesBody,
    from: time::Date,
    to: time::Date,
    page: u32,
    size: u32,
) -> Value {
    let next = to.next_day().unwrap_or(to);
    let mut filters = vec![
        json!({"field": "eventTime", "operator": "GREATER_THAN_OR_EQUAL_TO", "value": [format!("{}T00:00:00Z", day_text(from))]}),
        json!({"field": "eventTime", "operator": "LESS_THAN", "value": [format!("{}T00:00:00Z", day_text(next))]}),
    ];
    if let Some(id) = body.campaign_id {
        filters
            .push(json!({"field": "campaignId", "operator": "EQUALS", "value": [id.to_string()]}));
    }
    if let Some(id) = body.ad_group_id {
        filters
            .push(json!({"field": "adGroupId", "operator": "EQUALS", "value": [id.to_string()]}));
    }
    if let Some(types) = body.entity_types.as_ref().filter(|t| !t.is_empty()) {
        filters.push(json!({"field": "entityType", "operator": "IN", "value": types}));
    }
    json!({
        "filters": filters,
        "sorting": [{"field": "eventTime", "order": "DESC"}],
        "pagination": {"offset": u64::from(page - 1) * u64::from(size), "pageSize": size},
        // Each row's `metas` then names its entities with their detail ids.
        "options": {"metadata": "snapshot"},
    })
}

/// The change history of one campaign group (`orgId`, required: the provider keeps it per
/// ad account) over `startDate..=endDate` (UTC days, at most two years), newest first,
/// optionally inside one campaign or ad group and of some entity types; with `details`,
/// each row carries its field-level changes. A POST read: readers may call it.
#[utoipa::path(post, path = "/api/asa/reports/changes", operation_id = "change_history", tag = "campaigns",
    params(("accountId" = String, Query, description = "Account id"),
           ("orgId" = i64, Query, description = "Campaign group")),
    request_body = ChangesBody,
    responses((status = 200, description = "A page of change rows", body = Envelope<ChangesPage>),
              (status = 400, description = "Invalid range, filter or page", body = ErrorBody),
              (status = 502, description = "Apple Ads could not be reached", body = ErrorBody)))]
pub async fn changes(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<ChangesBody>,
) -> ApiResult<impl IntoResponse> {
    let row = account.item.0;
    let org_id = query
        .org_id()?
        .ok_or_else(|| ApiError::field("orgId", crate::domain::REQUIRED))?;
    let orgs = searchdeck_common::store::accounts::orgs(&state.db.pool, &row.id).await?;
    if !orgs.iter().any(|o| o.org_id == org_id) {
        return Err(ApiError::field("orgId", super::ORG_NOT_IN_ACCOUNT));
    }
    let (from, to) = parse_range(body.start_date.as_deref(), body.end_date.as_deref())?;
    if let Some(types) = &body.entity_types {
        for (i, t) in types.iter().enumerate() {
            if !ENTITY_TYPES.contains(&t.as_str()) {
                return Err(ApiError::field(
                    &format!("entityTypes.{i}"),
                    &format!("entityTypes takes {}", ENTITY_TYPES.join(", ")),
                ));
            }
        }
    }
    let details = body.details.unwrap_or(false);
    let max = if details {
        MAX_DETAILED_PAGE_SIZE
    } else {
        MAX_PAGE_SIZE
    };
    let page = body.page.unwrap_or(1);
    if page == 0 {
        return Err(ApiError::field("page", "page starts at 1"));
    }
    let size = body.page_size.unwrap_or(PAGE_SIZE.min(max));
    if size == 0 || size > max {
        return Err(ApiError::field(
            "pageSize",
            &format!("pageSize must be between 1 and {max}"),
        ));
    }
    let client = state.provider.client_of(&row)?;
    let audit = audit_query(&body, from, to, page, size);
    let answer = client
        .change_history(org_id, &audit)
        .await
        .map_err(provider_error)?;
    let mut items = Vec::with_capacity(answer.items.len());
    for r in &answer.items {
        let transaction_id = text(&r["transactionId"]).unwrap_or_default();
        let entity_type = text(&r["entityType"]).unwrap_or_default();
        let entities: Vec<Value> = r["metas"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .map(|m| entity_of(m, &entity_type))
            .collect();
        let changes = if details {
            let mut out = Vec::new();
            for detail_id in entities.iter().filter_map(|e| e["detailId"].as_str()) {
                let rows = client
                    .change_details(org_id, detail_id, None, None)
                    .await
                    .map_err(provider_error)?;
                out.extend(rows.items.iter().flat_map(|d| {
                    let entity_id = d["entityId"]
                        .as_str()
                        .map_or_else(|| d["entityId"].to_string(), str::to_string);
                    d["details"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .flat_map(|x| x["changes"].as_array().cloned().unwrap_or_default())
                        .map(move |c| FieldChange {
                            entity_id: entity_id.clone(),
                            field: text(&c["field"]).unwrap_or_default(),
                            old_values: strings(&c["oldValues"]),
                            new_values: strings(&c["newValues"]),
                        })
                }));
            }
            Some(out)
        } else {
            None
        };
        items.push(ChangeItem {
            transaction_id,
            event_type: text(&r["eventType"]).unwrap_or_default(),
            event_time: text(&r["eventTime"]).unwrap_or_default(),
            entity_type,
            count: r["count"].as_i64().unwrap_or(0),
            entities,
            user_type: text(&r["userType"]),
            modified_by: text(&r["modifiedBy"]),
            changes,
        });
    }
    Ok(envelope::ok(ChangesPage {
        total: answer.total.unwrap_or(items.len() as u64),
        items,
        page,
        page_size: size,
    }))
}
