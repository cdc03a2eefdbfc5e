//! The sandbox's synthetic world: ad accounts, apps, campaigns, ad groups, keywords,
//! negative keywords and ads, generated deterministically from a seed and mutated by
//! writes through the API. Daily metrics are not stored; [`crate::metrics`] derives them.

pub mod audit;
pub mod index;
pub mod money;
pub mod statics;
pub mod timeline;
pub(crate) mod words;
pub mod zone;

mod campaigns;
mod config;
pub mod days;
mod entities;

use std::collections::BTreeMap;

use time::{Date, OffsetDateTime, Time};

pub use campaigns::{AdGroup, Campaign, GroupBefore, Keyword, NegativeKeyword};
pub use config::{
    AGENCY_ACCOUNTS, AGENCY_CAMPAIGNS, AGENCY_GROUPS, MID_KEYWORDS, WorldConfig, WorldSize,
};
pub use entities::{
    Ad, AdAccount, App, Creative, CreativeType, Lifecycle, MatchType, ProductPage, Status,
};

/// Identifier of any entity; one counter serves all kinds so ids never collide.
pub type Id = i64;

/// The whole world; held behind one lock by the server.
#[derive(Debug, Clone)]
pub struct World {
    pub seed: u64,
    /// The day the world was generated for; metrics exist from 399 days before it.
    pub origin: Date,
    /// The simulated now (see [`crate::clock`]); set by the server before each use.
    pub now: OffsetDateTime,
    /// `now`'s UTC date. Each ad account's own today and its hours served so far are
    /// those of its zone ([`World::account_now`]).
    pub today: Date,
    pub org_id: i64,
    pub user_id: i64,
    pub accounts: BTreeMap<Id, AdAccount>,
    pub apps: BTreeMap<i64, App>,
    pub campaigns: BTreeMap<Id, Campaign>,
    pub ad_groups: BTreeMap<Id, AdGroup>,
    pub keywords: BTreeMap<Id, Keyword>,
    pub negative_keywords: BTreeMap<Id, NegativeKeyword>,
    pub ads: BTreeMap<Id, Ad>,
    pub creatives: BTreeMap<Id, Creative>,
    /// Product pages by id.
    pub product_pages: BTreeMap<String, ProductPage>,
    /// Change history, oldest first.
    pub audit: Vec<audit::AuditEvent>,
    /// Entities by parent, for scoped queries and reports.
    pub index: index::Index,
    next_id: Id,
    next_txn: u64,
    /// The transaction writes are recorded under (one per write request).
    pub current_txn: String,
    /// Entities written since the journal last saw the world: `(entity type, id)`.
    pending: Vec<(&'static str, Id)>,
    /// How much of `audit` the journal has.
    journaled_audit: usize,
    /// Bumped by every write access; computed reports are kept per version.
    version: u64,
    /// The version of the last write under each campaign (creatives: under each ad
    /// account), for [`World::stamp`].
    written: std::collections::HashMap<Id, u64>,
    /// Settled campaign-days as served, shared by every snapshot of this world (`None`:
    /// simulate every day, as worlds made for tests do).
    pub days: Option<std::sync::Arc<days::DayCache>>,
    /// A keyword's whole-day metrics set through `PUT /sandbox/keywords/{id}/metrics`
    /// (tests that need a known day), served instead of the model's for that day.
    pub set_days: std::collections::HashMap<Id, BTreeMap<Date, crate::totals::Totals>>,
}

impl World {
    /// A world of `seed` for `today` (its clock at `now`) with no entities yet, of
    /// organisation `org_id` and user `user_id`: what [`crate::generate`] fills.
    pub(crate) fn empty(
        seed: u64,
        today: Date,
        now: OffsetDateTime,
        org_id: i64,
        user_id: i64,
    ) -> World {
        World {
            seed,
            origin: today,
            now,
            today,
            org_id,
            user_id,
            accounts: BTreeMap::new(),
            apps: BTreeMap::new(),
            campaigns: BTreeMap::new(),
            ad_groups: BTreeMap::new(),
            keywords: BTreeMap::new(),
            negative_keywords: BTreeMap::new(),
            ads: BTreeMap::new(),
            creatives: BTreeMap::new(),
            product_pages: BTreeMap::new(),
            audit: Vec::new(),
            index: Default::default(),
            next_id: 100_000_000,
            next_txn: 0,
            current_txn: String::new(),
            pending: Vec::new(),
            journaled_audit: 0,
            version: 0,
            written: Default::default(),
            days: None,
            set_days: Default::default(),
        }
    }

    /// Allocates a fresh id.
    pub fn next_id(&mut self) -> Id {
        self.next_id += 1;
        self.next_id
    }

    /// Starts a change-history transaction: the writes of one request.
    pub fn begin_txn(&mut self) {
        self.next_txn += 1;
        self.current_txn = format!("{:016x}", self.next_txn ^ self.seed.rotate_left(32));
    }

    /// The first day with metrics.
    pub fn first_day(&self) -> Date {
        self.origin - time::Duration::days(399)
    }

    /// The version of the world: it changes whenever anything may have been written.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Notes that the world may be written.
    pub fn bump_version(&mut self) {
        self.version += 1;
    }

    /// Sets the simulated now (and today).
    pub fn set_now(&mut self, now: OffsetDateTime) {
        self.now = now;
        self.today = now.date();
    }

    /// `t` truncated to its hour.
    pub fn hour_of(t: OffsetDateTime) -> OffsetDateTime {
        t.replace_time(Time::from_hms(t.hour(), 0, 0).expect("valid hour"))
    }

    /// `now` truncated to its hour: what the metrics of today depend on.
    pub fn now_hour(&self) -> OffsetDateTime {
        Self::hour_of(self.now)
    }

    /// `now` in ad account `account`'s zone: its today and the hours of it served so far
    /// (UTC for an unknown account).
    pub fn account_now(&self, account: Id) -> zone::LocalNow {
        let tz = self.accounts.get(&account).map_or("UTC", |a| a.timezone);
        zone::local_now(tz, self.now)
    }

    /// [`Self::account_now`] of the ad account of `campaign`.
    pub fn campaign_now(&self, campaign: Id) -> zone::LocalNow {
        let account = self.campaigns.get(&campaign).map_or(0, |c| c.ad_account_id);
        self.account_now(account)
    }

    /// Marks entity `id` of `entity_type` as written, for the journal.
    pub fn touch(&mut self, entity_type: &'static str, id: Id) {
        self.pending.push((entity_type, id));
        let scope = match entity_type {
            "Campaign" => Some(id),
            "AdGroup" => self.ad_groups.get(&id).map(|g| g.campaign_id),
            "Keyword" => self.keywords.get(&id).map(|k| k.campaign_id),
            "NegativeKeyword" => self.negative_keywords.get(&id).map(|n| n.campaign_id),
            "Ad" => self.ads.get(&id).map(|a| a.campaign_id),
            "Creative" => self.creatives.get(&id).map(|c| c.ad_account_id),
            _ => None,
        };
        if let Some(scope) = scope {
            self.written.insert(scope, self.version);
        }
    }

    /// What a campaign's served days depend on besides the day: the version of the last
    /// write under it or to its ad account's creatives (0 when never written). Served days
    /// kept under an older stamp are stale.
    pub fn stamp(&self, campaign: Id) -> u64 {
        let own = self.written.get(&campaign).copied().unwrap_or(0);
        let account = self
            .campaigns
            .get(&campaign)
            .and_then(|c| self.written.get(&c.ad_account_id))
            .copied()
            .unwrap_or(0);
        own.max(account)
    }

    /// Whether writes happened since the journal last took them.
    pub fn has_pending_writes(&self) -> bool {
        !self.pending.is_empty() || self.audit.len() > self.journaled_audit
    }

    /// Takes the written entities and the new change-history events for the journal.
    pub fn take_pending(&mut self) -> (Vec<(&'static str, Id)>, std::ops::Range<usize>) {
        let mut touched = std::mem::take(&mut self.pending);
        touched.sort_unstable();
        touched.dedup();
        let events = self.journaled_audit..self.audit.len();
        self.journaled_audit = self.audit.len();
        (touched, events)
    }

    /// The id and transaction counters, for the journal.
    pub fn counters(&self) -> (Id, u64) {
        (self.next_id, self.next_txn)
    }

    /// Restores the counters from the journal.
    pub fn restore_counters(&mut self, next_id: Id, next_txn: u64) {
        self.next_id = self.next_id.max(next_id);
        self.next_txn = self.next_txn.max(next_txn);
    }

    /// Marks everything as journaled (after a replay).
    pub fn mark_journaled(&mut self) {
        self.pending.clear();
        self.journaled_audit = self.audit.len();
    }

    /// The day writes under ad account `account` take effect: its next day (in its zone).
    pub fn effective_day(&self, account: Id) -> Date {
        self.account_now(account).next_day()
    }

    /// Whether `keyword` and all its parents serve on `day`.
    pub fn keyword_serves(&self, keyword: &Keyword, day: Date) -> bool {
        if !keyword.life.active_on(day) {
            return false;
        }
        let Some(group) = self.ad_groups.get(&keyword.ad_group_id) else {
            return false;
        };
        let Some(campaign) = self.campaigns.get(&keyword.campaign_id) else {
            return false;
        };
        group.life.active_on(day) && campaign.life.active_on(day)
    }
}
