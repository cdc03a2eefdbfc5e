//! Per-user values (`users/changeValue`).

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::ids::now_ms;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::auth::user::{self, UserItem};
use crate::{
    domain::Email,
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::ApiJson,
    session::CurrentUser,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(change_value))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ChangeValueRequest {
    /// Where invoices are sent besides the account email; empty or null clears it.
    pub alternative_invoice_email: Option<String>,
}

/// Changes one of the caller's own values.
#[utoipa::path(post, path = "/api/users/changeValue", tag = "users", request_body = ChangeValueRequest,
    responses((status = 200, description = "The updated user", body = Envelope<Item<UserItem>>),
              (status = 400, description = "Invalid value", body = ErrorBody),
              (status = 401, description = "Unauthorized", body = ErrorBody)))]
pub async fn change_value(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(req): ApiJson<ChangeValueRequest>,
) -> ApiResult<impl IntoResponse> {
    let value = match req.alternative_invoice_email.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(raw) => {
            Some(Email::parse(raw).map_err(|m| ApiError::field("alternativeInvoiceEmail", m))?)
        }
    };
    sqlx::query("UPDATE users SET alternative_invoice_email = $2, updated_at = $3 WHERE id = $1")
        .bind(&user.user_id)
        .bind(value.as_ref().map(Email::as_str))
        .bind(now_ms())
        .execute(&state.db.pool)
        .await?;
    Ok(envelope::item(user::of(&state, &user).await?))
}
