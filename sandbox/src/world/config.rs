//! What world to build: its seed, its size (the small world of demos and tests, or the
//! small world plus the mid-size, large or agency ad accounts) and its simulated today.

use time::Date;

/// How big a world to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum WorldSize {
    /// Three ad accounts with a few hundred keywords: demos and tests.
    #[default]
    Small,
    /// The small world plus one ad account with one young campaign whose one ad group holds
    /// [`MID_KEYWORDS`] keywords: bulk edits of 2,000 items, at a sync cost close to the
    /// small world's (two weeks of history).
    Mid,
    /// The small world plus one ad account with 100,000 keywords: sync and report benchmarks.
    Large,
    /// The small world plus [`AGENCY_ACCOUNTS`] ad accounts of one app each, every one with
    /// [`AGENCY_CAMPAIGNS`] campaigns of [`AGENCY_GROUPS`] ad groups of 5 keywords: many ad
    /// accounts, each under its own rate limit (`searchdeck bench rules`: scheduled rules
    /// across 50 ad accounts).
    Agency,
}

/// Keywords in the mid-size world's one large ad group.
pub const MID_KEYWORDS: usize = 2_200;
/// Ad accounts the agency world adds to the small world's three.
pub const AGENCY_ACCOUNTS: usize = 50;
/// Campaigns of each of the agency world's added ad accounts.
pub const AGENCY_CAMPAIGNS: usize = 20;
/// Ad groups of each of those campaigns.
pub const AGENCY_GROUPS: usize = 3;

/// What to build.
#[derive(Debug, Clone, Copy)]
pub struct WorldConfig {
    pub seed: u64,
    pub size: WorldSize,
    /// The simulated today; `None` means the current UTC date.
    pub today: Option<Date>,
}

impl Default for WorldConfig {
    fn default() -> Self {
        Self {
            seed: 42,
            size: WorldSize::Small,
            today: None,
        }
    }
}
