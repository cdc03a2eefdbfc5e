//! Typed helpers over any [`AppleAds`] (trait objects included): the JSON-level calls
//! decoded into the caller's types (`query::<Campaign>`, `create_once::<AdGroup>`, …), the
//! one live entity of a natural key, the change history with Apple's types and a report
//! page decoded straight from its text.

use std::future::Future;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::{AppleAds, Entity};
use crate::calls::Page;
use crate::error::{BulkItem, ProviderError};
use crate::history::{AuditQuery, AuditSummary, ChangeDetails};
use crate::idempotent::Created;

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
