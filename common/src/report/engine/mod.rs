//! The report pipeline: row universe, range sums, filters, totals, sort, page, graph.

use std::{
    cmp::Ordering,
    collections::{HashMap, HashSet},
    time::{Duration, Instant},
};

use rust_decimal::{Decimal, prelude::ToPrimitive};
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::{
    Cancel, Context, FieldError, Query, ReportError,
    catalog::{GRAPH_METRICS, GROWTH_ONLY, HIDDEN_BY_DEFAULT, Kind, Level, Metric},
    currency::MoneyRule,
    filter::{Field, Filter},
    mixed::{self, Conversion, Converted, OrgSum},
    sync_state,
};
use crate::{
    Db,
    ids::{rfc3339, string_id},
    store::{
        self,
        report_facts::{self, Counters, FactLevel, Scope as FactScope, Snapshot},
        reports::{CampaignFacts, Entity, EntityScope, SyncOrg, TagRef},
    },
};

/// One row of a report before it is shown.
#[derive(Debug, Clone)]
struct Row {
    id: i64,
    /// The row's campaign (0 for ORGS and ACCOUNTS rows).
    campaign_id: i64,
    deleted: bool,
    /// A campaign hidden from the tables, listed because the query includes hidden ones.
    hidden: bool,
    counters: Counters,
    /// The row's own currency (ORGS, ACCOUNTS); None: the report's.
    currency: Option<String>,
}

/// Everything the pipeline gathered for a query.
struct Prepared {
    level: Level,
    rows: Vec<Row>,
    /// Entities by id: all of the scope when a filter or the sort needs them, else filled
    /// for the page later.
    entities: HashMap<i64, Entity>,
    tags: Option<HashMap<i64, Vec<TagRef>>>,
    /// Campaign id → (countries, app name, developer name), when a filter needs them.
    campaigns: Option<CampaignFacts>,
    /// The report's currency (None when ACCOUNTS rows mix currencies).
    currency: Option<String>,
    money: MoneyRule,
    last_synced: Option<i64>,
    /// The orgs the report covers (for the graph).
    orgs: Vec<SyncOrg>,
    /// Whether rows of the scope were left out before the filters (hidden campaigns): the
    /// graph then sums the rows, not the scope's totals.
    left_out: bool,
    /// ACCOUNTS and ORGS: each synced campaign group's counters over the range, by org key.
    org_sums: HashMap<i64, Counters>,
    /// ACCOUNTS and ORGS: the rows whose metrics are not all stored yet.
    syncing_rows: HashSet<i64>,
    /// Whether some of the report's metrics are not stored yet ([`sync_state`]).
    syncing: bool,
}

fn fact_scope(s: EntityScope) -> FactScope {
    FactScope {
        campaign_id: s.campaign_id,
        ad_group_id: s.ad_group_id,
    }
}

fn needs_entities(q: &Query) -> bool {
    let by_filter = q
        .filters
        .iter()
        .any(|f| matches!(f.field, Field::Name | Field::Status));
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

fn needs_campaigns(q: &Query) -> bool {
    q.filters.iter().any(|f| {
        matches!(
            f.field,
            Field::Country | Field::AppName | Field::DeveloperName
        )
    })
}

/// Gathers the rows of the query's level with their counters over the range.
async fn prepare(
    db: &Db,
    facts: &Snapshot,
    ctx: &Context,
    q: &Query,
    cancel: &Cancel,
    stages: &mut Stages,
) -> Result<Prepared, ReportError> {
    match q.level {
        Level::Accounts | Level::Orgs => prepare_orgs(db, facts, ctx, q, cancel).await,
        _ => prepare_entities(db, facts, ctx, q, cancel, stages).await,
    }
}

async fn prepare_entities(
    db: &Db,
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
    let universe = store::reports::universe(db, kind, org.org_key, q.scope).await?;
    stages.mark("universe");
    cancel.check()?;
    // Sums by position in the universe.
    let sums = match q.level.facts() {
        Some(level) => {
            report_facts::range_for(
                db,
                facts,
                org.org_key,
                level,
                q.range.from,
                q.range.to,
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
        out.entities = store::reports::entities(&db.pool, kind, org.org_key, q.scope, None)
            .await?
            .into_iter()
            .map(|e| (e.id, e))
            .collect();
    }
    if needs_tags(q) {
        out.tags = Some(match q.level.tag_level() {
            Some(l) => store::reports::tags(&db.pool, &ctx.workspace_id, org.org_key, l).await?,
            None => HashMap::new(),
        });
    }
    if needs_campaigns(q) {
        out.campaigns = Some(store::reports::campaign_apps(&db.pool, org.org_key).await?);
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
    let synced = store::reports::sync_orgs_of_workspace(&db.pool, &ctx.workspace_id).await?;
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
    fn money_of(&self, row: &Row) -> MoneyRule {
        match &row.currency {
            Some(c) => MoneyRule::of(Some(c)),
            None => self.money,
        }
    }

    fn passes(&self, row: &Row, f: &Filter) -> bool {
        let entity = self.entities.get(&row.id);
        let campaign = || {
            self.campaigns
                .as_ref()
                .and_then(|c| c.get(&row.campaign_id))
        };
        match f.field {
            Field::Name => f.matches_text(entity.map(|e| e.name.as_str())),
            Field::Status => f.matches_list(entity.map(|e| e.status.as_str()).into_iter()),
            Field::Tag => {
                let tags = self.tags.as_ref().and_then(|t| t.get(&row.id));
                let values = tags
                    .into_iter()
                    .flatten()
                    .flat_map(|t| [t.id.as_str(), t.name.as_str()]);
                f.matches_list(values)
            }
            Field::Country => f.matches_list(
                campaign()
                    .into_iter()
                    .flat_map(|c| c.0.iter().map(String::as_str)),
            ),
            Field::AppName => f.matches_text(campaign().and_then(|c| c.1.as_deref())),
            Field::DeveloperName => f.matches_text(campaign().and_then(|c| c.2.as_deref())),
            Field::Metric(m) => f.matches_number(m.value(&row.counters, &self.money_of(row))),
        }
    }
}

/// A row's sort key, by the sort field.
type KeyFn<'a> = Box<dyn Fn(&Row) -> Key + Sync + 'a>;

/// A sort key: numbers and texts, None last in either order.
#[derive(Debug, Clone, PartialEq, PartialOrd)]
enum Key {
    Num(Option<Decimal>),
    Text(Option<String>),
}

fn json_key(v: Option<&Value>) -> Key {
    match v {
        Some(Value::Number(n)) => Key::Num(n.to_string().parse().ok()),
        Some(Value::Bool(b)) => Key::Num(Some(Decimal::from(*b as i64))),
        Some(Value::String(s)) => Key::Text(Some(s.to_lowercase())),
        Some(Value::Array(a)) => Key::Text(Some(
            a.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(","),
        )),
        _ => Key::Num(None),
    }
}

/// The sort key function of `field` for the level, or a 400.
fn sort_key<'a>(p: &'a Prepared, field: &str) -> Result<KeyFn<'a>, ReportError> {
    let (id_field, name_field, status_field) = p.level.id_fields();
    if let Some(m) = Metric::parse(field) {
        if !p.level.has_metrics() {
            return Err(ReportError::field(
                "sort.field",
                "This level has no metrics",
            ));
        }
        return Ok(Box::new(move |r: &Row| {
            Key::Num(m.value(&r.counters, &p.money_of(r)))
        }));
    }
    if field == id_field || field == "id" {
        return Ok(Box::new(|r: &Row| Key::Num(Some(Decimal::from(r.id)))));
    }
    if field == name_field || field == "name" {
        return Ok(Box::new(|r: &Row| {
            Key::Text(p.entities.get(&r.id).map(|e| e.name.to_lowercase()))
        }));
    }
    if field == status_field || field == "status" {
        return Ok(Box::new(|r: &Row| {
            Key::Text(p.entities.get(&r.id).map(|e| e.status.to_lowercase()))
        }));
    }
    if field == "tag" && p.level.tag_level().is_some() {
        return Ok(Box::new(|r: &Row| {
            Key::Text(
                p.tags
                    .as_ref()
                    .and_then(|t| t.get(&r.id))
                    .and_then(|t| t.first())
                    .map(|t| t.name.to_lowercase()),
            )
        }));
    }
    if field == "hidden" && p.level == Level::Campaigns {
        return Ok(Box::new(|r: &Row| {
            Key::Num(Some(Decimal::from(i64::from(r.hidden))))
        }));
    }
    if field == "campaignId" {
        return Ok(Box::new(|r: &Row| {
            Key::Num(Some(Decimal::from(r.campaign_id)).filter(|c| !c.is_zero()))
        }));
    }
    if field == "adGroupId" {
        return Ok(Box::new(|r: &Row| {
            Key::Num(
                p.entities
                    .get(&r.id)
                    .map(|e| Decimal::from(e.ad_group_id))
                    .filter(|g| !g.is_zero()),
            )
        }));
    }
    if p.level.columns().contains(&field) {
        let field = field.to_string();
        return Ok(Box::new(move |r: &Row| {
            let Some(e) = p.entities.get(&r.id) else {
                return Key::Num(None);
            };
            if let Some((_, micros)) = e.money_micros.iter().find(|(k, _)| *k == field) {
                return Key::Num(micros.map(|m| Decimal::new(m, 6)));
            }
            json_key(e.columns.get(&field))
        }));
    }
    Err(ReportError::field(
        "sort.field",
        "Unknown column for this level",
    ))
}

fn compare_keys(a: &Key, b: &Key, desc: bool) -> Ordering {
    let (none_a, none_b) = (
        matches!(a, Key::Num(None) | Key::Text(None)),
        matches!(b, Key::Num(None) | Key::Text(None)),
    );
    match (none_a, none_b) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => {
            let o = a.partial_cmp(b).unwrap_or(Ordering::Equal);
            if desc { o.reverse() } else { o }
        }
    }
}

/// Filters and sorts `p.rows` in place, off the async threads; checks `cancel` as it goes.
/// With a sort, only the first `sorted` rows are put in order (the pages up to the one
/// asked for; the rest only count towards the total, the totals and the graph).
async fn filter_and_sort(
    p: Prepared,
    q: &Query,
    cancel: &Cancel,
    sorted: usize,
) -> Result<Prepared, ReportError> {
    let (filters, sort, cancel) = (q.filters.clone(), q.sort.clone(), cancel.clone());
    tokio::task::spawn_blocking(move || {
        let mut p = p;
        let rows = std::mem::take(&mut p.rows);
        let mut kept = Vec::with_capacity(rows.len());
        for (i, row) in rows.into_iter().enumerate() {
            if i % 4096 == 0 {
                cancel.check()?;
            }
            if filters.iter().all(|f| p.passes(&row, f)) {
                kept.push(row);
            }
        }
        cancel.check()?;
        if let Some((field, desc)) = &sort {
            let key = sort_key(&p, field)?;
            let mut keyed: Vec<(Key, Row)> = kept.into_iter().map(|r| (key(&r), r)).collect();
            cancel.check()?;
            let order = |(ka, a): &(Key, Row), (kb, b): &(Key, Row)| {
                compare_keys(ka, kb, *desc).then(a.id.cmp(&b.id))
            };
            if sorted < keyed.len() {
                keyed.select_nth_unstable_by(sorted, order);
                keyed[..sorted].sort_by(order);
            } else {
                keyed.sort_by(order);
            }
            kept = keyed.into_iter().map(|(_, r)| r).collect();
        } else {
            kept.sort_by_key(|r| r.id);
        }
        p.rows = kept;
        Ok(p)
    })
    .await
    .map_err(|e| ReportError::Db(sqlx::Error::Protocol(format!("report task failed: {e}"))))?
}

/// A decimal as a JSON number.
pub(super) fn number(d: Decimal) -> Value {
    let d = d.normalize();
    if d.scale() == 0
        && let Some(i) = d.to_i64()
    {
        return json!(i);
    }
    d.to_f64()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

/// The metrics of `counters` as JSON: every metric by name (money null when `money` is
/// None, i.e. mixed currencies).
pub(crate) fn metrics_json(
    counters: &Counters,
    money: Option<&MoneyRule>,
    out: &mut Map<String, Value>,
) {
    let fallback = MoneyRule::of(None);
    for m in Metric::ALL {
        let value = match (m.kind(), money) {
            (Kind::Money, None) => None,
            _ => m.value(counters, money.unwrap_or(&fallback)),
        };
        out.insert(m.name().to_string(), value.map_or(Value::Null, number));
    }
}

/// A report row as answered.
fn present(
    p: &Prepared,
    row: &Row,
    locked: bool,
    tags: &HashMap<i64, Vec<TagRef>>,
) -> Map<String, Value> {
    let (id_field, name_field, status_field) = p.level.id_fields();
    let mut m = Map::new();
    let e = p.entities.get(&row.id);
    match p.level {
        Level::Accounts => {
            m.insert(
                id_field.into(),
                e.and_then(|e| e.columns.get("accountId"))
                    .cloned()
                    .unwrap_or(Value::Null),
            );
        }
        _ => {
            m.insert(id_field.into(), string_id::value(row.id));
        }
    }
    m.insert(name_field.into(), json!(e.map(|e| e.name.clone())));
    m.insert(status_field.into(), json!(e.map(|e| e.status.clone())));
    m.insert("deleted".into(), json!(row.deleted));
    if p.level == Level::Campaigns {
        m.insert("hidden".into(), json!(row.hidden));
    }
    let money = p.money_of(row);
    for col in p.level.columns() {
        let value = if locked && GROWTH_ONLY.contains(col) {
            Value::Null
        } else if *col == "tag" {
            json!(tags.get(&row.id).cloned().unwrap_or_default())
        } else if *col == "orgId" {
            string_id::value_opt(p.orgs.first().map(|o| o.org_id))
        } else if *col == "campaignId" {
            // The parents every row carries (quick edits of a keyword need both).
            string_id::value_opt(e.map(|e| e.campaign_id).filter(|&c| c != 0))
        } else if *col == "adGroupId" {
            // 0 is a campaign-level negative keyword: no ad group.
            string_id::value_opt(e.map(|e| e.ad_group_id).filter(|&g| g != 0))
        } else if let Some((_, micros)) =
            e.and_then(|e| e.money_micros.iter().find(|(k, _)| k == col))
        {
            micros.map_or(Value::Null, |v| number(money.micros(v)))
        } else {
            e.and_then(|e| e.columns.get(*col))
                .cloned()
                .unwrap_or(Value::Null)
        };
        m.insert((*col).to_string(), value);
    }
    if matches!(p.level, Level::Accounts | Level::Orgs) {
        m.insert("currency".into(), json!(row.currency));
        m.insert("syncing".into(), json!(p.syncing_rows.contains(&row.id)));
    }
    if p.level.has_metrics() {
        let mixed = mixes_currencies(p.level, &row.currency);
        metrics_json(&row.counters, (!mixed).then_some(&money), &mut m);
    }
    m
}

/// Whether money of a row (or of the totals and graph) with `currency` adds amounts of
/// several currencies: ACCOUNTS and ORGS rows span campaign groups, and without one currency
/// their spend, CPT, CPM and CPA are left out (null) rather than adding dollars to yen.
fn mixes_currencies(level: Level, currency: &Option<String>) -> bool {
    matches!(level, Level::Accounts | Level::Orgs) && currency.is_none()
}

/// One graph point: the day and the graph metrics.
pub(super) fn graph_point(
    day: time::Date,
    c: &Counters,
    money: Option<&MoneyRule>,
) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("date".into(), json!(day.to_string()));
    let fallback = MoneyRule::of(None);
    for metric in GRAPH_METRICS {
        let value = match (metric.kind(), money) {
            (Kind::Money, None) => None,
            _ => metric.value(c, money.unwrap_or(&fallback)),
        };
        m.insert(metric.name().to_string(), value.map_or(Value::Null, number));
    }
    m
}

/// The graph: one point per day of the range. With filters (or hidden campaigns left out) it
/// sums the matching rows at the level's own facts; without, the scope's daily totals (the
/// campaign group, campaign or ad group), read from the coarsest facts that hold them.
async fn graph(
    db: &Db,
    facts: &Snapshot,
    p: &Prepared,
    q: &Query,
    conversion: Option<&Conversion>,
) -> Result<Vec<Map<String, Value>>, ReportError> {
    if !p.level.has_metrics() {
        return Ok(Vec::new());
    }
    let mut per_day: HashMap<time::Date, Counters> = HashMap::new();
    let mut add = |rows: Vec<(time::Date, Counters)>| {
        for (d, c) in rows {
            per_day.entry(d).or_default().add(&c);
        }
    };
    let (from, to) = (q.range.from, q.range.to);
    match p.level {
        Level::Accounts | Level::Orgs => {
            let money = (!mixes_currencies(p.level, &p.currency)).then_some(p.money);
            let orgs = kept_orgs(p);
            let points = mixed::graph(db, facts, &orgs, q.range, money, conversion).await?;
            return Ok(mark_synced(points, &orgs, FactLevel::Campaign));
        }
        level => {
            let org = p
                .orgs
                .first()
                .expect("an entity level with rows has its org");
            let own = level.facts().expect("a metric level");
            if !q.filters.is_empty() || p.left_out {
                let ids: Vec<i64> = p.rows.iter().map(|r| r.id).collect();
                add(report_facts::daily(
                    db,
                    facts,
                    org.org_key,
                    own,
                    from..=to,
                    fact_scope(q.scope),
                    Some(&ids),
                )
                .await?);
            } else if let Some(g) = q.scope.ad_group_id.filter(|_| own > FactLevel::AdGroup) {
                let scope = FactScope {
                    campaign_id: None,
                    ad_group_id: Some(g),
                };
                add(report_facts::daily(
                    db,
                    facts,
                    org.org_key,
                    FactLevel::AdGroup,
                    from..=to,
                    scope,
                    Some(&[g]),
                )
                .await?);
            } else {
                let scope = FactScope {
                    campaign_id: q.scope.campaign_id,
                    ad_group_id: None,
                };
                let ids = q.scope.campaign_id.map(|c| vec![c]);
                add(report_facts::daily(
                    db,
                    facts,
                    org.org_key,
                    FactLevel::Campaign,
                    from..=to,
                    scope,
                    ids.as_deref(),
                )
                .await?);
            }
        }
    }
    let points = q
        .range
        .days()
        .map(|d| {
            graph_point(
                d,
                &per_day.get(&d).copied().unwrap_or_default(),
                Some(&p.money),
            )
        })
        .collect();
    let orgs: Vec<&SyncOrg> = p.orgs.iter().collect();
    let level = p.level.facts().unwrap_or(FactLevel::Campaign);
    Ok(mark_synced(points, &orgs, level))
}

/// The synced campaign groups of the rows the filters kept (ACCOUNTS, ORGS): the chart,
/// subtotals and conversion cover what the table lists.
fn kept_orgs(p: &Prepared) -> Vec<&SyncOrg> {
    let kept: HashSet<&str> = p
        .rows
        .iter()
        .filter_map(|r| p.entities.get(&r.id)?.columns.get("accountId")?.as_str())
        .collect();
    let kept_orgs: HashSet<i64> = p.rows.iter().map(|r| r.id).collect();
    p.orgs
        .iter()
        .filter(|o| match p.level {
            Level::Orgs => kept_orgs.contains(&o.org_id),
            _ => kept.contains(o.account_id.as_str()),
        })
        .collect()
}

/// Marks each graph point `synced`: whether any of `orgs` has the day of `level` stored
/// (a day not synced yet is no zero; the chart leaves it out).
fn mark_synced(
    mut points: Vec<Map<String, Value>>,
    orgs: &[&SyncOrg],
    level: FactLevel,
) -> Vec<Map<String, Value>> {
    for point in &mut points {
        let day = point.get("date").and_then(Value::as_str).and_then(|d| {
            time::Date::parse(d, time::macros::format_description!("[year]-[month]-[day]")).ok()
        });
        let synced = day.is_some_and(|d| orgs.iter().any(|o| sync_state::day_stored(o, level, d)));
        point.insert("synced".into(), json!(synced));
    }
    points
}

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
    pub locked: Vec<String>,
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

/// How long each stage of one report took, in order (a stage named twice adds up).
#[derive(Debug, Clone)]
pub struct Stages {
    last: Instant,
    pub marks: Vec<(&'static str, Duration)>,
}

impl Default for Stages {
    fn default() -> Self {
        Stages {
            last: Instant::now(),
            marks: Vec::new(),
        }
    }
}

impl Stages {
    /// Ends stage `name` now (it began where the previous one ended).
    pub fn mark(&mut self, name: &'static str) {
        let now = Instant::now();
        let took = now - self.last;
        self.last = now;
        match self.marks.iter_mut().find(|(n, _)| *n == name) {
            Some((_, d)) => *d += took,
            None => self.marks.push((name, took)),
        }
    }
}

/// Runs a report.
pub async fn run(
    db: &Db,
    ctx: &Context,
    q: &Query,
    cancel: &Cancel,
) -> Result<Report, ReportError> {
    Ok(run_staged(db, ctx, q, cancel).await?.0)
}

/// Runs a report and times its stages (also logged at debug level, target
/// `searchdeck_common::report::engine`).
pub async fn run_staged(
    db: &Db,
    ctx: &Context,
    q: &Query,
    cancel: &Cancel,
) -> Result<(Report, Stages), ReportError> {
    let (report, stages) = consistent(db, cancel, |facts| async move {
        let mut stages = Stages::default();
        let report = run_in(db, &facts, ctx, q, cancel, &mut stages).await?;
        Ok((report, stages))
    })
    .await?;
    tracing::debug!(level = ?q.level, stages = ?stages.marks, "report stages");
    Ok((report, stages))
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
        tracing::debug!("day blobs swept during a report: reading it again");
    }
    Err(ReportError::Changing)
}

async fn run_in(
    db: &Db,
    facts: &Snapshot,
    ctx: &Context,
    q: &Query,
    cancel: &Cancel,
    stages: &mut Stages,
) -> Result<Report, ReportError> {
    let prepared = prepare(db, facts, ctx, q, cancel, stages).await?;
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
            store::reports::entities(&db.pool, kind, org.org_key, q.scope, Some(&missing)).await?
        {
            p.entities.insert(e.id, e);
        }
        if let Some(l) = p.level.tag_level() {
            tags = match p.tags.take() {
                Some(t) => t,
                None => store::reports::tags(&db.pool, &ctx.workspace_id, org.org_key, l).await?,
            };
        }
    }
    stages.mark("page entities");
    let locked = !ctx.plan.has_growth();
    let items = p.rows[start..end]
        .iter()
        .map(|r| present(&p, r, locked, &tags))
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
        locked: if locked {
            GROWTH_ONLY
                .iter()
                .filter(|c| columns.contains(c))
                .map(|c| c.to_string())
                .collect()
        } else {
            Vec::new()
        },
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
    ctx: &Context,
    q: &Query,
    cancel: &Cancel,
) -> Result<Vec<RowTotals>, ReportError> {
    consistent(db, cancel, |facts| async move {
        totals_in(db, &facts, ctx, q, cancel).await
    })
    .await
}

async fn totals_in(
    db: &Db,
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
    let prepared = prepare(db, facts, ctx, &q, cancel, &mut Stages::default()).await?;
    let mut p = filter_and_sort(prepared, &q, cancel, usize::MAX).await?;
    if let (Some(kind), Some(org)) = (p.level.entity(), ctx.org.as_ref())
        && p.entities.is_empty()
    {
        for e in store::reports::entities(&db.pool, kind, org.org_key, q.scope, None).await? {
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use time::macros::date;

    use super::*;
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
