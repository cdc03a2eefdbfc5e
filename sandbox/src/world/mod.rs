//! The sandbox's synthetic world: ad accounts, apps, campaigns, ad groups, keywords,
//! negative keywords and ads, generated deterministically from a seed and mutated by
//! writes through the API. Daily metrics are not stored; [`crate::metrics`] derives them.

pub mod audit;
pub mod generate;
pub mod index;
pub mod money;
pub mod statics;
pub mod timeline;
pub(crate) mod words;
pub mod zone;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use time::{Date, OffsetDateTime, Time};

pub use generate::{
    AGENCY_ACCOUNTS, AGENCY_CAMPAIGNS, AGENCY_GROUPS, MID_KEYWORDS, WorldConfig, WorldSize,
};
use timeline::Timeline;

/// Identifier of any entity; one counter serves all kinds so ids never collide.
pub type Id = i64;

/// The two user-settable states of campaigns, ad groups, keywords and ads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Status {
    Enabled,
    Paused,
}

impl Status {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Enabled => "ENABLED",
            Status::Paused => "PAUSED",
        }
    }

    /// Parses the wire name.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "ENABLED" => Some(Status::Enabled),
            "PAUSED" => Some(Status::Paused),
            _ => None,
        }
    }
}

/// Keyword match types the sandbox simulates (the reference also lists CATEGORY).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum MatchType {
    Exact,
    Broad,
    /// The phrase, in order, with words before or after it.
    Phrase,
}

impl MatchType {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchType::Exact => "EXACT",
            MatchType::Broad => "BROAD",
            MatchType::Phrase => "PHRASE",
        }
    }

    /// Parses the wire name; CATEGORY is a valid enum value the sandbox rejects.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "EXACT" => Some(MatchType::Exact),
            "BROAD" => Some(MatchType::Broad),
            "PHRASE" => Some(MatchType::Phrase),
            _ => None,
        }
    }
}

/// An ad account (v1's name for a campaign group / org).
#[derive(Debug, Clone)]
pub struct AdAccount {
    pub id: Id,
    pub name: String,
    pub currency: &'static str,
    pub timezone: &'static str,
    pub payment_model: &'static str,
    pub created: OffsetDateTime,
}

/// An App Store app, either promoted by an ad account or a competitor.
#[derive(Debug, Clone)]
pub struct App {
    pub adam_id: i64,
    pub name: String,
    pub developer: String,
    pub title: String,
    pub subtitle: String,
    pub description: String,
    pub icon_url: String,
    pub category: &'static str,
    /// The ad account promoting it; `None` for competitors.
    pub owner: Option<Id>,
}

/// Lifecycle fields shared by every entity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Lifecycle {
    pub status: Timeline<Status>,
    #[serde(with = "time::serde::rfc3339")]
    pub created: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub modified: OffsetDateTime,
    /// First simulated day it can serve (creation day + 1 for entities made through the API).
    pub serving_from: Date,
    /// The day it was deleted; it serves no more from then on.
    pub deleted_on: Option<Date>,
}

impl Lifecycle {
    /// A new entity's lifecycle: made at `now`, `status` and serving from day `from`.
    pub fn new(from: Date, status: Status, now: OffsetDateTime) -> Self {
        Self {
            status: Timeline::new(from, status),
            created: now,
            modified: now,
            serving_from: from,
            deleted_on: None,
        }
    }

    /// Whether the entity itself (not its parents) serves on `day`.
    pub fn active_on(&self, day: Date) -> bool {
        day >= self.serving_from
            && self.deleted_on.is_none_or(|d| day < d)
            && self.status.at(day) == Status::Enabled
    }

    /// Whether it has been deleted.
    pub fn deleted(&self) -> bool {
        self.deleted_on.is_some()
    }
}

/// A campaign promoting one app in some countries or regions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Campaign {
    pub id: Id,
    pub ad_account_id: Id,
    pub name: String,
    pub adam_id: i64,
    pub countries: Vec<String>,
    /// Daily budget in micros; changes apply from the next simulated day.
    pub daily_budget: Timeline<i64>,
    #[serde(with = "time::serde::rfc3339")]
    pub start_time: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339::option")]
    pub end_time: Option<OffsetDateTime>,
    pub life: Lifecycle,
    /// The countries or regions in effect before each change: `(first day of the next
    /// ones, countries)`, oldest first. A change applies from the next day, so the days
    /// before it keep the reach they had.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub countries_before: Vec<(Date, Vec<String>)>,
    /// Why Apple holds the campaign back (`CampaignSystemStatusReason`s such as
    /// `LIFETIME_BUDGET_EXHAUSTED`, `AD_GROUPS_MISSING`, `PAUSED_BY_SYSTEM`), set through
    /// `PUT /sandbox/campaigns/{id}/systemStatus`; a live campaign with any is `NOT_RUNNING`
    /// and `ON_HOLD`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub system_reasons: Vec<String>,
}

impl Campaign {
    /// The countries or regions in effect on `day`.
    pub fn countries_on(&self, day: Date) -> &[String] {
        self.countries_before
            .iter()
            .find(|(until, _)| day < *until)
            .map_or(&self.countries, |(_, c)| c)
    }

    /// Keeps the countries in effect before `from`, when they change from that day on.
    pub fn keep_countries_before(&mut self, from: Date) {
        if self.countries_before.last().is_none_or(|(u, _)| *u < from) {
            self.countries_before.push((from, self.countries.clone()));
        }
    }
}

/// An ad group's bidding and targeting in effect before a change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupBefore {
    /// The first day the next settings applied.
    pub until: Date,
    pub default_bid: i64,
    pub automated_keywords_opt_in: bool,
    #[serde(with = "statics::list")]
    pub device_classes: Vec<&'static str>,
}

/// An ad group: bids, CPA cap, search match and audience targeting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdGroup {
    pub id: Id,
    pub campaign_id: Id,
    pub ad_account_id: Id,
    pub name: String,
    pub default_bid: i64,
    pub cpa_cap: Option<i64>,
    pub automated_keywords_opt_in: bool,
    #[serde(with = "statics::list")]
    pub device_classes: Vec<&'static str>,
    #[serde(with = "time::serde::rfc3339")]
    pub start_time: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339::option")]
    pub end_time: Option<OffsetDateTime>,
    pub life: Lifecycle,
    /// Default bid, search match and device classes in effect before each change, oldest
    /// first: a change applies from the next day, so past days keep what they served with.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub before: Vec<GroupBefore>,
}

impl AdGroup {
    /// `(default bid, search match opt-in, device classes)` in effect on `day`.
    pub fn settings_on(&self, day: Date) -> (i64, bool, &[&'static str]) {
        match self.before.iter().find(|b| day < b.until) {
            Some(b) => (
                b.default_bid,
                b.automated_keywords_opt_in,
                &b.device_classes,
            ),
            None => (
                self.default_bid,
                self.automated_keywords_opt_in,
                &self.device_classes,
            ),
        }
    }

    /// Keeps the settings in effect before `from`, when they change from that day on.
    pub fn keep_before(&mut self, from: Date) {
        if self.before.last().is_none_or(|b| b.until < from) {
            self.before.push(GroupBefore {
                until: from,
                default_bid: self.default_bid,
                automated_keywords_opt_in: self.automated_keywords_opt_in,
                device_classes: self.device_classes.clone(),
            });
        }
    }

    /// The default bid as a timeline (search-match terms bid it).
    pub fn default_bid_timeline(&self, since: Date) -> Timeline<i64> {
        let first = self
            .before
            .first()
            .map_or(self.default_bid, |b| b.default_bid);
        let mut bid = Timeline::new(since, first);
        for (i, b) in self.before.iter().enumerate() {
            let next = self
                .before
                .get(i + 1)
                .map_or(self.default_bid, |n| n.default_bid);
            bid.set(b.until, next);
        }
        bid
    }
}

/// A bidded keyword with its simulated market.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Keyword {
    pub id: Id,
    pub ad_group_id: Id,
    pub campaign_id: Id,
    pub ad_account_id: Id,
    pub text: String,
    pub match_type: MatchType,
    pub bid: Timeline<i64>,
    pub life: Lifecycle,
}

/// A negative keyword at campaign level (`ad_group_id` None) or ad group level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NegativeKeyword {
    pub id: Id,
    pub campaign_id: Id,
    pub ad_group_id: Option<Id>,
    pub ad_account_id: Id,
    pub text: String,
    pub match_type: MatchType,
    pub life: Lifecycle,
}

/// The two creative kinds the sandbox simulates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum CreativeType {
    DefaultProductPage,
    CustomProductPage,
    LocalAdsSearchCreative,
}

impl CreativeType {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            CreativeType::DefaultProductPage => "DEFAULT_PRODUCT_PAGE",
            CreativeType::CustomProductPage => "CUSTOM_PRODUCT_PAGE",
            CreativeType::LocalAdsSearchCreative => "LOCAL_ADS_SEARCH_CREATIVE",
        }
    }
}

/// An App Store product page of an owned app (made in App Store Connect, read-only in v1).
#[derive(Debug, Clone)]
pub struct ProductPage {
    /// ASC product page id (UUID-shaped).
    pub id: String,
    pub adam_id: i64,
    pub name: String,
    /// Whether it is a custom product page (else the app's default one).
    pub custom: bool,
    pub state: &'static str,
    pub created: OffsetDateTime,
}

/// A creative: an app's default or custom product page, usable by ads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Creative {
    pub id: Id,
    pub ad_account_id: Id,
    pub name: String,
    pub kind: CreativeType,
    pub adam_id: i64,
    pub product_page_id: String,
    pub life: Lifecycle,
}

/// An ad: a creative shown in an ad group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ad {
    pub id: Id,
    pub ad_group_id: Id,
    pub campaign_id: Id,
    pub ad_account_id: Id,
    pub creative_id: Id,
    pub name: String,
    pub life: Lifecycle,
}

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
    pub days: Option<std::sync::Arc<crate::sim::days::DayCache>>,
    /// A keyword's whole-day metrics set through `PUT /sandbox/keywords/{id}/metrics`
    /// (tests that need a known day), served instead of the model's for that day.
    pub set_days: std::collections::HashMap<Id, BTreeMap<Date, crate::metrics::Totals>>,
}

impl World {
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
