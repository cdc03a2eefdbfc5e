//! Apple's recommendations of daily budgets and target CPAs: the query of a kind and the
//! apply or dismiss of one recommendation of a campaign.

use reqwest::Method;
use serde_json::{Value, json};

use crate::calls::Page;
use crate::client::Client;
use crate::error::ProviderError;
use crate::insights::page_of;
use crate::recommendations::Recommendation;

pub(super) async fn recommendations(
    client: &Client,
    account: i64,
    kind: Recommendation,
    request: &Value,
) -> Result<Page<Value>, ProviderError> {
    let path = format!("{}/query", kind.path());
    let body = client
        .call(Method::POST, &path, Some(account), Some(request))
        .await?;
    Ok(page_of(&body, &body["result"]))
}

pub(super) async fn decide_recommendation(
    client: &Client,
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
    let answer = client
        .call(Method::POST, &path, Some(account), Some(&body))
        .await?;
    Ok(answer["result"].as_array().cloned().unwrap_or_default())
}
