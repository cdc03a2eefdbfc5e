//! The served simulation over the base keyword model: a keyword serves only while its ad
//! group has a serving ad; ad groups with search match also bid on a few terms of their
//! own ([`auto`]); a campaign's spend on a day is capped at its daily budget in effect that
//! day (every bidder of an over-budget campaign scales down by the same factor:
//! impressions, taps and installs floor, spend stays taps × CPT); the ad account's today
//! (in its zone) is served up to its current hour and the last days' installs are still
//! arriving ([`late`]); and a bidder-day divides into ads, search terms, dimensions and
//! hours by [`split`].

pub mod auto;
pub mod dims;
pub mod late;
pub mod split;
pub mod terms;

mod kept;
mod plan;
mod serve;
mod term_split;

use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;

use time::Date;

pub use crate::world::days;
use crate::world::{AdGroup, Id, Keyword, World};
pub use days::Cap;
use plan::CampaignPlan;
pub use term_split::{TermPlan, term_plan};

/// Something that bids in an ad group: a keyword or a search-match term.
#[derive(Debug, Clone, Copy)]
pub enum Unit<'w> {
    Keyword(&'w Keyword),
    /// Search-match term `index` of the ad group.
    Auto(&'w AdGroup, u16),
}

impl Unit<'_> {
    /// Its id: the keyword's, or [`auto::id`] of the term.
    pub fn id(&self) -> Id {
        match self {
            Unit::Keyword(k) => k.id,
            Unit::Auto(g, i) => auto::id(g.id, *i),
        }
    }

    pub fn ad_group_id(&self) -> Id {
        match self {
            Unit::Keyword(k) => k.ad_group_id,
            Unit::Auto(g, _) => g.id,
        }
    }

    pub fn campaign_id(&self) -> Id {
        match self {
            Unit::Keyword(k) => k.campaign_id,
            Unit::Auto(g, _) => g.campaign_id,
        }
    }

    /// The keyword, for keyword units.
    pub fn keyword(&self) -> Option<&Keyword> {
        match self {
            Unit::Keyword(k) => Some(k),
            Unit::Auto(..) => None,
        }
    }
}

/// Budget caps by campaign-day.
pub type Caps = HashMap<(Id, Date), Cap>;

/// One request's view of the simulation, memoising models and budget caps.
pub struct Simulation<'w> {
    pub world: &'w World,
    plans: HashMap<Id, CampaignPlan<'w>>,
    caps: Caps,
    /// Per keyword: each search term's weight and the negatives that block it.
    terms: RefCell<HashMap<Id, TermPlan>>,
    /// Whether settled days are read from and kept in the world's [`days::DayCache`].
    kept: bool,
}

impl<'w> Simulation<'w> {
    pub fn new(world: &'w World) -> Self {
        Self::with_caps(world, Caps::default())
    }

    /// A simulation that already knows the caps of some campaign-days (computed over the
    /// same world version and hour).
    pub fn with_caps(world: &'w World, caps: Caps) -> Self {
        Simulation {
            world,
            plans: HashMap::default(),
            caps,
            terms: RefCell::default(),
            kept: true,
        }
    }

    /// A simulation that computes every day, even those the world keeps (benchmarks).
    pub fn uncached(world: &'w World) -> Self {
        Simulation {
            kept: false,
            ..Self::new(world)
        }
    }

    /// The caps met so far.
    pub fn into_caps(self) -> Caps {
        self.caps
    }
}

#[cfg(test)]
#[path = "sim_tests.rs"]
mod tests;
