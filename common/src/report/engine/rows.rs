//! The report engine for callers other than the report route: every row's totals over a
//! range ([`totals`]: the campaign screens' columns, the suggester), and the rows a rule
//! evaluates ([`entity_rows`]: the entities of a level with their metrics and the
//! attributes its conditions and actions read), each over one consistent read of the day
//! blobs.

use crate::report::json::metrics_json;
use crate::store::report_facts::cache::Caches;
use std::collections::HashMap;

use serde::Serialize;
use serde_json::{Map, Value};

use super::consistent::consistent;
use super::conversions::{RuleConversions, RuleRead};
use super::{
    filter_sort::filter_and_sort,
    prepare::{popularity_of, prepare},
    present::mixes_currencies,
    stages::Stages,
};
use crate::{
    Db,
    report::{Cancel, Context, FieldError, Query, ReportError, catalog::Level, filter::Field},
    store::{
        self,
        report_entities::SyncOrg,
        report_facts::{Counters, Snapshot},
    },
};

/// One row's totals over a range, for callers other than the report route (accounts
/// overview, campaign-group totals, rules).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RowTotals {
    /// The row's id: the campaign's, ad group's, …, the org id for ORGS, the account id
    /// (text) for ACCOUNTS.
    pub id: String,
    pub name: Option<String>,
    pub currency: Option<String>,
    pub deleted: bool,
    /// The summed counters (exact).
    pub counters: Counters,
    /// Every metric by its spec name (money floored to the currency).
    pub metrics: Map<String, Value>,
}

/// Every matching row's totals over `q.range` at `q.level` (paging and sort ignored; rows by
/// id), e.g. per campaign of an org (CAMPAIGNS) or per campaign group of an account (ORGS).
pub async fn totals(
    db: &Db,
    caches: &Caches,
    ctx: &Context,
    q: &Query,
    cancel: &Cancel,
) -> Result<Vec<RowTotals>, ReportError> {
    consistent(db, cancel, |facts| async move {
        totals_in(db, caches, &facts, ctx, q, cancel).await
    })
    .await
}

async fn totals_in(
    db: &Db,
    caches: &Caches,
    facts: &Snapshot,
    ctx: &Context,
    q: &Query,
    cancel: &Cancel,
) -> Result<Vec<RowTotals>, ReportError> {
    let mut q = q.clone();
    q.sort = None;
    if let Some(f) = q
        .filters
        .iter()
        .find(|f| matches!(f.field, Field::Metric(_)) && !q.level.has_metrics())
    {
        let _ = f;
        return Err(ReportError::Invalid(vec![FieldError::new(
            "filters",
            "This level has no metrics",
        )]));
    }
    let prepared = prepare(db, caches, facts, ctx, &q, cancel, &mut Stages::default()).await?;
    let mut p = filter_and_sort(prepared, &q, cancel, usize::MAX).await?;
    if let (Some(kind), Some(org)) = (p.level.entity(), ctx.org.as_ref())
        && p.entities.is_empty()
    {
        for e in
            store::report_entities::entities(&db.pool, kind, org.org_key, q.scope, None).await?
        {
            p.entities.insert(e.id, e);
        }
    }
    Ok(p.rows
        .iter()
        .map(|r| {
            let e = p.entities.get(&r.id);
            let mixed = mixes_currencies(p.level, &r.currency);
            let money = p.money_of(r);
            let mut metrics = Map::new();
            metrics_json(&r.counters, (!mixed).then_some(&money), &mut metrics);
            RowTotals {
                id: match p.level {
                    Level::Accounts => e
                        .and_then(|e| e.columns.get("accountId"))
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string(),
                    _ => r.id.to_string(),
                },
                name: e.map(|e| e.name.clone()),
                currency: r.currency.clone().or_else(|| p.currency.clone()),
                deleted: r.deleted,
                counters: r.counters,
                metrics,
            }
        })
        .collect())
}

/// One entity as an automated rule reads it (`docs/api/report-engine.md` "Rules"): its
/// counters over the rule's window and the attributes conditions and actions need. Money in
/// micros of the campaign group's currency.
#[derive(Debug, Clone, PartialEq)]
pub struct EntityRow {
    pub id: i64,
    pub campaign_id: i64,
    /// The ad group (0 for campaigns).
    pub ad_group_id: i64,
    /// The campaign's or ad group's name, the keyword's or search term's text.
    pub name: String,
    /// `ENABLED`/`PAUSED` (campaigns, ad groups), `ACTIVE`/`PAUSED` (keywords); None for
    /// search terms.
    pub status: Option<String>,
    /// The keyword's match type; a search term's keyword's (None for Search Match).
    pub match_type: Option<String>,
    /// Report tag names on the entity (read when asked).
    pub tags: Vec<String>,
    /// The keyword's bid (KEYWORDS).
    pub bid_micros: Option<i64>,
    /// The ad group's default bid and CPA goal (ADGROUPS and below).
    pub default_bid_micros: Option<i64>,
    pub cpa_goal_micros: Option<i64>,
    /// The campaign's daily budget.
    pub daily_budget_micros: Option<i64>,
    /// Apple's search popularity (KEYWORDS, SEARCHTERMS; read when asked).
    pub popularity: Option<i64>,
    pub counters: Counters,
    /// The attributed conversions over the window (read when asked): None when no provider
    /// has delivered any for the entity's campaign in the window, so nothing is known.
    pub conversions: Option<RuleConversions>,
}

/// What a rule reads: every non-deleted row of `level` (CAMPAIGNS, GROUPS, KEYWORDS,
/// SEARCHTERMS) in `campaigns` over `range`.
#[derive(Debug, Clone)]
pub struct EntityRead {
    pub level: Level,
    pub campaigns: Vec<i64>,
    pub range: crate::report::DateRange,
    /// Whether to read each row's report tags (a tag condition).
    pub tags: bool,
    /// Whether to read each row's popularity (a condition on it).
    pub popularity: bool,
    /// The campaign group's today, when the rule reads Conversions or Cohort metrics (the
    /// cohorts are cut from it: `roasD7` reads installs through 8 days before).
    pub conversions: Option<time::Date>,
}

/// Every non-deleted entity of `read.level` in `read.campaigns` of campaign group `org` (of
/// `workspace_id`, for the tags) with its counters over `read.range`, by id: the one read of
/// automated rules, their preview and backtest. Entities without metrics in the range have
/// zero counters. Costs what a report's preparation does (the cached row universe, one
/// consistent read of the day blobs) plus the level's attributes; no
/// filter, sort or page. The attributes of campaigns, ad groups and keywords come from
/// `caches` while the group's entities are unchanged
/// (`store::report_facts::cache::rule_attributes`).
pub async fn entity_rows(
    db: &Db,
    caches: &Caches,
    workspace_id: &str,
    org: &SyncOrg,
    read: &EntityRead,
    cancel: &Cancel,
) -> Result<Vec<EntityRow>, ReportError> {
    let (Some(kind), Some(level)) = (read.level.entity(), read.level.facts()) else {
        return Err(ReportError::field(
            "level",
            "Rules act on campaigns, ad groups, keywords or search terms",
        ));
    };
    let mut campaigns = read.campaigns.clone();
    campaigns.sort_unstable();
    campaigns.dedup();
    // The level's attributes from the cache (campaigns, ad groups, keywords), or read for the
    // rule's campaigns (search terms); either way filtered to those campaigns, by id.
    let cached = store::report_facts::cache::rule_attributes(db, caches, kind, org.org_key).await?;
    let read_now;
    let attrs: &[store::report_entities::RuleEntity] = match &cached {
        Some(all) => all,
        None => {
            read_now =
                store::report_entities::rule_entities(db, kind, org.org_key, Some(&campaigns))
                    .await?;
            &read_now
        }
    };
    let in_scope =
        |e: &&store::report_entities::RuleEntity| campaigns.binary_search(&e.campaign_id).is_ok();
    cancel.check()?;
    let in_campaigns = &campaigns;
    let (universe, sums, mut conversions) = consistent(db, cancel, |facts| async move {
        let universe =
            store::report_facts::cache::universe(db, caches, kind, org.org_key, Default::default())
                .await?;
        let sums = store::report_facts::range_for(
            db,
            caches,
            &facts,
            org.org_key,
            level,
            read.range.from..=read.range.to,
            universe.clone(),
        )
        .await?;
        let conversions = match read.conversions {
            Some(today) => {
                let rows: Vec<(i64, i64, Counters)> = (0..universe.len())
                    .filter(|&i| {
                        in_campaigns
                            .binary_search(&universe.campaign_ids[i])
                            .is_ok()
                    })
                    .map(|i| {
                        let counters = sums.get(i).copied().unwrap_or_default();
                        (universe.ids[i], universe.campaign_ids[i], counters)
                    })
                    .collect();
                let at = RuleRead {
                    db,
                    caches,
                    facts: &facts,
                    workspace_id,
                    org,
                    level,
                    universe: universe.clone(),
                    range: read.range,
                    today,
                };
                super::conversions::for_rule(at, &rows).await?
            }
            None => HashMap::new(),
        };
        Ok((universe, sums, conversions))
    })
    .await?;
    cancel.check()?;
    let groups = if matches!(read.level, Level::Campaigns) {
        HashMap::new()
    } else {
        store::report_entities::ad_group_money(&db.pool, org.org_key).await?
    };
    let budgets = store::report_entities::campaign_budgets(&db.pool, org.org_key).await?;
    let mut tags: HashMap<i64, Vec<String>> = HashMap::new();
    if read.tags
        && let Some(l) = read.level.tag_level()
    {
        for (id, refs) in
            store::report_entities::tags(&db.pool, workspace_id, org.org_key, l).await?
        {
            tags.insert(id, refs.into_iter().map(|t| t.name).collect());
        }
    }
    let popularity = if read.popularity && read.level.has_popularity() {
        let apps = store::report_entities::campaign_apps(&db.pool, org.org_key).await?;
        popularity_of(
            db,
            &apps,
            attrs
                .iter()
                .filter(in_scope)
                .map(|e| (e.id, e.name.as_str(), e.campaign_id)),
        )
        .await?
    } else {
        HashMap::new()
    };
    // Both sides are ordered by id: one merge pass.
    let mut out = Vec::with_capacity(attrs.len());
    let mut at = 0usize;
    for e in attrs.iter().filter(in_scope) {
        while at < universe.ids.len() && universe.ids[at] < e.id {
            at += 1;
        }
        let counters = if universe.ids.get(at) == Some(&e.id) {
            sums.get(at).copied().unwrap_or_default()
        } else {
            Counters::default()
        };
        let (default_bid, cpa_goal) = match read.level {
            Level::Groups => groups.get(&e.id).copied().unwrap_or_default(),
            _ => groups.get(&e.ad_group_id).copied().unwrap_or_default(),
        };
        out.push(EntityRow {
            bid_micros: (read.level == Level::Keywords)
                .then_some(e.money_micros)
                .flatten(),
            default_bid_micros: default_bid,
            cpa_goal_micros: cpa_goal,
            daily_budget_micros: budgets.get(&e.campaign_id).copied().flatten(),
            tags: tags.remove(&e.id).unwrap_or_default(),
            popularity: popularity.get(&e.id).copied(),
            id: e.id,
            campaign_id: e.campaign_id,
            ad_group_id: e.ad_group_id,
            name: e.name.clone(),
            status: e.status.clone(),
            match_type: e.match_type.clone(),
            counters,
            conversions: conversions.remove(&e.id),
        });
    }
    Ok(out)
}
