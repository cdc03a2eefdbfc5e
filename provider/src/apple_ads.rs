//! The provider's one face: [`AppleAds`], every Apple Ads call the product makes, behind a
//! trait object (`Arc<dyn AppleAds>`) so the API's routes and the workers' jobs call the same
//! surface, tests can substitute a stand-in, and the client stays swappable. [`Client`]
//! implements each call once, here, over its transport (`Client::call`: token, limiter,
//! retries, classification); [`AppleAdsExt`] adds typed helpers (`query::<Campaign>`, …)
//! on top of the JSON-level trait methods. Entities are named by [`Entity`], never by a
//! string; paths, fields and filters are the wire names of the Apple Ads Platform API v1.
//!
//! This trait is the contract the sync, bulk-edit, suggester, campaign-creation and rule
//! jobs call: a new call is a new method here, documented with its endpoint.

use std::future::Future;

use async_trait::async_trait;
use reqwest::Method;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::calls::{AdAccount, BULK_CHUNK, Me, Page, ProductPage, bulk_items, result};
use crate::client::Client;
use crate::error::{BulkItem, ProviderError};
use crate::history::{AuditQuery, AuditSummary, ChangeDetails};
use crate::idempotent::Created;
use crate::insights::{AppInfo, KeywordSuggestion, encode, page_of};
use crate::metrics::MetricsSnapshot;
use crate::recommendations::{CategorySuggestion, PhraseSuggestion, Recommendation, promoted};

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
    /// [`BULK_CHUNK`], partial success allowed; items are `data` objects, numbered by their
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

#[async_trait]
impl AppleAds for Client {
    async fn me(&self) -> Result<Me, ProviderError> {
        result(self.call(Method::GET, "/me", None, None).await?)
    }

    async fn acls(&self) -> Result<Vec<Acl>, ProviderError> {
        let body = self.call(Method::GET, "/acls", None, None).await?;
        let acls = body["result"]["acls"].as_array().map_or(&[][..], |a| a);
        Ok(acls
            .iter()
            .filter_map(|a| {
                Some(Acl {
                    ad_account_id: a["adAccount"]["id"].as_i64()?,
                    name: a["adAccount"]["name"].as_str().map(str::to_string),
                    roles: a["roles"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|r| r.as_str().map(str::to_string))
                        .collect(),
                })
            })
            .collect())
    }

    async fn ad_account(&self, id: i64) -> Result<AdAccount, ProviderError> {
        result(
            self.call(Method::GET, &format!("/ad-accounts/{id}"), Some(id), None)
                .await?,
        )
    }

    async fn query_json(
        &self,
        account: i64,
        entity: Entity,
        query: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        let path = format!("/{}/query", entity.path());
        let body = self
            .call(Method::POST, &path, Some(account), Some(query))
            .await?;
        Ok(Page {
            total: body["pagination"]["totalCount"].as_u64(),
            items: result(body)?,
        })
    }

    async fn get_json(
        &self,
        account: i64,
        entity: Entity,
        id: i64,
    ) -> Result<Value, ProviderError> {
        let path = format!("/{}/{id}", entity.path());
        result(self.call(Method::GET, &path, Some(account), None).await?)
    }

    async fn create_json(
        &self,
        account: i64,
        entity: Entity,
        body: &Value,
    ) -> Result<Value, ProviderError> {
        let path = format!("/{}", entity.path());
        result(
            self.call(Method::POST, &path, Some(account), Some(body))
                .await?,
        )
    }

    async fn create_once_json(
        &self,
        account: i64,
        entity: Entity,
        body: &Value,
        natural_key: &Value,
    ) -> Result<Created<Value>, ProviderError> {
        let policy = self.config_retry();
        let path = format!("/{}", entity.path());
        let mut attempt = 1;
        loop {
            let answer = self
                .call_with(Method::POST, &path, Some(account), Some(body), false)
                .await;
            match answer {
                Ok(v) => return result(v).map(Created::New),
                Err(e) if e.is_duplicate() => {
                    return match self.find_one(account, entity, natural_key).await? {
                        Some(t) => Ok(Created::Existing(t)),
                        None => Err(e),
                    };
                }
                Err(ProviderError::Retryable { .. }) if attempt < policy.max_attempts => {
                    tokio::time::sleep(policy.backoff(attempt)).await;
                    attempt += 1;
                    if let Some(t) = self.find_one(account, entity, natural_key).await? {
                        return Ok(Created::Existing(t));
                    }
                }
                Err(e) => return Err(e),
            }
        }
    }

    async fn update_json(
        &self,
        account: i64,
        entity: Entity,
        id: i64,
        body: &Value,
    ) -> Result<Value, ProviderError> {
        let path = format!("/{}/{id}", entity.path());
        result(
            self.call(Method::PUT, &path, Some(account), Some(body))
                .await?,
        )
    }

    async fn delete(&self, account: i64, entity: Entity, id: i64) -> Result<(), ProviderError> {
        let path = format!("/{}/{id}", entity.path());
        match self.call(Method::DELETE, &path, Some(account), None).await {
            Ok(_) => Ok(()),
            Err(e) if e.has_detail("ENTITY_DELETED") => Ok(()),
            Err(e) => Err(e),
        }
    }

    async fn bulk_json(
        &self,
        account: i64,
        entity: Entity,
        op: &str,
        items: &[Value],
    ) -> Result<Vec<BulkItem<Value>>, ProviderError> {
        let path = format!("/{}/bulk-{op}", entity.path());
        let mut out = Vec::with_capacity(items.len());
        for (chunk_no, chunk) in items.chunks(BULK_CHUNK).enumerate() {
            let wrapped: Vec<Value> = chunk
                .iter()
                .enumerate()
                .map(|(i, d)| json!({ "correlationId": chunk_no * BULK_CHUNK + i, "data": d }))
                .collect();
            let body = json!({ "allowPartialSuccess": true, "items": wrapped });
            out.extend(bulk_items(
                self.call(Method::POST, &path, Some(account), Some(&body))
                    .await?,
            )?);
        }
        Ok(out)
    }

    async fn report(
        &self,
        account: i64,
        level: &str,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        let mut body = self
            .call(
                Method::POST,
                &format!("/reports/apps/{level}/query"),
                Some(account),
                Some(request),
            )
            .await?;
        let total = body["pagination"]["totalCount"].as_u64();
        // The rows are moved out of the answer as they are: decoding them would rebuild
        // every row's objects, and a large account's page holds 5,000 rows of up to 90 days.
        match body["result"]["rows"].take() {
            Value::Array(items) => Ok(Page { total, items }),
            _ => Err(ProviderError::Decode(format!(
                "report answer without rows: {body}"
            ))),
        }
    }

    async fn report_text(
        &self,
        account: i64,
        level: &str,
        request: &Value,
    ) -> Result<String, ProviderError> {
        self.call_text(
            Method::POST,
            &format!("/reports/apps/{level}/query"),
            Some(account),
            Some(request),
        )
        .await
    }

    async fn product_page(&self, account: i64, id: &str) -> Result<ProductPage, ProviderError> {
        let path = format!("/product-pages/{id}");
        result(self.call(Method::GET, &path, Some(account), None).await?)
    }

    async fn keyword_suggestions(
        &self,
        account: i64,
        adam_id: i64,
        text: Option<&str>,
        page_size: u32,
    ) -> Result<Vec<KeywordSuggestion>, ProviderError> {
        let mut filters = promoted(&adam_id.to_string());
        if let Some(t) = text {
            filters.push(json!({ "field": "text", "operator": "LIKE", "value": [t] }));
        }
        let body = json!({ "filters": filters, "sorting": [{ "field": "popularity", "order": "DESC" }], "pagination": { "offset": 0, "pageSize": page_size } });
        let path = "/suggestions/keywords/query";
        result(
            self.call(Method::POST, path, Some(account), Some(&body))
                .await?,
        )
    }

    async fn phrase_suggestions(
        &self,
        account: i64,
        promoted_object_id: &str,
        page_size: u32,
    ) -> Result<Vec<PhraseSuggestion>, ProviderError> {
        let body = json!({ "filters": promoted(promoted_object_id), "pagination": { "offset": 0, "pageSize": page_size } });
        let path = "/suggestions/phrases/query";
        result(
            self.call(Method::POST, path, Some(account), Some(&body))
                .await?,
        )
    }

    async fn category_suggestions(
        &self,
        account: i64,
        promoted_object_id: &str,
    ) -> Result<Vec<CategorySuggestion>, ProviderError> {
        let body = json!({ "filters": promoted(promoted_object_id), "pagination": { "offset": 0, "pageSize": 100 } });
        let path = "/suggestions/categories/query";
        result(
            self.call(Method::POST, path, Some(account), Some(&body))
                .await?,
        )
    }

    async fn app_details(&self, account: i64, adam_id: i64) -> Result<Value, ProviderError> {
        let path = format!("/apps/{adam_id}");
        let mut answer = self.call(Method::GET, &path, Some(account), None).await?;
        Ok(answer["result"].take())
    }

    async fn search_term_popularity(
        &self,
        account: i64,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        let path = "/insights/apps/search-term-popularity/query";
        let body = self
            .call(Method::POST, path, Some(account), Some(request))
            .await?;
        Ok(page_of(&body, &body["result"]["rows"]))
    }

    async fn impression_share(
        &self,
        account: i64,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        let path = "/insights/apps/impression-share/query";
        let body = self
            .call(Method::POST, path, Some(account), Some(request))
            .await?;
        Ok(page_of(&body, &body["result"]["rows"]))
    }

    async fn search_apps(
        &self,
        account: i64,
        query: &str,
        owned: bool,
        limit: u32,
    ) -> Result<Vec<AppInfo>, ProviderError> {
        let q = encode(&[
            ("query", query.to_string()),
            ("returnOwnedApps", owned.to_string()),
            ("limit", limit.to_string()),
        ]);
        let path = format!("/search/apps{q}");
        result(self.call(Method::GET, &path, Some(account), None).await?)
    }

    async fn search_geo(
        &self,
        account: i64,
        query: &str,
        entity: Option<&str>,
        country: Option<&str>,
    ) -> Result<Vec<Value>, ProviderError> {
        let mut pairs = vec![("query", query.to_string())];
        if let Some(e) = entity {
            pairs.push(("entity", e.to_string()));
        }
        if let Some(c) = country {
            pairs.push(("countrycode", c.to_string()));
        }
        let path = format!("/search/geo{}", encode(&pairs));
        let body = self.call(Method::GET, &path, Some(account), None).await?;
        Ok(body["result"].as_array().cloned().unwrap_or_default())
    }

    async fn geo_lookup(&self, account: i64, request: &Value) -> Result<Vec<Value>, ProviderError> {
        let body = self
            .call(Method::POST, "/search/geo", Some(account), Some(request))
            .await?;
        Ok(body["result"].as_array().cloned().unwrap_or_default())
    }

    async fn change_history(
        &self,
        account: i64,
        query: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        let path = "/change-history/query";
        let body = self
            .call(Method::POST, path, Some(account), Some(query))
            .await?;
        Ok(page_of(&body, &body["result"]))
    }

    async fn change_details(
        &self,
        account: i64,
        detail_id: &str,
        limit: Option<u32>,
        offset: Option<u32>,
    ) -> Result<Page<Value>, ProviderError> {
        let mut pairs = Vec::new();
        if let Some(l) = limit {
            pairs.push(("limit", l.to_string()));
        }
        if let Some(o) = offset {
            pairs.push(("offset", o.to_string()));
        }
        let path = format!("/change-history/{}{}", segment(detail_id), encode(&pairs));
        let body = self.call(Method::GET, &path, Some(account), None).await?;
        Ok(page_of(&body, &body["result"]))
    }

    async fn recommendations(
        &self,
        account: i64,
        kind: Recommendation,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        let path = format!("{}/query", kind.path());
        let body = self
            .call(Method::POST, &path, Some(account), Some(request))
            .await?;
        Ok(page_of(&body, &body["result"]))
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
        let mut body = json!({ "id": id, "promotedObjectId": campaign_id.to_string(), "promotedObjectType": "APPSTORE_APP" });
        if let Some((field, value)) = applied {
            body[field] = value;
        }
        let decision = if apply { "apply" } else { "dismiss" };
        let path = format!("{}/{decision}", kind.path());
        let answer = self
            .call(Method::POST, &path, Some(account), Some(&body))
            .await?;
        Ok(answer["result"].as_array().cloned().unwrap_or_default())
    }

    fn server_time(&self) -> Option<OffsetDateTime> {
        self.server_date()
    }

    fn metrics_snapshot(&self) -> MetricsSnapshot {
        self.metrics().snapshot()
    }
}

/// `s` as one path segment: every byte but unreserved ones percent-encoded (a detail id
/// is `EntityType.entityId.txnId`, but it is Apple's to shape).
fn segment(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn decode<T: DeserializeOwned>(value: Value) -> Result<T, ProviderError> {
    serde_json::from_value(value).map_err(|e| ProviderError::Decode(e.to_string()))
}

fn decode_page<T: DeserializeOwned>(page: Page<Value>) -> Result<Page<T>, ProviderError> {
    Ok(Page {
        total: page.total,
        items: page
            .items
            .into_iter()
            .map(decode)
            .collect::<Result<_, _>>()?,
    })
}

/// Typed helpers over any [`AppleAds`] (trait objects included): the JSON-level calls
/// decoded into the caller's types.
pub trait AppleAdsExt: AppleAds {
    /// The ad accounts the credentials reach, as (id, name) ([`AppleAds::acls`]).
    fn ad_accounts(
        &self,
    ) -> impl Future<Output = Result<Vec<(i64, String)>, ProviderError>> + Send {
        async move {
            Ok(self
                .acls()
                .await?
                .into_iter()
                .map(|a| (a.ad_account_id, a.name.unwrap_or_default()))
                .collect())
        }
    }

    /// [`AppleAds::query_json`] decoded into `T` (e.g. `calls::Campaign`).
    fn query<T: DeserializeOwned>(
        &self,
        account: i64,
        entity: Entity,
        query: &Value,
    ) -> impl Future<Output = Result<Page<T>, ProviderError>> + Send {
        async move { decode_page(self.query_json(account, entity, query).await?) }
    }

    /// The one live entity matching `filters`, if any.
    fn find_one<T: DeserializeOwned>(
        &self,
        account: i64,
        entity: Entity,
        filters: &Value,
    ) -> impl Future<Output = Result<Option<T>, ProviderError>> + Send {
        async move {
            let mut filters = filters.as_array().cloned().unwrap_or_default();
            filters.push(json!({ "field": "deleted", "operator": "EQUALS", "value": [false] }));
            let query = json!({ "filters": filters, "pagination": { "offset": 0, "pageSize": 1 } });
            let page = self.query_json(account, entity, &query).await?;
            page.items.into_iter().next().map(decode).transpose()
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

    /// [`AppleAds::create_json`] decoded into `T`.
    fn create<T: DeserializeOwned>(
        &self,
        account: i64,
        entity: Entity,
        body: &Value,
    ) -> impl Future<Output = Result<T, ProviderError>> + Send {
        async move { decode(self.create_json(account, entity, body).await?) }
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

    /// [`AppleAds::bulk_json`] with each accepted item decoded into `T`.
    fn bulk<T: DeserializeOwned>(
        &self,
        account: i64,
        entity: Entity,
        op: &str,
        items: &[Value],
    ) -> impl Future<Output = Result<Vec<BulkItem<T>>, ProviderError>> + Send {
        async move {
            self.bulk_json(account, entity, op, items)
                .await?
                .into_iter()
                .map(|item| {
                    Ok(BulkItem {
                        correlation_id: item.correlation_id,
                        outcome: match item.outcome {
                            Ok(v) => Ok(decode(v)?),
                            Err(e) => Err(e),
                        },
                    })
                })
                .collect()
        }
    }

    /// [`AppleAds::change_history`] with Apple's types: one page of `AuditSummary` rows.
    fn audit_summaries(
        &self,
        account: i64,
        query: &AuditQuery,
    ) -> impl Future<Output = Result<Page<AuditSummary>, ProviderError>> + Send {
        async move {
            let body = serde_json::to_value(query)
                .map_err(|e| ProviderError::Decode(format!("audit query: {e}")))?;
            decode_page(self.change_history(account, &body).await?)
        }
    }

    /// [`AppleAds::change_details`] with Apple's types: one page.
    fn change_details_of(
        &self,
        account: i64,
        detail_id: &str,
        limit: Option<u32>,
        offset: Option<u32>,
    ) -> impl Future<Output = Result<Page<ChangeDetails>, ProviderError>> + Send {
        async move {
            decode_page(
                self.change_details(account, detail_id, limit, offset)
                    .await?,
            )
        }
    }

    /// Every `ChangeDetails` of `detail_id`, its field changes read `page` at a time
    /// (the pages of one entity's change are merged into one).
    fn all_change_details(
        &self,
        account: i64,
        detail_id: &str,
        page: u32,
    ) -> impl Future<Output = Result<Vec<ChangeDetails>, ProviderError>> + Send {
        async move {
            let mut out: Vec<ChangeDetails> = Vec::new();
            let mut offset = 0u32;
            loop {
                let got = self
                    .change_details_of(account, detail_id, Some(page), Some(offset))
                    .await?;
                let fields: usize = got.items.iter().map(|d| d.changes().count()).sum();
                for d in got.items {
                    match out
                        .iter_mut()
                        .find(|o| o.detail_id == d.detail_id && o.entity_id == d.entity_id)
                    {
                        Some(o) => o.details.extend(d.details),
                        None => out.push(d),
                    }
                }
                offset += fields as u32;
                let more = match got.total {
                    Some(total) => u64::from(offset) < total,
                    None => fields as u32 == page,
                };
                if !more || fields == 0 {
                    return Ok(out);
                }
            }
        }
    }

    /// [`AppleAds::report_text`] with its rows decoded straight into `T` (unknown fields
    /// skipped), never held as JSON values.
    fn report_as<T: DeserializeOwned>(
        &self,
        account: i64,
        level: &str,
        request: &Value,
    ) -> impl Future<Output = Result<Page<T>, ProviderError>> + Send {
        #[derive(Deserialize)]
        struct Answer<T> {
            result: Option<Rows<T>>,
            pagination: Option<Pagination>,
        }
        #[derive(Deserialize)]
        struct Rows<T> {
            rows: Vec<T>,
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Pagination {
            total_count: Option<u64>,
        }
        async move {
            let text = self.report_text(account, level, request).await?;
            let answer: Answer<T> = serde_json::from_str(&text)
                .map_err(|e| ProviderError::Decode(format!("report answer: {e}")))?;
            match answer.result {
                Some(rows) => Ok(Page {
                    items: rows.rows,
                    total: answer.pagination.and_then(|p| p.total_count),
                }),
                None => Err(ProviderError::Decode("report answer without rows".into())),
            }
        }
    }
}

impl<A: AppleAds + ?Sized> AppleAdsExt for A {}
