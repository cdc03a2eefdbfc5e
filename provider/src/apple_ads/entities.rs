//! The entity calls: create, query, get, update, delete and the bulk endpoints of every
//! [`Entity`] — campaigns, ad groups, keywords, negative keywords, ads, creatives and
//! product pages, each at `/v1/{path}` — and `GET /product-pages/{id}`. The sync reads
//! through `query_json`, bulk edits and rules write through `update_json` and `bulk_json`,
//! campaign creation makes entities exactly once through `create_once_json`.

use reqwest::Method;
use serde_json::{Value, json};

use super::{AppleAdsExt, Entity};
use crate::calls::{BULK_CHUNK, Page, ProductPage, bulk_items, result};
use crate::client::Client;
use crate::error::{BulkItem, ProviderError};
use crate::idempotent::Created;

pub(super) async fn query_json(
    client: &Client,
    account: i64,
    entity: Entity,
    query: &Value,
) -> Result<Page<Value>, ProviderError> {
    let path = format!("/{}/query", entity.path());
    let body = client
        .call(Method::POST, &path, Some(account), Some(query))
        .await?;
    Ok(Page {
        total: body["pagination"]["totalCount"].as_u64(),
        items: result(body)?,
    })
}

pub(super) async fn get_json(
    client: &Client,
    account: i64,
    entity: Entity,
    id: i64,
) -> Result<Value, ProviderError> {
    let path = format!("/{}/{id}", entity.path());
    result(client.call(Method::GET, &path, Some(account), None).await?)
}

pub(super) async fn create_json(
    client: &Client,
    account: i64,
    entity: Entity,
    body: &Value,
) -> Result<Value, ProviderError> {
    let path = format!("/{}", entity.path());
    result(
        client
            .call(Method::POST, &path, Some(account), Some(body))
            .await?,
    )
}

pub(super) async fn create_once_json(
    client: &Client,
    account: i64,
    entity: Entity,
    body: &Value,
    natural_key: &Value,
) -> Result<Created<Value>, ProviderError> {
    let policy = client.config_retry();
    let path = format!("/{}", entity.path());
    let mut attempt = 1;
    loop {
        let answer = client
            .call_with(Method::POST, &path, Some(account), Some(body), false)
            .await;
        match answer {
            Ok(v) => return result(v).map(Created::New),
            Err(e) if e.is_duplicate() => {
                return match client.find_one(account, entity, natural_key).await? {
                    Some(t) => Ok(Created::Existing(t)),
                    None => Err(e),
                };
            }
            Err(ProviderError::Retryable { .. }) if attempt < policy.max_attempts => {
                tokio::time::sleep(policy.backoff(attempt)).await;
                attempt += 1;
                if let Some(t) = client.find_one(account, entity, natural_key).await? {
                    return Ok(Created::Existing(t));
                }
            }
            Err(e) => return Err(e),
        }
    }
}

pub(super) async fn update_json(
    client: &Client,
    account: i64,
    entity: Entity,
    id: i64,
    body: &Value,
) -> Result<Value, ProviderError> {
    let path = format!("/{}/{id}", entity.path());
    result(
        client
            .call(Method::PUT, &path, Some(account), Some(body))
            .await?,
    )
}

pub(super) async fn delete(
    client: &Client,
    account: i64,
    entity: Entity,
    id: i64,
) -> Result<(), ProviderError> {
    let path = format!("/{}/{id}", entity.path());
    match client
        .call(Method::DELETE, &path, Some(account), None)
        .await
    {
        Ok(_) => Ok(()),
        Err(e) if e.has_detail("ENTITY_DELETED") => Ok(()),
        Err(e) => Err(e),
    }
}

pub(super) async fn bulk_json(
    client: &Client,
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
            client
                .call(Method::POST, &path, Some(account), Some(&body))
                .await?,
        )?);
    }
    Ok(out)
}

pub(super) async fn product_page(
    client: &Client,
    account: i64,
    id: &str,
) -> Result<ProductPage, ProviderError> {
    let path = format!("/product-pages/{id}");
    result(client.call(Method::GET, &path, Some(account), None).await?)
}
