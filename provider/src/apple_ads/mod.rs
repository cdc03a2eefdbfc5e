//! The provider's one face: [`AppleAds`], every Apple Ads call the product makes, behind a
//! trait object (`Arc<dyn AppleAds>`) so the API's routes and the workers' jobs call the same
//! surface, tests can substitute a stand-in, and the client stays swappable. [`Client`](crate::Client)
//! implements each call once over its transport (`Client::call`: token, limiter,
//! retries, classification), one file per family of calls (`http` hands each to its
//! family); [`AppleAdsExt`] adds typed helpers (`query::<Campaign>`, …)
//! on top of the JSON-level trait methods. Entities are named by [`Entity`], never by a
//! string; paths, fields and filters are the wire names of the Apple Ads Platform API v1.
//!
//! This trait is the contract the sync, bulk-edit, suggester, campaign-creation and rule
//! jobs call: a new call is a new method here, documented with its endpoint.

use async_trait::async_trait;
use serde_json::Value;
use time::OffsetDateTime;

use crate::calls::{AdAccount, Me, Page, ProductPage};
use crate::error::{BulkItem, ProviderError};
use crate::idempotent::Created;
use crate::insights::{AppInfo, KeywordSuggestion};
use crate::metrics::MetricsSnapshot;
use crate::recommendations::{CategorySuggestion, PhraseSuggestion, Recommendation};

mod accounts;
mod changes;
mod entities;
mod ext;
mod http;
mod insights;
mod recommendations;
mod reports;
mod search;
mod suggestions;

pub use ext::AppleAdsExt;

/// The entities with create / query / get / update / delete endpoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Entity {
    Campaigns,
    AdGroups,
    Keywords,
    NegativeKeywords,
    Ads,
    Creatives,
    ProductPages,
}

impl Entity {
    /// The path segment of the entity (`/v1/{path}`, `/v1/{path}/query`).
    pub fn path(self) -> &'static str {
        match self {
            Entity::Campaigns => "campaigns",
            Entity::AdGroups => "adgroups",
            Entity::Keywords => "keywords",
            Entity::NegativeKeywords => "negative-keywords",
            Entity::Ads => "ads",
            Entity::Creatives => "creatives",
            Entity::ProductPages => "product-pages",
        }
    }
}

/// One entry of `GET /acls`: an ad account the credentials reach and the roles they have in
/// it (`API Account Manager`, `API Account Read Only`, …).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Acl {
    pub ad_account_id: i64,
    pub name: Option<String>,
    pub roles: Vec<String>,
}

/// The Apple Ads calls the product uses. Errors are classified (see [`ProviderError`]):
/// jobs reschedule `RateLimited` without spending an attempt, retry `Retryable`, and fail
/// on `Permanent`/`Auth`; routes answer them through the API's provider-error mapping.
/// `account` is the ad account (campaign group) a call acts in (`X-AP-Context`).
#[async_trait]
pub trait AppleAds: Send + Sync {
    /// `GET /me`: the Apple Ads user and organisation of the credentials.
    async fn me(&self) -> Result<Me, ProviderError>;
    /// `GET /acls`: the ad accounts the credentials reach, with their roles.
    async fn acls(&self) -> Result<Vec<Acl>, ProviderError>;
    /// `GET /ad-accounts/{id}`: name, currency and time zone.
    async fn ad_account(&self, id: i64) -> Result<AdAccount, ProviderError>;
    /// `POST /{entity}/query` (filters, sorting, pagination), rows as JSON.
    async fn query_json(
        &self,
        account: i64,
        entity: Entity,
        query: &Value,
    ) -> Result<Page<Value>, ProviderError>;
    /// `GET /{entity}/{id}`.
    async fn get_json(&self, account: i64, entity: Entity, id: i64)
    -> Result<Value, ProviderError>;
    /// `POST /{entity}`, once, without retries (see [`AppleAds::create_once_json`] for a
    /// create that may be repeated).
    async fn create_json(
        &self,
        account: i64,
        entity: Entity,
        body: &Value,
    ) -> Result<Value, ProviderError>;
    /// `POST /{entity}` exactly once: after an ambiguous failure or a `DUPLICATE_*`
    /// refusal the entity is looked up by `natural_key` (query filters; live entities only)
    /// instead of created again.
    async fn create_once_json(
        &self,
        account: i64,
        entity: Entity,
        body: &Value,
        natural_key: &Value,
    ) -> Result<Created<Value>, ProviderError>;
    /// `PUT /{entity}/{id}` with absolute values; the entity as the provider answers it.
    async fn update_json(
        &self,
        account: i64,
        entity: Entity,
        id: i64,
        body: &Value,
    ) -> Result<Value, ProviderError>;
    /// `DELETE /{entity}/{id}`; an entity already deleted (say by an earlier attempt whose
    /// answer was lost) counts as deleted.
    async fn delete(&self, account: i64, entity: Entity, id: i64) -> Result<(), ProviderError>;
    /// `POST /{entity}/bulk-{op}` (`op`: create, update, delete) in chunks of at most
    /// [`BULK_CHUNK`](crate::calls::BULK_CHUNK), partial success allowed; items are `data` objects, numbered by their
    /// index as correlation id, with per-item outcomes.
    async fn bulk_json(
        &self,
        account: i64,
        entity: Entity,
        op: &str,
        items: &[Value],
    ) -> Result<Vec<BulkItem<Value>>, ProviderError>;
    /// `POST /reports/apps/{level}/query` (`campaigns`, `adgroups`, `keywords`,
    /// `searchterms`, `ads`): rows as JSON, moved out of the answer.
    async fn report(
        &self,
        account: i64,
        level: &str,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError>;
    /// [`AppleAds::report`]'s answer as the text that came, for callers that decode its rows
    /// straight into their own types ([`AppleAdsExt::report_as`]): a keyword page of 5,000
    /// rows × 15 days is about 30 MB of text and several hundred MB as [`Value`]s.
    async fn report_text(
        &self,
        account: i64,
        level: &str,
        request: &Value,
    ) -> Result<String, ProviderError>;
    /// `GET /product-pages/{id}` (product page ids are strings).
    async fn product_page(&self, account: i64, id: &str) -> Result<ProductPage, ProviderError>;
    /// `POST /suggestions/keywords/query` for app `adam_id`, optionally narrowed to texts
    /// containing `text`, most popular first.
    async fn keyword_suggestions(
        &self,
        account: i64,
        adam_id: i64,
        text: Option<&str>,
        page_size: u32,
    ) -> Result<Vec<KeywordSuggestion>, ProviderError>;
    /// `POST /suggestions/phrases/query` for an app or campaign, most popular first.
    async fn phrase_suggestions(
        &self,
        account: i64,
        promoted_object_id: &str,
        page_size: u32,
    ) -> Result<Vec<PhraseSuggestion>, ProviderError>;
    /// `POST /suggestions/categories/query` for an app or campaign, its own category first.
    async fn category_suggestions(
        &self,
        account: i64,
        promoted_object_id: &str,
    ) -> Result<Vec<CategorySuggestion>, ProviderError>;
    /// `GET /apps/{adamId}`: the app's details (`AppDetails`), as JSON.
    async fn app_details(&self, account: i64, adam_id: i64) -> Result<Value, ProviderError>;
    /// `POST /insights/apps/search-term-popularity/query`
    /// (`SearchTermPopularityQueryRequest`).
    async fn search_term_popularity(
        &self,
        account: i64,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError>;
    /// `POST /insights/apps/impression-share/query` (`ImpressionShareQueryRequest`).
    async fn impression_share(
        &self,
        account: i64,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError>;
    /// `GET /search/apps`: apps matching `query`, only the account's own with `owned`.
    async fn search_apps(
        &self,
        account: i64,
        query: &str,
        owned: bool,
        limit: u32,
    ) -> Result<Vec<AppInfo>, ProviderError>;
    /// `GET /search/geo`: places matching `query`, of kind `entity` (Country, AdminArea,
    /// Locality) when given, optionally in `country`.
    async fn search_geo(
        &self,
        account: i64,
        query: &str,
        entity: Option<&str>,
        country: Option<&str>,
    ) -> Result<Vec<Value>, ProviderError>;
    /// `POST /search/geo`: the places of a `geoRequest` list (ids or legacy ids).
    async fn geo_lookup(&self, account: i64, request: &Value) -> Result<Vec<Value>, ProviderError>;
    /// `POST /change-history/query` (`query_audit_summary`; body `AuditQuery`, which must
    /// filter `eventTime`): `AuditSummary` rows as JSON (see
    /// [`AppleAdsExt::audit_summaries`] for them typed).
    async fn change_history(
        &self,
        account: i64,
        query: &Value,
    ) -> Result<Page<Value>, ProviderError>;
    /// `GET /change-history/{detailId}?limit=&offset=` (`get_change_details`): the
    /// `ChangeDetails` of one changed entity as JSON, its field changes paged by `limit` /
    /// `offset` (see [`AppleAdsExt::change_details_of`]).
    async fn change_details(
        &self,
        account: i64,
        detail_id: &str,
        limit: Option<u32>,
        offset: Option<u32>,
    ) -> Result<Page<Value>, ProviderError>;
    /// `POST /recommendations/{daily-budgets,target-cpas}/query`
    /// (`RecommendationQueryRequest`).
    async fn recommendations(
        &self,
        account: i64,
        kind: Recommendation,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError>;
    /// `POST …/apply` (`apply`) or `…/dismiss` of recommendation `id` of campaign
    /// `campaign_id`; `applied` is the body's applied amount field and value, if any.
    async fn decide_recommendation(
        &self,
        account: i64,
        kind: Recommendation,
        apply: bool,
        id: &str,
        campaign_id: i64,
        applied: Option<(&str, Value)>,
    ) -> Result<Vec<Value>, ProviderError>;
    /// The provider's time as of its latest answer (its `Date` header), or None before any
    /// answer carried one. The days of an ad account are the provider's: a sync asks this
    /// rather than the local clock, so it follows a sandbox whose clock was moved.
    fn server_time(&self) -> Option<OffsetDateTime>;
    /// The traffic counters so far.
    fn metrics_snapshot(&self) -> MetricsSnapshot;
}
