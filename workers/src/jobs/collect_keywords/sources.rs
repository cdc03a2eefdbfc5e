//! The collection's sources, each behind a trait so a test or the benchmark can substitute
//! it: the App Store ([`StoreSource`]: search hints, app lookup, app search) and Apple Ads
//! ([`AdsSource`]: keyword, phrase and category suggestions and batched search-term
//! popularity), with their real implementations over `searchdeck_provider` ([`AppStore`],
//! [`AppleAdsSource`] over the [`AppleAds`] trait), and the campaign group's own synced data
//! ([`OwnData`], read from the stores before the collection starts).

use std::{collections::HashMap, sync::Arc};

use async_trait::async_trait;
use searchdeck_common::{
    Db,
    store::{
        self,
        report_facts::{self, FactLevel, Scope},
    },
    suggester::{BidOn, NegatedIn, key},
};
use searchdeck_provider::{AppStore, AppleAds, ProviderError, appstore::StoreApp};
use serde_json::json;
use time::{Duration, OffsetDateTime, Weekday};

/// The public App Store.
#[async_trait]
pub trait StoreSource: Send + Sync {
    /// Search completions of `term` in `country`'s storefront (none when the storefront is
    /// unknown).
    async fn hints(&self, term: &str, country: &str) -> Result<Vec<String>, ProviderError>;
    /// Apps `ids` as sold in `country`.
    async fn lookup(&self, ids: &[i64], country: &str) -> Result<Vec<StoreApp>, ProviderError>;
    /// Apps matching `term`, best first.
    async fn search(
        &self,
        term: &str,
        country: &str,
        limit: u32,
    ) -> Result<Vec<StoreApp>, ProviderError>;
}

#[async_trait]
impl StoreSource for AppStore {
    async fn hints(&self, term: &str, country: &str) -> Result<Vec<String>, ProviderError> {
        if searchdeck_provider::appstore::storefront(country).is_none() {
            return Ok(vec![]);
        }
        Ok(AppStore::hints(self, term, country)
            .await?
            .into_iter()
            .map(|h| h.term)
            .collect())
    }

    async fn lookup(&self, ids: &[i64], country: &str) -> Result<Vec<StoreApp>, ProviderError> {
        AppStore::lookup(self, ids, country).await
    }

    async fn search(
        &self,
        term: &str,
        country: &str,
        limit: u32,
    ) -> Result<Vec<StoreApp>, ProviderError> {
        AppStore::search(self, term, country, limit).await
    }
}

/// Apple Ads, for one campaign group.
#[async_trait]
pub trait AdsSource: Send + Sync {
    /// Keyword suggestions for the app (containing `text` when given), with popularity.
    async fn keywords(
        &self,
        adam_id: i64,
        text: Option<&str>,
    ) -> Result<Vec<(String, u8)>, ProviderError>;
    /// Seed phrase suggestions for the app.
    async fn phrases(&self, adam_id: i64) -> Result<Vec<(String, u8)>, ProviderError>;
    /// App Store category suggestions for the app, its own first.
    async fn categories(&self, adam_id: i64) -> Result<Vec<(String, u8)>, ProviderError>;
    /// Search popularity (1–100) of `terms` in `country`, by term as sent; terms Apple has
    /// no popularity for are left out. One call per batch the caller makes.
    async fn popularity(
        &self,
        terms: &[String],
        country: &str,
    ) -> Result<HashMap<String, u8>, ProviderError>;
}

/// Most suggestions asked for per call: the largest page Apple Ads serves.
const SUGGESTIONS_PAGE: u32 = 1000;
/// Weeks of popularity asked for (the newest a term has counts).
const POPULARITY_WEEKS: i64 = 4;

/// [`AdsSource`] over the provider's [`AppleAds`] for campaign group `org_id`.
pub struct AppleAdsSource {
    pub ads: Arc<dyn AppleAds>,
    pub org_id: i64,
}

/// The last complete Sunday–Saturday week before `today`: (its Sunday, its Saturday).
pub fn last_week(today: time::Date) -> (time::Date, time::Date) {
    let back = i64::from(today.weekday().number_days_from_sunday()) + 1;
    let saturday = today - Duration::days(back);
    debug_assert_eq!(saturday.weekday(), Weekday::Saturday);
    (saturday - Duration::days(6), saturday)
}

#[async_trait]
impl AdsSource for AppleAdsSource {
    async fn keywords(
        &self,
        adam_id: i64,
        text: Option<&str>,
    ) -> Result<Vec<(String, u8)>, ProviderError> {
        let found = self
            .ads
            .keyword_suggestions(self.org_id, adam_id, text, SUGGESTIONS_PAGE)
            .await?;
        Ok(found.into_iter().map(|k| (k.text, k.popularity)).collect())
    }

    async fn phrases(&self, adam_id: i64) -> Result<Vec<(String, u8)>, ProviderError> {
        let found = self
            .ads
            .phrase_suggestions(self.org_id, &adam_id.to_string(), SUGGESTIONS_PAGE)
            .await?;
        Ok(found
            .into_iter()
            .map(|p| (p.phrase, p.popularity))
            .collect())
    }

    async fn categories(&self, adam_id: i64) -> Result<Vec<(String, u8)>, ProviderError> {
        let found = self
            .ads
            .category_suggestions(self.org_id, &adam_id.to_string())
            .await?;
        Ok(found
            .into_iter()
            .map(|c| (c.category, c.popularity))
            .collect())
    }

    async fn popularity(
        &self,
        terms: &[String],
        country: &str,
    ) -> Result<HashMap<String, u8>, ProviderError> {
        if terms.is_empty() {
            return Ok(HashMap::new());
        }
        // The last four complete weeks: Apple publishes a week on the Monday after it, and
        // a term may miss a week's ranking; the newest week a term has is its popularity.
        let (start, end) = last_week(OffsetDateTime::now_utc().date());
        let start = start - Duration::days(7 * (POPULARITY_WEEKS - 1));
        let request = json!({
            "timeRange": {"start": start.to_string(), "end": end.to_string(),
                          "granularity": "WEEKLY_SUN_SAT", "timeZone": "UTC"},
            "filters": [
                {"field": "countryOrRegion", "operator": "EQUALS", "value": [country]},
                {"field": "searchTerm", "operator": "IN", "value": terms},
            ],
            "pagination": {"offset": 0, "pageSize": 5000},
        });
        let page = self
            .ads
            .search_term_popularity(self.org_id, &request)
            .await?;
        // A term ranks in every genre it is searched in, with one overall popularity
        // (`searchPopularity1to100`) per week.
        let mut newest: HashMap<String, (String, u8)> = HashMap::new();
        for row in page.items {
            let (Some(term), Some(p)) = (
                row["searchTerm"].as_str(),
                row["searchPopularity1to100"].as_u64(),
            ) else {
                continue;
            };
            let week = row["week"].as_str().unwrap_or_default().to_string();
            let p = p.clamp(1, 100) as u8;
            let entry = newest.entry(key(term)).or_insert((week.clone(), p));
            if week > entry.0 || (week == entry.0 && p > entry.1) {
                *entry = (week, p);
            }
        }
        let out = newest.into_iter().map(|(k, (_, p))| (k, p)).collect();
        Ok(out)
    }
}

/// What the campaign group already has, read from the synced stores: the search terms with
/// traffic of the app's campaigns (last 90 days of synced reports), and where each keyword text is bid on or
/// negated (by dedupe key).
#[derive(Debug, Clone, Default)]
pub struct OwnData {
    /// Texts of search terms with impressions, most impressions first.
    pub search_terms: Vec<String>,
    pub bid_on: HashMap<String, Vec<BidOn>>,
    pub negated_in: HashMap<String, Vec<NegatedIn>>,
}

/// How far back the own search terms' traffic is read.
pub const SEARCH_TERM_DAYS: i64 = 90;

impl OwnData {
    /// The synced data of campaign group `org_key` for app `adam_id` (none when the group
    /// has not been synced).
    pub async fn load(db: &Db, org_key: Option<i64>, adam_id: i64) -> Result<OwnData, sqlx::Error> {
        let Some(org_key) = org_key else {
            return Ok(OwnData::default());
        };
        let mut own = OwnData::default();
        for (text, match_type, campaign_id, campaign_name, ad_group_id, ad_group_name) in
            store::suggester::keyword_places(&db.pool, org_key).await?
        {
            own.bid_on.entry(key(&text)).or_default().push(BidOn {
                campaign_id: campaign_id.to_string(),
                campaign_name,
                ad_group_id: ad_group_id.to_string(),
                ad_group_name,
                match_type,
            });
        }
        for (text, campaign_id, campaign_name, ad_group_id) in
            store::suggester::negative_places(&db.pool, org_key).await?
        {
            own.negated_in
                .entry(key(&text))
                .or_default()
                .push(NegatedIn {
                    campaign_id: campaign_id.to_string(),
                    campaign_name,
                    ad_group_id: ad_group_id.map(|id| id.to_string()),
                });
        }
        let texts: HashMap<i64, String> =
            store::suggester::search_terms(&db.pool, org_key, adam_id)
                .await?
                .into_iter()
                .collect();
        if !texts.is_empty() {
            let today = OffsetDateTime::now_utc().date();
            let sums = report_facts::range_naive(
                db,
                org_key,
                FactLevel::SearchTerm,
                today - Duration::days(SEARCH_TERM_DAYS),
                today,
                Scope::default(),
            )
            .await?;
            let mut by_text: HashMap<String, (String, i64)> = HashMap::new();
            for s in sums.iter().filter(|s| s.counters.impressions() > 0) {
                if let Some(text) = texts.get(&s.entity_id) {
                    let e = by_text
                        .entry(key(text))
                        .or_insert_with(|| (text.clone(), 0));
                    e.1 += s.counters.impressions();
                }
            }
            let mut terms: Vec<(String, i64)> = by_text.into_values().collect();
            terms.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            own.search_terms = terms.into_iter().map(|(t, _)| t).collect();
        }
        Ok(own)
    }
}
