//! Report rows as numbers: the served bidder-days of the request's scope (its ad account
//! and id filters) summed into rows keyed by entity, search term and `groupBy` values, and,
//! for the rows of the page only, into time buckets. Nothing is rendered here.

use std::collections::HashMap;

use rustc_hash::{FxHashMap, FxHashSet};
use time::{Date, Duration};

use super::report_request::{Checked, Entity, Granularity};
use crate::metrics::Totals;
use crate::sim::days::{self, WeekKind, WeekRow};
use crate::sim::late::hour_weights_on;
use crate::sim::split::split;
use crate::sim::{Simulation, TermPlan, Unit, term_plan};
use crate::world::{Id, World};

/// Search terms one bidder has at most: its own text and four variants
/// ([`crate::sim::terms::terms`]).
const TERM_SLOTS: usize = 5;

/// Most `groupBy` dimensions one request may name.
pub const MAX_DIMS: usize = 5;

/// A row: the entity (the bidder's unit id for search terms), the search term's position
/// among the keyword's terms (`u16::MAX` for none), and the positions of its dimension
/// values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RowKey {
    pub id: Id,
    pub term: u16,
    pub dims: [u16; MAX_DIMS],
}

/// Time buckets of one row: bucket start (Julian day × 24 + hour) → totals.
pub type Buckets = Vec<(i64, Totals)>;

/// Whether the id filters let `value` through for `field`.
pub fn allowed(c: &Checked, field: &str, value: Id) -> bool {
    c.ids
        .iter()
        .filter(|(f, _)| f == field)
        .all(|(_, allowed)| allowed.contains(&value))
}

/// Whether a bidder of a campaign in scope passes the other id filters.
fn passes(unit: &Unit<'_>, c: &Checked) -> bool {
    if c.ids.iter().all(|(f, _)| f == "campaignId") {
        return true;
    }
    allowed(c, "campaignId", unit.campaign_id())
        && allowed(c, "adGroupId", unit.ad_group_id())
        && match unit {
            Unit::Keyword(k) => allowed(c, "keywordId", k.id),
            Unit::Auto(..) => !c.ids.iter().any(|(f, _)| f == "keywordId"),
        }
}

/// The bucket start of `day` (hour 0; hours are added by the caller).
pub fn bucket(day: Date, g: Granularity) -> i64 {
    let start = match g {
        Granularity::Hourly | Granularity::Daily => day,
        // Sunday to Saturday weeks, labelled by their Sunday.
        Granularity::Weekly => {
            day - Duration::days(i64::from(day.weekday().number_days_from_sunday()))
        }
        Granularity::Monthly => day.replace_day(1).expect("day 1"),
    };
    i64::from(start.to_julian_day()) * 24
}

/// The campaigns of `account` the request covers.
pub fn campaigns(w: &World, account: Id, c: &Checked) -> Vec<Id> {
    w.index
        .children("Campaign", account)
        .iter()
        .copied()
        .filter(|id| allowed(c, "campaignId", *id))
        .collect()
}

/// What one pass adds up.
pub struct Pass<'a> {
    pub entity: Entity,
    pub checked: &'a Checked,
    /// Campaigns to go through.
    pub campaigns: Vec<Id>,
    /// Only these bidders (unit ids), when set: the second pass over a page.
    pub units: Option<FxHashSet<Id>>,
    /// Only these rows, when set.
    pub rows: Option<FxHashSet<RowKey>>,
    /// Whether to fill time buckets.
    pub granular: bool,
}

/// Dimension values (as [`crate::sim::dims::Dim::code`]s) and weights of an ad group's
/// bidders: one list per requested dimension.
type DimWeights = Vec<(Vec<u16>, Vec<f64>)>;

/// Which settings of an ad group and its campaign are in effect on `day`: the dimension
/// weights are the same for the days of one period.
fn settings_period(w: &World, unit: &Unit<'_>, day: Date) -> (Id, usize, usize) {
    let group = w
        .ad_groups
        .get(&unit.ad_group_id())
        .map_or(0, |g| g.before.partition_point(|b| b.until <= day));
    let campaign = w.campaigns.get(&unit.campaign_id()).map_or(0, |c| {
        c.countries_before.partition_point(|(u, _)| *u <= day)
    });
    (unit.ad_group_id(), group, campaign)
}

/// Adds up the rows of `pass`: totals, and buckets when asked.
pub fn accumulate(
    sim: &mut Simulation<'_>,
    pass: &Pass<'_>,
) -> FxHashMap<RowKey, (Totals, Buckets)> {
    let w = sim.world;
    let c = pass.checked;
    let mut all: FxHashMap<RowKey, (Totals, Buckets)> = FxHashMap::default();
    let mut dim_weights: HashMap<(Id, usize, usize), DimWeights> = HashMap::new();
    let mut scratch = Scratch::default();
    let no_dims: DimWeights = Vec::new();
    for &campaign in &pass.campaigns {
        let sink = Sink::new(w, c, campaign, pass.granular);
        // The campaign's days are its ad account's, up to its today in its zone.
        let now = w.campaign_now(campaign);
        let (first, end) = sink.days(now.today);
        // A campaign's rows are its own: adding them up apart keeps the map small.
        let mut rows: FxHashMap<RowKey, (Totals, Buckets)> = FxHashMap::default();
        // Campaign and ad group rows by day need only each ad group's sum (hours are split
        // per bidder, so HOURLY and UTC days go through the bidders).
        let by_groups = pass.units.is_none()
            && c.group_by.is_empty()
            && matches!(pass.entity, Entity::Campaign | Entity::AdGroup)
            && c.granularity != Some(Granularity::Hourly)
            && !c.utc
            && !c.ids.iter().any(|(f, _)| f == "keywordId");
        let mut day = first;
        while by_groups && day <= end {
            let hours = hour_weights_on(now, day);
            for (group, t) in sim.campaign_groups(campaign, day) {
                if !allowed(c, "adGroupId", group) {
                    continue;
                }
                let id = if pass.entity == Entity::Campaign {
                    campaign
                } else {
                    group
                };
                let key = RowKey {
                    id,
                    term: u16::MAX,
                    dims: [0; MAX_DIMS],
                };
                if pass.rows.as_ref().is_none_or(|r| r.contains(&key)) {
                    let entry = rows.entry(key).or_default();
                    sink.add(entry, day, &t, &hours);
                }
            }
            day = day.next_day().expect("date in range");
        }
        // Keyword rows without dimensions: bidders by flat position, no row map.
        let flat = pass.units.is_none()
            && pass.rows.is_none()
            && c.group_by.is_empty()
            && pass.entity == Entity::Keyword
            && !by_groups;
        if flat {
            let units = sim.flat_units(campaign);
            let mut acc: Vec<Option<(Totals, Buckets)>> = vec![None; units.len()];
            let mut served: Vec<(u32, Totals)> = Vec::new();
            while day <= end {
                let hours = hour_weights_on(now, day);
                sim.campaign_units_flat(campaign, day, &mut served);
                for (at, t) in &served {
                    let unit = &units[*at as usize];
                    if unit.keyword().is_none() || !passes(unit, c) {
                        continue;
                    }
                    let entry = acc[*at as usize].get_or_insert_with(Default::default);
                    sink.add(entry, day, t, &hours);
                }
                day = day.next_day().expect("date in range");
            }
            for (unit, row) in units.iter().zip(acc) {
                if let Some(row) = row {
                    let key = RowKey {
                        id: unit.id(),
                        term: u16::MAX,
                        dims: [0; MAX_DIMS],
                    };
                    rows.insert(key, row);
                }
            }
        }
        // Search-term rows without dimensions: by flat (bidder, term) position, no row map.
        let flat_terms = pass.units.is_none()
            && pass.rows.is_none()
            && c.group_by.is_empty()
            && pass.entity == Entity::SearchTerm
            && !by_groups;
        if flat_terms {
            let units = sim.flat_units(campaign);
            let mut acc: Vec<Option<(Totals, Buckets)>> = vec![None; units.len() * TERM_SLOTS];
            // Each keyword's terms, made the first day it serves.
            let mut plans: Vec<Option<TermPlan>> =
                std::iter::repeat_with(|| None).take(units.len()).collect();
            let all_pass = c.ids.iter().all(|(f, _)| f == "campaignId");
            // Totals only, of every bidder, on the ad account's days: settled weeks are
            // read whole from the cache (or added up there for the next report).
            let weeks = all_pass && !pass.granular && !c.utc;
            let mut building: Option<Date> = None;
            let mut week_sums: Vec<Totals> = Vec::new();
            let mut touched: Vec<u32> = Vec::new();
            let mut served: Vec<(u32, Totals)> = Vec::new();
            while day <= end {
                let last = day + Duration::days(days::WEEK_DAYS - 1);
                if weeks && building.is_none() && last <= end && sim.keeps_week(campaign, day) {
                    if let Some(week) = sim.kept_week(campaign, day, WeekKind::Terms) {
                        for r in &week.rows {
                            let entry = acc[r.slot as usize].get_or_insert_with(Default::default);
                            entry.0.add(&r.totals());
                        }
                        day = last.next_day().expect("date in range");
                        continue;
                    }
                    building = Some(day);
                    if week_sums.is_empty() {
                        week_sums = vec![Totals::default(); acc.len()];
                    }
                }
                let hours = hour_weights_on(now, day);
                sim.campaign_units_flat(campaign, day, &mut served);
                for (at, t) in &served {
                    let unit = &units[*at as usize];
                    if !all_pass && !passes(unit, c) {
                        continue;
                    }
                    scratch.terms.clear();
                    match unit {
                        Unit::Keyword(k) => {
                            let plan = plans[*at as usize].get_or_insert_with(|| term_plan(w, k));
                            Simulation::split_by_plan(
                                w,
                                plan,
                                day,
                                t,
                                &mut scratch.terms,
                                &mut scratch.parts,
                            )
                        }
                        Unit::Auto(..) => scratch.terms.push((0, *t)),
                    }
                    for (term, part) in &scratch.terms {
                        if part.is_zero() {
                            continue;
                        }
                        let slot = *at as usize * TERM_SLOTS + usize::from(*term);
                        let entry = acc[slot].get_or_insert_with(Default::default);
                        sink.add(entry, day, part, &hours);
                        if building.is_some() {
                            let sum = &mut week_sums[slot];
                            if sum.is_zero() {
                                touched.push(slot as u32);
                            }
                            sum.add(part);
                        }
                    }
                }
                if let Some(start) = building
                    && day == start + Duration::days(days::WEEK_DAYS - 1)
                {
                    touched.sort_unstable();
                    let rows: Option<Vec<WeekRow>> = touched
                        .iter()
                        .map(|slot| WeekRow::new(*slot, &week_sums[*slot as usize]))
                        .collect();
                    for slot in touched.drain(..) {
                        week_sums[slot as usize] = Totals::default();
                    }
                    if let Some(rows) = rows {
                        sim.keep_week(campaign, start, WeekKind::Terms, rows);
                    }
                    building = None;
                }
                day = day.next_day().expect("date in range");
            }
            for (slot, row) in acc.into_iter().enumerate() {
                if let Some(row) = row {
                    let key = RowKey {
                        id: units[slot / TERM_SLOTS].id(),
                        term: (slot % TERM_SLOTS) as u16,
                        dims: [0; MAX_DIMS],
                    };
                    rows.insert(key, row);
                }
            }
        }
        // Ad rows by day: an ad group serving one ad that day gives it its whole sum; only
        // groups with more ads split each bidder-day among them.
        let ad_sums = pass.units.is_none()
            && c.group_by.is_empty()
            && pass.entity == Entity::Ad
            && c.granularity != Some(Granularity::Hourly)
            && !c.utc
            && !c.ids.iter().any(|(f, _)| f == "keywordId");
        // The second pass's bidders of this campaign, in id order.
        let own_units: Option<Vec<(Id, Unit<'_>)>> = pass.units.as_ref().map(|units| {
            let mut ids: Vec<(Id, Unit<'_>)> = units
                .iter()
                .filter_map(|id| unit_of(w, *id).map(|u| (*id, u)))
                .filter(|(_, u)| u.campaign_id() == campaign)
                .collect();
            ids.sort_by_key(|(id, _)| *id);
            ids
        });
        // Many of the campaign's bidders (the page's ad groups or ads): read whole
        // campaign-days (kept days are read, not simulated) and keep the page's bidders.
        let whole_days = match (&own_units, &pass.units) {
            (Some(ids), Some(set)) if ids.len() * 4 >= sim.flat_units(campaign).len() => Some(set),
            _ => None,
        };
        // Ad totals of every ad on the ad account's days: settled weeks are read whole from
        // the cache (or added up there for the next report).
        let ad_weeks = ad_sums
            && pass.rows.is_none()
            && !pass.granular
            && c.ids.iter().all(|(f, _)| f == "campaignId");
        let ads = if ad_weeks {
            sim.flat_ads(campaign)
        } else {
            Vec::new()
        };
        let mut building: Option<Date> = None;
        let mut week_ads: FxHashMap<Id, Totals> = FxHashMap::default();
        let keep_ads = |sim: &Simulation<'_>, start: Date, sums: &mut FxHashMap<Id, Totals>| {
            let slot: FxHashMap<Id, u32> = ads
                .iter()
                .enumerate()
                .map(|(i, a)| (*a, i as u32))
                .collect();
            let mut kept: Option<Vec<WeekRow>> = sums
                .drain()
                .map(|(id, t)| WeekRow::new(*slot.get(&id)?, &t))
                .collect();
            if let Some(rows) = kept.as_mut() {
                rows.sort_unstable_by_key(|r| r.slot);
            }
            if let Some(rows) = kept {
                sim.keep_week(campaign, start, WeekKind::Ads, rows);
            }
        };
        while !by_groups && !flat && !flat_terms && day <= end {
            if let Some(start) = building
                && day == start + Duration::days(days::WEEK_DAYS)
            {
                keep_ads(&*sim, start, &mut week_ads);
                building = None;
            }
            let last = day + Duration::days(days::WEEK_DAYS - 1);
            if ad_weeks && building.is_none() && last <= end && sim.keeps_week(campaign, day) {
                if let Some(week) = sim.kept_week(campaign, day, WeekKind::Ads) {
                    for r in &week.rows {
                        let key = RowKey {
                            id: ads[r.slot as usize],
                            term: u16::MAX,
                            dims: [0; MAX_DIMS],
                        };
                        rows.entry(key).or_default().0.add(&r.totals());
                    }
                    day = last.next_day().expect("date in range");
                    continue;
                }
                building = Some(day);
            }
            let mut split_groups: Option<FxHashSet<Id>> = None;
            if ad_sums {
                let hours = hour_weights_on(now, day);
                let mut several = FxHashSet::default();
                for (group, t) in sim.campaign_groups(campaign, day) {
                    let ads = sim.ads_on(group, day);
                    if ads.len() != 1 {
                        several.insert(group);
                        continue;
                    }
                    if !allowed(c, "adGroupId", group) || !allowed(c, "adId", ads[0].0) {
                        continue;
                    }
                    let key = RowKey {
                        id: ads[0].0,
                        term: u16::MAX,
                        dims: [0; MAX_DIMS],
                    };
                    if pass.rows.as_ref().is_none_or(|r| r.contains(&key)) {
                        let entry = rows.entry(key).or_default();
                        sink.add(entry, day, &t, &hours);
                        if building.is_some() {
                            week_ads.entry(key.id).or_default().add(&t);
                        }
                    }
                }
                if several.is_empty() {
                    day = day.next_day().expect("date in range");
                    continue;
                }
                split_groups = Some(several);
            }
            let served: Vec<(Unit<'_>, Totals)> = match &own_units {
                Some(_) if whole_days.is_some() => {
                    let set = whole_days.expect("checked");
                    let mut all = sim.campaign_units(campaign, day);
                    all.retain(|(u, _)| set.contains(&u.id()));
                    all
                }
                None => {
                    let mut all = sim.campaign_units(campaign, day);
                    if let Some(groups) = &split_groups {
                        all.retain(|(u, _)| groups.contains(&u.ad_group_id()));
                    }
                    all
                }
                Some(ids) => ids
                    .iter()
                    .map(|(id, u)| (*u, sim.unit_day(campaign, *id, day)))
                    .filter(|(_, t)| !t.is_zero())
                    .collect(),
            };
            let hours = hour_weights_on(now, day);
            scratch.ads.clear();
            for (unit, t) in served {
                if !passes(&unit, c) {
                    continue;
                }
                if let Some(id) = direct_row(&unit, pass.entity, c) {
                    let key = RowKey {
                        id,
                        term: u16::MAX,
                        dims: [0; MAX_DIMS],
                    };
                    if pass.rows.as_ref().is_none_or(|r| r.contains(&key)) {
                        let entry = rows.entry(key).or_default();
                        sink.add(entry, day, &t, &hours);
                    }
                    continue;
                }
                let weights = if c.group_by.is_empty() {
                    &no_dims
                } else {
                    dim_weights
                        .entry(settings_period(w, &unit, day))
                        .or_insert_with(|| group_dim_weights(w, &unit, c, day))
                };
                contributions(sim, &unit, day, t, c, pass.entity, &mut scratch);
                for &(id, term, part) in &scratch.out {
                    let mut add = |dims: [u16; MAX_DIMS], t: &Totals| {
                        if t.is_zero() {
                            return;
                        }
                        let key = RowKey { id, term, dims };
                        if pass.rows.as_ref().is_some_and(|r| !r.contains(&key)) {
                            return;
                        }
                        let entry = rows.entry(key).or_default();
                        sink.add(entry, day, t, &hours);
                        if building.is_some() {
                            week_ads.entry(id).or_default().add(t);
                        }
                    };
                    if weights.is_empty() {
                        add([0; MAX_DIMS], &part);
                    } else {
                        for (dims, t) in by_dims(part, weights) {
                            add(dims, &t);
                        }
                    }
                }
            }
            day = day.next_day().expect("date in range");
        }
        if let Some(start) = building
            && day == start + Duration::days(days::WEEK_DAYS)
        {
            keep_ads(&*sim, start, &mut week_ads);
        }
        all.extend(rows);
    }
    all
}

/// Adds up the search-term and ad rows of `campaign` from `first` to `last` (the ad
/// account's days), which keeps their settled weeks in the world's cache: what
/// [`crate::state::Sandbox::warm_up`] computes ahead.
pub fn keep_weeks(sim: &mut Simulation<'_>, campaign: Id, first: Date, last: Date) {
    let c = Checked {
        start: first,
        end: last,
        granularity: None,
        ids: vec![("campaignId".to_string(), vec![campaign])],
        fields: None,
        sorting: Vec::new(),
        offset: 0,
        page_size: 0,
        grand_total: false,
        empty_rows: false,
        group_by: Vec::new(),
        utc: false,
    };
    for entity in [Entity::SearchTerm, Entity::Ad] {
        let pass = Pass {
            entity,
            checked: &c,
            campaigns: vec![campaign],
            units: None,
            rows: None,
            granular: false,
        };
        accumulate(sim, &pass);
    }
}

/// The row a bidder-day goes to whole (no split by terms, ads or dimensions), if it does.
fn direct_row(unit: &Unit<'_>, entity: Entity, c: &Checked) -> Option<Id> {
    if !c.group_by.is_empty() {
        return None;
    }
    match (entity, unit) {
        (Entity::Campaign, _) => Some(unit.campaign_id()),
        (Entity::AdGroup, _) => Some(unit.ad_group_id()),
        (Entity::Keyword, Unit::Keyword(k)) => Some(k.id),
        _ => None,
    }
}

/// Where a bidder-day's traffic goes in the rows: whole into the local day's bucket (the
/// ad account's days, `ORTZ`), or, for `timeZone: UTC`, hour by hour into the UTC days of
/// the range (a local day overlaps two UTC days).
struct Sink<'a> {
    c: &'a Checked,
    granular: bool,
    /// The ad account's time zone, for UTC reports.
    utc_of: Option<&'static str>,
}

impl<'a> Sink<'a> {
    fn new(w: &World, c: &'a Checked, campaign: Id, granular: bool) -> Self {
        let utc_of = c.utc.then(|| {
            w.campaigns
                .get(&campaign)
                .and_then(|k| w.accounts.get(&k.ad_account_id))
                .map_or("UTC", |a| a.timezone)
        });
        Sink {
            c,
            granular,
            utc_of,
        }
    }

    /// The local days to go through: those of the range, and for UTC the day on each side
    /// (clipped to the hours inside the range); never past `today`.
    fn days(&self, today: Date) -> (Date, Date) {
        let (c, one) = (self.c, Duration::days(1));
        match self.utc_of {
            None => (c.start, c.end.min(today)),
            Some(_) => (c.start - one, (c.end + one).min(today)),
        }
    }

    fn add(&self, entry: &mut (Totals, Buckets), day: Date, t: &Totals, hours: &[f64; 24]) {
        let Some(tz) = self.utc_of else {
            entry.0.add(t);
            if self.granular {
                add_buckets(&mut entry.1, day, t, self.c, hours);
            }
            return;
        };
        let (from, to) = (
            i64::from(self.c.start.to_julian_day()),
            i64::from(self.c.end.to_julian_day()),
        );
        for (h, part) in split(t, hours).iter().enumerate() {
            let at = crate::world::zone::utc_hour(tz, day, h as i64);
            let utc_day = at.div_euclid(24);
            if part.is_zero() || utc_day < from || to < utc_day {
                continue;
            }
            entry.0.add(part);
            if let Some(g) = self.c.granularity.filter(|_| self.granular) {
                let bucket_at = match g {
                    Granularity::Hourly => at,
                    _ => bucket(Date::from_julian_day(utc_day as i32).expect("in range"), g),
                };
                match entry.1.iter_mut().rev().find(|b| b.0 == bucket_at) {
                    Some(b) => b.1.add(part),
                    None => entry.1.push((bucket_at, *part)),
                }
            }
        }
    }
}

fn add_buckets(buckets: &mut Buckets, day: Date, t: &Totals, c: &Checked, hours: &[f64; 24]) {
    let Some(g) = c.granularity else { return };
    let mut add = |at: i64, t: &Totals| match buckets.iter_mut().rev().find(|b| b.0 == at) {
        Some(b) => b.1.add(t),
        None => buckets.push((at, *t)),
    };
    if g == Granularity::Hourly {
        let start = bucket(day, g);
        for (h, p) in split(t, hours).iter().enumerate() {
            if !p.is_zero() {
                add(start + h as i64, p);
            }
        }
    } else {
        add(bucket(day, g), t);
    }
}

/// The bidder a unit id names.
pub fn unit_of(w: &World, id: Id) -> Option<Unit<'_>> {
    match crate::sim::auto::parse_id(id) {
        Some((group, index)) => w.ad_groups.get(&group).map(|g| Unit::Auto(g, index)),
        None => w.keywords.get(&id).map(Unit::Keyword),
    }
}

fn group_dim_weights(w: &World, unit: &Unit<'_>, c: &Checked, day: Date) -> DimWeights {
    let (Some(campaign), Some(group)) = (
        w.campaigns.get(&unit.campaign_id()),
        w.ad_groups.get(&unit.ad_group_id()),
    ) else {
        return vec![];
    };
    c.group_by
        .iter()
        .map(|d| {
            let values = d.values(campaign, group, day);
            (
                values.iter().map(|v| d.code(&v.0)).collect(),
                values.iter().map(|v| v.1).collect(),
            )
        })
        .collect()
}

/// Buffers reused from one bidder-day to the next.
#[derive(Default)]
struct Scratch {
    terms: Vec<(u16, Totals)>,
    parts: Vec<Totals>,
    /// The serving ads of each ad group on the day gone through: ids and integer weights.
    ads: FxHashMap<Id, (Vec<Id>, Vec<u64>)>,
    /// The contributions of the bidder-day.
    out: Vec<(Id, u16, Totals)>,
}

/// One bidder-day's contributions to rows at `entity` level, before dimensions, into
/// `scratch.out`.
fn contributions(
    sim: &Simulation<'_>,
    unit: &Unit<'_>,
    day: Date,
    t: Totals,
    c: &Checked,
    entity: Entity,
    scratch: &mut Scratch,
) {
    const NONE: u16 = u16::MAX;
    scratch.out.clear();
    match entity {
        Entity::Campaign => scratch.out.push((unit.campaign_id(), NONE, t)),
        Entity::AdGroup => scratch.out.push((unit.ad_group_id(), NONE, t)),
        Entity::Keyword => match unit {
            Unit::Keyword(k) => scratch.out.push((k.id, NONE, t)),
            Unit::Auto(..) => {}
        },
        Entity::SearchTerm => match unit {
            Unit::Keyword(k) => {
                sim.split_terms(k, day, &t, &mut scratch.terms, &mut scratch.parts);
                let id = k.id;
                scratch
                    .out
                    .extend(scratch.terms.iter().map(|(i, part)| (id, *i, *part)));
            }
            Unit::Auto(..) => scratch.out.push((unit.id(), 0, t)),
        },
        Entity::Ad => {
            let (ids, weights) = scratch.ads.entry(unit.ad_group_id()).or_insert_with(|| {
                let ads = sim.ads_on(unit.ad_group_id(), day);
                let weights: Vec<f64> = ads.iter().map(|x| x.1).collect();
                (
                    ads.iter().map(|x| x.0).collect(),
                    crate::sim::split::int_weights(&weights),
                )
            });
            crate::sim::split::split_ints_into(&t, weights, &mut scratch.parts);
            scratch.out.extend(
                ids.iter()
                    .zip(&scratch.parts)
                    .filter(|(id, _)| allowed(c, "adId", **id))
                    .map(|(id, part)| (*id, NONE, *part)),
            );
        }
    }
}

/// Splits a contribution by the requested dimensions, in order.
fn by_dims(t: Totals, weights: &DimWeights) -> Vec<([u16; MAX_DIMS], Totals)> {
    let mut parts = vec![([0u16; MAX_DIMS], t)];
    for (d, (codes, w)) in weights.iter().enumerate() {
        parts = parts
            .into_iter()
            .flat_map(|(labels, t)| {
                split(&t, w)
                    .into_iter()
                    .zip(codes)
                    .map(move |(part, code)| {
                        let mut l = labels;
                        l[d] = *code;
                        (l, part)
                    })
            })
            .collect();
    }
    parts
}
