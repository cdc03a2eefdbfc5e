//! Negative keyword lists (docs/product.md#7-the-calls-it-makes `list/*`, docs/api/creation.md
//! "Negative keyword lists"): named lists of negative keywords of a workspace, applied to campaigns
//! or ad groups as real negatives at Apple. Apple has no shared lists; these are ours
//! (`store::negative_lists`). Saving a list with places, editing one or deleting one starts
//! the `apply-negative-lists` job over every place concerned, in the transaction that saves;
//! `dryRun` instead answers the terms that would block a keyword a place bids on, and saves
//! nothing. Every member reads the lists; owners, admins and writers change them.
//!
//! The routes live by action group: reading (`read`), creating and changing (`save`),
//! deleting (`remove`), over the checks and steps they share (`input`). This module holds
//! the list as answered and the conflicts a `dryRun` answers.

mod input;
mod read;
mod remove;
mod save;

use searchdeck_common::{
    Db,
    ids::{rfc3339, string_id},
    store::{
        self,
        negative_lists::{ListKeyword, ListRow, Place},
    },
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{access::WorkspaceResource, error::ApiResult, route, state::AppState};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(read::all_lists))
        .routes(route!(read::one))
        .routes(route!(save::update))
        .routes(route!(remove::remove))
        .routes(route!(save::add))
}

/// Longest list name.
pub const NAME_MAX: usize = 100;
/// Most terms a list holds.
pub const KEYWORDS_MAX: usize = 5_000;
/// Most places a list is applied to.
pub const PLACES_MAX: usize = 500;
/// Longest keyword text Apple Ads accepts.
pub const TEXT_MAX: usize = crate::domain::KEYWORD_TEXT_MAX;
/// Message of a taken list name.
pub const NAME_TAKEN: &str = "A list with this name already exists";

/// A negative keyword list of the caller's workspace, addressed by the `id` path parameter.
#[derive(Debug)]
pub struct NegativeList(pub ListRow);

impl WorkspaceResource for NegativeList {
    const NAME: &'static str = "List";
    const KIND: &'static str = "negative-list";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        Ok(
            store::negative_lists::in_workspace(&db.pool, workspace_id, id)
                .await?
                .map(NegativeList),
        )
    }
}

/// A term of a list.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListKeywordItem {
    /// The text (on input, several lines are several terms; cleaned as spec §5 says).
    pub text: String,
    /// EXACT (default) or BROAD.
    pub match_type: Option<String>,
}

/// A place a list is applied to: a campaign of the workspace, or an ad group of it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlaceItem {
    #[schema(value_type = String)]
    pub campaign_id: Option<Value>,
    /// Null for the campaign level.
    #[schema(value_type = Option<String>)]
    pub ad_group_id: Option<Value>,
    #[serde(default)]
    pub campaign_name: Option<String>,
    #[serde(default)]
    pub ad_group_name: Option<String>,
    /// The campaign group (needed only when several connections reach the campaign).
    #[schema(value_type = Option<String>)]
    pub org_id: Option<Value>,
    pub account_id: Option<String>,
}

/// A list as answered.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListItem {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    /// The terms (absent in the listing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keywords: Option<Vec<ListKeywordItem>>,
    /// The places (absent in the listing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub places: Option<Vec<AppliedPlace>>,
    pub keywords_count: i64,
    /// How many places (campaigns and ad groups) the list is applied to, in the listing too
    /// (where `places` is absent).
    pub places_count: i64,
    pub created_at: String,
    pub updated_at: String,
    /// The last apply job's task.
    pub task_id: Option<String>,
}

/// A place a list is applied to, as answered: the ids Apple gave, the names as synced (not
/// our input, so not held to the request bodies' text rules).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppliedPlace {
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub campaign_id: String,
    /// Null for the campaign level.
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub ad_group_id: Option<String>,
    pub campaign_name: String,
    pub ad_group_name: Option<String>,
    /// The campaign group.
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub org_id: String,
    /// The connection that reaches the campaign.
    pub account_id: String,
}

fn place_item(p: Place) -> AppliedPlace {
    AppliedPlace {
        campaign_id: p.campaign_id.to_string(),
        ad_group_id: p.ad_group_id.map(|id| id.to_string()),
        campaign_name: p.campaign_name,
        ad_group_name: p.ad_group_name,
        org_id: p.org_id.to_string(),
        account_id: p.account_id,
    }
}

fn list_item(
    row: ListRow,
    keywords: Option<Vec<ListKeyword>>,
    places: Option<Vec<Place>>,
) -> ListItem {
    ListItem {
        id: row.id,
        name: row.name,
        keywords: keywords.map(|k| {
            k.into_iter()
                .map(|k| ListKeywordItem {
                    text: k.text,
                    match_type: Some(k.match_type),
                })
                .collect()
        }),
        places: places.map(|p| p.into_iter().map(place_item).collect()),
        keywords_count: row.keywords_count,
        places_count: row.places_count,
        created_at: rfc3339(row.created_at),
        updated_at: rfc3339(row.updated_at),
        task_id: row.task_id,
    }
}

async fn full(state: &AppState, row: ListRow) -> ApiResult<ListItem> {
    let keywords = store::negative_lists::keywords(&state.db.pool, &row.id).await?;
    let places = store::negative_lists::places(&state.db.pool, &row.id).await?;
    Ok(list_item(row, Some(keywords), Some(places)))
}

/// A term of the list that would block a keyword a place bids on.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Conflict {
    pub text: String,
    pub match_type: String,
    #[schema(value_type = String)]
    #[serde(with = "string_id")]
    pub campaign_id: i64,
    #[schema(value_type = Option<String>)]
    #[serde(with = "string_id::option")]
    pub ad_group_id: Option<i64>,
    pub keyword: ConflictKeyword,
}

/// The keyword a conflict blocks.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConflictKeyword {
    #[schema(value_type = String)]
    #[serde(with = "string_id")]
    pub keyword_id: i64,
    #[schema(value_type = String)]
    #[serde(with = "string_id")]
    pub ad_group_id: i64,
    pub text: String,
    pub match_type: String,
}
