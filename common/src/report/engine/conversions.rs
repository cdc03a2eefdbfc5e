//! The report's Conversions and Cohort columns (CAMPAIGNS, GROUPS, KEYWORDS, ADS): the
//! attribution facts of the matching rows over the report's range of install days, summed
//! by [`crate::attribution::conversions`], put on the page's rows and into the totals.
//! Read only when the plan grants the columns (spec §6: pro_limited locks them) and the
//! report has a campaign group (its currency and time zone).

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::prepare::Row;
use crate::{
    Db,
    attribution::conversions::{self, Conversions, Mapping},
    money::currency::MoneyRule,
    report::{Context, Query, ReportError, json::number},
    store::{self, attribution::facts::SUMS_MAX, report_facts::Counters},
};

/// The conversions of the matching rows, by row id, and over all of them.
pub(super) struct Loaded {
    pub(super) by_row: HashMap<i64, Conversions>,
    pub(super) total: Conversions,
}

/// Whether reports of `q`'s level carry the Conversions and Cohort columns (the levels the
/// providers attribute to: search terms are not in Apple's attribution payload).
pub(super) fn applies(q: &Query) -> bool {
    q.level
        .facts()
        .is_some_and(|l| l != store::report_facts::FactLevel::SearchTerm)
}

/// Loads the conversions of `rows` (every matching row) for `q` in `ctx`'s campaign group;
/// None when the level has none, the plan locks them or there is no campaign group.
pub(super) async fn load(
    db: &Db,
    ctx: &Context,
    q: &Query,
    rows: &[Row],
) -> Result<Option<Loaded>, ReportError> {
    let (Some(org), Some(level)) = (ctx.org.as_ref(), q.level.facts()) else {
        return Ok(None);
    };
    if !applies(q) || !ctx.columns.conversions {
        return Ok(None);
    }
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let today = crate::zones::today(crate::ids::now_ms() / 1000, org.time_zone.as_deref());
    let sums = store::attribution::facts::sums(
        &db.pool,
        &ctx.workspace_id,
        level.code(),
        (ids.len() <= SUMS_MAX).then_some(ids.as_slice()),
        (&q.range.from.to_string(), &q.range.to.to_string()),
        &conversions::cohorts(today),
    )
    .await?;
    if sums.is_empty() {
        return Ok(Some(Loaded {
            by_row: HashMap::new(),
            total: Conversions::default(),
        }));
    }
    let mapping = Mapping::new(store::attribution::names::all(&db.pool, &ctx.workspace_id).await?);
    let rates = store::fx_rates::rate_set(&db.pool, q.range.to).await?;
    let mut by_row = conversions::by_entity(&sums, &mapping, org.currency.as_deref(), &rates);
    let matching: HashSet<i64> = ids.into_iter().collect();
    by_row.retain(|id, _| matching.contains(id));
    let total = conversions::total(by_row.values());
    Ok(Some(Loaded { by_row, total }))
}

/// Puts the columns of `c` (zeros when None) on a row or the totals, over its `counters`.
pub(super) fn insert(
    c: Option<&Conversions>,
    counters: &Counters,
    money: Option<&MoneyRule>,
    m: &mut Map<String, Value>,
) {
    let zero = Conversions::default();
    let installs = counters.tap_installs() + counters.view_installs();
    for (name, value) in
        conversions::values(c.unwrap_or(&zero), counters.spend_micros(), installs, money)
    {
        m.insert(name.into(), value.map_or(Value::Null, number));
    }
}
