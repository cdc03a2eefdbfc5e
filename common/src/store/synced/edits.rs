//! Edits written back to the synced tables: after the provider accepted a quick edit (or a
//! bulk-edit item), the fields it answers for are stored at once, so the report tables show
//! the new value before the next sync (which then writes the same values). Only the edited
//! columns, the provider's status and modification time and its JSON body change; the sync's
//! `synced_at` stamp is left alone.

use sqlx::Row;

use crate::store::Exec;

/// What the provider answered for an edited campaign.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CampaignState {
    pub status: String,
    pub display_status: Option<String>,
    pub daily_budget_micros: Option<i64>,
    pub modification_time: Option<String>,
    pub body: String,
}

/// What the provider answered for an edited ad group.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AdGroupState {
    pub status: String,
    pub display_status: Option<String>,
    pub default_bid_micros: Option<i64>,
    pub cpa_goal_micros: Option<i64>,
    pub automated_keywords_opt_in: bool,
    pub modification_time: Option<String>,
    pub body: String,
}

/// What the provider answered for an edited keyword.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct KeywordState {
    pub status: String,
    pub display_status: Option<String>,
    pub bid_micros: Option<i64>,
    pub modification_time: Option<String>,
}

/// Stores campaign `id` of `org_key` as the provider answered it; false when not synced.
pub async fn set_campaign(
    ex: impl Exec<'_>,
    org_key: i64,
    id: i64,
    s: &CampaignState,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE asa_campaigns SET status = $3, display_status = $4, daily_budget_micros = $5, \
           modification_time = $6, body = $7 WHERE org_key = $1 AND id = $2",
    )
    .bind(org_key)
    .bind(id)
    .bind(&s.status)
    .bind(&s.display_status)
    .bind(s.daily_budget_micros)
    .bind(&s.modification_time)
    .bind(&s.body)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Stores ad group `id` of `org_key` as the provider answered it; false when not synced.
pub async fn set_ad_group(
    ex: impl Exec<'_>,
    org_key: i64,
    id: i64,
    s: &AdGroupState,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE asa_ad_groups SET status = $3, display_status = $4, default_bid_micros = $5, \
           cpa_goal_micros = $6, automated_keywords_opt_in = $7, modification_time = $8, \
           body = $9 WHERE org_key = $1 AND id = $2",
    )
    .bind(org_key)
    .bind(id)
    .bind(&s.status)
    .bind(&s.display_status)
    .bind(s.default_bid_micros)
    .bind(s.cpa_goal_micros)
    .bind(i64::from(s.automated_keywords_opt_in))
    .bind(&s.modification_time)
    .bind(&s.body)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Stores keyword `id` of `org_key` as the provider answered it; false when not synced.
pub async fn set_keyword(
    ex: impl Exec<'_>,
    org_key: i64,
    id: i64,
    s: &KeywordState,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE asa_keywords SET status = $3, display_status = $4, bid_micros = $5, \
           modification_time = $6 WHERE org_key = $1 AND id = $2",
    )
    .bind(org_key)
    .bind(id)
    .bind(&s.status)
    .bind(&s.display_status)
    .bind(s.bid_micros)
    .bind(&s.modification_time)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// A synced targeting keyword.
#[derive(Debug, Clone, PartialEq)]
pub struct KeywordRow {
    pub org_key: i64,
    pub id: i64,
    pub campaign_id: i64,
    pub ad_group_id: i64,
    pub text: String,
    pub match_type: String,
    pub bid_micros: Option<i64>,
    pub status: String,
    pub display_status: Option<String>,
    pub deleted: bool,
}

/// Keyword `id` of ad group `ad_group_id` in `org_key`, deleted or not.
pub async fn keyword(
    ex: impl Exec<'_>,
    org_key: i64,
    ad_group_id: i64,
    id: i64,
) -> Result<Option<KeywordRow>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT org_key, id, campaign_id, ad_group_id, text, match_type, bid_micros, status, \
           display_status, deleted FROM asa_keywords \
         WHERE org_key = $1 AND ad_group_id = $2 AND id = $3",
    )
    .bind(org_key)
    .bind(ad_group_id)
    .bind(id)
    .fetch_optional(ex)
    .await?;
    row.map(|r| {
        Ok(KeywordRow {
            org_key: r.try_get("org_key")?,
            id: r.try_get("id")?,
            campaign_id: r.try_get("campaign_id")?,
            ad_group_id: r.try_get("ad_group_id")?,
            text: r.try_get("text")?,
            match_type: r.try_get("match_type")?,
            bid_micros: r.try_get("bid_micros")?,
            status: r.try_get("status")?,
            display_status: r.try_get("display_status")?,
            deleted: r.try_get::<i64, _>("deleted")? != 0,
        })
    })
    .transpose()
}
