//! The lookups behind the pickers: apps by name (`GET /search/apps`, only the account's own
//! when asked) and places (`GET /search/geo` by text, `POST /search/geo` by id) for a
//! campaign's countries and an ad group's locations.

use reqwest::Method;
use serde_json::Value;

use crate::calls::result;
use crate::client::Client;
use crate::error::ProviderError;
use crate::insights::{AppInfo, encode};

pub(super) async fn search_apps(
    client: &Client,
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
    result(client.call(Method::GET, &path, Some(account), None).await?)
}

pub(super) async fn search_geo(
    client: &Client,
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
    let body = client.call(Method::GET, &path, Some(account), None).await?;
    Ok(body["result"].as_array().cloned().unwrap_or_default())
}

pub(super) async fn geo_lookup(
    client: &Client,
    account: i64,
    request: &Value,
) -> Result<Vec<Value>, ProviderError> {
    let body = client
        .call(Method::POST, "/search/geo", Some(account), Some(request))
        .await?;
    Ok(body["result"].as_array().cloned().unwrap_or_default())
}
