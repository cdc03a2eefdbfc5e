//! The reports: `POST /reports/apps/{level}/query` for campaigns, ad groups, keywords,
//! search terms and ads, answered either as rows moved out of the JSON answer or as the
//! text that came, for callers that decode a large page straight into their own rows.

use reqwest::Method;
use serde_json::Value;

use crate::calls::Page;
use crate::client::Client;
use crate::error::ProviderError;

pub(super) async fn report(
    client: &Client,
    account: i64,
    level: &str,
    request: &Value,
) -> Result<Page<Value>, ProviderError> {
    let mut body = client
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

pub(super) async fn report_text(
    client: &Client,
    account: i64,
    level: &str,
    request: &Value,
) -> Result<String, ProviderError> {
    client
        .call_text(
            Method::POST,
            &format!("/reports/apps/{level}/query"),
            Some(account),
            Some(request),
        )
        .await
}
