//! The wire types of the calls ([`crate::AppleAds`]): me, ad accounts, campaigns, ad groups,
//! keywords, negative keywords, ads, creatives, product pages, a query's page, a report's
//! result, and decoding an answer's `result` and a bulk answer's items.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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

/// The per-item outcomes of a bulk answer.
pub(crate) fn bulk_items<T: DeserializeOwned>(
    body: Value,
) -> Result<Vec<BulkItem<T>>, ProviderError> {
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
