//! Writes that take effect exactly once under retries. A create whose answer is lost (a
//! 5xx or timeout after the server applied it) is ambiguous: before trying again,
//! `create_once` looks the entity up by its natural key (a campaign's name, a keyword's
//! ad group + text + match type, …) and returns the existing one; a `DUPLICATE_*` refusal
//! resolves the same way, so a job retried after a crash does not create twice either.
//! Updates are idempotent as they set absolute values (status, bid, budget), and
//! [`Client::delete`] counts "already deleted" as done.

use reqwest::Method;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::calls::result;
use crate::client::Client;
use crate::error::ProviderError;

/// How a create ended.
#[derive(Debug, Clone)]
pub enum Created<T> {
    /// This call created it.
    New(T),
    /// It existed already (an earlier attempt or job created it).
    Existing(T),
}

impl<T> Created<T> {
    /// The entity, however it came to exist.
    pub fn into_inner(self) -> T {
        match self {
            Created::New(t) | Created::Existing(t) => t,
        }
    }
}

impl Client {
    /// Creates `body` at `POST /{entity}` exactly once; `natural_key` is the `filters` of
    /// a query that finds the entity if it exists (live entities only are considered).
    pub async fn create_once<T: DeserializeOwned>(
        &self,
        account: i64,
        entity: &str,
        body: &Value,
        natural_key: &Value,
    ) -> Result<Created<T>, ProviderError> {
        let policy = self.config_retry();
        let mut attempt = 1;
        loop {
            let answer = self
                .call_with(
                    Method::POST,
                    &format!("/{entity}"),
                    Some(account),
                    Some(body),
                    false,
                )
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

    /// The one live entity matching `filters`, if any.
    pub async fn find_one<T: DeserializeOwned>(
        &self,
        account: i64,
        entity: &str,
        filters: &Value,
    ) -> Result<Option<T>, ProviderError> {
        let mut filters = filters.as_array().cloned().unwrap_or_default();
        filters.push(json!({ "field": "deleted", "operator": "EQUALS", "value": [false] }));
        let page = self
            .query::<T>(
                account,
                entity,
                &json!({ "filters": filters, "pagination": { "offset": 0, "pageSize": 1 } }),
            )
            .await?;
        Ok(page.items.into_iter().next())
    }
}
