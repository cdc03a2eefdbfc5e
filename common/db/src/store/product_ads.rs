//! Ads and the custom product pages they show, as the product-page routes read them from
//! the synced data (docs/api/creation.md "Product pages"): a campaign's live ads with their
//! creative, product page and ad group ([`ads_of_campaign`]), and the two resources those
//! routes address by id: a synced product page ([`page_in_workspace`]) and a synced ad
//! group ([`ad_group_in_workspace`]) of a workspace. Apple retired creative sets; the
//! `creativeSet/*` routes read the same ads.

use sqlx::Row;

use super::Exec;

/// A live ad of a campaign with what it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct AdView {
    pub id: i64,
    pub campaign_id: i64,
    pub ad_group_id: i64,
    pub ad_group_name: Option<String>,
    pub name: String,
    pub status: String,
    pub display_status: Option<String>,
    pub creative_id: Option<i64>,
    /// `CUSTOM_PRODUCT_PAGE`, `DEFAULT_PRODUCT_PAGE`, … (None when the creative is not synced).
    pub creative_type: Option<String>,
    pub product_page_id: Option<String>,
    pub product_page_name: Option<String>,
}

impl AdView {
    /// Whether the ad shows a custom product page.
    pub fn custom_page(&self) -> bool {
        self.creative_type.as_deref() == Some("CUSTOM_PRODUCT_PAGE")
    }
}

/// The live ads of campaign `campaign_id` in synced campaign group `org_key` (of ad group
/// `ad_group_id` only, when given), by ad group then id.
pub async fn ads_of_campaign(
    ex: impl Exec<'_>,
    org_key: i64,
    campaign_id: i64,
    ad_group_id: Option<i64>,
) -> Result<Vec<AdView>, sqlx::Error> {
    sqlx::query(
        "SELECT a.id, a.campaign_id, a.ad_group_id, g.name AS ad_group_name, a.name, a.status, \
           a.display_status, a.creative_id, c.creative_type, c.product_page_id, \
           p.name AS product_page_name \
         FROM asa_ads a \
         LEFT JOIN asa_ad_groups g ON g.org_key = a.org_key AND g.id = a.ad_group_id \
         LEFT JOIN asa_creatives c ON c.org_key = a.org_key AND c.id = a.creative_id \
         LEFT JOIN asa_product_pages p ON p.org_key = a.org_key AND p.id = c.product_page_id \
         WHERE a.org_key = $1 AND a.campaign_id = $2 AND ($3 = 0 OR a.ad_group_id = $3) \
           AND a.deleted = 0 \
         ORDER BY a.ad_group_id, a.id",
    )
    .bind(org_key)
    .bind(campaign_id)
    .bind(ad_group_id.unwrap_or(0))
    .fetch_all(ex)
    .await?
    .iter()
    .map(|r| {
        Ok(AdView {
            id: r.try_get("id")?,
            campaign_id: r.try_get("campaign_id")?,
            ad_group_id: r.try_get("ad_group_id")?,
            ad_group_name: r.try_get("ad_group_name")?,
            name: r.try_get("name")?,
            status: r.try_get("status")?,
            display_status: r.try_get("display_status")?,
            creative_id: r.try_get("creative_id")?,
            creative_type: r.try_get("creative_type")?,
            product_page_id: r.try_get("product_page_id")?,
            product_page_name: r.try_get("product_page_name")?,
        })
    })
    .collect()
}

/// A synced product page as one connection of a workspace sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct PageCopy {
    pub org_key: i64,
    pub account_id: String,
    pub org_id: i64,
    pub id: String,
    pub adam_id: i64,
    pub name: String,
}

/// Every synced copy of product page `id` in the campaign groups of `workspace_id`'s
/// connections, by connection and campaign group.
pub async fn page_in_workspace(
    ex: impl Exec<'_>,
    workspace_id: &str,
    id: &str,
) -> Result<Vec<PageCopy>, sqlx::Error> {
    sqlx::query(
        "SELECT p.org_key, o.account_id, o.org_id, p.id, p.adam_id, p.name \
         FROM asa_product_pages p JOIN sync_orgs o ON o.org_key = p.org_key \
         JOIN accounts a ON a.id = o.account_id \
         WHERE a.workspace_id = $1 AND p.id = $2 ORDER BY o.account_id, o.org_id",
    )
    .bind(workspace_id)
    .bind(id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(|r| {
        Ok(PageCopy {
            org_key: r.try_get("org_key")?,
            account_id: r.try_get("account_id")?,
            org_id: r.try_get("org_id")?,
            id: r.try_get("id")?,
            adam_id: r.try_get("adam_id")?,
            name: r.try_get("name")?,
        })
    })
    .collect()
}

/// A synced ad group as one connection of a workspace sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct AdGroupCopy {
    pub org_key: i64,
    pub account_id: String,
    pub org_id: i64,
    pub campaign_id: i64,
    pub id: i64,
    pub name: String,
    pub deleted: bool,
}

/// Every synced copy of ad group `id` in the campaign groups of `workspace_id`'s
/// connections, by connection and campaign group.
pub async fn ad_group_in_workspace(
    ex: impl Exec<'_>,
    workspace_id: &str,
    id: i64,
) -> Result<Vec<AdGroupCopy>, sqlx::Error> {
    sqlx::query(
        "SELECT g.org_key, o.account_id, o.org_id, g.campaign_id, g.id, g.name, g.deleted \
         FROM asa_ad_groups g JOIN sync_orgs o ON o.org_key = g.org_key \
         JOIN accounts a ON a.id = o.account_id \
         WHERE a.workspace_id = $1 AND g.id = $2 ORDER BY o.account_id, o.org_id",
    )
    .bind(workspace_id)
    .bind(id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(|r| {
        Ok(AdGroupCopy {
            org_key: r.try_get("org_key")?,
            account_id: r.try_get("account_id")?,
            org_id: r.try_get("org_id")?,
            campaign_id: r.try_get("campaign_id")?,
            id: r.try_get("id")?,
            name: r.try_get("name")?,
            deleted: r.try_get::<i64, _>("deleted")? != 0,
        })
    })
    .collect()
}
