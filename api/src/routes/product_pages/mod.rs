//! Custom product pages and the ads that use them (docs/product.md#7-the-calls-it-makes
//! `productPages/*`, `asa/campaigns/checkCustomProductPageAds*`, `creativeSet/*`;
//! docs/api/creation.md "Product pages"). Product pages come from Apple (made in App Store
//! Connect); an ad with a custom product page is a v1 creative of type `CUSTOM_PRODUCT_PAGE` shown
//! by an ad in an ad group. Apple retired creative sets: the `creativeSet/*` calls are served from
//! the same custom product page ads (`creative_sets.rs`).
//!
//! The resources these routes address live here: a campaign by `campaignId` or `id` (alone,
//! or with the app and page, or the ad group, inside it), a synced product page and a synced
//! ad group by `id`, each looked up within the caller's workspace.

mod ads;
mod checks;
mod creative_sets;
mod pages;

use searchdeck_common::{
    Db,
    store::{
        self,
        campaign_views::CampaignRow,
        product_ads::{AdGroupCopy, PageCopy},
    },
};
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{ScopeQuery, WorkspaceResource},
    error::ApiError,
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(pages::of_app))
        .routes(route!(pages::of_campaign))
        .routes(route!(pages::apply_to_groups))
        .routes(route!(pages::apply_to_campaigns))
        .routes(route!(pages::set_status))
        .routes(route!(checks::by_campaigns))
        .routes(route!(checks::by_ad_groups))
        .routes(route!(creative_sets::details))
        .routes(route!(creative_sets::details_of))
        .routes(route!(creative_sets::update))
}

async fn campaign_copies(
    db: &Db,
    workspace_id: &str,
    id: &str,
) -> Result<Option<Vec<CampaignRow>>, sqlx::Error> {
    let Ok(id) = id.trim().parse::<i64>() else {
        return Ok(None);
    };
    let rows = store::campaign_views::campaign_in_workspace(&db.pool, workspace_id, id).await?;
    Ok((!rows.is_empty()).then_some(rows))
}

/// A campaign of the caller's workspace named by the `campaignId` path parameter (its
/// synced copies; the `accountId` / `orgId` query picks one).
#[derive(Debug)]
pub struct CampaignParam(pub Vec<CampaignRow>);

impl WorkspaceResource for CampaignParam {
    const NAME: &'static str = "Campaign";
    const KIND: &'static str = "campaign";
    const PARAM: &'static str = "campaignId";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        Ok(campaign_copies(db, workspace_id, id)
            .await?
            .map(CampaignParam))
    }
}

/// A campaign named by the `id` path parameter of `productPages/many/{id}/{adamId}/{pageId}`:
/// the app and product page are looked up within the campaign (its app, at Apple). (The
/// router needs one name for the segment after `many/`, which `many/{id}` also uses.)
#[derive(Debug)]
pub struct CampaignOfPage(pub Vec<CampaignRow>);

impl WorkspaceResource for CampaignOfPage {
    const NAME: &'static str = "Campaign";
    const KIND: &'static str = "campaign";
    const CHILD_PARAMS: &'static [&'static str] = &["adamId", "pageId"];

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        Ok(campaign_copies(db, workspace_id, id)
            .await?
            .map(CampaignOfPage))
    }
}

/// A campaign named by the `id` path parameter of `creativeSet/getDetails/{id}/{adGroupId}`,
/// whose ad group `adGroupId` is looked up within it.
#[derive(Debug)]
pub struct CampaignOfGroup(pub Vec<CampaignRow>);

impl WorkspaceResource for CampaignOfGroup {
    const NAME: &'static str = "Campaign";
    const KIND: &'static str = "campaign";
    const CHILD_PARAMS: &'static [&'static str] = &["adGroupId"];

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        Ok(campaign_copies(db, workspace_id, id)
            .await?
            .map(CampaignOfGroup))
    }
}

/// A product page synced in a campaign group of the caller's workspace, named by the `id`
/// path parameter of `productPages/many/{id}` (one copy per connection and campaign group
/// reaching it).
#[derive(Debug)]
pub struct PageParam(pub Vec<PageCopy>);

impl WorkspaceResource for PageParam {
    const NAME: &'static str = "Product page";
    const KIND: &'static str = "product-page";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        let rows = store::product_ads::page_in_workspace(&db.pool, workspace_id, id.trim()).await?;
        Ok((!rows.is_empty()).then_some(PageParam(rows)))
    }
}

/// An ad group synced in a campaign group of the caller's workspace, named by the `id`
/// path parameter.
#[derive(Debug)]
pub struct AdGroupParam(pub Vec<AdGroupCopy>);

impl WorkspaceResource for AdGroupParam {
    const NAME: &'static str = "Ad group";
    const KIND: &'static str = "ad-group";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        let Ok(id) = id.trim().parse::<i64>() else {
            return Ok(None);
        };
        let rows = store::product_ads::ad_group_in_workspace(&db.pool, workspace_id, id).await?;
        Ok((!rows.is_empty()).then_some(AdGroupParam(rows)))
    }
}

/// The one copy the query names among `copies` (by connection and campaign group): 404
/// `what` when none, 400 on `accountId` when several remain.
pub fn narrow<T>(
    copies: Vec<T>,
    query: &ScopeQuery,
    of: impl Fn(&T) -> (&str, i64),
    what: &str,
) -> Result<T, ApiError> {
    let org_id = query.org_id()?;
    let account_id = query
        .account_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let mut matching: Vec<T> = copies
        .into_iter()
        .filter(|c| account_id.is_none_or(|a| of(c).0 == a))
        .filter(|c| org_id.is_none_or(|o| of(c).1 == o))
        .collect();
    match matching.len() {
        0 => Err(ApiError::not_found(what)),
        1 => Ok(matching.remove(0)),
        _ => Err(ApiError::field(
            "accountId",
            "Synced through several connections: choose one with accountId and orgId",
        )),
    }
}
