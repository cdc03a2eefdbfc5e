//! The insights endpoints: search-term popularity and impression share
//! (`/insights/apps/…/query`), one page of rows each, read by the suggester's popularity
//! refresh and the estimates.

use reqwest::Method;
use serde_json::Value;

use crate::calls::Page;
use crate::client::Client;
use crate::error::ProviderError;
use crate::insights::page_of;

pub(super) async fn search_term_popularity(
    client: &Client,
    account: i64,
    request: &Value,
) -> Result<Page<Value>, ProviderError> {
    let path = "/insights/apps/search-term-popularity/query";
    let body = client
        .call(Method::POST, path, Some(account), Some(request))
        .await?;
    Ok(page_of(&body, &body["result"]["rows"]))
}

pub(super) async fn impression_share(
    client: &Client,
    account: i64,
    request: &Value,
) -> Result<Page<Value>, ProviderError> {
    let path = "/insights/apps/impression-share/query";
    let body = client
        .call(Method::POST, path, Some(account), Some(request))
        .await?;
    Ok(page_of(&body, &body["result"]["rows"]))
}
