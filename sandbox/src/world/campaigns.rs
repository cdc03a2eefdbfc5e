//! The campaign tree: campaigns (their countries and daily budget over time), ad groups
//! (their settings before each change, for the days they applied), keywords and negative
//! keywords.

use serde::{Deserialize, Serialize};
use time::{Date, OffsetDateTime};

use super::statics;
use super::timeline::Timeline;
use super::{Id, Lifecycle, MatchType};

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
