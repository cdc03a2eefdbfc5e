//! Ad statuses at Apple: the status a change asks for (`ENABLED` or `PAUSED`), and the ads
//! named set to it at Apple and in our synced ads (an ad already there is not sent).

use searchdeck_common::store::{product_ads::AdView, synced::edits};
use searchdeck_provider::{AppleAds, Entity};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use super::{Where, ad_row};
use crate::{
    error::{ApiError, ApiResult, FieldError},
    provider::provider_error,
    state::AppState,
};

/// An ad's status after a change.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusItem {
    #[schema(value_type = String)]
    #[serde(with = "searchdeck_common::ids::string_id")]
    pub ad_id: i64,
    pub status: String,
}

/// The checked status of a status change (`ENABLED` or `PAUSED`).
pub fn checked_status(raw: Option<&str>, errors: &mut Vec<FieldError>) -> Option<String> {
    match raw.map(|s| s.trim().to_ascii_uppercase()).as_deref() {
        Some(s @ ("ENABLED" | "PAUSED")) => Some(s.to_string()),
        None => {
            errors.push(FieldError::new("status", crate::domain::REQUIRED));
            None
        }
        Some(_) => {
            errors.push(FieldError::new(
                "status",
                "Status must be ENABLED or PAUSED",
            ));
            None
        }
    }
}

/// The ads `ids` among `ads` (404 naming `adIds.<i>` for one that is not there), set to
/// `status` at Apple (an ad already there is not sent) and in our synced ads.
pub async fn set_statuses(
    state: &AppState,
    client: &dyn AppleAds,
    at: &Where,
    ads: &[AdView],
    ids: &[i64],
    status: &str,
) -> ApiResult<Vec<StatusItem>> {
    let mut targets = Vec::with_capacity(ids.len());
    for (i, id) in ids.iter().enumerate() {
        let ad = ads
            .iter()
            .find(|a| a.id == *id)
            .ok_or_else(|| ApiError::Status {
                status: axum::http::StatusCode::NOT_FOUND,
                message: "Ad not found".into(),
                errors: vec![FieldError::new(format!("adIds.{i}"), "Ad not found")],
                meta: None,
                retry_after: None,
            })?;
        targets.push(ad);
    }
    let mut out = Vec::with_capacity(targets.len());
    for ad in targets {
        if ad.status == status {
            out.push(StatusItem {
                ad_id: ad.id,
                status: ad.status.clone(),
            });
            continue;
        }
        let after = client
            .update_json(at.org_id, Entity::Ads, ad.id, &json!({ "status": status }))
            .await
            .map_err(provider_error)?;
        let row = ad_row(&after)?;
        edits::set_ad(
            &state.db.pool,
            at.org_key,
            ad.id,
            &edits::AdState {
                status: row.status.clone(),
                display_status: row.display_status.clone(),
                modification_time: row.modification_time.clone(),
                body: after.to_string(),
            },
        )
        .await?;
        out.push(StatusItem {
            ad_id: ad.id,
            status: row.status,
        });
    }
    Ok(out)
}
