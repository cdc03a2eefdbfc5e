//! What the report engine reads besides the facts: the synced campaign groups (`sync_orgs`),
//! the entities of each level (names, statuses and the columns of docs/product.md#2-tables) and
//! their report tags. Entities are read in two passes: [`ids`] for the whole scope (the row
//! universe, cheap), then [`entities`] for the rows a filter, a sort or the page needs.
//!
//! One of the four stores over the synced data, each with one role: [`super::synced`]
//! writes it (the sync), [`super::report_facts`] holds the daily metrics reports sum, this
//! one gives the report engine the rows those metrics belong to (and the report routes the
//! synced group they ask about), and [`super::campaign_views`] answers the campaign
//! routes' and edits' lookups of single campaigns and ad groups.

mod rules;

use std::collections::HashMap;

use sqlx::{AssertSqlSafe, Row};

use super::Exec;
use crate::ids::string_id;

/// A synced campaign group: the key of its facts and what reports show about it (the one
/// reader is `store::synced`).
pub use super::synced::SyncOrg;

pub use rules::{RuleEntity, ad_group_money, campaign_budgets, rule_entities};

/// The synced campaign group `org_id` of connection `account_id`, if synced.
pub async fn sync_org_of(
    ex: impl Exec<'_>,
    account_id: &str,
    org_id: i64,
) -> Result<Option<SyncOrg>, sqlx::Error> {
    super::synced::org_of(ex, account_id, org_id).await
}

/// Every synced campaign group of the connections of `workspace_id`, by `org_key`.
pub async fn sync_orgs_of_workspace(
    ex: impl Exec<'_>,
    workspace_id: &str,
) -> Result<Vec<SyncOrg>, sqlx::Error> {
    super::synced::orgs_of_workspace(ex, workspace_id).await
}

/// The entity tables a report level reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntityKind {
    Campaign,
    AdGroup,
    Keyword,
    Negative,
    SearchTerm,
    Ad,
}

impl EntityKind {
    pub(crate) fn table(self) -> &'static str {
        match self {
            EntityKind::Campaign => "asa_campaigns",
            EntityKind::AdGroup => "asa_ad_groups",
            EntityKind::Keyword => "asa_keywords",
            EntityKind::Negative => "asa_negative_keywords",
            EntityKind::SearchTerm => "asa_search_terms",
            EntityKind::Ad => "asa_ads",
        }
    }

    /// The campaign id column (`id` for campaigns).
    pub(crate) fn campaign_col(self) -> &'static str {
        match self {
            EntityKind::Campaign => "t.id",
            _ => "t.campaign_id",
        }
    }

    /// The ad group id column (0 for campaigns; 0 for campaign-level negatives).
    pub(crate) fn ad_group_col(self) -> &'static str {
        match self {
            EntityKind::Campaign => "CAST(0 AS BIGINT)",
            EntityKind::AdGroup => "t.id",
            EntityKind::Negative => "COALESCE(t.ad_group_id, 0)",
            _ => "t.ad_group_id",
        }
    }

    fn deleted_col(self) -> &'static str {
        match self {
            EntityKind::SearchTerm => "CAST(0 AS BIGINT)",
            _ => "t.deleted",
        }
    }

    /// Whether the row is hidden from the tables (a flag of campaigns only).
    fn hidden_col(self) -> &'static str {
        match self {
            EntityKind::Campaign => "t.hidden",
            _ => "CAST(0 AS BIGINT)",
        }
    }
}

/// Which entities of a level: those of one org, optionally of one campaign or ad group.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EntityScope {
    pub campaign_id: Option<i64>,
    pub ad_group_id: Option<i64>,
}

/// An entity's ids and whether it is deleted or hidden: the row universe of a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntityId {
    pub id: i64,
    pub campaign_id: i64,
    pub ad_group_id: i64,
    pub deleted: bool,
    /// A campaign hidden from the tables (`asa/campaigns/mark-hidden`).
    pub hidden: bool,
}

fn where_scope(kind: EntityKind, scope: EntityScope, sql: &mut String, binds: &mut Vec<i64>) {
    if let Some(c) = scope.campaign_id {
        binds.push(c);
        sql.push_str(&format!(
            " AND {} = ${}",
            kind.campaign_col(),
            binds.len() + 1
        ));
    }
    if let Some(g) = scope.ad_group_id {
        binds.push(g);
        sql.push_str(&format!(
            " AND {} = ${}",
            kind.ad_group_col(),
            binds.len() + 1
        ));
    }
}

/// The ids of every entity of `kind` in `org_key` and `scope`, deleted ones included,
/// ordered by id. On the native pool: a report of a large account reads every entity's ids,
/// and the `Any` driver's per-value conversion would cost more than the query.
pub async fn ids(
    db: &crate::Db,
    kind: EntityKind,
    org_key: i64,
    scope: EntityScope,
) -> Result<Vec<EntityId>, sqlx::Error> {
    use crate::{db::Native, store::on_native};
    let mut sql = format!(
        "SELECT t.id, {} AS c, {} AS g, {} AS d, {} AS h FROM {} t WHERE t.org_key = $1",
        kind.campaign_col(),
        kind.ad_group_col(),
        kind.deleted_col(),
        kind.hidden_col(),
        kind.table()
    );
    let mut binds = Vec::new();
    where_scope(kind, scope, &mut sql, &mut binds);
    sql.push_str(" ORDER BY t.id");
    on_native!(db, pool => {
        let mut q = sqlx::query_as::<_, (i64, i64, i64, i64, i64)>(AssertSqlSafe(sql)).bind(org_key);
        for b in binds {
            q = q.bind(b);
        }
        Ok(q.fetch_all(pool)
            .await?
            .into_iter()
            .map(|(id, campaign_id, ad_group_id, deleted, hidden)| EntityId {
                id,
                campaign_id,
                ad_group_id,
                deleted: deleted != 0,
                hidden: hidden != 0,
            })
            .collect())
    })
}

/// An entity with what the report shows of it. `columns` holds the level's columns of
/// docs/product.md#2-tables that come from the entity (money still in micros, see `money_micros`).
#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    pub id: i64,
    pub campaign_id: i64,
    pub ad_group_id: i64,
    pub name: String,
    /// The status the table shows (the serving/display status where there is one).
    pub status: String,
    pub deleted: bool,
    /// Text and flag columns by their spec name.
    pub columns: serde_json::Map<String, serde_json::Value>,
    /// Money columns by their spec name, in micros.
    pub money_micros: Vec<(&'static str, Option<i64>)>,
}

/// The SELECT list of `kind`: id, campaign, ad group, name, shown status, deleted, then the
/// level's own columns (named by their spec names).
fn entity_select(kind: EntityKind) -> String {
    let own = match kind {
        EntityKind::Campaign => {
            "t.name AS name, COALESCE(t.display_status, t.status) AS shown, t.status AS \"campaignStatus\", \
             t.countries AS \"countriesOrRegions\", t.adam_id AS \"adamId\", \
             t.daily_budget_micros AS \"dailyBudget\""
        }
        EntityKind::AdGroup => {
            "t.name AS name, COALESCE(t.display_status, t.status) AS shown, t.status AS \"adGroupStatus\", \
             t.default_bid_micros AS \"defaultBidAmount\", t.cpa_goal_micros AS \"cpaGoal\", \
             t.automated_keywords_opt_in AS \"automatedKeywordsOptIn\""
        }
        EntityKind::Keyword => {
            "t.text AS name, t.status AS shown, t.match_type AS \"matchType\", \
             t.display_status AS \"keywordDisplayStatus\", t.bid_micros AS \"cptBid\""
        }
        EntityKind::Negative => {
            "t.text AS name, t.status AS shown, t.match_type AS \"matchType\", \
             t.modification_time AS \"modificationTime\", \
             CASE WHEN t.ad_group_id IS NULL THEN 'CAMPAIGN' ELSE 'AD_GROUP' END AS level"
        }
        EntityKind::SearchTerm => {
            "t.text AS name, \
             CASE WHEN EXISTS (SELECT 1 FROM asa_keywords k WHERE k.org_key = t.org_key \
                 AND k.ad_group_id = t.ad_group_id AND LOWER(k.text) = LOWER(t.text) AND k.deleted = 0) \
             THEN 'ADDED' WHEN EXISTS (SELECT 1 FROM asa_negative_keywords n WHERE n.org_key = t.org_key \
                 AND n.campaign_id = t.campaign_id AND (n.ad_group_id IS NULL OR n.ad_group_id = t.ad_group_id) \
                 AND LOWER(n.text) = LOWER(t.text) AND n.deleted = 0) THEN 'EXCLUDED' ELSE 'NONE' END AS shown, \
             t.source AS \"searchTermSource\", t.keyword_id AS \"keywordId\", k.text AS keyword, \
             COALESCE(k.display_status, k.status) AS \"keywordDisplayStatus\""
        }
        EntityKind::Ad => {
            "COALESCE(c.name, t.name) AS name, COALESCE(t.display_status, t.status) AS shown, \
             t.status AS \"adStatus\", t.name AS \"adName\", g.name AS \"adGroupName\", \
             t.creative_id AS \"creativeId\""
        }
    };
    format!(
        "SELECT t.id AS id, {} AS campaign_id, {} AS ad_group_id, {} AS deleted, {own} FROM {} t{}",
        kind.campaign_col(),
        kind.ad_group_col(),
        kind.deleted_col(),
        kind.table(),
        match kind {
            EntityKind::SearchTerm => {
                " LEFT JOIN asa_keywords k ON k.org_key = t.org_key AND k.id = t.keyword_id"
            }
            EntityKind::Ad => {
                " LEFT JOIN asa_creatives c ON c.org_key = t.org_key AND c.id = t.creative_id \
                 LEFT JOIN asa_ad_groups g ON g.org_key = t.org_key AND g.id = t.ad_group_id"
            }
            _ => "",
        }
    )
}

/// Money columns (micros) of each kind.
fn money_columns(kind: EntityKind) -> &'static [&'static str] {
    match kind {
        EntityKind::Campaign => &["dailyBudget"],
        EntityKind::AdGroup => &["defaultBidAmount", "cpaGoal"],
        EntityKind::Keyword => &["cptBid"],
        _ => &[],
    }
}

fn decode_entity(kind: EntityKind, r: &sqlx::any::AnyRow) -> Result<Entity, sqlx::Error> {
    use sqlx::Column;
    let money = money_columns(kind);
    let mut columns = serde_json::Map::new();
    let mut money_micros = Vec::new();
    for (i, col) in r.columns().iter().enumerate().skip(6) {
        let name = col.name();
        if let Some(m) = money.iter().find(|m| **m == name) {
            money_micros.push((*m, r.try_get::<Option<i64>, _>(i)?));
            continue;
        }
        // Integer or text: try integer first (ids, flags), then text. Ids (`adamId`,
        // `creativeId`, …) are strings on the wire (see `ids::string_id`).
        let value = match r.try_get::<Option<i64>, _>(i) {
            Ok(Some(v)) if name == "automatedKeywordsOptIn" => serde_json::Value::Bool(v != 0),
            Ok(v) if name.ends_with("Id") => string_id::value_opt(v),
            Ok(v) => serde_json::json!(v),
            Err(_) => match r.try_get::<Option<String>, _>(i)? {
                Some(text) if name == "countriesOrRegions" => {
                    serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text))
                }
                other => serde_json::json!(other),
            },
        };
        columns.insert(name.to_string(), value);
    }
    Ok(Entity {
        id: r.try_get("id")?,
        campaign_id: r.try_get("campaign_id")?,
        ad_group_id: r.try_get("ad_group_id")?,
        deleted: r.try_get::<i64, _>("deleted")? != 0,
        name: r.try_get("name")?,
        status: r.try_get::<Option<String>, _>("shown")?.unwrap_or_default(),
        columns,
        money_micros,
    })
}

/// The entities of `kind` in `org_key` and `scope` (all of them when `only` is None, else
/// those ids), ordered by id.
pub async fn entities(
    ex: impl Exec<'_>,
    kind: EntityKind,
    org_key: i64,
    scope: EntityScope,
    only: Option<&[i64]>,
) -> Result<Vec<Entity>, sqlx::Error> {
    let mut sql = format!("{} WHERE t.org_key = $1", entity_select(kind));
    let mut binds = Vec::new();
    where_scope(kind, scope, &mut sql, &mut binds);
    if let Some(ids) = only {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        // Ids are integers: inlined, no bind limit to mind.
        let list = ids
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        sql.push_str(&format!(" AND t.id IN ({list})"));
    }
    sql.push_str(" ORDER BY t.id");
    let mut q = sqlx::query(AssertSqlSafe(sql)).bind(org_key);
    for b in binds {
        q = q.bind(b);
    }
    q.fetch_all(ex)
        .await?
        .iter()
        .map(|r| decode_entity(kind, r))
        .collect()
}

/// A report tag on an entity.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct TagRef {
    pub id: String,
    pub name: String,
    pub color: String,
}

/// The tags of `workspace_id` on the entities of fact level `level` in `org_key`, by entity.
pub async fn tags(
    ex: impl Exec<'_>,
    workspace_id: &str,
    org_key: i64,
    level: i64,
) -> Result<HashMap<i64, Vec<TagRef>>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT l.entity_id, t.id, t.name, t.color FROM tag_links l JOIN tags t ON t.id = l.tag_id \
         WHERE l.org_key = $1 AND l.level = $2 AND t.workspace_id = $3 ORDER BY t.name, t.id",
    )
    .bind(org_key)
    .bind(level)
    .bind(workspace_id)
    .fetch_all(ex)
    .await?;
    let mut out: HashMap<i64, Vec<TagRef>> = HashMap::new();
    for r in rows {
        out.entry(r.try_get(0)?).or_default().push(TagRef {
            id: r.try_get(1)?,
            name: r.try_get(2)?,
            color: r.try_get(3)?,
        });
    }
    Ok(out)
}

/// Campaign id → (countries or regions, app name, developer name).
pub type CampaignFacts = HashMap<i64, (Vec<String>, Option<String>, Option<String>)>;

/// Campaign facts lower levels filter on (docs/product.md#3-filter-and-filter-preset: country,
/// appName, developerName): campaign id → (countries, app name, developer name).
pub async fn campaign_apps(ex: impl Exec<'_>, org_key: i64) -> Result<CampaignFacts, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT c.id, c.countries, a.app_name, a.developer_name FROM asa_campaigns c \
         LEFT JOIN asa_apps a ON a.org_key = c.org_key AND a.adam_id = c.adam_id WHERE c.org_key = $1",
    )
    .bind(org_key)
    .fetch_all(ex)
    .await?;
    let mut out = HashMap::new();
    for r in rows {
        let countries: Option<String> = r.try_get(1)?;
        let countries = countries
            .and_then(|c| serde_json::from_str::<Vec<String>>(&c).ok())
            .unwrap_or_default();
        out.insert(r.try_get(0)?, (countries, r.try_get(2)?, r.try_get(3)?));
    }
    Ok(out)
}
