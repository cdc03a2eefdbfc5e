//! What a bulk edit reads of the synced tables: the current value of one field (and the names
//! the change records copy) for many entities of one level of one campaign group, by id.

use sqlx::Row;

/// Ids per query (well under PostgreSQL's bind limit).
const IDS_PER_QUERY: usize = 1000;

/// One entity as a bulk edit sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct BulkRow {
    pub id: i64,
    pub campaign_id: i64,
    pub ad_group_id: Option<i64>,
    /// The entity's name (a keyword's text).
    pub name: String,
    pub campaign_name: String,
    pub status: String,
    /// The edited money field in micros (None for `status` or when unset).
    pub money: Option<i64>,
    pub deleted: bool,
}

/// The column of `field` at `level`, or None when the level has no such editable field.
/// Status, name and deletion have no money column (Some(None)).
pub fn money_column(level: &str, field: &str) -> Option<Option<&'static str>> {
    match (level, field) {
        ("CAMPAIGN" | "AD_GROUP" | "KEYWORD" | "NEGATIVE_KEYWORD", "status" | "deleted") => {
            Some(None)
        }
        ("CAMPAIGN" | "AD_GROUP", "name") => Some(None),
        ("CAMPAIGN", "dailyBudget") => Some(Some("daily_budget_micros")),
        ("AD_GROUP", "defaultBidAmount") => Some(Some("default_bid_micros")),
        ("AD_GROUP", "cpaGoal") => Some(Some("cpa_goal_micros")),
        ("KEYWORD", "cptBid") => Some(Some("bid_micros")),
        _ => None,
    }
}

/// The entities `ids` of `level` in campaign group `org_key` (only those of campaign
/// `campaign_id` when given), deleted or not; ids not synced are absent. Empty for an unknown
/// level or field.
pub async fn rows(
    ex: &mut sqlx::AnyConnection,
    org_key: i64,
    level: &str,
    field: &str,
    campaign_id: Option<i64>,
    ids: &[i64],
) -> Result<Vec<BulkRow>, sqlx::Error> {
    let Some(column) = money_column(level, field) else {
        return Ok(Vec::new());
    };
    // (table, alias, selected id columns and name, the column naming the campaign)
    let (table, alias, select, campaign) = match level {
        "CAMPAIGN" => (
            "asa_campaigns",
            "c",
            "c.id, c.id AS campaign_id, c.name AS name",
            "c.id",
        ),
        "AD_GROUP" => (
            "asa_ad_groups",
            "e",
            "e.id, e.campaign_id, e.id AS ad_group_id, e.name AS name",
            "e.campaign_id",
        ),
        "KEYWORD" => (
            "asa_keywords",
            "e",
            "e.id, e.campaign_id, e.ad_group_id, e.text AS name",
            "e.campaign_id",
        ),
        "NEGATIVE_KEYWORD" => (
            "asa_negative_keywords",
            "e",
            "e.id, e.campaign_id, e.ad_group_id, e.text AS name",
            "e.campaign_id",
        ),
        _ => return Ok(Vec::new()),
    };
    let money = column.map_or("CAST(NULL AS BIGINT)".to_string(), |c| {
        format!("{alias}.{c}")
    });
    let join = if level == "CAMPAIGN" {
        String::new()
    } else {
        "JOIN asa_campaigns c ON c.org_key = e.org_key AND c.id = e.campaign_id".to_string()
    };
    let mut out = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(IDS_PER_QUERY) {
        let list = (0..chunk.len())
            .map(|i| format!("${}", i + 4))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "SELECT {select}, c.name AS campaign_name, {alias}.status, {money} AS money, \
               {alias}.deleted FROM {table} {alias} {join} \
             WHERE {alias}.org_key = $1 AND ($2 = 0 OR {campaign} = $3) \
               AND {alias}.id IN ({list})"
        );
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(org_key)
            .bind(i64::from(campaign_id.is_some()))
            .bind(campaign_id.unwrap_or(0));
        for id in chunk {
            q = q.bind(*id);
        }
        for r in q.fetch_all(&mut *ex).await? {
            out.push(BulkRow {
                id: r.try_get("id")?,
                campaign_id: r.try_get("campaign_id")?,
                ad_group_id: if level == "CAMPAIGN" {
                    None
                } else {
                    r.try_get("ad_group_id")?
                },
                name: r.try_get("name")?,
                campaign_name: r.try_get("campaign_name")?,
                status: r.try_get("status")?,
                money: r.try_get("money")?,
                deleted: r.try_get::<i64, _>("deleted")? != 0,
            });
        }
    }
    Ok(out)
}

/// A live negative keyword as an add-negatives edit compares it: its level (campaign, and
/// ad group for an ad-group-level one), text and match type.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct NegativeRow {
    pub id: i64,
    pub campaign_id: i64,
    pub ad_group_id: Option<i64>,
    pub text: String,
    pub match_type: String,
}

/// `ids` as an SQL list (integers, inlined: no parameters to look up).
fn id_list(ids: &[i64]) -> String {
    ids.iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The live negative keywords of campaigns `campaign_ids` in `org_key`, both levels.
pub async fn negatives_of(
    ex: &mut sqlx::AnyConnection,
    org_key: i64,
    campaign_ids: &[i64],
) -> Result<Vec<NegativeRow>, sqlx::Error> {
    if campaign_ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT id, campaign_id, ad_group_id, text, match_type FROM asa_negative_keywords \
         WHERE org_key = $1 AND deleted = 0 AND campaign_id IN ({})",
        id_list(campaign_ids)
    );
    sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(org_key)
        .fetch_all(&mut *ex)
        .await
}

/// The live ad groups of campaigns `campaign_ids` in `org_key`, by campaign then id.
pub async fn ad_groups_of(
    ex: &mut sqlx::AnyConnection,
    org_key: i64,
    campaign_ids: &[i64],
) -> Result<Vec<i64>, sqlx::Error> {
    if campaign_ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT id FROM asa_ad_groups WHERE org_key = $1 AND deleted = 0 \
         AND campaign_id IN ({}) ORDER BY campaign_id, id",
        id_list(campaign_ids)
    );
    sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql))
        .bind(org_key)
        .fetch_all(&mut *ex)
        .await
}
