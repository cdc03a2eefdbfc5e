//! Per-user values (`users/changeValue`) and the App Store Connect connections of the
//! User item's `connects.appStore` ([`app_store`], [`proceeds`]).

pub mod app_store;
pub mod item;
pub mod proceeds;

use axum::{extract::State, response::IntoResponse};
use item::{self as user, UserItem};
use searchdeck_common::{ids::now_ms, store};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::Member,
    domain::Email,
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody},
    extract::ApiJson,
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(change_value))
        .routes(route!(app_store::list))
        .routes(route!(app_store::connect))
        .routes(route!(app_store::disconnect))
        .routes(route!(proceeds::proceeds))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ChangeValueRequest {
    /// Where invoices are sent besides the account email; empty or null clears it.
    #[schema(schema_with = crate::schemas::email_or_blank)]
    pub alternative_invoice_email: Option<String>,
}

/// Changes one of the caller's own values.
#[utoipa::path(post, path = "/api/users/changeValue", tag = "users", request_body = ChangeValueRequest,
    responses((status = 200, description = "The updated user", body = Envelope<Item<UserItem>>),
              (status = 400, description = "Invalid value", body = ErrorBody)))]
pub async fn change_value(
    State(state): State<AppState>,
    user: Member,
    ApiJson(req): ApiJson<ChangeValueRequest>,
) -> ApiResult<impl IntoResponse> {
    let value = match req.alternative_invoice_email.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(raw) => {
            Some(Email::parse(raw).map_err(|m| ApiError::field("alternativeInvoiceEmail", m))?)
        }
    };
    store::users::set_alternative_invoice_email(
        &state.db.pool,
        &user.user_id,
        value.as_ref().map(Email::as_str),
        now_ms(),
    )
    .await?;
    Ok(envelope::item(user::of(&state, &user).await?))
}
