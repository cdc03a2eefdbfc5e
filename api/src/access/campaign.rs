//! Campaigns of the caller's workspace as resources: every synced copy of a campaign,
//! addressed by the `id` path parameter ([`Campaign`]) or by the `a` of `asa/groups/{a}/{b}`
//! ([`CampaignOfAdGroup`]); the optional `accountId` / `orgId` query ([`ScopeQuery`]) that
//! narrows the copies, and [`pick`], which chooses the one it names. The edit routes and the
//! campaign reads resolve campaigns only through these.

use searchdeck_common::{
    Db,
    store::{self, campaign_views::CampaignRow},
};
use serde::Deserialize;
use utoipa::IntoParams;

use super::{Editor, WorkspaceResource};
use crate::{error::ApiError, state::AppState};

/// The `accountId` / `orgId` query of the report routes. As an OpenAPI parameter list it
/// documents the optional query of the routes addressed by campaign (the edit routes); the
/// routes addressed by the `accountId` query, which requires it, document their own.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ScopeQuery {
    /// Account id (when several connections reach the campaign group)
    pub account_id: Option<String>,
    /// Campaign group
    #[param(value_type = Option<i64>)]
    pub org_id: Option<String>,
}

impl ScopeQuery {
    /// The `orgId` as a campaign group id; 400 on `orgId` when it is not a number (an
    /// empty `orgId=` included: only an absent parameter means "every campaign group").
    pub fn org_id(&self) -> Result<Option<i64>, ApiError> {
        match self.org_id.as_deref() {
            None => Ok(None),
            Some(raw) => raw
                .parse::<i64>()
                .map(Some)
                .map_err(|_| ApiError::field("orgId", "orgId must be a campaign group id")),
        }
    }
}

/// Every synced copy of one campaign in the caller's workspace, addressed by the `id` path
/// parameter (Apple's campaign id); [`pick`] chooses the one the query names.
#[derive(Debug)]
pub struct Campaign(pub Vec<CampaignRow>);

/// Like [`Campaign`], addressed by the `a` path parameter of `asa/groups/{a}/{b}`, whose `b`
/// is an ad group of that campaign.
#[derive(Debug)]
pub struct CampaignOfAdGroup(pub Vec<CampaignRow>);

async fn campaign_copies(
    db: &Db,
    workspace_id: &str,
    id: &str,
) -> Result<Option<Vec<CampaignRow>>, sqlx::Error> {
    // An id that is not a number names no campaign: 404 like any other unknown id.
    let Ok(id) = id.trim().parse::<i64>() else {
        return Ok(None);
    };
    let rows = store::campaign_views::campaign_in_workspace(&db.pool, workspace_id, id).await?;
    Ok((!rows.is_empty()).then_some(rows))
}

impl WorkspaceResource for Campaign {
    const NAME: &'static str = "Campaign";
    const KIND: &'static str = "campaign";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        Ok(campaign_copies(db, workspace_id, id).await?.map(Campaign))
    }
}

impl WorkspaceResource for CampaignOfAdGroup {
    const NAME: &'static str = "Campaign";
    const KIND: &'static str = "campaign";
    const PARAM: &'static str = "a";
    const CHILD_PARAMS: &'static [&'static str] = &["b"];

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        Ok(campaign_copies(db, workspace_id, id)
            .await?
            .map(CampaignOfAdGroup))
    }
}

/// The copy of a campaign the query names: `accountId` and `orgId` narrow the copies
/// (a copy outside them answers 404 like a missing campaign); when several remain the
/// caller must choose (400 on `accountId`).
pub fn pick(copies: Vec<CampaignRow>, query: &ScopeQuery) -> Result<CampaignRow, ApiError> {
    let org_id = query.org_id()?;
    let account_id = query
        .account_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let mut matching: Vec<CampaignRow> = copies
        .into_iter()
        .filter(|c| account_id.is_none_or(|a| c.account_id == a))
        .filter(|c| org_id.is_none_or(|o| c.org_id == o))
        .collect();
    match matching.len() {
        0 => Err(ApiError::not_found("Campaign")),
        1 => Ok(matching.remove(0)),
        _ => Err(ApiError::field(
            "accountId",
            "This campaign is synced through several connections: choose one with accountId and orgId",
        )),
    }
}

/// The campaign group of a request naming campaigns by id: the first one's (narrowed by the
/// query's account and campaign group), 404 when it is not a campaign of the workspace.
pub async fn first_campaign(
    state: &AppState,
    caller: &Editor,
    query: &ScopeQuery,
    ids: Option<&Vec<i64>>,
    field: &str,
) -> Result<CampaignRow, ApiError> {
    let Some(first) = ids.and_then(|ids| ids.first().copied()) else {
        return Err(ApiError::field(field, crate::domain::REQUIRED));
    };
    campaign_by_id(state, caller, query, first).await
}

/// Campaign `id` of the caller's workspace (narrowed by the query's account and campaign
/// group), 404 when it is not one.
pub async fn campaign_by_id(
    state: &AppState,
    caller: &Editor,
    query: &ScopeQuery,
    id: i64,
) -> Result<CampaignRow, ApiError> {
    let copies =
        store::campaign_views::campaign_in_workspace(&state.db.pool, &caller.workspace_id, id)
            .await?;
    if copies.is_empty() {
        return Err(ApiError::not_found("Campaign"));
    }
    pick(copies, query)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_campaign_copy_is_picked_by_the_query() {
        let copy = |account: &str, org: i64| CampaignRow {
            org_key: org,
            account_id: account.into(),
            org_id: org,
            currency: None,
            id: 7,
            name: "C".into(),
            adam_id: None,
            status: "ENABLED".into(),
            display_status: None,
            system_status: None,
            daily_budget_micros: None,
            countries: None,
            start_time: None,
            end_time: None,
            creation_time: None,
            modification_time: None,
            deleted: false,
            hidden: false,
            body: None,
        };
        let both = || vec![copy("a", 1), copy("b", 1)];
        let q = |a: Option<&str>, o: Option<&str>| ScopeQuery {
            account_id: a.map(Into::into),
            org_id: o.map(Into::into),
        };
        assert!(pick(both(), &q(None, None)).is_err());
        assert_eq!(pick(both(), &q(Some("b"), None)).unwrap().account_id, "b");
        assert!(pick(both(), &q(Some("c"), None)).is_err());
        assert!(pick(both(), &q(Some("a"), Some("2"))).is_err());
        assert!(pick(both(), &q(Some("a"), Some("x"))).is_err());
        assert_eq!(pick(vec![copy("a", 1)], &q(None, None)).unwrap().org_id, 1);
    }
}
