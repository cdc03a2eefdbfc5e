//! Edits written back to the synced tables: after the provider accepted a quick edit (or a
//! bulk-edit item), the fields it answers for are stored at once, so the report tables show
//! the new value before the next sync (which then writes the same values). Only the edited
//! columns, the provider's status and modification time and its JSON body change; the sync's
//! `synced_at` stamp is left alone. A write that changes what automated rules read of an
//! entity (a campaign's, ad group's or keyword's name, status, bid or budget) sets the
//! group's `entities_version` anew in the same transaction ([`super::entities_changed`]),
//! so every process's cached rule attributes of the group are read again.

use crate::store::{Exec, Flag};

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
    ex: &mut sqlx::AnyConnection,
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
    .execute(&mut *ex)
    .await?;
    if done.rows_affected() == 0 {
        return Ok(false);
    }
    super::entities_changed(&mut *ex, org_key).await?;
    Ok(true)
}

/// Stores ad group `id` of `org_key` as the provider answered it; false when not synced.
pub async fn set_ad_group(
    ex: &mut sqlx::AnyConnection,
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
    .execute(&mut *ex)
    .await?;
    if done.rows_affected() == 0 {
        return Ok(false);
    }
    super::entities_changed(&mut *ex, org_key).await?;
    Ok(true)
}

/// Stores keyword `id` of `org_key` as the provider answered it; false when not synced.
pub async fn set_keyword(
    ex: &mut sqlx::AnyConnection,
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
    .execute(&mut *ex)
    .await?;
    if done.rows_affected() == 0 {
        return Ok(false);
    }
    super::entities_changed(&mut *ex, org_key).await?;
    Ok(true)
}

/// A synced targeting keyword.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
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
    #[sqlx(try_from = "Flag")]
    pub deleted: bool,
}

/// Keyword `id` of ad group `ad_group_id` in `org_key`, deleted or not.
pub async fn keyword(
    ex: impl Exec<'_>,
    org_key: i64,
    ad_group_id: i64,
    id: i64,
) -> Result<Option<KeywordRow>, sqlx::Error> {
    sqlx::query_as::<_, KeywordRow>(
        "SELECT org_key, id, campaign_id, ad_group_id, text, match_type, bid_micros, status, \
           display_status, deleted FROM asa_keywords \
         WHERE org_key = $1 AND ad_group_id = $2 AND id = $3",
    )
    .bind(org_key)
    .bind(ad_group_id)
    .bind(id)
    .fetch_optional(ex)
    .await
}

/// What the provider answered for an edited ad (its status is the one editable field).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AdState {
    pub status: String,
    pub display_status: Option<String>,
    pub modification_time: Option<String>,
    pub body: String,
}

/// Stores ad `id` of `org_key` as the provider answered it; false when not synced.
pub async fn set_ad(
    ex: impl Exec<'_>,
    org_key: i64,
    id: i64,
    s: &AdState,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE asa_ads SET status = $3, display_status = $4, modification_time = $5, body = $6 \
         WHERE org_key = $1 AND id = $2",
    )
    .bind(org_key)
    .bind(id)
    .bind(&s.status)
    .bind(&s.display_status)
    .bind(&s.modification_time)
    .bind(&s.body)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// What the provider answered for an edited negative keyword.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NegativeState {
    pub status: String,
    pub modification_time: Option<String>,
}

/// Stores negative keyword `id` of `org_key` as the provider answered it; false when not
/// synced.
pub async fn set_negative(
    ex: impl Exec<'_>,
    org_key: i64,
    id: i64,
    s: &NegativeState,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE asa_negative_keywords SET status = $3, modification_time = $4 \
         WHERE org_key = $1 AND id = $2",
    )
    .bind(org_key)
    .bind(id)
    .bind(&s.status)
    .bind(&s.modification_time)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// The synced table of a level (CAMPAIGN, AD_GROUP, KEYWORD, NEGATIVE_KEYWORD, AD).
fn table(level: &str) -> Option<&'static str> {
    Some(match level {
        "CAMPAIGN" => "asa_campaigns",
        "AD_GROUP" => "asa_ad_groups",
        "KEYWORD" => "asa_keywords",
        "NEGATIVE_KEYWORD" => "asa_negative_keywords",
        "AD" => "asa_ads",
        _ => return None,
    })
}

/// Marks entity `id` of `level` deleted after the provider deleted it (the sync then keeps
/// it deleted); false when not synced or the level is unknown.
pub async fn set_deleted(
    conn: &mut sqlx::AnyConnection,
    level: &str,
    org_key: i64,
    id: i64,
) -> Result<bool, sqlx::Error> {
    let Some(table) = table(level) else {
        return Ok(false);
    };
    let sql = format!("UPDATE {table} SET deleted = 1 WHERE org_key = $1 AND id = $2");
    let done = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(org_key)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    if done.rows_affected() > 0 {
        super::entities_changed(&mut *conn, org_key).await?;
    }
    Ok(done.rows_affected() > 0)
}

/// Renames campaign or ad group `id` as the provider answered; false when not synced or the
/// level has no name.
pub async fn set_name(
    ex: &mut sqlx::AnyConnection,
    level: &str,
    org_key: i64,
    id: i64,
    name: &str,
) -> Result<bool, sqlx::Error> {
    let table = match level {
        "CAMPAIGN" | "AD_GROUP" => table(level).unwrap_or_default(),
        _ => return Ok(false),
    };
    let sql = format!("UPDATE {table} SET name = $3 WHERE org_key = $1 AND id = $2");
    let done = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(org_key)
        .bind(id)
        .bind(name)
        .execute(&mut *ex)
        .await?;
    if done.rows_affected() == 0 {
        return Ok(false);
    }
    super::entities_changed(&mut *ex, org_key).await?;
    Ok(true)
}

/// A synced ad, as its quick edit reads it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct AdRow {
    pub id: i64,
    pub campaign_id: i64,
    pub ad_group_id: i64,
    pub name: String,
    pub status: String,
    pub display_status: Option<String>,
    pub modification_time: Option<String>,
    pub body: Option<String>,
    #[sqlx(try_from = "Flag")]
    pub deleted: bool,
}

/// Ad `id` of ad group `ad_group_id` in `org_key`, deleted or not.
pub async fn ad(
    ex: impl Exec<'_>,
    org_key: i64,
    ad_group_id: i64,
    id: i64,
) -> Result<Option<AdRow>, sqlx::Error> {
    sqlx::query_as::<_, AdRow>(
        "SELECT id, campaign_id, ad_group_id, name, status, display_status, modification_time, \
           body, deleted FROM asa_ads WHERE org_key = $1 AND ad_group_id = $2 AND id = $3",
    )
    .bind(org_key)
    .bind(ad_group_id)
    .bind(id)
    .fetch_optional(ex)
    .await
}

/// A synced negative keyword, as its quick edit reads it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct NegativeRow {
    pub id: i64,
    pub campaign_id: i64,
    /// None for a campaign-level negative.
    pub ad_group_id: Option<i64>,
    pub text: String,
    pub match_type: String,
    pub status: String,
    pub modification_time: Option<String>,
    #[sqlx(try_from = "Flag")]
    pub deleted: bool,
}

/// Negative keyword `id` of campaign `campaign_id` (either level) in `org_key`, deleted or
/// not.
pub async fn negative(
    ex: impl Exec<'_>,
    org_key: i64,
    campaign_id: i64,
    id: i64,
) -> Result<Option<NegativeRow>, sqlx::Error> {
    sqlx::query_as::<_, NegativeRow>(
        "SELECT id, campaign_id, ad_group_id, text, match_type, status, modification_time, \
           deleted FROM asa_negative_keywords WHERE org_key = $1 AND campaign_id = $2 AND id = $3",
    )
    .bind(org_key)
    .bind(campaign_id)
    .bind(id)
    .fetch_optional(ex)
    .await
}
