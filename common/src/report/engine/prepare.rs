//! Step 1 of the report pipeline, preparation: takes the caller's [`Context`] and the
//! [`Query`] and gives a [`Prepared`] — the level's row universe (entities in scope, not
//! deleted, plus deleted ones with metrics in the range; hidden campaigns left out unless
//! asked for) with each row's counters summed over the range from the day blobs, and the
//! names, tags and campaign facts a filter or the sort will need for every row. ACCOUNTS and
//! ORGS rows are the workspace's connections or the connection's campaign groups, each
//! summing its synced groups' campaign-level facts.

use crate::money::currency::MoneyRule;
use crate::store::report_facts::cache::Caches;
use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use super::stages::Stages;
use crate::{
    Db,
    report::{
        Cancel, Context, Query, ReportError,
        catalog::{Level, Metric},
        filter::Field,
        sync_state,
    },
    store::{
        self,
        report_entities::{CampaignFacts, Entity, EntityScope, SyncOrg, TagRef},
        report_facts::{self, Counters, FactLevel, Scope as FactScope, Snapshot},
    },
};

/// One row of a report before it is shown.
#[derive(Debug, Clone)]
pub(super) struct Row {
    pub(super) id: i64,
    /// The row's campaign (0 for ORGS and ACCOUNTS rows).
    pub(super) campaign_id: i64,
    pub(super) deleted: bool,
    /// A campaign hidden from the tables, listed because the query includes hidden ones.
    pub(super) hidden: bool,
    pub(super) counters: Counters,
    /// The row's own currency (ORGS, ACCOUNTS); None: the report's.
    pub(super) currency: Option<String>,
}

/// Everything the pipeline gathered for a query.
pub(super) struct Prepared {
    pub(super) level: Level,
    pub(super) rows: Vec<Row>,
    /// Entities by id: all of the scope when a filter or the sort needs them, else filled
    /// for the page later.
    pub(super) entities: HashMap<i64, Entity>,
    pub(super) tags: Option<HashMap<i64, Vec<TagRef>>>,
    /// Campaign id → (countries, app name, developer name), when a filter needs them.
    pub(super) campaigns: Option<CampaignFacts>,
    /// KEYWORDS and SEARCHTERMS: Apple's search popularity by row id (rows without one are
    /// absent), for every row when a filter or the sort needs it, else filled for the page.
    pub(super) popularity: Option<HashMap<i64, i64>>,
    /// CAMPAIGNS, GROUPS, KEYWORDS, ADS: the rows' attributed conversions by row id (rows
    /// without any are absent), for every row when a filter or the sort needs them, else
    /// for the matching rows after the filters ([`super::conversions`]).
    pub(super) conversions: Option<super::conversions::Loaded>,
    /// The report's currency (None when ACCOUNTS rows mix currencies).
    pub(super) currency: Option<String>,
    pub(super) money: MoneyRule,
    pub(super) last_synced: Option<i64>,
    /// The orgs the report covers (for the graph).
    pub(super) orgs: Vec<SyncOrg>,
    /// Whether rows of the scope were left out before the filters (hidden campaigns): the
    /// graph then sums the rows, not the scope's totals.
    pub(super) left_out: bool,
    /// ACCOUNTS and ORGS: each synced campaign group's counters over the range, by org key.
    pub(super) org_sums: HashMap<i64, Counters>,
    /// ACCOUNTS and ORGS: the rows whose metrics are not all stored yet.
    pub(super) syncing_rows: HashSet<i64>,
    /// Whether some of the report's metrics are not stored yet ([`sync_state`]).
    pub(super) syncing: bool,
}

pub(super) fn fact_scope(s: EntityScope) -> FactScope {
    FactScope {
        campaign_id: s.campaign_id,
        ad_group_id: s.ad_group_id,
    }
}

fn needs_entities(q: &Query) -> bool {
    let by_filter = q
        .filters
        .iter()
        .any(|f| matches!(f.field, Field::Name | Field::Status | Field::Popularity));
    let by_sort = q
        .sort
        .as_ref()
        .is_some_and(|(field, _)| Metric::parse(field).is_none() && field != q.level.id_fields().0);
    by_filter || by_sort
}

fn needs_tags(q: &Query) -> bool {
    q.filters.iter().any(|f| f.field == Field::Tag)
        || q.sort.as_ref().is_some_and(|(f, _)| f == "tag")
}

/// Whether a filter or the sort reads the popularity of every row.
pub(super) fn needs_popularity(q: &Query) -> bool {
    q.level.has_popularity()
        && (q.filters.iter().any(|f| f.field == Field::Popularity)
            || q.sort.as_ref().is_some_and(|(f, _)| f == "popularity"))
}

/// Apple's search popularity of keyword or search-term `rows` (key, text, campaign id) by
/// key: the stored popularity of the [normalised](store::popularity::normalise) text in the
/// storefronts of the row's campaign, the highest when it serves several (the storefront
/// the text is most searched in). Rows whose text has none are absent. It reads no day
/// blobs, so the page's is read after the report's consistent read (`run`).
pub(super) async fn popularity_of<'a>(
    db: &Db,
    campaigns: &CampaignFacts,
    rows: impl Iterator<Item = (i64, &'a str, i64)>,
) -> Result<HashMap<i64, i64>, ReportError> {
    use store::popularity::{GET_MAX, get_many, normalise};
    let rows: Vec<(i64, String, &[String])> = rows
        .filter_map(|(key, text, campaign_id)| {
            let countries = campaigns.get(&campaign_id)?.0.as_slice();
            (!countries.is_empty()).then(|| (key, normalise(text), countries))
        })
        .collect();
    let mut texts: Vec<String> = rows.iter().map(|(_, t, _)| t.clone()).collect();
    texts.sort_unstable();
    texts.dedup();
    let mut countries: Vec<String> = rows
        .iter()
        .flat_map(|(_, _, c)| c.iter().map(|c| c.to_uppercase()))
        .collect();
    countries.sort_unstable();
    countries.dedup();
    let mut known: HashMap<(String, String), i64> = HashMap::new();
    for chunk in texts.chunks(GET_MAX) {
        for p in get_many(&db.pool, chunk, &countries).await? {
            if let Some(v) = p.popularity {
                known.insert((p.text, p.country), v);
            }
        }
    }
    let mut out = HashMap::new();
    if known.is_empty() {
        return Ok(out);
    }
    for (key, text, cs) in rows {
        let best = cs
            .iter()
            .filter_map(|c| known.get(&(text.clone(), c.to_uppercase())))
            .max();
        if let Some(v) = best {
            out.insert(key, *v);
        }
    }
    Ok(out)
}

fn needs_campaigns(q: &Query) -> bool {
    q.filters.iter().any(|f| {
        matches!(
            f.field,
            Field::Country | Field::AppName | Field::DeveloperName
        )
    })
}

/// Gathers the rows of the query's level with their counters over the range.
pub(super) async fn prepare(
    db: &Db,
    caches: &Caches,
    facts: &Snapshot,
    ctx: &Context,
    q: &Query,
    cancel: &Cancel,
    stages: &mut Stages,
) -> Result<Prepared, ReportError> {
    match q.level {
        Level::Accounts | Level::Orgs => prepare_orgs(db, facts, ctx, q, cancel).await,
        _ => prepare_entities(db, caches, facts, ctx, q, cancel, stages).await,
    }
}

async fn prepare_entities(
    db: &Db,
    caches: &Caches,
    facts: &Snapshot,
    ctx: &Context,
    q: &Query,
    cancel: &Cancel,
    stages: &mut Stages,
) -> Result<Prepared, ReportError> {
    let kind = q.level.entity().expect("an entity level");
    let mut out = Prepared {
        level: q.level,
        rows: Vec::new(),
        entities: HashMap::new(),
        tags: None,
        campaigns: None,
        popularity: None,
        conversions: None,
        currency: ctx.org.as_ref().and_then(|o| o.currency.clone()),
        money: MoneyRule::of(ctx.org.as_ref().and_then(|o| o.currency.as_deref())),
        last_synced: ctx.org.as_ref().and_then(|o| o.metrics_synced_at),
        orgs: ctx.org.iter().cloned().collect(),
        left_out: false,
        org_sums: HashMap::new(),
        syncing_rows: HashSet::new(),
        syncing: true,
    };
    let Some(org) = &ctx.org else {
        return Ok(out);
    };
    out.syncing = q
        .level
        .facts()
        .is_some_and(|l| !sync_state::level_stored(org, l));
    let universe =
        store::report_facts::cache::universe(db, caches, kind, org.org_key, q.scope).await?;
    stages.mark("universe");
    cancel.check()?;
    // Sums by position in the universe.
    let sums = match q.level.facts() {
        Some(level) => {
            report_facts::range_for(
                db,
                caches,
                facts,
                org.org_key,
                level,
                q.range.from..=q.range.to,
                universe.clone(),
            )
            .await?
        }
        None => Vec::new(),
    };
    stages.mark("sums");
    cancel.check()?;
    let hide = q.level == Level::Campaigns && !q.include_hidden;
    out.left_out = hide && universe.hidden.iter().any(|&h| h);
    out.rows = (0..universe.len())
        .filter_map(|i| {
            let hidden = universe.hidden.get(i).copied().unwrap_or(false);
            if hide && hidden {
                return None;
            }
            let counters = sums.get(i).copied().unwrap_or_default();
            let deleted = universe.deleted[i];
            (!deleted || !counters.is_zero()).then(|| Row {
                id: universe.ids[i],
                campaign_id: universe.campaign_ids[i],
                deleted,
                hidden,
                counters,
                currency: None,
            })
        })
        .collect();
    stages.mark("rows");
    if needs_entities(q) {
        stages.mark("rows");
        out.entities = store::report_entities::entities(&db.pool, kind, org.org_key, q.scope, None)
            .await?
            .into_iter()
            .map(|e| (e.id, e))
            .collect();
    }
    if needs_tags(q) {
        out.tags = Some(match q.level.tag_level() {
            Some(l) => {
                store::report_entities::tags(&db.pool, &ctx.workspace_id, org.org_key, l).await?
            }
            None => HashMap::new(),
        });
    }
    if needs_campaigns(q) || needs_popularity(q) {
        out.campaigns = Some(store::report_entities::campaign_apps(&db.pool, org.org_key).await?);
    }
    if needs_popularity(q) {
        let campaigns = out.campaigns.as_ref().expect("loaded above");
        let rows = out
            .entities
            .values()
            .map(|e| (e.id, e.name.as_str(), e.campaign_id));
        out.popularity = Some(popularity_of(db, campaigns, rows).await?);
    }
    stages.mark("filter inputs");
    Ok(out)
}

/// ORGS: the connection's campaign groups; ACCOUNTS: the workspace's connections. Both sum
/// the campaign-level facts of their synced groups.
async fn prepare_orgs(
    db: &Db,
    facts: &Snapshot,
    ctx: &Context,
    q: &Query,
    cancel: &Cancel,
) -> Result<Prepared, ReportError> {
    let synced =
        store::report_entities::sync_orgs_of_workspace(&db.pool, &ctx.workspace_id).await?;
    let mut org_sums: HashMap<i64, Counters> = HashMap::new();
    for org in &synced {
        if q.level == Level::Orgs && org.account_id != ctx.account_id {
            continue;
        }
        let mut c = Counters::default();
        for e in report_facts::range(
            db,
            facts,
            org.org_key,
            FactLevel::Campaign,
            q.range.from,
            q.range.to,
            FactScope::default(),
        )
        .await?
        {
            c.add(&e.counters);
        }
        org_sums.insert(org.org_key, c);
        cancel.check()?;
    }
    let mut rows = Vec::new();
    let mut entities = HashMap::new();
    let mut orgs = Vec::new();
    let mut currencies = HashSet::new();
    let mut syncing_rows = HashSet::new();
    let entity = |id: i64, name: String, status: &str, columns: Map<String, Value>| Entity {
        id,
        campaign_id: 0,
        ad_group_id: 0,
        name,
        status: status.to_string(),
        deleted: false,
        columns,
        money_micros: Vec::new(),
    };
    if q.level == Level::Orgs {
        for o in store::accounts::orgs(&db.pool, &ctx.account_id).await? {
            let sync = synced
                .iter()
                .find(|s| s.account_id == ctx.account_id && s.org_id == o.org_id);
            let currency = o
                .currency
                .clone()
                .or_else(|| sync.and_then(|s| s.currency.clone()));
            currencies.insert(currency.clone());
            if o.selected && sync.is_none_or(|s| !sync_state::level_stored(s, FactLevel::Campaign))
            {
                syncing_rows.insert(o.org_id);
            }
            rows.push(Row {
                id: o.org_id,
                campaign_id: 0,
                deleted: false,
                hidden: false,
                counters: sync
                    .and_then(|s| org_sums.get(&s.org_key))
                    .copied()
                    .unwrap_or_default(),
                currency: currency.clone(),
            });
            let mut columns = Map::new();
            columns.insert("currency".into(), json!(currency));
            columns.insert("timeZone".into(), json!(o.time_zone));
            columns.insert("permission".into(), json!(o.permission));
            let status = if o.selected {
                "SELECTED"
            } else {
                "NOT_SELECTED"
            };
            entities.insert(o.org_id, entity(o.org_id, o.display_name, status, columns));
            orgs.extend(sync.cloned());
        }
    } else {
        for (i, a) in store::accounts::all(&db.pool, &ctx.workspace_id)
            .await?
            .into_iter()
            .enumerate()
        {
            let id = i as i64 + 1;
            let mine: Vec<&SyncOrg> = synced.iter().filter(|s| s.account_id == a.id).collect();
            let cur: HashSet<Option<String>> = mine.iter().map(|s| s.currency.clone()).collect();
            let currency = if cur.len() == 1 {
                cur.into_iter().next().flatten()
            } else {
                None
            };
            currencies.insert(currency.clone());
            if a.last_synced_at.is_none()
                || mine
                    .iter()
                    .any(|s| !sync_state::level_stored(s, FactLevel::Campaign))
            {
                syncing_rows.insert(id);
            }
            let mut counters = Counters::default();
            for s in &mine {
                counters.add(&org_sums.get(&s.org_key).copied().unwrap_or_default());
            }
            rows.push(Row {
                id,
                campaign_id: 0,
                deleted: false,
                hidden: false,
                counters,
                currency: currency.clone(),
            });
            let mut columns = Map::new();
            columns.insert("accountId".into(), json!(a.id));
            columns.insert("currency".into(), json!(currency));
            entities.insert(id, entity(id, a.name, "ACTIVE", columns));
            orgs.extend(mine.into_iter().cloned());
        }
    }
    let currency = if currencies.len() == 1 {
        currencies.into_iter().next().flatten()
    } else {
        None
    };
    let last_synced = orgs.iter().filter_map(|o| o.metrics_synced_at).max();
    Ok(Prepared {
        level: q.level,
        rows,
        entities,
        tags: None,
        campaigns: None,
        popularity: None,
        conversions: None,
        money: MoneyRule::of(currency.as_deref()),
        currency,
        last_synced,
        orgs,
        left_out: false,
        org_sums,
        syncing: !syncing_rows.is_empty(),
        syncing_rows,
    })
}

impl Prepared {
    pub(super) fn money_of(&self, row: &Row) -> MoneyRule {
        match &row.currency {
            Some(c) => MoneyRule::of(Some(c)),
            None => self.money,
        }
    }
}
