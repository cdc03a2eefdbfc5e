//! Pull connectors (docs/api/attribution.md "Pull"): what a provider's reporting API
//! answers, read into one shape — [`PulledRow`], one per install day, app, campaign, ad
//! group, keyword and claim type — by the provider clients (`searchdeck_provider::mmp`),
//! and turned here into the facts the reports sum ([`facts_of_day`], free of I/O), which
//! [`write`] stores day by day. The settings a user gives each provider's pull are
//! [`settings`]'s.

pub mod settings;
pub mod write;

mod allocate;

use std::collections::BTreeMap;

use searchdeck_model::attribution::{ClaimType, INSTALL_EVENT};

use crate::store::{
    attribution::{facts::Fact, pulled::KeywordText},
    report_facts::FactLevel,
};

pub use allocate::split_by_curve;

/// How a report row names its keyword.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeywordRef {
    /// Apple's keyword id (Adjust's `creative_id_network` of Apple Search Ads).
    Id(i64),
    /// The keyword's text (AppsFlyer's `af_keywords`), matched to the ad group's synced
    /// keyword of that text.
    Text(String),
    /// No keyword: Search Match found the install.
    None,
}

/// One in-app event's totals on a row: how many, and their revenue in micros.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PulledEvent {
    pub name: String,
    pub count: i64,
    pub revenue_micros: i64,
}

/// One row of a reporting API, in Apple's ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PulledRow {
    /// The install day (YYYY-MM-DD): the cohort.
    pub install_day: String,
    /// The app's Apple id (0 when the report did not name it).
    pub adam_id: i64,
    pub campaign_id: i64,
    pub ad_group_id: Option<i64>,
    pub keyword: KeywordRef,
    pub claim_type: Option<ClaimType>,
    pub installs: i64,
    pub events: Vec<PulledEvent>,
    /// The revenue of the row's installs so far, all events (micros of `currency`).
    pub revenue_micros: i64,
    /// The cohort curve: `(days after install, revenue of those days and before)`, days
    /// ascending; what the report gives (AppsFlyer's days 1, 3, 7, 14, 30). Revenue after
    /// the last point (or all of it, without points) is counted as later than day 30.
    pub curve: Vec<(i64, i64)>,
    /// ISO 4217; '' when the row has no revenue.
    pub currency: String,
}

/// Finds a keyword id for each (ad group, text): the synced keyword of that ad group with
/// that text (case-insensitive); of several (one text in two match types) the exact match,
/// then the lowest id — a report that names keywords by text cannot tell them apart.
#[derive(Debug, Default)]
pub struct Keywords {
    by_text: BTreeMap<(i64, String), (bool, i64)>,
}

impl Keywords {
    pub fn new(keywords: &[KeywordText]) -> Keywords {
        let mut by_text: BTreeMap<(i64, String), (bool, i64)> = BTreeMap::new();
        for k in keywords {
            let key = (k.ad_group_id, k.text.to_lowercase());
            let rank = (k.match_type != "EXACT", k.id);
            by_text
                .entry(key)
                .and_modify(|best| *best = (*best).min(rank))
                .or_insert(rank);
        }
        Keywords { by_text }
    }

    /// The keyword id a row names; None without a keyword or for a text no synced keyword
    /// of its ad group has (the row still counts for its ad group and campaign).
    pub fn id_of(&self, ad_group_id: Option<i64>, keyword: &KeywordRef) -> Option<i64> {
        match keyword {
            KeywordRef::Id(id) => Some(*id),
            KeywordRef::Text(text) => self
                .by_text
                .get(&(ad_group_id?, text.trim().to_lowercase()))
                .map(|(_, id)| *id),
            KeywordRef::None => None,
        }
    }
}

/// An owned fact: what [`facts_of_day`] answers, borrowed as a store `Fact` to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedFact {
    pub level: i64,
    pub entity_id: i64,
    pub adam_id: i64,
    pub event_name: String,
    pub age_days: i64,
    pub claim_type: String,
    pub currency: String,
    pub events: i64,
    pub revenue_micros: i64,
}

impl OwnedFact {
    /// The store's fact of `provider` on `install_day`.
    pub fn as_fact<'a>(&'a self, provider: &'a str, install_day: &'a str) -> Fact<'a> {
        Fact {
            level: self.level,
            entity_id: self.entity_id,
            install_day,
            provider,
            adam_id: self.adam_id,
            event_name: &self.event_name,
            age_days: self.age_days,
            claim_type: &self.claim_type,
            placement: "",
            currency: &self.currency,
            events: self.events,
            revenue_micros: self.revenue_micros,
        }
    }
}

/// A fact's key within a provider's day: level, entity, app, event name, days after
/// install, claim type, currency.
type FactKey = (i64, i64, i64, String, i64, String, String);

/// The facts of one install day's rows, merged by key: each row counts for its campaign,
/// its ad group and its keyword; its installs at day 0 (event `install`), each event's count
/// at day 0 and its revenue split over the days after install as the row's cohort curve
/// splits all its revenue ([`split_by_curve`]). Reporting APIs give no placement.
pub fn facts_of_day(rows: &[PulledRow], keywords: &Keywords) -> Vec<OwnedFact> {
    let mut merged: BTreeMap<FactKey, (i64, i64)> = BTreeMap::new();
    for row in rows {
        let levels = [
            (FactLevel::Campaign, Some(row.campaign_id)),
            (FactLevel::AdGroup, row.ad_group_id),
            (
                FactLevel::Keyword,
                keywords.id_of(row.ad_group_id, &row.keyword),
            ),
        ];
        let claim = row
            .claim_type
            .map(|c| c.name().to_string())
            .unwrap_or_default();
        let mut cells: Vec<(String, i64, String, i64, i64)> = Vec::new();
        if row.installs != 0 {
            cells.push((INSTALL_EVENT.to_string(), 0, String::new(), row.installs, 0));
        }
        for event in &row.events {
            let split = split_by_curve(event.revenue_micros, row.revenue_micros, &row.curve);
            let day0 = split
                .iter()
                .find(|(age, _)| *age == 0)
                .map_or(0, |(_, r)| *r);
            let currency = if event.revenue_micros == 0 {
                ""
            } else {
                row.currency.as_str()
            };
            if event.count != 0 || day0 != 0 {
                cells.push((
                    event.name.clone(),
                    0,
                    currency.to_string(),
                    event.count,
                    day0,
                ));
            }
            for (age, revenue) in split.into_iter().filter(|(age, r)| *age != 0 && *r != 0) {
                cells.push((event.name.clone(), age, currency.to_string(), 0, revenue));
            }
        }
        for (level, id) in levels {
            let Some(id) = id else { continue };
            for (name, age, currency, events, revenue) in &cells {
                let key = (
                    level.code(),
                    id,
                    row.adam_id,
                    name.clone(),
                    *age,
                    claim.clone(),
                    currency.clone(),
                );
                let cell = merged.entry(key).or_default();
                cell.0 += events;
                cell.1 += revenue;
            }
        }
    }
    merged
        .into_iter()
        .map(
            |(
                (level, entity_id, adam_id, event_name, age_days, claim_type, currency),
                (events, revenue_micros),
            )| {
                OwnedFact {
                    level,
                    entity_id,
                    adam_id,
                    event_name,
                    age_days,
                    claim_type,
                    currency,
                    events,
                    revenue_micros,
                }
            },
        )
        .collect()
}

/// The rows of each install day, days ascending.
pub fn by_day(rows: Vec<PulledRow>) -> BTreeMap<String, Vec<PulledRow>> {
    let mut out: BTreeMap<String, Vec<PulledRow>> = BTreeMap::new();
    for row in rows {
        out.entry(row.install_day.clone()).or_default().push(row);
    }
    out
}

#[cfg(test)]
mod tests;
