//! Every row's totals of a report, sorted and kept in the [`ReportCache`] for the next
//! pages (another order of the same rows sorts those kept), with the time buckets in the
//! same pass when the scope is small enough; else the buckets of the page's rows only,
//! from the bidders that feed them. `EMPTY_METRICS` rows add the entities in scope
//! without traffic.

use std::sync::Arc;

use rustc_hash::FxHashSet;

use super::sort::sort;
use crate::api::report_cache::{Computed, ReportCache};
use crate::api::report_request::{Checked, Entity};
use crate::api::report_rows::{self, Pass, RowKey};
use crate::metrics::Totals;
use crate::sim::Simulation;
use crate::world::{Id, World};

/// Bucket entries (rows × buckets) one pass may fill; past it, buckets are computed for
/// the page's rows in a second pass.
const ONE_PASS_BUCKETS: usize = 250_000;

/// Every row's totals, sorted as requested (from the cache when the same report was
/// computed over the same world and hour).
pub(super) fn computed(
    cache: &ReportCache,
    w: &World,
    account: Id,
    c: &Checked,
    entity: Entity,
) -> Arc<Computed> {
    let key = ReportCache::key(w, account, entity, c);
    if let Some(hit) = cache.get(&key) {
        return hit;
    }
    if !c.sorting.is_empty() {
        // Another order of the same rows: sort those of the unsorted report (kept, or
        // computed and kept now), as a stable sort of the same rows gives the same order.
        let unsorted = Checked {
            sorting: Vec::new(),
            ..c.clone()
        };
        let base = computed(cache, w, account, &unsorted, entity);
        let mut rows = base.rows.clone();
        sort(w, &mut rows, c, entity);
        let sorted = Arc::new(Computed {
            rows,
            grand: base.grand,
            granular: base.granular,
            caps: base.caps.clone(),
        });
        cache.put(key, sorted.clone());
        return sorted;
    }
    let campaigns = report_rows::campaigns(w, account, c);
    let today = w.account_now(account).today;
    let days = (c.end.min(today) - c.start).whole_days().max(0) as usize + 1;
    let scope = scope_size(w, &campaigns, entity) * dims_product(c);
    let granular = c.granularity.is_some() && scope.saturating_mul(days) <= ONE_PASS_BUCKETS;
    // Campaigns are independent (rows and budget caps belong to one campaign): spread them
    // over the cores.
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 4)
        .min(campaigns.len().max(1));
    let mut rows: Vec<(RowKey, Totals, report_rows::Buckets)> = Vec::new();
    let mut caps = crate::sim::Caps::default();
    std::thread::scope(|scope| {
        let parts: Vec<_> = (0..threads)
            .map(|i| {
                let mine: Vec<Id> = campaigns.iter().copied().skip(i).step_by(threads).collect();
                scope.spawn(move || {
                    let mut sim = Simulation::new(w);
                    let pass = Pass {
                        entity,
                        checked: c,
                        campaigns: mine,
                        units: None,
                        rows: None,
                        granular,
                    };
                    let rows = report_rows::accumulate(&mut sim, &pass);
                    (rows, sim.into_caps())
                })
            })
            .collect();
        for part in parts {
            let (part_rows, part_caps) = part.join().expect("report thread");
            rows.extend(part_rows.into_iter().map(|(k, (t, b))| (k, t, b)));
            caps.extend(part_caps);
        }
    });
    if c.empty_rows && c.group_by.is_empty() {
        let seen: FxHashSet<Id> = rows.iter().map(|r| r.0.id).collect();
        for id in entities(w, account, c, entity) {
            if !seen.contains(&id) {
                let key = RowKey {
                    id,
                    term: u16::MAX,
                    dims: [0; report_rows::MAX_DIMS],
                };
                rows.push((key, Totals::default(), Vec::new()));
            }
        }
    }
    sort(w, &mut rows, c, entity);
    let mut grand = Totals::default();
    rows.iter().for_each(|r| grand.add(&r.1));
    let computed = Arc::new(Computed {
        rows,
        grand,
        granular,
        caps,
    });
    cache.put(key, computed.clone());
    computed
}

/// How many entities of the report's level the campaigns hold (an upper bound of rows
/// before dimensions).
fn scope_size(w: &World, campaigns: &[Id], entity: Entity) -> usize {
    let kind = match entity {
        Entity::Campaign => return campaigns.len(),
        Entity::AdGroup => "AdGroup",
        Entity::Ad => "Ad",
        Entity::Keyword | Entity::SearchTerm => "Keyword",
    };
    let n: usize = campaigns
        .iter()
        .map(|c| w.index.children(kind, *c).len())
        .sum();
    if entity == Entity::SearchTerm {
        n * 5
    } else {
        n
    }
}

fn dims_product(c: &Checked) -> usize {
    c.group_by.iter().map(|d| d.max_values()).product()
}

/// The time buckets of the page's rows, from the bidders that feed them.
pub(super) fn page_buckets(
    w: &World,
    account: Id,
    c: &Checked,
    entity: Entity,
    page: &[&(RowKey, Totals, report_rows::Buckets)],
    all: &Computed,
) -> rustc_hash::FxHashMap<RowKey, report_rows::Buckets> {
    let mut sim = Simulation::with_caps(w, all.caps.clone());
    let keys: FxHashSet<RowKey> = page.iter().map(|r| r.0).collect();
    let mut units: FxHashSet<Id> = FxHashSet::default();
    let mut campaigns: FxHashSet<Id> = FxHashSet::default();
    for key in &keys {
        match entity {
            Entity::Keyword | Entity::SearchTerm => {
                units.insert(key.id);
            }
            Entity::AdGroup | Entity::Ad => {
                let group = if entity == Entity::Ad {
                    w.ads.get(&key.id).map(|a| a.ad_group_id)
                } else {
                    Some(key.id)
                };
                if let Some(g) = group.and_then(|g| w.ad_groups.get(&g)) {
                    units.extend(sim.group_units(g.campaign_id, g.id));
                }
            }
            Entity::Campaign => {
                campaigns.insert(key.id);
            }
        }
    }
    for id in &units {
        if let Some(u) = report_rows::unit_of(w, *id) {
            campaigns.insert(u.campaign_id());
        }
    }
    let mut ordered: Vec<Id> = campaigns.into_iter().collect();
    ordered.sort_unstable();
    let _ = account;
    let pass = Pass {
        entity,
        checked: c,
        campaigns: ordered,
        units: (entity != Entity::Campaign).then_some(units),
        rows: Some(keys),
        granular: true,
    };
    report_rows::accumulate(&mut sim, &pass)
        .into_iter()
        .map(|(k, (_, b))| (k, b))
        .collect()
}

/// Ids of the entities in scope, for `EMPTY_METRICS`.
fn entities(w: &World, account: Id, c: &Checked, entity: Entity) -> Vec<Id> {
    let campaigns = report_rows::campaigns(w, account, c);
    let under = |kind: &'static str| -> Vec<Id> {
        campaigns
            .iter()
            .flat_map(|cid| w.index.children(kind, *cid).iter().copied())
            .collect()
    };
    let ok = |f: &str, v: Id| report_rows::allowed(c, f, v);
    match entity {
        Entity::Campaign => campaigns.clone(),
        Entity::AdGroup => under("AdGroup")
            .into_iter()
            .filter(|g| ok("adGroupId", *g))
            .collect(),
        Entity::Keyword => under("Keyword")
            .into_iter()
            .filter(|k| ok("keywordId", *k) && ok("adGroupId", w.keywords[k].ad_group_id))
            .collect(),
        Entity::Ad => under("Ad")
            .into_iter()
            .filter(|a| ok("adId", *a) && ok("adGroupId", w.ads[a].ad_group_id))
            .collect(),
        Entity::SearchTerm => vec![],
    }
}
