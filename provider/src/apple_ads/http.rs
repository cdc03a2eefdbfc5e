//! [`AppleAds`] as [`Client`] implements it over HTTP: each call hands over to the file of
//! its family (accounts, entities, reports, suggestions, insights, search, change history,
//! recommendations), which holds its path, body and the reading of Apple's answer.

use async_trait::async_trait;
use serde_json::Value;
use time::OffsetDateTime;

use super::{
    Acl, AppleAds, Entity, accounts, changes, entities, insights, recommendations, reports, search,
    suggestions,
};
use crate::calls::{AdAccount, Me, Page, ProductPage};
use crate::client::Client;
use crate::error::{BulkItem, ProviderError};
use crate::idempotent::Created;
use crate::insights::{AppInfo, KeywordSuggestion};
use crate::metrics::MetricsSnapshot;
use crate::recommendations::{CategorySuggestion, PhraseSuggestion, Recommendation};

#[async_trait]
impl AppleAds for Client {
    async fn me(&self) -> Result<Me, ProviderError> {
        accounts::me(self).await
    }

    async fn acls(&self) -> Result<Vec<Acl>, ProviderError> {
        accounts::acls(self).await
    }

    async fn ad_account(&self, id: i64) -> Result<AdAccount, ProviderError> {
        accounts::ad_account(self, id).await
    }

    async fn query_json(
        &self,
        account: i64,
        entity: Entity,
        query: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        entities::query_json(self, account, entity, query).await
    }

    async fn get_json(
        &self,
        account: i64,
        entity: Entity,
        id: i64,
    ) -> Result<Value, ProviderError> {
        entities::get_json(self, account, entity, id).await
    }

    async fn create_json(
        &self,
        account: i64,
        entity: Entity,
        body: &Value,
    ) -> Result<Value, ProviderError> {
        entities::create_json(self, account, entity, body).await
    }

    async fn create_once_json(
        &self,
        account: i64,
        entity: Entity,
        body: &Value,
        natural_key: &Value,
    ) -> Result<Created<Value>, ProviderError> {
        entities::create_once_json(self, account, entity, body, natural_key).await
    }

    async fn update_json(
        &self,
        account: i64,
        entity: Entity,
        id: i64,
        body: &Value,
    ) -> Result<Value, ProviderError> {
        entities::update_json(self, account, entity, id, body).await
    }

    async fn delete(&self, account: i64, entity: Entity, id: i64) -> Result<(), ProviderError> {
        entities::delete(self, account, entity, id).await
    }

    async fn bulk_json(
        &self,
        account: i64,
        entity: Entity,
        op: &str,
        items: &[Value],
    ) -> Result<Vec<BulkItem<Value>>, ProviderError> {
        entities::bulk_json(self, account, entity, op, items).await
    }

    async fn product_page(&self, account: i64, id: &str) -> Result<ProductPage, ProviderError> {
        entities::product_page(self, account, id).await
    }

    async fn report(
        &self,
        account: i64,
        level: &str,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        reports::report(self, account, level, request).await
    }

    async fn report_text(
        &self,
        account: i64,
        level: &str,
        request: &Value,
    ) -> Result<String, ProviderError> {
        reports::report_text(self, account, level, request).await
    }

    async fn keyword_suggestions(
        &self,
        account: i64,
        adam_id: i64,
        text: Option<&str>,
        page_size: u32,
    ) -> Result<Vec<KeywordSuggestion>, ProviderError> {
        suggestions::keyword_suggestions(self, account, adam_id, text, page_size).await
    }

    async fn phrase_suggestions(
        &self,
        account: i64,
        promoted_object_id: &str,
        page_size: u32,
    ) -> Result<Vec<PhraseSuggestion>, ProviderError> {
        suggestions::phrase_suggestions(self, account, promoted_object_id, page_size).await
    }

    async fn category_suggestions(
        &self,
        account: i64,
        promoted_object_id: &str,
    ) -> Result<Vec<CategorySuggestion>, ProviderError> {
        suggestions::category_suggestions(self, account, promoted_object_id).await
    }

    async fn app_details(&self, account: i64, adam_id: i64) -> Result<Value, ProviderError> {
        suggestions::app_details(self, account, adam_id).await
    }

    async fn search_term_popularity(
        &self,
        account: i64,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        insights::search_term_popularity(self, account, request).await
    }

    async fn impression_share(
        &self,
        account: i64,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        insights::impression_share(self, account, request).await
    }

    async fn search_apps(
        &self,
        account: i64,
        query: &str,
        owned: bool,
        limit: u32,
    ) -> Result<Vec<AppInfo>, ProviderError> {
        search::search_apps(self, account, query, owned, limit).await
    }

    async fn search_geo(
        &self,
        account: i64,
        query: &str,
        entity: Option<&str>,
        country: Option<&str>,
    ) -> Result<Vec<Value>, ProviderError> {
        search::search_geo(self, account, query, entity, country).await
    }

    async fn geo_lookup(&self, account: i64, request: &Value) -> Result<Vec<Value>, ProviderError> {
        search::geo_lookup(self, account, request).await
    }

    async fn change_history(
        &self,
        account: i64,
        query: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        changes::change_history(self, account, query).await
    }

    async fn change_details(
        &self,
        account: i64,
        detail_id: &str,
        limit: Option<u32>,
        offset: Option<u32>,
    ) -> Result<Page<Value>, ProviderError> {
        changes::change_details(self, account, detail_id, limit, offset).await
    }

    async fn recommendations(
        &self,
        account: i64,
        kind: Recommendation,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        recommendations::recommendations(self, account, kind, request).await
    }

    async fn decide_recommendation(
        &self,
        account: i64,
        kind: Recommendation,
        apply: bool,
        id: &str,
        campaign_id: i64,
        applied: Option<(&str, Value)>,
    ) -> Result<Vec<Value>, ProviderError> {
        recommendations::decide_recommendation(self, account, kind, apply, id, campaign_id, applied)
            .await
    }

    fn server_time(&self) -> Option<OffsetDateTime> {
        self.server_date()
    }

    fn metrics_snapshot(&self) -> MetricsSnapshot {
        self.metrics().snapshot()
    }
}
