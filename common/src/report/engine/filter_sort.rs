//! Step 2 of the report pipeline, filtering and sorting: takes a [`Prepared`] and the
//! query's filters and sort, and gives the same [`Prepared`] with only the matching rows,
//! those up to the asked page in order (nulls last in either direction, ties by id) and the
//! rest after them unordered. Runs off the async threads and stops when the caller's
//! [`Cancel`] is set; an unknown sort column is a 400.

use std::cmp::Ordering;

use rust_decimal::Decimal;
use serde_json::Value;

use super::prepare::{Prepared, Row};
use crate::report::{
    Cancel, Query, ReportError,
    catalog::{Level, Metric},
    filter::{Field, Filter},
};

impl Prepared {
    /// The row's search popularity as a number (None: Apple has none, or not loaded).
    fn popularity_key(&self, row: &Row) -> Option<Decimal> {
        self.popularity
            .as_ref()
            .and_then(|p| p.get(&row.id))
            .map(|v| Decimal::from(*v))
    }

    /// The row's Conversions or Cohort `column` (None: not loaded, or a ratio without its
    /// denominator; a row without events has zeros).
    fn conversion_key(&self, row: &Row, column: &str) -> Option<Decimal> {
        self.conversions
            .as_ref()?
            .value(row.id, &row.counters, &self.money_of(row), column)
    }

    pub(super) fn passes(&self, row: &Row, f: &Filter) -> bool {
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
            Field::Popularity => f.matches_number(self.popularity_key(row)),
            Field::Metric(m) => f.matches_number(m.value(&row.counters, &self.money_of(row))),
            Field::Conversion(c) => f.matches_number(self.conversion_key(row, c)),
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
    if field == "popularity" && p.level.has_popularity() {
        return Ok(Box::new(|r: &Row| Key::Num(p.popularity_key(r))));
    }
    if let Some(column) = crate::report::filter::conversion_column(field)
        && p.level.has_conversions()
    {
        return Ok(Box::new(move |r: &Row| {
            Key::Num(p.conversion_key(r, column))
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
pub(super) async fn filter_and_sort(
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
