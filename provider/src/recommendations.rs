//! Typed calls for the suggester's other inputs and for recommendations: phrase and
//! category suggestions (`POST /suggestions/{phrases,categories}/query`), app details
//! (`GET /apps/{adamId}`), and daily budget / target CPA recommendations
//! (`POST /recommendations/{daily-budgets,target-cpas}/{query,apply,dismiss}`).

use reqwest::Method;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::calls::Page;
use crate::client::Client;
use crate::error::ProviderError;

/// A seed phrase with its popularity.
#[derive(Debug, Clone, Deserialize)]
pub struct PhraseSuggestion {
    pub phrase: String,
    pub popularity: u8,
}

/// An App Store category with its popularity.
#[derive(Debug, Clone, Deserialize)]
pub struct CategorySuggestion {
    pub category: String,
    pub popularity: u8,
}

/// The recommendation families.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recommendation {
    DailyBudgets,
    TargetCpas,
}

impl Recommendation {
    fn path(self) -> &'static str {
        match self {
            Recommendation::DailyBudgets => "/recommendations/daily-budgets",
            Recommendation::TargetCpas => "/recommendations/target-cpas",
        }
    }
}

/// The required filters of a `RecommendationQueryRequest`: an app's adamId or a campaign id.
pub fn promoted(promoted_object_id: &str) -> Vec<Value> {
    vec![
        json!({ "field": "promotedObjectId", "operator": "EQUALS", "value": [promoted_object_id] }),
        json!({ "field": "promotedObjectType", "operator": "EQUALS", "value": ["APPSTORE_APP"] }),
    ]
}

fn decode<T: serde::de::DeserializeOwned>(v: &Value) -> Result<T, ProviderError> {
    serde_json::from_value(v.clone()).map_err(|e| ProviderError::Decode(e.to_string()))
}

impl Client {
    async fn suggestions(
        &self,
        account: i64,
        kind: &str,
        promoted_object_id: &str,
        page_size: u32,
    ) -> Result<Value, ProviderError> {
        let body = json!({ "filters": promoted(promoted_object_id), "pagination": { "offset": 0, "pageSize": page_size } });
        let path = format!("/suggestions/{kind}/query");
        let answer = self
            .call(Method::POST, &path, Some(account), Some(&body))
            .await?;
        Ok(answer["result"].clone())
    }

    /// `POST /suggestions/phrases/query` for an app or campaign, most popular first.
    pub async fn phrase_suggestions(
        &self,
        account: i64,
        promoted_object_id: &str,
        page_size: u32,
    ) -> Result<Vec<PhraseSuggestion>, ProviderError> {
        decode(
            &self
                .suggestions(account, "phrases", promoted_object_id, page_size)
                .await?,
        )
    }

    /// `POST /suggestions/categories/query` for an app or campaign, its own category first.
    pub async fn category_suggestions(
        &self,
        account: i64,
        promoted_object_id: &str,
    ) -> Result<Vec<CategorySuggestion>, ProviderError> {
        decode(
            &self
                .suggestions(account, "categories", promoted_object_id, 100)
                .await?,
        )
    }

    /// `GET /apps/{adamId}` (`AppDetails`).
    pub async fn app_details(&self, account: i64, adam_id: i64) -> Result<Value, ProviderError> {
        let answer = self
            .call(
                Method::GET,
                &format!("/apps/{adam_id}"),
                Some(account),
                None,
            )
            .await?;
        Ok(answer["result"].clone())
    }

    /// `POST …/query` of a recommendation family (`RecommendationQueryRequest`).
    pub async fn recommendations(
        &self,
        account: i64,
        kind: Recommendation,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        let path = format!("{}/query", kind.path());
        let body = self
            .call(Method::POST, &path, Some(account), Some(request))
            .await?;
        Ok(Page {
            items: body["result"].as_array().cloned().unwrap_or_default(),
            total: body["pagination"]["totalCount"].as_u64(),
        })
    }

    /// `POST …/apply` (`apply`) or `…/dismiss` of recommendation `id` of campaign
    /// `campaign_id`; `applied` is the body's applied amount field and value, if any.
    pub async fn decide_recommendation(
        &self,
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
        let path = format!(
            "{}/{}",
            kind.path(),
            if apply { "apply" } else { "dismiss" }
        );
        let answer = self
            .call(Method::POST, &path, Some(account), Some(&body))
            .await?;
        Ok(answer["result"].as_array().cloned().unwrap_or_default())
    }
}
