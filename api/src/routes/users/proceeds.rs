//! What an App Store Connect connection's apps earned (ours, beyond the spec;
//! docs/api/app-store-connect.md "Proceeds"): `GET /api/users/one/connect/appStore/{id}/
//! proceeds?from&through`, per app and day the units sold and the developer's proceeds in
//! the proceeds' currency, as the daily sales reports said. The report engine does not read
//! them yet.

use axum::{extract::State, response::IntoResponse};
use rust_decimal::Decimal;
use searchdeck_common::store;
use serde::{Deserialize, Serialize};
use time::Date;
use utoipa::{IntoParams, ToSchema};

use super::app_store::{AppStoreConnectionItem, amount};
use crate::{
    access::{AppStoreConnection, InWorkspace},
    envelope::{self, Envelope, Items},
    error::{ApiError, ApiResult, ErrorBody},
    extract::ApiQuery,
    state::AppState,
};

/// Longest range asked at once, in days.
const MAX_DAYS: i64 = 366;

/// `from` and `through`: YYYY-MM-DD, both included, at most 366 days.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ProceedsQuery {
    #[param(pattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub from: Option<String>,
    #[param(pattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub through: Option<String>,
}

/// One app's sales of one day in one currency.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppDayProceeds {
    pub adam_id: i64,
    /// The app's name as the key saw it (empty for an app it no longer lists).
    pub app_name: String,
    /// YYYY-MM-DD (the report's day).
    pub day: String,
    /// Units sold: downloads, in-app purchases and subscriptions, less refunds.
    pub units: i64,
    /// The developer's proceeds (units × proceeds per unit), in `currency`.
    #[serde(with = "rust_decimal::serde::float")]
    #[schema(value_type = f64)]
    pub proceeds: Decimal,
    /// ISO 4217: Apple's currency of proceeds.
    pub currency: String,
}

fn day(field: &str, raw: Option<&str>) -> Result<Date, ApiError> {
    raw.and_then(|d| {
        Date::parse(
            d.trim(),
            time::macros::format_description!("[year]-[month]-[day]"),
        )
        .ok()
    })
    .ok_or_else(|| ApiError::field(field, "Must be a day: YYYY-MM-DD"))
}

/// Per app and day, the units and proceeds of a connection's apps over `from..=through`.
#[utoipa::path(get, path = "/api/users/one/connect/appStore/{id}/proceeds", operation_id = "app_store_proceeds", tag = "users",
    params(("id" = String, Path, description = "The connection's id"), ProceedsQuery),
    responses((status = 200, description = "Units and proceeds by app and day", body = Envelope<Items<AppDayProceeds>>),
              (status = 400, description = "from or through is not a day, or the range is reversed or too long", body = ErrorBody)))]
pub async fn proceeds(
    State(state): State<AppState>,
    connection: InWorkspace<AppStoreConnection>,
    ApiQuery(q): ApiQuery<ProceedsQuery>,
) -> ApiResult<impl IntoResponse> {
    let from = day("from", q.from.as_deref())?;
    let through = day("through", q.through.as_deref())?;
    if through < from {
        return Err(ApiError::field("through", "Must not be before from"));
    }
    if (through - from).whole_days() >= MAX_DAYS {
        return Err(ApiError::field("through", "At most 366 days at once"));
    }
    let c = &connection.item.0;
    let names = AppStoreConnectionItem::of(c).apps;
    let rows = store::app_store_connect::proceeds(
        &state.db.pool,
        &c.id,
        &from.to_string(),
        &through.to_string(),
    )
    .await?;
    Ok(envelope::items(
        rows.into_iter()
            .map(|r| AppDayProceeds {
                app_name: names
                    .iter()
                    .find(|a| a.adam_id == r.adam_id)
                    .map(|a| a.name.clone())
                    .unwrap_or_default(),
                adam_id: r.adam_id,
                day: r.day,
                units: r.units,
                proceeds: amount(r.proceeds_micros),
                currency: r.currency,
            })
            .collect(),
    ))
}
