//! Adding negative keywords (docs/product.md#7-the-calls-it-makes `PUT asa/keywords/add/negative`,
//! `PUT asa/keywords/add/negative/{campaignId}`): texts added as campaign-level negatives of
//! some campaigns, or as ad-group-level negatives of some ad groups of one campaign, through
//! Apple's `negative-keywords/bulk-create` (1,000 a call) in a `bulk-edit` job. Texts are
//! cleaned as the spec's keyword lists are (punctuation and symbols removed, lower-cased,
//! empty ones dropped, duplicates removed). A negative already there is skipped; each added
//! one is stored here with a change record (field `created`, new value its match type).

use std::collections::HashSet;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    Db,
    jobs::{BULK_EDIT_MAX_ITEMS, BulkEditItem, CREATED, NewNegative},
    store::campaign_views::{CampaignRow, campaign_in_workspace},
};
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{
    bulk::{
        BulkEditStarted, Scope, TOO_MANY, campaign_scope, enqueue, group_scope, ids, live_rows,
    },
    check,
};
use crate::{
    access::{EditRoles, Editor, InWorkspace, ScopeQuery, WorkspaceResource, first_campaign, pick},
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiQuery},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(add_to_campaigns))
        .routes(route!(add_to_campaign))
}

/// A campaign of the caller's workspace named by the `campaignId` path parameter (its
/// copies, one per connection reaching it).
#[derive(Debug)]
pub struct CampaignParam(pub Vec<CampaignRow>);

impl WorkspaceResource for CampaignParam {
    const NAME: &'static str = "Campaign";
    const KIND: &'static str = "campaign";
    const PARAM: &'static str = "campaignId";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        let Ok(id) = id.trim().parse::<i64>() else {
            return Ok(None);
        };
        let rows = campaign_in_workspace(&db.pool, workspace_id, id).await?;
        Ok((!rows.is_empty()).then_some(CampaignParam(rows)))
    }
}

/// Longest keyword text Apple Ads accepts.
pub const MAX_TEXT: usize = 80;

/// The body of the add-negatives routes.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddNegatives {
    /// The keywords: a list, or one text with a keyword per line.
    #[schema(value_type = Vec<String>)]
    pub texts: Option<Value>,
    /// EXACT (default) or BROAD.
    pub match_type: Option<String>,
    /// `add/negative`: the campaigns (Apple's ids) that get each text as a campaign-level
    /// negative.
    #[serde(default, with = "searchdeck_common::ids::string_id::option_list")]
    #[schema(value_type = Option<Vec<String>>)]
    pub campaign_ids: Option<Vec<i64>>,
    /// `add/negative/{campaignId}`: ad groups of that campaign that get each text as an
    /// ad-group-level negative (without them, the campaign gets campaign-level ones).
    #[serde(default, with = "searchdeck_common::ids::string_id::option_list")]
    #[schema(value_type = Option<Vec<String>>)]
    pub ad_group_ids: Option<Vec<i64>>,
}

/// A keyword list as the spec cleans it: punctuation and symbols removed, lower-cased,
/// runs of spaces made one, empty entries dropped, duplicates removed (first kept).
pub fn clean_texts(raw: &Value) -> Vec<String> {
    let lines: Vec<String> = match raw {
        Value::String(s) => s.lines().map(str::to_string).collect(),
        Value::Array(a) => a
            .iter()
            .filter_map(Value::as_str)
            .flat_map(|s| s.lines().map(str::to_string).collect::<Vec<_>>())
            .collect(),
        _ => Vec::new(),
    };
    let mut seen = HashSet::new();
    lines
        .iter()
        .map(|l| {
            let kept: String = l
                .chars()
                .map(|c| if c.is_alphanumeric() { c } else { ' ' })
                .collect::<String>()
                .to_lowercase();
            kept.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .filter(|t| !t.is_empty())
        .filter(|t| seen.insert(t.clone()))
        .collect()
}

/// The checked texts and match type of `body`; field errors in `errors`.
fn texts_of(body: &AddNegatives, errors: &mut Vec<FieldError>) -> (Vec<String>, String) {
    let texts = body.texts.as_ref().map(clean_texts).unwrap_or_default();
    if texts.is_empty() {
        errors.push(FieldError::new("texts", crate::domain::REQUIRED));
    }
    if let Some(long) = texts.iter().find(|t| t.chars().count() > MAX_TEXT) {
        errors.push(FieldError::new(
            "texts",
            format!("\"{long}\" is longer than {MAX_TEXT} characters"),
        ));
    }
    let match_type = match body
        .match_type
        .as_deref()
        .map(|m| m.trim().to_ascii_uppercase())
        .as_deref()
    {
        None | Some("" | "EXACT") => "EXACT".to_string(),
        Some("BROAD") => "BROAD".to_string(),
        Some(_) => {
            errors.push(FieldError::new(
                "matchType",
                "Match type must be EXACT or BROAD",
            ));
            String::new()
        }
    };
    (texts, match_type)
}

/// Every (level, text) pair as a job item, at most 10,000, and enqueues them.
async fn add(
    state: &AppState,
    scope: &Scope<'_>,
    levels: Vec<(i64, Option<i64>)>,
    texts: Vec<String>,
    match_type: String,
) -> Result<BulkEditStarted, ApiError> {
    if levels.len() * texts.len() > BULK_EDIT_MAX_ITEMS {
        return Err(ApiError::field("texts", TOO_MANY));
    }
    let operation = format!(
        "Add {} negative {} ({})",
        texts.len(),
        if texts.len() == 1 {
            "keyword"
        } else {
            "keywords"
        },
        match_type.to_lowercase()
    );
    let items = levels
        .iter()
        .flat_map(|(campaign_id, ad_group_id)| {
            texts.iter().map(|text| BulkEditItem {
                negative: Some(NewNegative {
                    campaign_id: *campaign_id,
                    ad_group_id: *ad_group_id,
                    text: text.clone(),
                    match_type: match_type.clone(),
                }),
                ..BulkEditItem::to(0, None)
            })
        })
        .collect();
    enqueue(state, scope, "NEGATIVE_KEYWORD", CREATED, operation, items).await
}

/// Adds negative keywords at campaign level to campaigns `campaignIds` of one campaign group.
/// Editors only; every campaign must be a live one of the caller's workspace (else 404); at
/// most 10,000 campaign × text pairs. Runs as a `bulk-edit` job; the answer is its task,
/// whose details list every pair (applied with the new negative's id, refused with Apple's
/// message, skipped when already a negative keyword there).
#[utoipa::path(put, path = "/api/asa/keywords/add/negative", tag = "edits",
    params(ScopeQuery),
    request_body = AddNegatives,
    responses((status = 200, description = "The negatives are queued: the task", body = Envelope<Item<BulkEditStarted>>),
              (status = 400, description = "Invalid request (field errors), or over 10,000 pairs", body = ErrorBody),
              (status = 404, description = "A campaign is not in the workspace", body = ErrorBody)))]
pub async fn add_to_campaigns(
    State(state): State<AppState>,
    caller: Editor,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<AddNegatives>,
) -> ApiResult<impl IntoResponse> {
    let mut errors = Vec::new();
    let (texts, match_type) = texts_of(&body, &mut errors);
    let campaigns = ids(body.campaign_ids.clone(), "campaignIds", &mut errors);
    check(errors)?;
    let c = first_campaign(&state, &caller, &query, Some(&campaigns), "campaignIds").await?;
    let scope = group_scope(&caller, &c);
    live_rows(&state, &scope, "CAMPAIGN", "status", &campaigns, "Campaign").await?;
    let levels = campaigns.iter().map(|c| (*c, None)).collect();
    let started = add(&state, &scope, levels, texts, match_type).await?;
    Ok(envelope::item(started))
}

/// Adds negative keywords to campaign `campaignId`: at campaign level, or at ad group level
/// to its ad groups `adGroupIds`. Editors only; every ad group must be a live one of this
/// campaign (else 404); at most 10,000 level × text pairs. Runs as a `bulk-edit` job; the
/// answer is its task.
#[utoipa::path(put, path = "/api/asa/keywords/add/negative/{campaignId}", tag = "edits",
    params(("campaignId" = i64, Path, description = "Campaign id (Apple's)"), ScopeQuery),
    request_body = AddNegatives,
    responses((status = 200, description = "The negatives are queued: the task", body = Envelope<Item<BulkEditStarted>>),
              (status = 400, description = "Invalid request (field errors), or over 10,000 pairs", body = ErrorBody)))]
pub async fn add_to_campaign(
    State(state): State<AppState>,
    campaign: InWorkspace<CampaignParam, EditRoles>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<AddNegatives>,
) -> ApiResult<impl IntoResponse> {
    let c = pick(campaign.item.0, &query)?;
    if c.deleted {
        return Err(ApiError::not_found("Campaign"));
    }
    let mut errors = Vec::new();
    let (texts, match_type) = texts_of(&body, &mut errors);
    let groups = body
        .ad_group_ids
        .clone()
        .map(|g| ids(Some(g), "adGroupIds", &mut errors));
    check(errors)?;
    let scope = campaign_scope(&campaign.caller, &c);
    let levels = match groups {
        Some(groups) => {
            live_rows(&state, &scope, "AD_GROUP", "status", &groups, "Ad group").await?;
            groups.iter().map(|g| (c.id, Some(*g))).collect()
        }
        None => vec![(c.id, None)],
    };
    let started = add(&state, &scope, levels, texts, match_type).await?;
    Ok(envelope::item(started))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn texts_are_cleaned_as_the_spec_says() {
        assert_eq!(
            clean_texts(&json!("Free Games!\n\n  free games \nphoto-editor\n...")),
            vec!["free games", "photo editor"]
        );
        assert_eq!(
            clean_texts(&json!(["Café", "CAFÉ", "a  b"])),
            vec!["café", "a b"]
        );
        assert!(clean_texts(&json!(3)).is_empty());
    }
}
