//! What the automated rules read of entities besides their metrics: each entity's ids,
//! name or text, status, match type and own money (keyword bid, ad group default bid,
//! campaign daily budget), and the money of ad groups and campaigns a change is bounded by.

use super::*;

/// What an automated rule reads of one entity besides its metrics
/// (`report::entity_rows`): ids, name or text, status, match type and the entity's own
/// money (keyword bid, ad group default bid, campaign daily budget) in micros.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleEntity {
    pub id: i64,
    pub campaign_id: i64,
    pub ad_group_id: i64,
    pub name: String,
    /// `ENABLED`/`PAUSED` (campaigns, ad groups), `ACTIVE`/`PAUSED` (keywords); None for
    /// search terms.
    pub status: Option<String>,
    /// Keywords: theirs; search terms: their keyword's (None for Search Match terms).
    pub match_type: Option<String>,
    pub money_micros: Option<i64>,
}

/// The non-deleted entities of `kind` (campaigns, ad groups, keywords or search terms) of
/// `org_key` — in `campaigns` when given, else all of the group's —, ordered by id, with what
/// rules read of them. On the native pool, as [`ids`]: a rule over a large account reads
/// every keyword of its campaigns. Uncached: [`rule_attributes`](super::report_facts::cache::rule_attributes) keeps a level's.
pub async fn rule_entities(
    db: &crate::Db,
    kind: EntityKind,
    org_key: i64,
    campaigns: Option<&[i64]>,
) -> Result<Vec<RuleEntity>, sqlx::Error> {
    use crate::{db::Native, store::on_native};
    if campaigns.is_some_and(<[i64]>::is_empty) {
        return Ok(Vec::new());
    }
    let own = match kind {
        EntityKind::Campaign => {
            "t.name, t.status, CAST(NULL AS TEXT), t.daily_budget_micros FROM asa_campaigns t"
        }
        EntityKind::AdGroup => {
            "t.name, t.status, CAST(NULL AS TEXT), t.default_bid_micros FROM asa_ad_groups t"
        }
        EntityKind::Keyword => "t.text, t.status, t.match_type, t.bid_micros FROM asa_keywords t",
        EntityKind::SearchTerm => {
            "t.text, CAST(NULL AS TEXT), k.match_type, CAST(NULL AS BIGINT) FROM asa_search_terms t \
             LEFT JOIN asa_keywords k ON k.org_key = t.org_key AND k.id = t.keyword_id"
        }
        EntityKind::Negative | EntityKind::Ad => return Ok(Vec::new()),
    };
    // Campaign ids are integers: inlined, no bind limit to mind.
    let only = campaigns.map_or(String::new(), |c| {
        let list = c.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        format!(" AND {} IN ({list})", kind.campaign_col())
    });
    let sql = format!(
        "SELECT t.id, {} AS c, {} AS g, {own} WHERE t.org_key = $1 AND {} = 0{only} ORDER BY t.id",
        kind.campaign_col(),
        kind.ad_group_col(),
        kind.deleted_col(),
    );
    type Tuple = (
        i64,
        i64,
        i64,
        String,
        Option<String>,
        Option<String>,
        Option<i64>,
    );
    on_native!(db, pool => {
        Ok(sqlx::query_as::<_, Tuple>(AssertSqlSafe(sql))
            .bind(org_key)
            .fetch_all(pool)
            .await?
            .into_iter()
            .map(|(id, campaign_id, ad_group_id, name, status, match_type, money_micros)| RuleEntity {
                id,
                campaign_id,
                ad_group_id,
                name,
                status,
                match_type,
                money_micros,
            })
            .collect())
    })
}

/// Ad group id → (default bid, CPA goal) in micros, of `org_key`: what rules
/// compare keywords and ad groups with.
pub async fn ad_group_money(
    ex: impl Exec<'_>,
    org_key: i64,
) -> Result<HashMap<i64, (Option<i64>, Option<i64>)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, default_bid_micros, cpa_goal_micros FROM asa_ad_groups WHERE org_key = $1",
    )
    .bind(org_key)
    .fetch_all(ex)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get(0)?, (r.try_get(1)?, r.try_get(2)?))))
        .collect()
}

/// Campaign id → daily budget in micros, of `org_key`.
pub async fn campaign_budgets(
    ex: impl Exec<'_>,
    org_key: i64,
) -> Result<HashMap<i64, Option<i64>>, sqlx::Error> {
    let rows = sqlx::query("SELECT id, daily_budget_micros FROM asa_campaigns WHERE org_key = $1")
        .bind(org_key)
        .fetch_all(ex)
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect()
}
