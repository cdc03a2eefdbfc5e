//! A report's rows in the requested order: by metric values, metadata fields or `groupBy`
//! values, each ascending or descending; ties keep the row-key order.

use serde_json::json;

use super::dim_value;
use crate::api::query::SortOrder;
use crate::api::report_meta::{metadata, metric_value};
use crate::api::report_request::{Checked, Entity};
use crate::api::report_rows::{self, RowKey};
use crate::metrics::Totals;
use crate::sim::Simulation;
use crate::world::World;

/// Orders rows by the requested metric or metadata fields; ties keep the row-key order.
pub(super) fn sort(
    w: &World,
    rows: &mut Vec<(RowKey, Totals, report_rows::Buckets)>,
    c: &Checked,
    entity: Entity,
) {
    rows.sort_by_key(|r| r.0);
    if c.sorting.is_empty() {
        return;
    }
    let mut sim = Simulation::new(w);
    let keys: Vec<Vec<SortKey>> = rows
        .iter()
        .map(|(key, t, _)| {
            c.sorting
                .iter()
                .map(|(field, _)| match metric_value(t, field) {
                    Some(v) => SortKey::Number(v),
                    None => {
                        let meta =
                            if let Some(i) = c.group_by.iter().position(|d| d.name() == field) {
                                json!(dim_value(key, i, &c.group_by[i]))
                            } else {
                                metadata(&mut sim, key, entity)[field.as_str()].clone()
                            };
                        match meta.as_f64() {
                            Some(v) => SortKey::Number(v),
                            None => SortKey::Text(meta.as_str().unwrap_or_default().to_string()),
                        }
                    }
                })
                .collect()
        })
        .collect();
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|x, y| {
        for (i, (_, dir)) in c.sorting.iter().enumerate() {
            let o = keys[*x][i].cmp(&keys[*y][i]);
            let o = if *dir == SortOrder::Desc {
                o.reverse()
            } else {
                o
            };
            if o.is_ne() {
                return o;
            }
        }
        x.cmp(y)
    });
    let mut old: Vec<Option<(RowKey, Totals, report_rows::Buckets)>> =
        rows.drain(..).map(Some).collect();
    *rows = order
        .iter()
        .map(|i| old[*i].take().expect("each row once"))
        .collect();
}

#[derive(Debug, Clone, PartialEq, PartialOrd)]
enum SortKey {
    Number(f64),
    Text(String),
}

impl SortKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        match (self, other) {
            (SortKey::Number(a), SortKey::Number(b)) => a.total_cmp(b),
            (SortKey::Text(a), SortKey::Text(b)) => a.cmp(b),
            (SortKey::Number(_), SortKey::Text(_)) => std::cmp::Ordering::Less,
            (SortKey::Text(_), SortKey::Number(_)) => std::cmp::Ordering::Greater,
        }
    }
}
