//! The report's Conversions and Cohort columns (CAMPAIGNS, GROUPS, KEYWORDS, ADS): the
//! attribution facts of the matching rows over the report's range of install days, summed
//! by [`crate::attribution::conversions`], put on the page's rows and into the totals.
//! Read only when the plan grants the columns (docs/product.md#6-conversions-lock: pro_limited locks them) and the
//! report has a campaign group (its currency and time zone).

use std::collections::{HashMap, HashSet};

use rust_decimal::Decimal;
use serde_json::{Map, Value};

use super::prepare::Row;
use crate::{
    Db,
    attribution::conversions::{self, Conversions, Mapping},
    money::currency::MoneyRule,
    report::{Context, Query, ReportError, json::number},
    store::{self, attribution::facts::SUMS_MAX, report_facts::Counters},
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

/// The conversions of `rows` for `q` in `ctx`'s campaign group, by row id (rows without
/// any are absent); None when the level has none, the plan locks them or there is no
/// campaign group.
pub(super) async fn load(
    db: &Db,
    ctx: &Context,
    q: &Query,
    rows: &[Row],
) -> Result<Option<HashMap<i64, Conversions>>, ReportError> {
    let (Some(org), Some(level)) = (ctx.org.as_ref(), q.level.facts()) else {
        return Ok(None);
    };
    if !q.level.has_conversions() || !ctx.columns.conversions {
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
        return Ok(Some(HashMap::new()));
    }
    let mapping = Mapping::new(store::attribution::names::all(&db.pool, &ctx.workspace_id).await?);
    let rates = store::fx_rates::rate_set(&db.pool, q.range.to).await?;
    let mut by_row = conversions::by_entity(&sums, &mapping, org.currency.as_deref(), &rates);
    let matching: HashSet<i64> = ids.into_iter().collect();
    by_row.retain(|id, _| matching.contains(id));
    Ok(Some(by_row))
}

/// The conversions of `rows` summed (the report's totals).
pub(super) fn total(by_row: &HashMap<i64, Conversions>, rows: &[Row]) -> Conversions {
    conversions::total(rows.iter().filter_map(|r| by_row.get(&r.id)))
}

/// The value of one Conversions or Cohort `column` of a row with conversions `c` (zeros
/// when None) over its `counters`.
pub(super) fn value(
    c: Option<&Conversions>,
    counters: &Counters,
    money: &MoneyRule,
    column: &str,
) -> Option<Decimal> {
    let zero = Conversions::default();
    let installs = counters.tap_installs() + counters.view_installs();
    conversions::values(
        c.unwrap_or(&zero),
        counters.spend_micros(),
        installs,
        Some(money),
    )
    .into_iter()
    .find(|(name, _)| *name == column)
    .and_then(|(_, v)| v)
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
