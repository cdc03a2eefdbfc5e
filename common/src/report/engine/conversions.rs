//! The Conversions and Cohort columns (CAMPAIGNS, GROUPS, KEYWORDS, ADS): the attribution
//! facts of the rows over a range of install days, summed by
//! [`crate::attribution::conversions`], with the spend each cohort's ROAS is over. The
//! report puts them on the page's rows and into the totals ([`load`]); an automated rule
//! reads them per entity ([`for_rule`]). Read only when the plan grants the columns
//! (docs/product.md#6-conversions-lock: pro_limited locks them) and there is a campaign
//! group (its currency and time zone).
//!
//! Cohort spend: `roasD7` is `revenueD7` over the spend of the install days at least 7 full
//! days old, so each cohort whose cut falls inside the range reads Apple's facts once more,
//! from the range's first day to the cut, over the same consistent snapshot and cached day
//! blobs as the row's own sums. A cut after the range needs no read (every day is old
//! enough); one before it has no day old enough (the ROAS is null).

use std::{
    collections::{HashMap, HashSet},
    sync::Arc,
};

use rust_decimal::Decimal;
use serde_json::{Map, Value};
use time::{Date, Duration};

use crate::{
    Db,
    attribution::conversions::{self, Apple, COHORT_DAYS, Conversions, Mapping},
    money::currency::MoneyRule,
    report::{Context, DateRange, Query, ReportError, json::number},
    store::{
        self,
        attribution::facts::SUMS_MAX,
        report_entities::SyncOrg,
        report_facts::{Counters, FactLevel, Snapshot, cache::Universe},
    },
};

/// Whether a filter or the sort of `q` reads every row's conversions (they are then loaded
/// before the filters, else only for the rows that match).
pub(super) fn needed(q: &Query) -> bool {
    q.filters
        .iter()
        .any(|f| matches!(f.field, crate::report::filter::Field::Conversion(_)))
        || q.sort
            .as_ref()
            .is_some_and(|(f, _)| crate::report::filter::conversion_column(f).is_some())
}

/// One cohort's spend: every day of the range old enough, none, or some (spend by position
/// in the universe).
#[derive(Debug, Clone)]
enum Cut {
    All,
    Nothing,
    Part(Vec<i64>),
}

/// Per [`COHORT_DAYS`], the spend of each entity's install days old enough for the cohort.
#[derive(Debug, Clone)]
pub struct CohortSpend {
    cuts: Vec<Cut>,
    universe: Arc<Universe>,
}

impl CohortSpend {
    /// Nothing read: every cohort ROAS is null.
    fn unread(universe: Arc<Universe>) -> CohortSpend {
        CohortSpend {
            cuts: Vec::new(),
            universe,
        }
    }

    /// The cohort spend of entity `id` whose spend over the whole range is `spend`; empty
    /// when not read.
    pub fn of(&self, id: i64, spend: i64) -> Vec<i64> {
        let at = self.universe.ids.binary_search(&id).ok();
        self.cuts
            .iter()
            .map(|cut| match cut {
                Cut::All => spend,
                Cut::Nothing => 0,
                Cut::Part(by_position) => at.and_then(|i| by_position.get(i)).copied().unwrap_or(0),
            })
            .collect()
    }
}

/// Where the cohort spend is read: Apple's facts of `level` of campaign group `org_key` in
/// one consistent snapshot, over `range` as of `today` (the group's date).
struct SpendRead<'a> {
    db: &'a Db,
    caches: &'a crate::report::Caches,
    facts: &'a Snapshot,
    org_key: i64,
    level: FactLevel,
    range: DateRange,
    today: Date,
}

/// Reads the cohort spend of every entity of `universe`.
async fn cohort_spend(
    at: SpendRead<'_>,
    universe: Arc<Universe>,
) -> Result<CohortSpend, ReportError> {
    let mut cuts = Vec::with_capacity(COHORT_DAYS.len());
    for n in COHORT_DAYS {
        let through = at.today - Duration::days(n + 1);
        cuts.push(if through >= at.range.to {
            Cut::All
        } else if through < at.range.from {
            Cut::Nothing
        } else {
            Cut::Part(
                store::report_facts::spend_for(
                    at.db,
                    at.caches,
                    at.facts,
                    at.org_key,
                    at.level,
                    at.range.from..=through,
                    universe.clone(),
                )
                .await?,
            )
        });
    }
    Ok(CohortSpend { cuts, universe })
}

/// The attribution events of `ids` (None: every entity of the level) of `workspace_id`
/// summed per entity over `range`, revenue in `currency`; empty when there are none.
async fn events(
    db: &Db,
    workspace_id: &str,
    level: FactLevel,
    ids: Option<&[i64]>,
    range: DateRange,
    today: Date,
    currency: Option<&str>,
) -> Result<HashMap<i64, Conversions>, ReportError> {
    let sums = store::attribution::facts::sums(
        &db.pool,
        workspace_id,
        level.code(),
        ids.filter(|ids| ids.len() <= SUMS_MAX),
        (&range.from.to_string(), &range.to.to_string()),
        &conversions::cohorts(today),
    )
    .await?;
    if sums.is_empty() {
        return Ok(HashMap::new());
    }
    let mapping = Mapping::new(store::attribution::names::all(&db.pool, workspace_id).await?);
    let rates = store::fx_rates::rate_set(&db.pool, range.to).await?;
    Ok(conversions::by_entity(&sums, &mapping, currency, &rates))
}

/// A report's conversions: each row's events (rows without any are absent) and the spend
/// each cohort ROAS is over.
#[derive(Debug, Clone)]
pub(super) struct Loaded {
    by_row: HashMap<i64, Conversions>,
    /// The totals, when read apart from the rows (a page's rows of a large level).
    totals: Option<Conversions>,
    spend: CohortSpend,
}

/// The conversions of the rows `ids` for `q` in `ctx`'s campaign group, read from `facts`; None when
/// the level has none, the plan locks them or there is no campaign group.
pub(super) async fn load(
    db: &Db,
    caches: &crate::report::Caches,
    facts: &Snapshot,
    ctx: &Context,
    q: &Query,
    ids: Vec<i64>,
) -> Result<Option<Loaded>, ReportError> {
    let (Some(org), Some(level), Some(kind)) =
        (ctx.org.as_ref(), q.level.facts(), q.level.entity())
    else {
        return Ok(None);
    };
    if !q.level.has_conversions() || !ctx.columns.conversions {
        return Ok(None);
    }
    let today = crate::zones::today(crate::ids::now_ms() / 1000, org.time_zone.as_deref());
    let universe =
        store::report_facts::cache::universe(db, caches, kind, org.org_key, q.scope).await?;
    let mut by_row = events(
        db,
        &ctx.workspace_id,
        level,
        Some(&ids),
        q.range,
        today,
        org.currency.as_deref(),
    )
    .await?;
    if by_row.is_empty() {
        // No attribution data in the range: the cohorts are unknown, not unprofitable.
        return Ok(Some(Loaded {
            by_row,
            totals: None,
            spend: CohortSpend::unread(universe),
        }));
    }
    let matching: HashSet<i64> = ids.into_iter().collect();
    by_row.retain(|id, _| matching.contains(id));
    let at = SpendRead {
        db,
        caches,
        facts,
        org_key: org.org_key,
        level,
        range: q.range,
        today,
    };
    let spend = cohort_spend(at, universe).await?;
    Ok(Some(Loaded {
        by_row,
        totals: None,
        spend,
    }))
}

/// Above this many matching rows, an unfiltered report reads the conversions of its page's
/// rows alone and its totals summed in the database (`bench attribution`: summing 85,000
/// entities' facts one by one took 1.2 s on SQLite, 100,000 keywords × 30 days).
const PAGE_ONLY_OVER: usize = 2_000;

/// A report's rows after its filters and sort: the ids of every matching row and of the
/// page's, and whether they are all the level's rows in the scope (no filter, no hidden
/// campaign left out).
pub(super) struct Page<'a> {
    pub rows: &'a [i64],
    pub page: &'a [i64],
    pub whole: bool,
}

/// The conversions of a report after its filters and sort: of every matching row (`rows`)
/// when there are at most [`PAGE_ONLY_OVER`] of them; of a large level's unfiltered rows, the
/// page's (`page`) alone with the totals summed per key in the database over the campaign
/// group's entities in the report's scope (a few rows back however many entities; an
/// install attributed to a deleted entity without Apple metrics in the range, which has no
/// row, still counts there); otherwise (a large level, filtered) every matching row's.
pub(super) async fn load_page(
    db: &Db,
    caches: &crate::report::Caches,
    facts: &Snapshot,
    ctx: &Context,
    q: &Query,
    Page { rows, page, whole }: Page<'_>,
) -> Result<Option<Loaded>, ReportError> {
    let (Some(org), Some(level), Some(kind)) =
        (ctx.org.as_ref(), q.level.facts(), q.level.entity())
    else {
        return Ok(None);
    };
    if rows.len() <= PAGE_ONLY_OVER || !whole {
        return load(db, caches, facts, ctx, q, rows.to_vec()).await;
    }
    let Some(mut loaded) = load(db, caches, facts, ctx, q, page.to_vec()).await? else {
        return Ok(None);
    };
    let today = crate::zones::today(crate::ids::now_ms() / 1000, org.time_zone.as_deref());
    let group = store::attribution::facts::InGroup {
        kind,
        org_key: org.org_key,
        scope: q.scope,
    };
    let sums = store::attribution::facts::group_sums(
        &db.pool,
        &ctx.workspace_id,
        level.code(),
        group,
        (&q.range.from.to_string(), &q.range.to.to_string()),
        &conversions::cohorts(today),
    )
    .await?;
    let mapping = Mapping::new(store::attribution::names::all(&db.pool, &ctx.workspace_id).await?);
    let rates = store::fx_rates::rate_set(&db.pool, q.range.to).await?;
    loaded.totals = Some(
        conversions::by_entity(&sums, &mapping, org.currency.as_deref(), &rates)
            .remove(&0)
            .unwrap_or_default(),
    );
    if loaded.spend.cuts.is_empty()
        && loaded
            .totals
            .as_ref()
            .is_some_and(|t| *t != Conversions::default())
    {
        // The page had no events, but the level has: its cohorts are known.
        let at = SpendRead {
            db,
            caches,
            facts,
            org_key: org.org_key,
            level,
            range: q.range,
            today,
        };
        loaded.spend = cohort_spend(at, loaded.spend.universe.clone()).await?;
    }
    Ok(Some(loaded))
}

impl Loaded {
    fn apple<'a>(counters: &Counters, cohort_spend: &'a [i64]) -> Apple<'a> {
        Apple {
            spend_micros: counters.spend_micros(),
            installs: counters.tap_installs() + counters.view_installs(),
            cohort_spend_micros: cohort_spend,
        }
    }

    /// The value of one Conversions or Cohort `column` of row `id` over its `counters`
    /// (zeros without events).
    pub(super) fn value(
        &self,
        id: i64,
        counters: &Counters,
        money: &MoneyRule,
        column: &str,
    ) -> Option<Decimal> {
        let zero = Conversions::default();
        let spend = self.spend.of(id, counters.spend_micros());
        conversions::value(
            self.by_row.get(&id).unwrap_or(&zero),
            Self::apple(counters, &spend),
            Some(money),
            column,
        )
    }

    /// Puts the columns of row `id` over its `counters` on its JSON.
    pub(super) fn insert_row(
        &self,
        id: i64,
        counters: &Counters,
        money: Option<&MoneyRule>,
        m: &mut Map<String, Value>,
    ) {
        let spend = self.spend.of(id, counters.spend_micros());
        insert(
            self.by_row.get(&id),
            Self::apple(counters, &spend),
            money,
            m,
        );
    }

    /// Puts the columns of `rows` (id, counters) summed, their counters summed being `sum`,
    /// on the totals.
    pub(super) fn insert_total<'a>(
        &self,
        rows: impl Iterator<Item = (i64, &'a Counters)> + Clone,
        sum: &Counters,
        money: Option<&MoneyRule>,
        m: &mut Map<String, Value>,
    ) {
        let total = match &self.totals {
            Some(t) => t.clone(),
            None => conversions::total(rows.clone().filter_map(|(id, _)| self.by_row.get(&id))),
        };
        let mut spend = vec![0i64; self.spend.cuts.len()];
        for (id, counters) in rows {
            for (slot, s) in spend
                .iter_mut()
                .zip(self.spend.of(id, counters.spend_micros()))
            {
                *slot += s;
            }
        }
        insert(Some(&total), Self::apple(sum, &spend), money, m);
    }
}

/// Puts the columns of `c` (zeros when None) on a row or the totals.
fn insert(
    c: Option<&Conversions>,
    apple: Apple<'_>,
    money: Option<&MoneyRule>,
    m: &mut Map<String, Value>,
) {
    let zero = Conversions::default();
    for (name, value) in conversions::values(c.unwrap_or(&zero), apple, money) {
        m.insert(name.into(), value.map_or(Value::Null, number));
    }
}

/// What an automated rule reads of an entity's conversions ([`for_rule`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleConversions {
    pub events: Conversions,
    /// Per [`COHORT_DAYS`], the spend of the entity's install days old enough.
    pub cohort_spend_micros: Vec<i64>,
}

/// What an automated rule's conversions are read from: its campaign group `org` of
/// `workspace_id`, the level's facts in one consistent snapshot and the level's universe,
/// over `range` as of `today` (the group's date).
pub(super) struct RuleRead<'a> {
    pub db: &'a Db,
    pub caches: &'a crate::report::Caches,
    pub facts: &'a Snapshot,
    pub workspace_id: &'a str,
    pub org: &'a SyncOrg,
    pub level: FactLevel,
    pub universe: Arc<Universe>,
    pub range: DateRange,
    pub today: Date,
}

/// The conversions of `rows` (entity id, campaign id, counters over the range) for an
/// automated rule: by entity, every entity of a campaign that has attribution data in the
/// range (zeros where the entity itself has none), and no entry for an entity of a campaign
/// without any — data no provider has delivered is unknown, and a rule must not read it as
/// zero revenue.
pub(super) async fn for_rule(
    at: RuleRead<'_>,
    rows: &[(i64, i64, Counters)],
) -> Result<HashMap<i64, RuleConversions>, ReportError> {
    let mut campaigns: Vec<i64> = rows.iter().map(|(_, c, _)| *c).collect();
    campaigns.sort_unstable();
    campaigns.dedup();
    let delivered: HashSet<i64> = store::attribution::facts::sums(
        &at.db.pool,
        at.workspace_id,
        FactLevel::Campaign.code(),
        (campaigns.len() <= SUMS_MAX).then_some(campaigns.as_slice()),
        (&at.range.from.to_string(), &at.range.to.to_string()),
        &[],
    )
    .await?
    .into_iter()
    .map(|s| s.entity_id)
    .filter(|c| campaigns.binary_search(c).is_ok())
    .collect();
    if delivered.is_empty() {
        return Ok(HashMap::new());
    }
    let ids: Vec<i64> = rows
        .iter()
        .filter(|(_, c, _)| delivered.contains(c))
        .map(|(id, _, _)| *id)
        .collect();
    let mut by_row = events(
        at.db,
        at.workspace_id,
        at.level,
        Some(&ids),
        at.range,
        at.today,
        at.org.currency.as_deref(),
    )
    .await?;
    let read = SpendRead {
        db: at.db,
        caches: at.caches,
        facts: at.facts,
        org_key: at.org.org_key,
        level: at.level,
        range: at.range,
        today: at.today,
    };
    let spend = cohort_spend(read, at.universe).await?;
    Ok(rows
        .iter()
        .filter(|(_, c, _)| delivered.contains(c))
        .map(|(id, _, counters)| {
            (
                *id,
                RuleConversions {
                    events: by_row.remove(id).unwrap_or_default(),
                    cohort_spend_micros: spend.of(*id, counters.spend_micros()),
                },
            )
        })
        .collect())
}

impl RuleConversions {
    /// The value of Conversions or Cohort `column` over the entity's `counters`.
    pub fn value(&self, counters: &Counters, money: &MoneyRule, column: &str) -> Option<Decimal> {
        conversions::value(
            &self.events,
            Loaded::apple(counters, &self.cohort_spend_micros),
            Some(money),
            column,
        )
    }
}
