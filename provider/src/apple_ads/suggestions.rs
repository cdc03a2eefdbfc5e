//! Apple's suggestions for an app: keywords (`/suggestions/keywords/query`, most popular
//! first), phrases and categories of an app or campaign, and the app's details
//! (`GET /apps/{adamId}`) the keyword suggester and campaign creation start from.

use reqwest::Method;
use serde_json::{Value, json};

use crate::calls::result;
use crate::client::Client;
use crate::error::ProviderError;
use crate::insights::KeywordSuggestion;
use crate::recommendations::{CategorySuggestion, PhraseSuggestion, promoted};

pub(super) async fn keyword_suggestions(
    client: &Client,
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
        client
            .call(Method::POST, path, Some(account), Some(&body))
            .await?,
    )
}

pub(super) async fn phrase_suggestions(
    client: &Client,
    account: i64,
    promoted_object_id: &str,
    page_size: u32,
) -> Result<Vec<PhraseSuggestion>, ProviderError> {
    let body = json!({ "filters": promoted(promoted_object_id), "pagination": { "offset": 0, "pageSize": page_size } });
    let path = "/suggestions/phrases/query";
    result(
        client
            .call(Method::POST, path, Some(account), Some(&body))
            .await?,
    )
}

pub(super) async fn category_suggestions(
    client: &Client,
    account: i64,
    promoted_object_id: &str,
) -> Result<Vec<CategorySuggestion>, ProviderError> {
    let body = json!({ "filters": promoted(promoted_object_id), "pagination": { "offset": 0, "pageSize": 100 } });
    let path = "/suggestions/categories/query";
    result(
        client
            .call(Method::POST, path, Some(account), Some(&body))
            .await?,
    )
}

pub(super) async fn app_details(
    client: &Client,
    account: i64,
    adam_id: i64,
) -> Result<Value, ProviderError> {
    let path = format!("/apps/{adam_id}");
    let mut answer = client.call(Method::GET, &path, Some(account), None).await?;
    Ok(answer["result"].take())
}
