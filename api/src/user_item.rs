//! The User item (spec §3 "User") that the auth routes (`auth/me`, login, register) and
//! `users/changeValue` answer.

use rust_decimal::Decimal;
use searchdeck_common::store;
use serde::Serialize;
use utoipa::ToSchema;

use crate::{error::ApiError, session::CurrentUser, state::AppState};

/// The connections of a user (spec §3: appStore list, mmpEvent map by provider). `appStore`
/// lists the workspace's Apple Ads connections: `id`, `name`, and `history` (whether data
/// has been synced, so the integration shows 'Active' rather than 'Loading data').
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Connects {
    pub app_store: Vec<serde_json::Value>,
    pub mmp_event: serde_json::Map<String, serde_json::Value>,
}

/// The signed-in user as the web app sees it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserItem {
    pub id: String,
    pub email: String,
    pub full_name: String,
    /// The role in the current workspace: owner, admin, writer or reader.
    pub permission: String,
    pub workspace_id: String,
    pub alternative_invoice_email: Option<String>,
    /// Ad spend of the last month over all connected accounts, as an exact decimal (floored
    /// to the currency's digits); 0 until accounts sync. Sent as the JSON number the web app
    /// reads; amounts of up to 15 significant digits print with exactly their digits.
    #[serde(with = "rust_decimal::serde::float")]
    #[schema(value_type = f64)]
    pub last_month_spend: Decimal,
    /// Billing fields (spec §3); empty until billing is set up for the workspace.
    pub next_purchase_id: Option<String>,
    pub previous_status: Option<String>,
    pub payment_failed: bool,
    pub purchase: Option<serde_json::Value>,
    pub connects: Connects,
}

/// Loads the user item of `user_id` in `workspace_id`.
pub async fn load(
    state: &AppState,
    user_id: &str,
    workspace_id: &str,
) -> Result<UserItem, ApiError> {
    let row = store::users::member(&state.db.pool, user_id, workspace_id)
        .await?
        .ok_or_else(|| ApiError::not_found("User"))?;
    Ok(UserItem {
        id: row.id,
        email: row.email,
        full_name: row.full_name,
        permission: row.role,
        workspace_id: workspace_id.to_string(),
        alternative_invoice_email: row.alternative_invoice_email,
        last_month_spend: Decimal::ZERO,
        next_purchase_id: None,
        previous_status: None,
        payment_failed: false,
        purchase: None,
        connects: Connects {
            app_store: store::accounts::all(&state.db.pool, workspace_id)
                .await?
                .into_iter()
                .map(|a| serde_json::json!({"id": a.id, "name": a.name, "history": a.last_synced_at.is_some()}))
                .collect(),
            mmp_event: serde_json::Map::new(),
        },
    })
}

/// The item of the caller.
pub async fn of(state: &AppState, user: &CurrentUser) -> Result<UserItem, ApiError> {
    load(state, &user.user_id, &user.workspace_id).await
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    #[test]
    fn spend_is_sent_as_a_number_with_its_exact_digits() {
        for (amount, json) in [
            ("0", "0.0"),
            ("1234567.89", "1234567.89"),
            ("0.1", "0.1"),
            ("9999999999999.99", "9999999999999.99"),
        ] {
            #[derive(Serialize)]
            struct Spend {
                #[serde(with = "rust_decimal::serde::float")]
                v: Decimal,
            }
            let v = Decimal::from_str(amount).unwrap();
            assert_eq!(
                serde_json::to_string(&Spend { v }).unwrap(),
                format!("{{\"v\":{json}}}")
            );
        }
    }
}
