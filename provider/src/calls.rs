//! Typed calls: me, ACLs, ad accounts, campaigns, ad groups, keywords, negative keywords, ads,
//! creatives (query, get, create, update, delete; bulk in chunks of at most 1,000), product
//! pages (query, get), and apps reports (campaigns, adgroups, keywords, searchterms, ads).

use reqwest::Method;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::client::Client;
use crate::error::{ApiErrorBody, BulkItem, ProviderError};

/// Largest bulk request the API accepts.
pub const BULK_CHUNK: usize = 1000;

/// The wire `Money`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Money {
    pub amount: String,
    pub currency: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Me {
    pub org_id: Option<i64>,
    pub user_id: Option<i64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AdAccount {
    pub id: i64,
    pub name: Option<String>,
    pub currency: Option<String>,
    pub timezone: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Campaign {
    pub id: i64,
    pub ad_account_id: i64,
    pub name: String,
    pub status: String,
    pub display_status: Option<String>,
    pub promoted_object_id: Option<String>,
    pub daily_budget: Option<Value>,
    pub deleted: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AdGroup {
    pub id: i64,
    pub campaign_id: i64,
    pub name: String,
    pub status: String,
    pub display_status: Option<String>,
    pub deleted: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Keyword {
    pub id: i64,
    pub ad_group_id: i64,
    pub campaign_id: i64,
    pub text: String,
    pub match_type: String,
    pub bid: Option<Money>,
    pub status: String,
    pub deleted: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NegativeKeyword {
    pub id: i64,
    pub campaign_id: i64,
    pub ad_group_id: Option<i64>,
    pub text: String,
    pub status: String,
    pub deleted: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ad {
    pub id: i64,
    pub ad_group_id: i64,
    pub campaign_id: i64,
    pub creative_id: i64,
    pub name: String,
    pub status: String,
    pub display_status: Option<String>,
    pub deleted: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Creative {
    pub id: i64,
    pub name: String,
    pub creative_type: String,
    pub system_status: Option<String>,
    pub destination: Option<Value>,
    pub deleted: Option<bool>,
}

/// A product page (made in App Store Connect; read-only here).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProductPage {
    pub id: String,
    pub adam_id: i64,
    pub name: Option<String>,
    pub state: Option<String>,
    pub deep_link: Option<String>,
}

/// One page of a query.
#[derive(Debug, Clone)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub total: Option<u64>,
}

/// The `result` of a report: rows and the optional grand total, kept as JSON.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub rows: Vec<Value>,
    pub summary: Option<Value>,
}

/// The `result` of an answer, moved out of it (a report page's rows are tens of MB: never
/// copied).
pub(crate) fn result<T: DeserializeOwned>(mut body: Value) -> Result<T, ProviderError> {
    let result = body["result"].take();
    serde_json::from_value(result).map_err(|e| ProviderError::Decode(format!("{e}: {body}")))
}

fn page<T: DeserializeOwned>(body: Value) -> Result<Page<T>, ProviderError> {
    Ok(Page {
        total: body["pagination"]["totalCount"].as_u64(),
        items: result(body)?,
    })
}

fn bulk<T: DeserializeOwned>(body: Value) -> Result<Vec<BulkItem<T>>, ProviderError> {
    let entries = body["result"]
        .as_array()
        .ok_or_else(|| ProviderError::Decode("bulk result is not a list".into()))?;
    entries
        .iter()
        .map(|e| {
            let correlation_id = e["correlationId"].as_i64();
            let outcome = if e["success"] == Value::Bool(true) {
                Ok(serde_json::from_value(e["result"].clone())
                    .map_err(|x| ProviderError::Decode(x.to_string()))?)
            } else {
                Err(
                    serde_json::from_value::<ApiErrorBody>(e["error"].clone()).unwrap_or(
                        ApiErrorBody {
                            code: "UNKNOWN".into(),
                            message: None,
                            details: None,
                        },
                    ),
                )
            };
            Ok(BulkItem {
                correlation_id,
                outcome,
            })
        })
        .collect()
}

impl Client {
    pub async fn me(&self) -> Result<Me, ProviderError> {
        result(self.call(Method::GET, "/me", None, None).await?)
    }

    /// The ad accounts the credentials can reach (from `/acls`).
    pub async fn ad_accounts(&self) -> Result<Vec<(i64, String)>, ProviderError> {
        let body = self.call(Method::GET, "/acls", None, None).await?;
        let acls = body["result"]["acls"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        Ok(acls
            .iter()
            .filter_map(|a| {
                Some((
                    a["adAccount"]["id"].as_i64()?,
                    a["adAccount"]["name"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string(),
                ))
            })
            .collect())
    }

    pub async fn ad_account(&self, id: i64) -> Result<AdAccount, ProviderError> {
        result(
            self.call(Method::GET, &format!("/ad-accounts/{id}"), Some(id), None)
                .await?,
        )
    }

    /// `GET /product-pages/{id}` (product page ids are strings).
    pub async fn product_page(&self, account: i64, id: &str) -> Result<ProductPage, ProviderError> {
        result(
            self.call(
                Method::GET,
                &format!("/product-pages/{id}"),
                Some(account),
                None,
            )
            .await?,
        )
    }

    /// `POST /{entity}/query` with a `QueryRequest`.
    pub async fn query<T: DeserializeOwned>(
        &self,
        account: i64,
        entity: &str,
        query: &Value,
    ) -> Result<Page<T>, ProviderError> {
        page(
            self.call(
                Method::POST,
                &format!("/{entity}/query"),
                Some(account),
                Some(query),
            )
            .await?,
        )
    }

    pub async fn get<T: DeserializeOwned>(
        &self,
        account: i64,
        entity: &str,
        id: i64,
    ) -> Result<T, ProviderError> {
        result(
            self.call(Method::GET, &format!("/{entity}/{id}"), Some(account), None)
                .await?,
        )
    }

    pub async fn create<T: DeserializeOwned>(
        &self,
        account: i64,
        entity: &str,
        body: &Value,
    ) -> Result<T, ProviderError> {
        result(
            self.call(
                Method::POST,
                &format!("/{entity}"),
                Some(account),
                Some(body),
            )
            .await?,
        )
    }

    pub async fn update<T: DeserializeOwned>(
        &self,
        account: i64,
        entity: &str,
        id: i64,
        body: &Value,
    ) -> Result<T, ProviderError> {
        result(
            self.call(
                Method::PUT,
                &format!("/{entity}/{id}"),
                Some(account),
                Some(body),
            )
            .await?,
        )
    }

    /// Deletes; an entity already deleted (say by an earlier attempt whose answer was
    /// lost) counts as deleted.
    pub async fn delete(&self, account: i64, entity: &str, id: i64) -> Result<(), ProviderError> {
        match self
            .call(
                Method::DELETE,
                &format!("/{entity}/{id}"),
                Some(account),
                None,
            )
            .await
        {
            Ok(_) => Ok(()),
            Err(e) if e.has_detail("ENTITY_DELETED") => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// `POST /{entity}/bulk-{op}` in chunks of [`BULK_CHUNK`], with partial success allowed;
    /// items are `data` objects, numbered by their index as correlation id.
    pub async fn bulk<T: DeserializeOwned>(
        &self,
        account: i64,
        entity: &str,
        op: &str,
        items: &[Value],
    ) -> Result<Vec<BulkItem<T>>, ProviderError> {
        let mut out = Vec::with_capacity(items.len());
        for (chunk_no, chunk) in items.chunks(BULK_CHUNK).enumerate() {
            let wrapped: Vec<Value> = chunk
                .iter()
                .enumerate()
                .map(|(i, d)| json!({ "correlationId": chunk_no * BULK_CHUNK + i, "data": d }))
                .collect();
            let body = json!({ "allowPartialSuccess": true, "items": wrapped });
            out.extend(bulk(
                self.call(
                    Method::POST,
                    &format!("/{entity}/bulk-{op}"),
                    Some(account),
                    Some(&body),
                )
                .await?,
            )?);
        }
        Ok(out)
    }

    /// [`Self::report`] with its rows decoded straight into `T` (unknown fields skipped),
    /// never held as JSON values: a keyword page of 5,000 rows × 15 days is about 30 MB
    /// of text and several hundred MB as [`Value`]s.
    pub async fn report_as<T: DeserializeOwned>(
        &self,
        account: i64,
        level: &str,
        request: &Value,
    ) -> Result<Page<T>, ProviderError> {
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
        let text = self
            .call_text(
                Method::POST,
                &format!("/reports/apps/{level}/query"),
                Some(account),
                Some(request),
            )
            .await?;
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

    /// `POST /reports/apps/{level}/query` (`level`: campaigns, adgroups, keywords, ...).
    pub async fn report(
        &self,
        account: i64,
        level: &str,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        let body = self
            .call(
                Method::POST,
                &format!("/reports/apps/{level}/query"),
                Some(account),
                Some(request),
            )
            .await?;
        let mut body = body;
        let total = body["pagination"]["totalCount"].as_u64();
        // The rows are moved out of the answer as they are: decoding them into `Report`
        // would rebuild every row's objects, and a large account's page holds 5,000 rows of
        // up to 90 days each.
        match body["result"]["rows"].take() {
            Value::Array(items) => Ok(Page { total, items }),
            _ => Err(ProviderError::Decode(format!(
                "report answer without rows: {body}"
            ))),
        }
    }
}
