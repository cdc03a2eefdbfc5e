//! The world's plain entities: the statuses and match types of the wire, the lifecycle every
//! entity shares (its status over time, creation and deletion), ad accounts and apps, and
//! the ads side — product pages, creatives and ads.

use serde::{Deserialize, Serialize};
use time::{Date, OffsetDateTime};

use super::Id;
use super::timeline::Timeline;

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
