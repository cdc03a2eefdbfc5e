//! Step 3 of the report pipeline, presentation and graph: takes the filtered, sorted
//! [`Prepared`] and gives the JSON the route answers — each page row with its level's
//! columns (Growth-only ones null when locked), money floored to the currency's digits and
//! left null where it would add up several currencies, and the graph, one point per day of
//! the range flagged `synced` (the matching rows' daily facts with filters, else the
//! scope's own; ACCOUNTS and ORGS per currency through [`crate::report::mixed`]).

use crate::report::json::{graph_point, metrics_json, number};
use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use super::prepare::{Prepared, Row, fact_scope};
use crate::{
    Db,
    ids::string_id,
    report::{
        Query, ReportError,
        catalog::{self, Level},
        mixed::{self, Conversion},
        sync_state,
    },
    store::{
        report_entities::{SyncOrg, TagRef},
        report_facts::{self, Counters, FactLevel, Scope as FactScope, Snapshot},
    },
};

/// A report row as answered.
pub(super) fn present(
    p: &Prepared,
    row: &Row,
    access: catalog::ColumnAccess,
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
        let value = if catalog::locks(access, col) {
            Value::Null
        } else if *col == "tag" {
            json!(tags.get(&row.id).cloned().unwrap_or_default())
        } else if *col == "popularity" {
            json!(p.popularity.as_ref().and_then(|m| m.get(&row.id)))
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
pub(super) fn mixes_currencies(level: Level, currency: &Option<String>) -> bool {
    matches!(level, Level::Accounts | Level::Orgs) && currency.is_none()
}

/// The graph: one point per day of the range. With filters (or hidden campaigns left out) it
/// sums the matching rows at the level's own facts; without, the scope's daily totals (the
/// campaign group, campaign or ad group), read from the coarsest facts that hold them.
pub(super) async fn graph(
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
pub(super) fn kept_orgs(p: &Prepared) -> Vec<&SyncOrg> {
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
