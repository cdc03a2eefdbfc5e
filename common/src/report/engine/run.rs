//! Step 4 of the report pipeline, the run of the report route: takes a [`Db`], the caller's
//! [`Context`], a [`Query`] and a [`Cancel`], and gives a [`Report`]. It runs preparation,
//! filtering and sorting, the totals and per-currency subtotals, the page's entities,
//! presentation and the graph in order, timing each stage ([`Stages`]), all over one
//! [`Snapshot`] of the day blobs, read again when a refresh swept blobs it read
//! ([`consistent`](super::consistent)). Other callers' totals and rule rows are
//! [`rows`](super::rows).

use crate::report::json::metrics_json;
use crate::store::report_facts::cache::Caches;
use std::collections::HashMap;

use serde::Serialize;
use serde_json::{Map, Value};

use super::consistent::consistent;
use super::{
    conversions,
    filter_sort::filter_and_sort,
    prepare::{needs_popularity, popularity_of, prepare},
    present::{graph, kept_orgs, mixes_currencies, present},
    stages::Stages,
};
use crate::{
    Db,
    ids::rfc3339,
    report::{
        Cancel, Context, Query, ReportError,
        catalog::{self, HIDDEN_BY_DEFAULT, Level},
        mixed::{self, Conversion, Converted, OrgSum},
    },
    store::{
        self,
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
    /// Columns of the level the plan locks (docs/product.md#6-growth-only-metrics;
    /// `catalog::locks`), answered null.
    pub locked: Vec<String>,
    /// Column groups the plan locks, with the upsell message (pro_limited: Conversions and
    /// Cohort, docs/product.md#6-roles-and-permissions).
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
/// `{type, target, currency}`, null when off; left null when the plan locks it,
/// docs/product.md#6-growth-only-metrics) of the page's rows.
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
                        "target": o.target_micros
                            .map(|m| store::optimizations::target_text(&o.kind, m, &money)),
                        "currency": org.currency,
                        "cohortDay": o.cohort_days,
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

fn ids_of(rows: &[super::prepare::Row]) -> Vec<i64> {
    rows.iter().map(|r| r.id).collect()
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
    let mut prepared = prepare(db, caches, facts, ctx, q, cancel, stages).await?;
    if conversions::needed(q) {
        prepared.conversions =
            conversions::load(db, caches, facts, ctx, q, ids_of(&prepared.rows)).await?;
    }
    stages.mark("prepare");
    cancel.check()?;
    let page_end = q.page as usize * q.page_size as usize;
    let mut p = filter_and_sort(prepared, q, cancel, page_end).await?;
    stages.mark("filter and sort");
    cancel.check()?;
    let total = p.rows.len() as u64;
    // Totals over every matching row, with their conversions where the level has them.
    let mut sum = Counters::default();
    for r in &p.rows {
        sum.add(&r.counters);
    }
    let start = ((q.page - 1) as usize * q.page_size as usize).min(p.rows.len());
    let end = (start + q.page_size as usize).min(p.rows.len());
    if p.conversions.is_none() {
        let (rows, page) = (ids_of(&p.rows), ids_of(&p.rows[start..end]));
        let page = conversions::Page {
            rows: &rows,
            page: &page,
            whole: q.filters.is_empty() && !p.left_out,
        };
        p.conversions = conversions::load_page(db, caches, facts, ctx, q, page).await?;
    }
    stages.mark("conversions");
    let totals = p.level.has_metrics().then(|| {
        let mut m = Map::new();
        let mixed = mixes_currencies(p.level, &p.currency);
        metrics_json(&sum, (!mixed).then_some(&p.money), &mut m);
        if let Some(loaded) = &p.conversions {
            let rows = p.rows.iter().map(|r| (r.id, &r.counters));
            loaded.insert_total(rows, &sum, (!mixed).then_some(&p.money), &mut m);
        }
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
        .map(|r| {
            let mut m = present(&p, r, ctx.columns, &tags);
            if let Some(loaded) = &p.conversions {
                loaded.insert_row(r.id, &r.counters, Some(&p.money_of(r)), &mut m);
            }
            m
        })
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
