//! The numbers of the simulation: one entity's counts and spend over a day or a sum of
//! days, as the keyword model derives them, the served simulation caps them and the world
//! keeps its settled days and set metrics.

/// Counts and spend for one entity over one day or a sum of days.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    pub impressions: u64,
    pub taps: u64,
    pub tap_new_downloads: u64,
    pub tap_redownloads: u64,
    pub view_new_downloads: u64,
    pub view_redownloads: u64,
    /// Spend in micros of the account currency.
    pub spend: i64,
}

impl Totals {
    /// Adds `other` into `self`.
    pub fn add(&mut self, other: &Totals) {
        self.impressions += other.impressions;
        self.taps += other.taps;
        self.tap_new_downloads += other.tap_new_downloads;
        self.tap_redownloads += other.tap_redownloads;
        self.view_new_downloads += other.view_new_downloads;
        self.view_redownloads += other.view_redownloads;
        self.spend += other.spend;
    }

    /// Whether nothing was shown and nothing installed.
    pub fn is_zero(&self) -> bool {
        self.impressions == 0 && self.view_installs() == 0
    }

    pub fn tap_installs(&self) -> u64 {
        self.tap_new_downloads + self.tap_redownloads
    }

    pub fn view_installs(&self) -> u64 {
        self.view_new_downloads + self.view_redownloads
    }

    pub fn total_installs(&self) -> u64 {
        self.tap_installs() + self.view_installs()
    }
}
