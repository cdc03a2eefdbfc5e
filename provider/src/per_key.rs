//! One connection, several keys: Apple grants API access per key, and two keys of the same
//! Apple Ads user may reach different campaign groups (ad accounts). [`PerKey`] is the
//! connection's [`AppleAds`]: each call goes to the key that serves the campaign group it
//! acts in (its `account` argument, the `X-AP-Context` org), the first key for every group
//! no other key is assigned. `GET /acls` is the union of every key's groups, so a
//! connection lists and syncs all the groups its keys reach. Which key serves which group is
//! decided when a key is added (`api::routes::accounts::connect`) and stored with it
//! (`store::accounts::ExtraKey::org_ids`).

use std::collections::HashSet;
use std::sync::Arc;

use async_trait::async_trait;
use searchdeck_common::stored_credentials::StoredKeys;
use serde_json::Value;
use time::OffsetDateTime;

use crate::apple_ads::{Acl, AppleAds, Entity};
use crate::calls::{AdAccount, Me, Page, ProductPage};
use crate::credentials::Credentials;
use crate::error::{BulkItem, ProviderError};
use crate::idempotent::Created;
use crate::insights::{AppInfo, KeywordSuggestion};
use crate::metrics::MetricsSnapshot;
use crate::recommendations::{CategorySuggestion, PhraseSuggestion, Recommendation};

/// A connection's keys: the first, and each further key with the groups it serves.
pub struct PerKey {
    first: Arc<dyn AppleAds>,
    beside: Vec<(Vec<i64>, Arc<dyn AppleAds>)>,
}

impl PerKey {
    /// The client of a connection whose keys are `first` and `beside` (the connection's one
    /// client when there is no other key).
    pub fn connection(
        first: Arc<dyn AppleAds>,
        beside: Vec<(Vec<i64>, Arc<dyn AppleAds>)>,
    ) -> Arc<dyn AppleAds> {
        if beside.is_empty() {
            first
        } else {
            Arc::new(PerKey { first, beside })
        }
    }

    /// The client of a stored connection's opened `keys`, each key's client made by `build`
    /// (over the process's shared limiter and counters); `invalid` turns a stored key that
    /// does not read into the caller's error.
    pub fn of_stored<E>(
        keys: StoredKeys,
        build: impl Fn(Credentials) -> Result<Arc<dyn AppleAds>, E>,
        invalid: impl Fn(String) -> E,
    ) -> Result<Arc<dyn AppleAds>, E> {
        let first = build(Credentials::from_stored(keys.first).map_err(&invalid)?)?;
        let beside = keys
            .beside
            .into_iter()
            .map(|(orgs, stored)| {
                Ok((
                    orgs,
                    build(Credentials::from_stored(stored).map_err(&invalid)?)?,
                ))
            })
            .collect::<Result<_, E>>()?;
        Ok(PerKey::connection(first, beside))
    }

    /// The key that serves campaign group `account`.
    fn key(&self, account: i64) -> &dyn AppleAds {
        self.beside
            .iter()
            .find(|(orgs, _)| orgs.contains(&account))
            .map_or(self.first.as_ref(), |(_, key)| key.as_ref())
    }
}

#[async_trait]
impl AppleAds for PerKey {
    /// The first key's user and organisation (every key of a connection is the same user's).
    async fn me(&self) -> Result<Me, ProviderError> {
        self.first.me().await
    }

    /// Every key's groups, each once (the first key's answer first).
    async fn acls(&self) -> Result<Vec<Acl>, ProviderError> {
        let mut all = self.first.acls().await?;
        let mut seen: HashSet<i64> = all.iter().map(|a| a.ad_account_id).collect();
        for (_, key) in &self.beside {
            for acl in key.acls().await? {
                if seen.insert(acl.ad_account_id) {
                    all.push(acl);
                }
            }
        }
        Ok(all)
    }

    async fn ad_account(&self, id: i64) -> Result<AdAccount, ProviderError> {
        self.key(id).ad_account(id).await
    }

    async fn query_json(
        &self,
        account: i64,
        entity: Entity,
        query: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        self.key(account).query_json(account, entity, query).await
    }

    async fn get_json(
        &self,
        account: i64,
        entity: Entity,
        id: i64,
    ) -> Result<Value, ProviderError> {
        self.key(account).get_json(account, entity, id).await
    }

    async fn create_json(
        &self,
        account: i64,
        entity: Entity,
        body: &Value,
    ) -> Result<Value, ProviderError> {
        self.key(account).create_json(account, entity, body).await
    }

    async fn create_once_json(
        &self,
        account: i64,
        entity: Entity,
        body: &Value,
        natural_key: &Value,
    ) -> Result<Created<Value>, ProviderError> {
        self.key(account)
            .create_once_json(account, entity, body, natural_key)
            .await
    }

    async fn update_json(
        &self,
        account: i64,
        entity: Entity,
        id: i64,
        body: &Value,
    ) -> Result<Value, ProviderError> {
        self.key(account)
            .update_json(account, entity, id, body)
            .await
    }

    async fn delete(&self, account: i64, entity: Entity, id: i64) -> Result<(), ProviderError> {
        self.key(account).delete(account, entity, id).await
    }

    async fn bulk_json(
        &self,
        account: i64,
        entity: Entity,
        op: &str,
        items: &[Value],
    ) -> Result<Vec<BulkItem<Value>>, ProviderError> {
        self.key(account)
            .bulk_json(account, entity, op, items)
            .await
    }

    async fn report(
        &self,
        account: i64,
        level: &str,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        self.key(account).report(account, level, request).await
    }

    async fn report_text(
        &self,
        account: i64,
        level: &str,
        request: &Value,
    ) -> Result<String, ProviderError> {
        self.key(account).report_text(account, level, request).await
    }

    async fn product_page(&self, account: i64, id: &str) -> Result<ProductPage, ProviderError> {
        self.key(account).product_page(account, id).await
    }

    async fn keyword_suggestions(
        &self,
        account: i64,
        adam_id: i64,
        text: Option<&str>,
        page_size: u32,
    ) -> Result<Vec<KeywordSuggestion>, ProviderError> {
        self.key(account)
            .keyword_suggestions(account, adam_id, text, page_size)
            .await
    }

    async fn phrase_suggestions(
        &self,
        account: i64,
        promoted_object_id: &str,
        page_size: u32,
    ) -> Result<Vec<PhraseSuggestion>, ProviderError> {
        self.key(account)
            .phrase_suggestions(account, promoted_object_id, page_size)
            .await
    }

    async fn category_suggestions(
        &self,
        account: i64,
        promoted_object_id: &str,
    ) -> Result<Vec<CategorySuggestion>, ProviderError> {
        self.key(account)
            .category_suggestions(account, promoted_object_id)
            .await
    }

    async fn app_details(&self, account: i64, adam_id: i64) -> Result<Value, ProviderError> {
        self.key(account).app_details(account, adam_id).await
    }

    async fn search_term_popularity(
        &self,
        account: i64,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        self.key(account)
            .search_term_popularity(account, request)
            .await
    }

    async fn impression_share(
        &self,
        account: i64,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        self.key(account).impression_share(account, request).await
    }

    async fn search_apps(
        &self,
        account: i64,
        query: &str,
        owned: bool,
        limit: u32,
    ) -> Result<Vec<AppInfo>, ProviderError> {
        self.key(account)
            .search_apps(account, query, owned, limit)
            .await
    }

    async fn search_geo(
        &self,
        account: i64,
        query: &str,
        entity: Option<&str>,
        country: Option<&str>,
    ) -> Result<Vec<Value>, ProviderError> {
        self.key(account)
            .search_geo(account, query, entity, country)
            .await
    }

    async fn geo_lookup(&self, account: i64, request: &Value) -> Result<Vec<Value>, ProviderError> {
        self.key(account).geo_lookup(account, request).await
    }

    async fn change_history(
        &self,
        account: i64,
        query: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        self.key(account).change_history(account, query).await
    }

    async fn change_details(
        &self,
        account: i64,
        detail_id: &str,
        limit: Option<u32>,
        offset: Option<u32>,
    ) -> Result<Page<Value>, ProviderError> {
        self.key(account)
            .change_details(account, detail_id, limit, offset)
            .await
    }

    async fn recommendations(
        &self,
        account: i64,
        kind: Recommendation,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        self.key(account)
            .recommendations(account, kind, request)
            .await
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
        self.key(account)
            .decide_recommendation(account, kind, apply, id, campaign_id, applied)
            .await
    }

    /// The latest provider time any key has seen.
    fn server_time(&self) -> Option<OffsetDateTime> {
        std::iter::once(&self.first)
            .chain(self.beside.iter().map(|(_, key)| key))
            .filter_map(|key| key.server_time())
            .max()
    }

    /// The first key's counters (every key of a process shares them).
    fn metrics_snapshot(&self) -> MetricsSnapshot {
        self.first.metrics_snapshot()
    }
}
