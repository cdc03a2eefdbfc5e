//! Step 4 of the report pipeline, the run and its consistency: takes a [`Db`], the caller's
//! [`Context`], a [`Query`] and a [`Cancel`], and gives a [`Report`] (or, for callers other
//! than the report route, every row's [`RowTotals`]). It runs preparation, filtering and
//! sorting, the totals and per-currency subtotals, the page's entities, presentation and
//! the graph in order, timing each stage ([`Stages`]), all over one [`Snapshot`] of the day
//! blobs, and reads again when a refresh swept blobs it read (at most [`READ_ATTEMPTS`]
//! times, then 503 `Changing`).

use crate::report::json::metrics_json;
use crate::store::report_facts::cache::Caches;
use std::collections::HashMap;

use serde::Serialize;
use serde_json::{Map, Value};

use super::{
    filter_sort::filter_and_sort,
    prepare::{needs_popularity, popularity_of, prepare},
    present::{graph, kept_orgs, mixes_currencies, present},
    stages::Stages,
};
use crate::{
    Db,
    ids::rfc3339,
    report::{
        Cancel, Context, FieldError, Query, ReportError,
        catalog::{self, HIDDEN_BY_DEFAULT, Level},
        filter::Field,
        mixed::{self, Conversion, Converted, OrgSum},
    },
    store::{
        self,
        report_entities::SyncOrg,
        report_facts::{Counters, Snapshot},
    },
};

/// A report as answered by `POST /api/asa/reports`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub items: Vec<Map<String, Value>>,
    pub total: u64,
    pub totals: Option<Map<String, Value>>,
    pub graph: Option<Vec<Map<String, Value>>>,
    pub currency: Option<String>,
    pub last_synced_at: Option<String>,
    /// Columns of the level the plan locks (spec §6; `catalog::locks`), answered null.
    pub locked: Vec<String>,
    /// Column groups the plan locks, with the upsell message (pro_limited: Conversions and
    /// Cohort, spec §6).
    pub locked_groups: Vec<LockedGroup>,
    pub hidden: Vec<String>,
    pub page: u32,
    pub page_size: u32,
    /// Whether some of the report's metrics are not stored yet (a first sync running).
    pub syncing: bool,
    /// ACCOUNTS and ORGS over several currencies: the totals per currency.
    pub subtotals: Option<Vec<Map<String, Value>>>,
    /// ACCOUNTS and ORGS with a reporting currency: the totals converted to it.
    pub converted: Option<Converted>,
}

/// A column group the plan locks (spec §6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct LockedGroup {
    /// `Conversions` or `Cohort`.
    #[schema(pattern = "^(Conversions|Cohort)$")]
    pub name: String,
    /// 'Upgrade to Pro to track events from your MMP.'
    pub message: String,
}

/// Runs a report.
pub async fn run(
    db: &Db,
    caches: &Caches,
    ctx: &Context,
    q: &Query,
    cancel: &Cancel,
) -> Result<Report, ReportError> {
    Ok(run_staged(db, caches, ctx, q, cancel).await?.0)
}

/// Runs a report and times its stages (also logged at debug level, target
/// `searchdeck_common::report::engine`).
pub async fn run_staged(
    db: &Db,
    caches: &Caches,
    ctx: &Context,
    q: &Query,
    cancel: &Cancel,
) -> Result<(Report, Stages), ReportError> {
    let (mut report, mut stages) = consistent(db, cancel, |facts| async move {
        let mut stages = Stages::default();
        let report = run_in(db, caches, &facts, ctx, q, cancel, &mut stages).await?;
        Ok((report, stages))
    })
    .await?;
    // The page's search popularity (KEYWORDS, SEARCHTERMS), unless a filter or the sort
    // read every row's: outside the consistent read, since it reads no day blobs.
    if q.level.has_popularity() && !needs_popularity(q) {
        page_popularity(db, ctx, q.level, &mut report.items).await?;
        stages.mark("popularity");
    }
    // The page's automated rules and goal optimisation (CAMPAIGNS): our settings, not
    // metrics, so outside the consistent read too.
    if q.level == Level::Campaigns {
        page_rules(db, ctx, &mut report.items).await?;
        stages.mark("rules");
    }
    tracing::debug!(target: "searchdeck_common::report::engine", level = ?q.level, stages = ?stages.marks, "report stages");
    Ok((report, stages))
}

/// The CAMPAIGNS columns `rules` (the workspace's rules of the campaign group attached to the
/// row's campaign, `[{id, name, enabled}]`, null when none; `enabled` is whether the rule
/// acts on the campaign) and `optimizationTypes` (the campaign's goal optimisation,
/// `{type, target, currency}`, null when off; left null when the plan locks it, spec §6) of
/// the page's rows.
async fn page_rules(
    db: &Db,
    ctx: &Context,
    items: &mut [Map<String, Value>],
) -> Result<(), ReportError> {
    let Some(org) = ctx.org.as_ref() else {
        return Ok(());
    };
    let ids: Vec<i64> = items
        .iter()
        .filter_map(|item| item.get("campaignId")?.as_str()?.parse().ok())
        .collect();
    if ids.is_empty() {
        return Ok(());
    }
    let mut rules: HashMap<i64, Vec<store::rules::RuleRef>> = HashMap::new();
    for (campaign, rule) in store::rules::rules_of_campaigns(
        &db.pool,
        &ctx.workspace_id,
        &ctx.account_id,
        org.org_id,
        &ids,
    )
    .await?
    {
        rules.entry(campaign).or_default().push(rule);
    }
    let locked = !ctx.columns.growth;
    let goals: HashMap<i64, store::optimizations::Optimization> = if locked {
        HashMap::new()
    } else {
        store::optimizations::of_campaigns(
            &db.pool,
            &ctx.workspace_id,
            &ctx.account_id,
            org.org_id,
            &ids,
        )
        .await?
        .into_iter()
        .map(|o| (o.campaign_id, o))
        .collect()
    };
    let money = crate::money::currency::MoneyRule::of(org.currency.as_deref());
    for item in items.iter_mut() {
        let Some(id) = item
            .get("campaignId")
            .and_then(Value::as_str)
            .and_then(|s| s.parse::<i64>().ok())
        else {
            continue;
        };
        item.insert(
            "rules".into(),
            rules.get(&id).map_or(Value::Null, |r| serde_json::json!(r)),
        );
        if !locked {
            item.insert(
                "optimizationTypes".into(),
                goals.get(&id).map_or(Value::Null, |o| {
                    serde_json::json!({
                        "type": o.kind,
                        "target": o.target_micros.map(|m| money.micros(m).to_string()),
                        "currency": org.currency,
                        "maxStepPercent": o.max_step_percent,
                    })
                }),
            );
        }
    }
    Ok(())
}

/// Sets the `popularity` of each of the page's `items` (keywords or search terms: their
/// text is the name field, their campaign `campaignId`).
async fn page_popularity(
    db: &Db,
    ctx: &Context,
    level: Level,
    items: &mut [Map<String, Value>],
) -> Result<(), ReportError> {
    let Some(org) = ctx.org.as_ref() else {
        return Ok(());
    };
    if items.is_empty() {
        return Ok(());
    }
    let (_, name_field, _) = level.id_fields();
    let campaigns = store::report_entities::campaign_apps(&db.pool, org.org_key).await?;
    let rows = items.iter().enumerate().filter_map(|(i, item)| {
        let text = item.get(name_field)?.as_str()?;
        let campaign = item.get("campaignId")?.as_str()?.parse().ok()?;
        Some((i as i64, text, campaign))
    });
    let found = popularity_of(db, &campaigns, rows).await?;
    for (i, item) in items.iter_mut().enumerate() {
        item.insert(
            "popularity".into(),
            found
                .get(&(i as i64))
                .map_or(Value::Null, |v| Value::from(*v)),
        );
    }
    Ok(())
}

/// How many times a report is read when refreshes keep sweeping the day blobs it reads.
const READ_ATTEMPTS: usize = 4;

/// Runs `read` with a new [`Snapshot`] of the day blobs until everything it read held
/// (store::report_facts, "Generations"): in practice once, twice when a report ran across
/// a whole refresh of the blobs it read.
async fn consistent<T, F, Fut>(db: &Db, cancel: &Cancel, mut read: F) -> Result<T, ReportError>
where
    F: FnMut(std::sync::Arc<Snapshot>) -> Fut,
    Fut: std::future::Future<Output = Result<T, ReportError>>,
{
    for _ in 0..READ_ATTEMPTS {
        let facts = std::sync::Arc::new(Snapshot::new());
        let out = read(facts.clone()).await?;
        if facts.holds(db).await? {
            return Ok(out);
        }
        cancel.check()?;
        tracing::debug!(target: "searchdeck_common::report::engine", "day blobs swept during a report: reading it again");
    }
    Err(ReportError::Changing)
}

async fn run_in(
    db: &Db,
    caches: &Caches,
    facts: &Snapshot,
    ctx: &Context,
    q: &Query,
    cancel: &Cancel,
    stages: &mut Stages,
) -> Result<Report, ReportError> {
    let prepared = prepare(db, caches, facts, ctx, q, cancel, stages).await?;
    stages.mark("prepare");
    cancel.check()?;
    let page_end = q.page as usize * q.page_size as usize;
    let mut p = filter_and_sort(prepared, q, cancel, page_end).await?;
    stages.mark("filter and sort");
    cancel.check()?;
    let total = p.rows.len() as u64;
    // Totals over every matching row.
    let totals = p.level.has_metrics().then(|| {
        let mut sum = Counters::default();
        for r in &p.rows {
            sum.add(&r.counters);
        }
        let mut m = Map::new();
        let mixed = mixes_currencies(p.level, &p.currency);
        metrics_json(&sum, (!mixed).then_some(&p.money), &mut m);
        m
    });
    // Several currencies (ACCOUNTS, ORGS): the totals per currency, and converted to the
    // reporting currency when asked.
    let mut subtotals = None;
    let mut conversion = None;
    let mut converted = None;
    if matches!(p.level, Level::Accounts | Level::Orgs) {
        let kept: Vec<OrgSum<'_>> = kept_orgs(&p)
            .into_iter()
            .map(|org| OrgSum {
                org,
                counters: p.org_sums.get(&org.org_key).copied().unwrap_or_default(),
            })
            .collect();
        if mixes_currencies(p.level, &p.currency) {
            subtotals = Some(mixed::subtotals(&kept));
        }
        if let Some(code) = &q.reporting_currency {
            let conv = Conversion::load(db, code, q.range.to).await?;
            converted = Some(conv.totals(&kept, q.range.to));
            conversion = Some(conv);
        }
    }
    stages.mark("totals");
    let start = ((q.page - 1) as usize * q.page_size as usize).min(p.rows.len());
    let end = (start + q.page_size as usize).min(p.rows.len());
    let page_ids: Vec<i64> = p.rows[start..end].iter().map(|r| r.id).collect();
    // Names, statuses and columns of the page's rows, if not loaded for a filter or sort.
    let mut tags = HashMap::new();
    if let (Some(kind), Some(org)) = (p.level.entity(), ctx.org.as_ref()) {
        let missing: Vec<i64> = page_ids
            .iter()
            .copied()
            .filter(|id| !p.entities.contains_key(id))
            .collect();
        for e in
            store::report_entities::entities(&db.pool, kind, org.org_key, q.scope, Some(&missing))
                .await?
        {
            p.entities.insert(e.id, e);
        }
        if let Some(l) = p.level.tag_level() {
            tags = match p.tags.take() {
                Some(t) => t,
                None => {
                    store::report_entities::tags(&db.pool, &ctx.workspace_id, org.org_key, l)
                        .await?
                }
            };
        }
    }
    stages.mark("page entities");
    let items = p.rows[start..end]
        .iter()
        .map(|r| present(&p, r, ctx.columns, &tags))
        .collect();
    stages.mark("present");
    let graph = if q.graph {
        Some(graph(db, facts, &p, q, conversion.as_ref()).await?)
    } else {
        None
    };
    stages.mark("graph");
    let columns: Vec<&str> = p.level.columns().to_vec();
    Ok(Report {
        items,
        total,
        totals,
        graph,
        currency: p.currency.clone(),
        last_synced_at: p.last_synced.map(|s| rfc3339(s * 1000)),
        locked: columns
            .iter()
            .filter(|c| catalog::locks(ctx.columns, c))
            .map(|c| c.to_string())
            .collect(),
        locked_groups: catalog::locked_groups(ctx.columns)
            .iter()
            .map(|g| LockedGroup {
                name: g.to_string(),
                message: catalog::PRO_LOCK_MESSAGE.to_string(),
            })
            .collect(),
        hidden: HIDDEN_BY_DEFAULT
            .iter()
            .filter(|c| columns.contains(c))
            .map(|c| c.to_string())
            .collect(),
        page: q.page,
        page_size: q.page_size,
        syncing: p.syncing,
        subtotals,
        converted,
    })
}

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
    let sums = consistent(db, cancel, |facts| async move {
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
        Ok((universe, sums))
    })
    .await?;
    let (universe, sums) = sums;
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
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use time::macros::date;

    use super::*;
    use crate::store::report_facts::{self, FactLevel};
    use crate::test_support::{MigratedDb, connected_org};

    /// A read of the keyword blobs during which `refreshes` refreshes of them run.
    async fn read_across(
        db: &Db,
        org_key: i64,
        facts: Arc<Snapshot>,
        refreshes: usize,
    ) -> Result<(), ReportError> {
        facts.generation(db, org_key, FactLevel::Keyword).await?;
        for _ in 0..refreshes {
            report_facts::refresh(db, org_key, FactLevel::Keyword, date!(2026 - 01 - 01)).await?;
        }
        Ok(())
    }

    /// Runs [`consistent`] over reads the n-th of which (from 1) spans `refreshes(n)`
    /// refreshes of the keyword blobs; its answer and how many reads it made.
    async fn reads_across(
        db: &Db,
        org_key: i64,
        cancel: &Cancel,
        refreshes: impl Fn(usize) -> usize,
    ) -> (Result<(), ReportError>, usize) {
        let mut reads = 0;
        let out = consistent(db, cancel, |facts| {
            reads += 1;
            read_across(db, org_key, facts, refreshes(reads))
        })
        .await;
        (out, reads)
    }

    /// A read that one refresh overlaps still holds (the refresh deleted only blobs older
    /// than the read's generation); one across two refreshes (the second deletes what the
    /// first replaced) is read again; when every read spans two, the report gives up with
    /// `Changing` (503) after [`READ_ATTEMPTS`] reads.
    #[tokio::test]
    async fn reads_spanning_a_sweep_are_repeated_then_answer_changing() {
        let m = MigratedDb::sqlite().await;
        let db = &m.db;
        let (_, _, org_key) = connected_org(db, "ann@example.com").await;
        let cancel = Cancel::new();

        let (out, reads) = reads_across(db, org_key, &cancel, |_| 1).await;
        out.unwrap();
        assert_eq!(
            reads, 1,
            "one refresh during a read sweeps nothing it reads"
        );

        let (out, reads) = reads_across(db, org_key, &cancel, |n| if n == 1 { 2 } else { 0 }).await;
        out.unwrap();
        assert_eq!(reads, 2, "a read across a sweep is read again, once");

        let (out, reads) = reads_across(db, org_key, &cancel, |_| 2).await;
        assert!(matches!(out, Err(ReportError::Changing)), "{out:?}");
        assert_eq!(reads, READ_ATTEMPTS);

        // A report asked to stop between reads stops rather than read again.
        cancel.cancel();
        let (out, reads) = reads_across(db, org_key, &cancel, |_| 2).await;
        assert!(matches!(out, Err(ReportError::Cancelled)), "{out:?}");
        assert_eq!(reads, 1);
    }
}
