//! One notification's changes, a page at a time (`GET accountsActions/{id}/changes`), as the entry's
//! details show them.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    ids,
    store::{self, activity::changes::ChangeRow},
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    access::{InWorkspace, StoredNotification},
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::ApiQuery,
    state::AppState,
};

/// `limit` (1–1000, default 200), `skip` (≥ 0).
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ChangesQuery {
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<i64>,
    #[param(minimum = 0)]
    pub skip: Option<i64>,
}

/// One entity's change of a notification.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntityChange {
    /// CAMPAIGN, AD_GROUP, KEYWORD, NEGATIVE_KEYWORD, AD.
    pub level: String,
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub entity_id: String,
    pub entity_name: String,
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub campaign_id: String,
    pub campaign_name: String,
    pub ad_group_id: Option<String>,
    pub field: String,
    pub old_value: Option<String>,
    pub new_value: Option<String>,
    pub currency: Option<String>,
    /// RFC 3339.
    pub date_created: String,
}

/// A page of a notification's changes.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChangePage {
    pub items: Vec<EntityChange>,
    pub total: i64,
}

fn change_out(c: ChangeRow) -> EntityChange {
    EntityChange {
        level: c.level.to_string(),
        entity_id: c.entity_id.to_string(),
        entity_name: c.entity_name,
        campaign_id: c.campaign_id.to_string(),
        campaign_name: c.campaign_name,
        ad_group_id: c.ad_group_id.map(|g| g.to_string()),
        field: c.field,
        old_value: c.old_value,
        new_value: c.new_value,
        currency: c.currency,
        date_created: ids::rfc3339(c.created_at * 1000),
    }
}

/// One notification's changes entity by entity, in the order they were applied (the detail
/// drawer and its CSV export).
#[utoipa::path(get, path = "/api/accountsActions/{id}/changes", operation_id = "notification_changes", tag = "activity",
    params(("id" = String, Path, description = "Notification id"), ChangesQuery),
    responses((status = 200, description = "A page of the notification's changes", body = Envelope<ChangePage>),
              (status = 400, description = "Invalid limit or skip", body = ErrorBody)))]
pub async fn changes(
    State(state): State<AppState>,
    n: InWorkspace<StoredNotification>,
    ApiQuery(query): ApiQuery<ChangesQuery>,
) -> ApiResult<impl IntoResponse> {
    let limit = query.limit.unwrap_or(200);
    let skip = query.skip.unwrap_or(0);
    let mut errors = Vec::new();
    if !(1..=1000).contains(&limit) {
        errors.push(FieldError::new("limit", "Between 1 and 1000"));
    }
    if skip < 0 {
        errors.push(FieldError::new("skip", "Must be at least 0"));
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let mut conn = state.db.pool.acquire().await?;
    let (rows, total) =
        store::activity::changes::page_of_notification(&mut conn, &n.item.0.id, limit, skip)
            .await?;
    Ok(envelope::ok(ChangePage {
        items: rows.into_iter().map(change_out).collect(),
        total,
    }))
}
