//! The provider as the workers see it: [`AppleAds`], the calls the product makes, behind a
//! trait object (`Arc<dyn AppleAds>`) so jobs can be tested with a stand-in and the
//! client stays swappable. [`Client`] implements it; [`AppleAdsExt`] adds typed helpers
//! (`query::<Campaign>`, …) on top of the JSON-level trait methods.

use std::future::Future;

use async_trait::async_trait;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::calls::{AdAccount, Me, Page, ProductPage};
use crate::client::Client;
use crate::error::{BulkItem, ProviderError};
use crate::idempotent::Created;
use crate::insights::{AppInfo, KeywordSuggestion};
use crate::metrics::MetricsSnapshot;

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

/// The Apple Ads calls the product uses. Errors are classified (see [`ProviderError`]):
/// jobs reschedule `RateLimited` without spending an attempt, retry `Retryable`, and fail
/// on `Permanent`/`Auth`.
#[async_trait]
pub trait AppleAds: Send + Sync {
    /// `GET /me`.
    async fn me(&self) -> Result<Me, ProviderError>;
    /// The ad accounts the credentials reach (`GET /acls`): id and name.
    async fn ad_accounts(&self) -> Result<Vec<(i64, String)>, ProviderError>;
    /// `GET /ad-accounts/{id}`.
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
    /// `POST /{entity}` exactly once: after an ambiguous failure or a `DUPLICATE_*`
    /// refusal the entity is looked up by `natural_key` (query filters) instead.
    async fn create_once_json(
        &self,
        account: i64,
        entity: Entity,
        body: &Value,
        natural_key: &Value,
    ) -> Result<Created<Value>, ProviderError>;
    /// `PUT /{entity}/{id}` with absolute values.
    async fn update_json(
        &self,
        account: i64,
        entity: Entity,
        id: i64,
        body: &Value,
    ) -> Result<Value, ProviderError>;
    /// `DELETE /{entity}/{id}`; an entity already deleted counts as deleted.
    async fn delete(&self, account: i64, entity: Entity, id: i64) -> Result<(), ProviderError>;
    /// `POST /{entity}/bulk-{op}` (`op`: create, update, delete) in chunks of ≤ 1000, with
    /// per-item outcomes.
    async fn bulk_json(
        &self,
        account: i64,
        entity: Entity,
        op: &str,
        items: &[Value],
    ) -> Result<Vec<BulkItem<Value>>, ProviderError>;
    /// `POST /reports/apps/{level}/query` (`campaigns`, `adgroups`, `keywords`,
    /// `searchterms`, `ads`): rows as JSON.
    async fn report(
        &self,
        account: i64,
        level: &str,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError>;
    /// `GET /product-pages/{id}`.
    async fn product_page(&self, account: i64, id: &str) -> Result<ProductPage, ProviderError>;
    /// `POST /suggestions/keywords/query` for an app, most popular first.
    async fn keyword_suggestions(
        &self,
        account: i64,
        adam_id: i64,
        text: Option<&str>,
        page_size: u32,
    ) -> Result<Vec<KeywordSuggestion>, ProviderError>;
    /// `POST /insights/apps/search-term-popularity/query`.
    async fn search_term_popularity(
        &self,
        account: i64,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError>;
    /// `POST /insights/apps/impression-share/query`.
    async fn impression_share(
        &self,
        account: i64,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError>;
    /// `GET /search/apps`.
    async fn search_apps(
        &self,
        account: i64,
        query: &str,
        owned: bool,
        limit: u32,
    ) -> Result<Vec<AppInfo>, ProviderError>;
    /// `GET /search/geo`.
    async fn search_geo(
        &self,
        account: i64,
        query: &str,
        entity: &str,
        country: Option<&str>,
    ) -> Result<Vec<Value>, ProviderError>;
    /// `POST /change-history/query`.
    async fn change_history(
        &self,
        account: i64,
        query: &Value,
    ) -> Result<Page<Value>, ProviderError>;
    /// `GET /change-history/{detailId}`.
    async fn change_details(
        &self,
        account: i64,
        detail_id: &str,
    ) -> Result<Vec<Value>, ProviderError>;
    /// The traffic counters so far.
    fn metrics(&self) -> MetricsSnapshot;
}

#[async_trait]
impl AppleAds for Client {
    async fn me(&self) -> Result<Me, ProviderError> {
        Client::me(self).await
    }
    async fn ad_accounts(&self) -> Result<Vec<(i64, String)>, ProviderError> {
        Client::ad_accounts(self).await
    }
    async fn ad_account(&self, id: i64) -> Result<AdAccount, ProviderError> {
        Client::ad_account(self, id).await
    }
    async fn query_json(
        &self,
        account: i64,
        entity: Entity,
        query: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        Client::query(self, account, entity.path(), query).await
    }
    async fn get_json(
        &self,
        account: i64,
        entity: Entity,
        id: i64,
    ) -> Result<Value, ProviderError> {
        Client::get(self, account, entity.path(), id).await
    }
    async fn create_once_json(
        &self,
        account: i64,
        entity: Entity,
        body: &Value,
        natural_key: &Value,
    ) -> Result<Created<Value>, ProviderError> {
        Client::create_once(self, account, entity.path(), body, natural_key).await
    }
    async fn update_json(
        &self,
        account: i64,
        entity: Entity,
        id: i64,
        body: &Value,
    ) -> Result<Value, ProviderError> {
        Client::update(self, account, entity.path(), id, body).await
    }
    async fn delete(&self, account: i64, entity: Entity, id: i64) -> Result<(), ProviderError> {
        Client::delete(self, account, entity.path(), id).await
    }
    async fn bulk_json(
        &self,
        account: i64,
        entity: Entity,
        op: &str,
        items: &[Value],
    ) -> Result<Vec<BulkItem<Value>>, ProviderError> {
        Client::bulk(self, account, entity.path(), op, items).await
    }
    async fn report(
        &self,
        account: i64,
        level: &str,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        Client::report(self, account, level, request).await
    }
    async fn product_page(&self, account: i64, id: &str) -> Result<ProductPage, ProviderError> {
        Client::product_page(self, account, id).await
    }
    async fn keyword_suggestions(
        &self,
        account: i64,
        adam_id: i64,
        text: Option<&str>,
        page_size: u32,
    ) -> Result<Vec<KeywordSuggestion>, ProviderError> {
        Client::keyword_suggestions(self, account, adam_id, text, page_size).await
    }
    async fn search_term_popularity(
        &self,
        account: i64,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        Client::search_term_popularity(self, account, request).await
    }
    async fn impression_share(
        &self,
        account: i64,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        Client::impression_share(self, account, request).await
    }
    async fn search_apps(
        &self,
        account: i64,
        query: &str,
        owned: bool,
        limit: u32,
    ) -> Result<Vec<AppInfo>, ProviderError> {
        Client::search_apps(self, account, query, owned, limit).await
    }
    async fn search_geo(
        &self,
        account: i64,
        query: &str,
        entity: &str,
        country: Option<&str>,
    ) -> Result<Vec<Value>, ProviderError> {
        Client::search_geo(self, account, query, entity, country).await
    }
    async fn change_history(
        &self,
        account: i64,
        query: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        Client::change_history(self, account, query).await
    }
    async fn change_details(
        &self,
        account: i64,
        detail_id: &str,
    ) -> Result<Vec<Value>, ProviderError> {
        Client::change_details(self, account, detail_id).await
    }
    fn metrics(&self) -> MetricsSnapshot {
        Client::metrics(self).snapshot()
    }
}

fn decode<T: DeserializeOwned>(value: Value) -> Result<T, ProviderError> {
    serde_json::from_value(value).map_err(|e| ProviderError::Decode(e.to_string()))
}

/// Typed helpers over any [`AppleAds`] (trait objects included).
pub trait AppleAdsExt: AppleAds {
    /// [`AppleAds::query_json`] decoded into `T` (e.g. `calls::Campaign`).
    fn query<T: DeserializeOwned>(
        &self,
        account: i64,
        entity: Entity,
        query: &Value,
    ) -> impl Future<Output = Result<Page<T>, ProviderError>> + Send {
        async move {
            let page = self.query_json(account, entity, query).await?;
            Ok(Page {
                total: page.total,
                items: page
                    .items
                    .into_iter()
                    .map(decode)
                    .collect::<Result<_, _>>()?,
            })
        }
    }

    /// [`AppleAds::get_json`] decoded into `T`.
    fn get<T: DeserializeOwned>(
        &self,
        account: i64,
        entity: Entity,
        id: i64,
    ) -> impl Future<Output = Result<T, ProviderError>> + Send {
        async move { decode(self.get_json(account, entity, id).await?) }
    }

    /// [`AppleAds::create_once_json`] decoded into `T`.
    fn create_once<T: DeserializeOwned>(
        &self,
        account: i64,
        entity: Entity,
        body: &Value,
        natural_key: &Value,
    ) -> impl Future<Output = Result<Created<T>, ProviderError>> + Send {
        async move {
            Ok(
                match self
                    .create_once_json(account, entity, body, natural_key)
                    .await?
                {
                    Created::New(v) => Created::New(decode(v)?),
                    Created::Existing(v) => Created::Existing(decode(v)?),
                },
            )
        }
    }

    /// [`AppleAds::update_json`] decoded into `T`.
    fn update<T: DeserializeOwned>(
        &self,
        account: i64,
        entity: Entity,
        id: i64,
        body: &Value,
    ) -> impl Future<Output = Result<T, ProviderError>> + Send {
        async move { decode(self.update_json(account, entity, id, body).await?) }
    }
}

impl<A: AppleAds + ?Sized> AppleAdsExt for A {}
