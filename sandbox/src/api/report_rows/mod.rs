//! Report rows as numbers: the served bidder-days of the request's scope (its ad account
//! and id filters) summed into rows keyed by entity, search term and `groupBy` values, and,
//! for the rows of the page only, into time buckets. Nothing is rendered here.
//!
//! A campaign's days go the cheapest way its request allows: ad groups' daily sums or
//! keywords by flat position (`sums`), search terms by flat position (`terms`), or each
//! bidder-day split by term, ad and dimension as asked (`bidders`).

mod bidders;
mod contributions;
mod sink;
mod sums;
mod terms;

use std::collections::HashMap;

use rustc_hash::{FxHashMap, FxHashSet};
use time::{Date, Duration};

use super::report_request::{Checked, Entity, Granularity};
use crate::metrics::Totals;
use crate::sim::{Simulation, Unit};
use crate::world::zone::LocalNow;
use crate::world::{Id, World};
use contributions::{DimWeights, Scratch};
use sink::Sink;

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
pub(super) fn passes(unit: &Unit<'_>, c: &Checked) -> bool {
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
    for &campaign in &pass.campaigns {
        let sink = Sink::new(w, c, campaign, pass.granular);
        // The campaign's days are its ad account's, up to its today in its zone.
        let now = w.campaign_now(campaign);
        let (first, end) = sink.days(now.today);
        let days = CampaignDays {
            campaign,
            now,
            first,
            end,
            sink,
        };
        // Campaign and ad group rows by day need only each ad group's sum (hours are split
        // per bidder, so HOURLY and UTC days go through the bidders).
        let by_groups = pass.units.is_none()
            && c.group_by.is_empty()
            && matches!(pass.entity, Entity::Campaign | Entity::AdGroup)
            && c.granularity != Some(Granularity::Hourly)
            && !c.utc
            && !c.ids.iter().any(|(f, _)| f == "keywordId");
        // Keyword rows without dimensions: bidders by flat position, no row map.
        let flat = pass.units.is_none()
            && pass.rows.is_none()
            && c.group_by.is_empty()
            && pass.entity == Entity::Keyword
            && !by_groups;
        // Search-term rows without dimensions: by flat (bidder, term) position, no row map.
        let flat_terms = pass.units.is_none()
            && pass.rows.is_none()
            && c.group_by.is_empty()
            && pass.entity == Entity::SearchTerm
            && !by_groups;
        // A campaign's rows are its own: adding them up apart keeps the map small.
        let rows = if by_groups {
            sums::group_days(sim, pass, &days)
        } else if flat {
            sums::keyword_days(sim, pass, &days)
        } else if flat_terms {
            terms::term_days(sim, pass, &days, &mut scratch)
        } else {
            bidders::bidder_days(sim, pass, &days, &mut scratch, &mut dim_weights)
        };
        all.extend(rows);
    }
    all
}

/// One campaign's days in a pass: its ad account's now, the local days to go through and
/// where their traffic goes.
struct CampaignDays<'a> {
    campaign: Id,
    now: LocalNow,
    first: Date,
    end: Date,
    sink: Sink<'a>,
}

/// One campaign's rows: totals and time buckets by row.
type CampaignRows = FxHashMap<RowKey, (Totals, Buckets)>;

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

/// The bidder a unit id names.
pub fn unit_of(w: &World, id: Id) -> Option<Unit<'_>> {
    match crate::sim::auto::parse_id(id) {
        Some((group, index)) => w.ad_groups.get(&group).map(|g| Unit::Auto(g, index)),
        None => w.keywords.get(&id).map(Unit::Keyword),
    }
}
