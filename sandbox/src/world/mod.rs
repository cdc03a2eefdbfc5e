//! The sandbox's synthetic world: ad accounts, apps, campaigns, ad groups, keywords,
//! negative keywords and ads, generated deterministically from a seed and mutated by
//! writes through the API. Daily metrics are not stored; [`crate::metrics`] derives them.

pub mod audit;
pub mod generate;
pub mod money;
pub mod timeline;
pub(crate) mod words;

use std::collections::BTreeMap;

use time::{Date, OffsetDateTime};

pub use generate::{WorldConfig, WorldSize};
use timeline::Timeline;

/// Identifier of any entity; one counter serves all kinds so ids never collide.
pub type Id = i64;

/// The two user-settable states of campaigns, ad groups, keywords and ads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
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
#[derive(Debug, Clone)]
pub struct Lifecycle {
    pub status: Timeline<Status>,
    pub created: OffsetDateTime,
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
#[derive(Debug, Clone)]
pub struct Campaign {
    pub id: Id,
    pub ad_account_id: Id,
    pub name: String,
    pub adam_id: i64,
    pub countries: Vec<String>,
    /// Daily budget in micros; changes apply from the next simulated day.
    pub daily_budget: Timeline<i64>,
    pub start_time: OffsetDateTime,
    pub end_time: Option<OffsetDateTime>,
    pub life: Lifecycle,
}

/// An ad group: bids, CPA cap, search match and audience targeting.
#[derive(Debug, Clone)]
pub struct AdGroup {
    pub id: Id,
    pub campaign_id: Id,
    pub ad_account_id: Id,
    pub name: String,
    pub default_bid: i64,
    pub cpa_cap: Option<i64>,
    pub automated_keywords_opt_in: bool,
    pub device_classes: Vec<&'static str>,
    pub start_time: OffsetDateTime,
    pub end_time: Option<OffsetDateTime>,
    pub life: Lifecycle,
}

/// A bidded keyword with its simulated market.
#[derive(Debug, Clone)]
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
#[derive(Debug, Clone)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
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
#[derive(Debug, Clone)]
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
#[derive(Debug, Clone)]
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
    /// The simulated "today"; metrics exist for the 400 days up to and including it.
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
    next_id: Id,
    next_txn: u64,
    /// The transaction writes are recorded under (one per write request).
    pub current_txn: String,
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
        self.today - time::Duration::days(399)
    }

    /// The day writes take effect: the next simulated day.
    pub fn effective_day(&self) -> Date {
        self.today.next_day().expect("date in range")
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
