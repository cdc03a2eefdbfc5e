//! Views of the synced campaigns and ad groups (migration `20261123000000_synced_entities`)
//! for the campaign routes and the edits: campaign and ad group pickers and settings, the
//! campaign an edit targets, hidden campaigns (the one write here: hiding is ours, not
//! Apple's), keyword counts and a campaign's additional info. Everything here is scoped by
//! `org_key` (one synced campaign group of one connection), which callers resolve from the
//! workspace's account first.
//!
//! One of the four stores over the synced data, each with one role: [`super::synced`]
//! writes it (the sync), [`super::report_facts`] holds the daily metrics reports sum,
//! [`super::report_entities`] gives the report engine the rows of its tables, and this one
//! answers lookups of single campaigns and ad groups outside the report tables.
//!
//! Metrics are not read here: totals and forecasts go through the report engine
//! (`crate::report::totals`). Counts are cast to BIGINT, so every statement runs unchanged
//! on both backends through the `Any` pool.

use sqlx::Row;

use super::Exec;

/// A synced campaign with the campaign group it was synced under.
#[derive(Debug, Clone, PartialEq)]
pub struct CampaignRow {
    pub org_key: i64,
    pub account_id: String,
    pub org_id: i64,
    /// The campaign group's currency (ISO code), which its money amounts are in.
    pub currency: Option<String>,
    pub id: i64,
    pub name: String,
    pub adam_id: Option<i64>,
    pub status: String,
    pub display_status: Option<String>,
    pub system_status: Option<String>,
    pub daily_budget_micros: Option<i64>,
    /// JSON list of country or region codes, as synced.
    pub countries: Option<String>,
    pub start_time: Option<String>,
    pub end_time: Option<String>,
    pub creation_time: Option<String>,
    pub modification_time: Option<String>,
    pub deleted: bool,
    pub hidden: bool,
    /// The provider's JSON of the campaign as last synced.
    pub body: Option<String>,
}

const CAMPAIGN_COLUMNS: &str = "c.org_key, o.account_id, o.org_id, o.currency, c.id, c.name, c.adam_id, \
     c.status, c.display_status, c.system_status, c.daily_budget_micros, c.countries, \
     c.start_time, c.end_time, c.creation_time, c.modification_time, c.deleted, c.hidden, c.body";

fn campaign(row: &sqlx::any::AnyRow) -> Result<CampaignRow, sqlx::Error> {
    Ok(CampaignRow {
        org_key: row.try_get("org_key")?,
        account_id: row.try_get("account_id")?,
        org_id: row.try_get("org_id")?,
        currency: row.try_get("currency")?,
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        adam_id: row.try_get("adam_id")?,
        status: row.try_get("status")?,
        display_status: row.try_get("display_status")?,
        system_status: row.try_get("system_status")?,
        daily_budget_micros: row.try_get("daily_budget_micros")?,
        countries: row.try_get("countries")?,
        start_time: row.try_get("start_time")?,
        end_time: row.try_get("end_time")?,
        creation_time: row.try_get("creation_time")?,
        modification_time: row.try_get("modification_time")?,
        deleted: row.try_get::<i64, _>("deleted")? != 0,
        hidden: row.try_get::<i64, _>("hidden")? != 0,
        body: row.try_get("body")?,
    })
}

/// The campaigns of one synced campaign group by name (then id); deleted ones only with
/// `include_deleted`.
pub async fn campaigns(
    ex: impl Exec<'_>,
    org_key: i64,
    include_deleted: bool,
) -> Result<Vec<CampaignRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {CAMPAIGN_COLUMNS} FROM asa_campaigns c JOIN sync_orgs o ON o.org_key = c.org_key \
         WHERE c.org_key = $1 AND (c.deleted = 0 OR $2 = 1) ORDER BY c.name, c.id"
    )))
    .bind(org_key)
    .bind(i64::from(include_deleted))
    .fetch_all(ex)
    .await?
    .iter()
    .map(campaign)
    .collect()
}

/// How many campaigns (not deleted) synced campaign group `org_key` holds: what its
/// campaign limit counts (`plan_limits`), without reading the rows.
pub async fn campaign_count(ex: impl Exec<'_>, org_key: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM asa_campaigns WHERE org_key = $1 AND deleted = 0")
        .bind(org_key)
        .fetch_one(ex)
        .await
}

/// Every synced copy of campaign `campaign_id` in the workspace's connections (one per
/// campaign group that lists it; two connections may reach the same Apple Ads org).
pub async fn campaign_in_workspace(
    ex: impl Exec<'_>,
    workspace_id: &str,
    campaign_id: i64,
) -> Result<Vec<CampaignRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {CAMPAIGN_COLUMNS} FROM asa_campaigns c JOIN sync_orgs o ON o.org_key = c.org_key \
         JOIN accounts a ON a.id = o.account_id \
         WHERE a.workspace_id = $1 AND c.id = $2 ORDER BY o.account_id, o.org_id"
    )))
    .bind(workspace_id)
    .bind(campaign_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(campaign)
    .collect()
}

/// Marks campaign `campaign_id` of `org_key` hidden from the tables (or shown again);
/// false when no such campaign is synced there.
pub async fn set_hidden(
    ex: impl Exec<'_>,
    org_key: i64,
    campaign_id: i64,
    hidden: bool,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE asa_campaigns SET hidden = $3 WHERE org_key = $1 AND id = $2")
        .bind(org_key)
        .bind(campaign_id)
        .bind(i64::from(hidden))
        .execute(ex)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// A synced ad group.
#[derive(Debug, Clone, PartialEq)]
pub struct AdGroupRow {
    pub org_key: i64,
    pub id: i64,
    pub campaign_id: i64,
    pub name: String,
    pub status: String,
    pub display_status: Option<String>,
    pub system_status: Option<String>,
    pub default_bid_micros: Option<i64>,
    pub cpa_goal_micros: Option<i64>,
    pub automated_keywords_opt_in: bool,
    pub start_time: Option<String>,
    pub end_time: Option<String>,
    pub modification_time: Option<String>,
    pub deleted: bool,
    /// The provider's JSON of the ad group as last synced.
    pub body: Option<String>,
}

const AD_GROUP_COLUMNS: &str = "org_key, id, campaign_id, name, status, display_status, \
     system_status, default_bid_micros, cpa_goal_micros, automated_keywords_opt_in, start_time, \
     end_time, modification_time, deleted, body";

fn ad_group_row(row: &sqlx::any::AnyRow) -> Result<AdGroupRow, sqlx::Error> {
    Ok(AdGroupRow {
        org_key: row.try_get("org_key")?,
        id: row.try_get("id")?,
        campaign_id: row.try_get("campaign_id")?,
        name: row.try_get("name")?,
        status: row.try_get("status")?,
        display_status: row.try_get("display_status")?,
        system_status: row.try_get("system_status")?,
        default_bid_micros: row.try_get("default_bid_micros")?,
        cpa_goal_micros: row.try_get("cpa_goal_micros")?,
        automated_keywords_opt_in: row.try_get::<i64, _>("automated_keywords_opt_in")? != 0,
        start_time: row.try_get("start_time")?,
        end_time: row.try_get("end_time")?,
        modification_time: row.try_get("modification_time")?,
        deleted: row.try_get::<i64, _>("deleted")? != 0,
        body: row.try_get("body")?,
    })
}

/// The ad groups of a campaign by name (then id); deleted ones only with `include_deleted`.
pub async fn ad_groups(
    ex: impl Exec<'_>,
    org_key: i64,
    campaign_id: i64,
    include_deleted: bool,
) -> Result<Vec<AdGroupRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {AD_GROUP_COLUMNS} FROM asa_ad_groups WHERE org_key = $1 AND campaign_id = $2 \
         AND (deleted = 0 OR $3 = 1) ORDER BY name, id"
    )))
    .bind(org_key)
    .bind(campaign_id)
    .bind(i64::from(include_deleted))
    .fetch_all(ex)
    .await?
    .iter()
    .map(ad_group_row)
    .collect()
}

/// Ad group `ad_group_id` of campaign `campaign_id`, deleted or not.
pub async fn ad_group(
    ex: impl Exec<'_>,
    org_key: i64,
    campaign_id: i64,
    ad_group_id: i64,
) -> Result<Option<AdGroupRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {AD_GROUP_COLUMNS} FROM asa_ad_groups \
         WHERE org_key = $1 AND campaign_id = $2 AND id = $3"
    )))
    .bind(org_key)
    .bind(campaign_id)
    .bind(ad_group_id)
    .fetch_optional(ex)
    .await?
    .as_ref()
    .map(ad_group_row)
    .transpose()
}

/// Targeting keywords of one campaign: all not deleted, and the active ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeywordCount {
    pub campaign_id: i64,
    /// Keywords not deleted, in ad groups not deleted.
    pub total: i64,
    /// Of those, keywords with status ACTIVE in an ad group with status ENABLED.
    pub active: i64,
}

/// Keyword counts of every campaign of `org_key` that has keywords, by campaign id.
pub async fn keyword_counts(
    ex: impl Exec<'_>,
    org_key: i64,
) -> Result<Vec<KeywordCount>, sqlx::Error> {
    sqlx::query(
        "SELECT k.campaign_id, CAST(COUNT(*) AS BIGINT) AS total, \
           CAST(SUM(CASE WHEN k.status = 'ACTIVE' AND g.status = 'ENABLED' THEN 1 ELSE 0 END) \
             AS BIGINT) AS active \
         FROM asa_keywords k JOIN asa_ad_groups g ON g.org_key = k.org_key AND g.id = k.ad_group_id \
         WHERE k.org_key = $1 AND k.deleted = 0 AND g.deleted = 0 \
         GROUP BY k.campaign_id ORDER BY k.campaign_id",
    )
    .bind(org_key)
    .fetch_all(ex)
    .await?
    .iter()
    .map(|row| {
        Ok(KeywordCount {
            campaign_id: row.try_get("campaign_id")?,
            total: row.try_get("total")?,
            active: row.try_get("active")?,
        })
    })
    .collect()
}

/// What a campaign holds (deleted entities are not counted).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CampaignCounts {
    pub ad_groups: i64,
    /// Ad groups whose display status is RUNNING.
    pub running_ad_groups: i64,
    /// Keywords in ad groups not deleted.
    pub keywords: i64,
    /// Keywords with status ACTIVE in an ad group with status ENABLED.
    pub active_keywords: i64,
    /// Negative keywords of the campaign and of its ad groups.
    pub negative_keywords: i64,
    pub ads: i64,
}

/// The counts of campaign `campaign_id` of `org_key`.
pub async fn campaign_counts(
    ex: impl Exec<'_>,
    org_key: i64,
    campaign_id: i64,
) -> Result<CampaignCounts, sqlx::Error> {
    let row = sqlx::query(
        "SELECT \
           (SELECT COUNT(*) FROM asa_ad_groups WHERE org_key = $1 AND campaign_id = $2 \
              AND deleted = 0) AS ad_groups, \
           (SELECT COUNT(*) FROM asa_ad_groups WHERE org_key = $1 AND campaign_id = $2 \
              AND deleted = 0 AND display_status = 'RUNNING') AS running_ad_groups, \
           (SELECT COUNT(*) FROM asa_keywords k JOIN asa_ad_groups g \
              ON g.org_key = k.org_key AND g.id = k.ad_group_id \
              WHERE k.org_key = $1 AND k.campaign_id = $2 AND k.deleted = 0 AND g.deleted = 0) \
              AS keywords, \
           (SELECT COUNT(*) FROM asa_keywords k JOIN asa_ad_groups g \
              ON g.org_key = k.org_key AND g.id = k.ad_group_id \
              WHERE k.org_key = $1 AND k.campaign_id = $2 AND k.deleted = 0 AND g.deleted = 0 \
              AND k.status = 'ACTIVE' AND g.status = 'ENABLED') AS active_keywords, \
           (SELECT COUNT(*) FROM asa_negative_keywords WHERE org_key = $1 AND campaign_id = $2 \
              AND deleted = 0) AS negative_keywords, \
           (SELECT COUNT(*) FROM asa_ads WHERE org_key = $1 AND campaign_id = $2 \
              AND deleted = 0) AS ads",
    )
    .bind(org_key)
    .bind(campaign_id)
    .fetch_one(ex)
    .await?;
    Ok(CampaignCounts {
        ad_groups: row.try_get("ad_groups")?,
        running_ad_groups: row.try_get("running_ad_groups")?,
        keywords: row.try_get("keywords")?,
        active_keywords: row.try_get("active_keywords")?,
        negative_keywords: row.try_get("negative_keywords")?,
        ads: row.try_get("ads")?,
    })
}

/// A synced app.
#[derive(Debug, Clone, PartialEq)]
pub struct AppRow {
    pub adam_id: i64,
    pub app_name: String,
    pub developer_name: Option<String>,
}

/// App `adam_id` as synced under `org_key`.
pub async fn app(
    ex: impl Exec<'_>,
    org_key: i64,
    adam_id: i64,
) -> Result<Option<AppRow>, sqlx::Error> {
    sqlx::query(
        "SELECT adam_id, app_name, developer_name FROM asa_apps WHERE org_key = $1 AND adam_id = $2",
    )
    .bind(org_key)
    .bind(adam_id)
    .fetch_optional(ex)
    .await?
    .map(|row| {
        Ok(AppRow {
            adam_id: row.try_get("adam_id")?,
            app_name: row.try_get("app_name")?,
            developer_name: row.try_get("developer_name")?,
        })
    })
    .transpose()
}

/// A synced custom product page of an app.
#[derive(Debug, Clone, PartialEq)]
pub struct ProductPageRow {
    pub id: String,
    pub name: String,
    pub state: Option<String>,
}

/// The product pages of app `adam_id` synced under `org_key`, by name.
pub async fn product_pages(
    ex: impl Exec<'_>,
    org_key: i64,
    adam_id: i64,
) -> Result<Vec<ProductPageRow>, sqlx::Error> {
    sqlx::query(
        "SELECT id, name, state FROM asa_product_pages WHERE org_key = $1 AND adam_id = $2 \
         ORDER BY name, id",
    )
    .bind(org_key)
    .bind(adam_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(|row| {
        Ok(ProductPageRow {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
            state: row.try_get("state")?,
        })
    })
    .collect()
}
