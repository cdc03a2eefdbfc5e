//! `PATCH asa/campaigns/replacePartName` (docs/product.md#7-the-calls-it-makes): renames campaigns,
//! or ad groups of one campaign, by replacing part of their names — every occurrence of `find`
//! (case-sensitive) becomes `replace`. The route computes each new name from our stored name once
//! and checks it against Apple's rules (not blank, at most 200 characters) before anything is
//! queued; the `bulk-edit` job then sets the names (one `PUT` each; Apple has no bulk rename), so a
//! retry sends the same absolute names and cannot replace twice. Names without `find` are
//! skipped as unchanged; Apple's refusals (a campaign name already taken) are listed per item.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::jobs::BulkEditItem;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{
    bulk::{BulkEditStarted, ids},
    check,
    selection::{Selection, addressed, queue},
};
use crate::{
    access::{Editor, ScopeQuery},
    envelope::{Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiQuery},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(route!(replace_part_name))
}

/// Longest campaign or ad group name Apple Ads accepts.
pub const MAX_NAME: usize = 200;

/// The body of `asa/campaigns/replacePartName`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RenameRequest {
    /// CAMPAIGN (default) or AD_GROUP.
    pub level: Option<String>,
    /// Apple's ids of the campaigns, or of the ad groups of `campaignId`; at most 10,000.
    /// Also accepted as `campaignIds`, `adGroupIds`.
    #[serde(alias = "campaignIds", alias = "adGroupIds")]
    #[serde(default, with = "searchdeck_common::ids::string_id::option_list")]
    #[schema(value_type = Option<Vec<String>>)]
    pub ids: Option<Vec<i64>>,
    /// The campaign of the ad groups (AD_GROUP only).
    #[serde(default, with = "searchdeck_common::ids::string_id::option")]
    #[schema(value_type = Option<String>)]
    pub campaign_id: Option<i64>,
    /// The part of the names to replace (case-sensitive, every occurrence).
    pub find: Option<String>,
    /// What replaces it (may be empty).
    pub replace: Option<String>,
}

/// Message of a `find` no selected name contains.
pub const NOT_FOUND_IN_NAMES: &str = "None of the selected names contains this text";

/// The new name of `name`, or None when it does not contain `find`; Err with the reason when
/// the new name breaks Apple's rules.
pub fn renamed(name: &str, find: &str, replace: &str) -> Option<Result<String, String>> {
    if !name.contains(find) {
        return None;
    }
    let new = name.replace(find, replace).trim().to_string();
    Some(if new.is_empty() {
        Err(format!("The new name of \"{name}\" would be empty"))
    } else if new.chars().count() > MAX_NAME {
        Err(format!(
            "The new name of \"{name}\" would be longer than {MAX_NAME} characters"
        ))
    } else {
        Ok(new)
    })
}

/// Renames campaigns (or ad groups of campaign `campaignId`) by replacing `find` with
/// `replace` in their names. Editors only; at most 10,000; every id must be a live entity of
/// the caller's workspace (else 404). A new name that is blank or longer than 200 characters
/// refuses the whole request (400 on `replace`, naming the entity). Runs as a `bulk-edit`
/// job; the answer is its task, whose details list every item (applied, refused with Apple's
/// message, skipped when its name does not contain `find`).
#[utoipa::path(patch, path = "/api/asa/campaigns/replacePartName", tag = "edits",
    params(ScopeQuery),
    request_body = RenameRequest,
    responses((status = 200, description = "The rename is queued: its task", body = Envelope<Item<BulkEditStarted>>),
              (status = 400, description = "Invalid request (field errors), a new name Apple would refuse, or over 10,000 items", body = ErrorBody),
              (status = 404, description = "A campaign or ad group is not in the workspace", body = ErrorBody)))]
pub async fn replace_part_name(
    State(state): State<AppState>,
    caller: Editor,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<RenameRequest>,
) -> ApiResult<impl IntoResponse> {
    let level = match body
        .level
        .as_deref()
        .map(|l| l.trim().to_ascii_uppercase())
        .as_deref()
    {
        None | Some("" | "CAMPAIGN" | "CAMPAIGNS") => "CAMPAIGN",
        Some("AD_GROUP" | "ADGROUP" | "GROUPS" | "AD_GROUPS") => "AD_GROUP",
        Some(_) => {
            return Err(ApiError::field(
                "level",
                "Level must be CAMPAIGN or AD_GROUP",
            ));
        }
    };
    let mut errors = Vec::new();
    let find = body.find.unwrap_or_default();
    if find.is_empty() {
        errors.push(FieldError::new("find", crate::domain::REQUIRED));
    }
    let replace = body.replace.unwrap_or_default();
    let ids = ids(body.ids, "ids", &mut errors);
    if level == "AD_GROUP" && body.campaign_id.is_none() {
        errors.push(FieldError::new("campaignId", crate::domain::REQUIRED));
    }
    check(errors)?;
    let c = addressed(&state, &caller, &query, level, body.campaign_id, Some(&ids)).await?;
    let what = if level == "AD_GROUP" {
        "Ad group"
    } else {
        "Campaign"
    };
    let selection = Selection {
        level,
        what,
        field: "name",
        ids: &ids,
    };
    queue(&state, &caller, &c, selection, |rows| {
        let mut errors = Vec::new();
        let items: Vec<BulkEditItem> = ids
            .iter()
            .map(|id| match renamed(&rows[id].name, &find, &replace) {
                Some(Ok(name)) => BulkEditItem::to(*id, Some(name)),
                Some(Err(reason)) => {
                    errors.push(FieldError::new("replace", reason));
                    BulkEditItem::to(*id, None)
                }
                None => BulkEditItem {
                    note: Some(format!("The name does not contain \"{find}\"")),
                    ..BulkEditItem::to(*id, None)
                },
            })
            .collect();
        if items.iter().all(|i| i.target.is_none()) && errors.is_empty() {
            errors.push(FieldError::new("find", NOT_FOUND_IN_NAMES));
        }
        errors.truncate(1);
        check(errors)?;
        let operation = format!("Replace \"{find}\" with \"{replace}\" in names");
        Ok((operation, items))
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_replaced_and_checked_against_apples_limits() {
        assert_eq!(
            renamed("US - Summer - Exact", "Summer", "Winter"),
            Some(Ok("US - Winter - Exact".into()))
        );
        assert_eq!(renamed("a-a-a", "a", "b"), Some(Ok("b-b-b".into())));
        assert_eq!(renamed("Brand", "summer", "x"), None, "case-sensitive");
        assert_eq!(
            renamed("Brand ", "Brand", ""),
            Some(Err("The new name of \"Brand \" would be empty".into()))
        );
        let long = "x".repeat(199);
        assert!(renamed(&format!("{long}y"), "y", "z").unwrap().is_ok());
        assert_eq!(
            renamed(&format!("{long}y"), "y", "zz"),
            Some(Err(format!(
                "The new name of \"{long}y\" would be longer than 200 characters"
            )))
        );
    }
}
