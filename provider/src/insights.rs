//! Typed calls for discovery and insights: keyword suggestions, search-term popularity,
//! impression share, app search, geo search and change history.

use reqwest::Method;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::calls::Page;
use crate::client::Client;
use crate::error::ProviderError;

/// A keyword suggestion with its popularity (0–100).
#[derive(Debug, Clone, Deserialize)]
pub struct KeywordSuggestion {
    pub text: String,
    pub popularity: u8,
}

/// An app found by app search.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AppInfo {
    pub adam_id: i64,
    pub app_name: String,
    pub developer_name: String,
    pub country_or_region_codes: Vec<String>,
}

fn page_of(body: &Value, rows: &Value) -> Page<Value> {
    Page {
        items: rows.as_array().cloned().unwrap_or_default(),
        total: body["pagination"]["totalCount"].as_u64(),
    }
}

fn encode(pairs: &[(&str, String)]) -> String {
    let mut url = reqwest::Url::parse("http://x/").expect("static URL");
    url.query_pairs_mut()
        .extend_pairs(pairs.iter().map(|(k, v)| (*k, v.as_str())));
    url.query().map(|q| format!("?{q}")).unwrap_or_default()
}

impl Client {
    /// `POST /suggestions/keywords/query` for app `adam_id`, optionally narrowed to texts
    /// containing `text`, most popular first.
    pub async fn keyword_suggestions(
        &self,
        account: i64,
        adam_id: i64,
        text: Option<&str>,
        page_size: u32,
    ) -> Result<Vec<KeywordSuggestion>, ProviderError> {
        let mut filters = vec![
            json!({ "field": "promotedObjectId", "operator": "EQUALS", "value": [adam_id.to_string()] }),
            json!({ "field": "promotedObjectType", "operator": "EQUALS", "value": ["APPSTORE_APP"] }),
        ];
        if let Some(t) = text {
            filters.push(json!({ "field": "text", "operator": "LIKE", "value": [t] }));
        }
        let body = json!({ "filters": filters, "sorting": [{ "field": "popularity", "order": "DESC" }], "pagination": { "offset": 0, "pageSize": page_size } });
        let answer = self
            .call(
                Method::POST,
                "/suggestions/keywords/query",
                Some(account),
                Some(&body),
            )
            .await?;
        serde_json::from_value(answer["result"].clone())
            .map_err(|e| ProviderError::Decode(e.to_string()))
    }

    /// `POST /insights/apps/search-term-popularity/query` (`SearchTermPopularityQueryRequest`).
    pub async fn search_term_popularity(
        &self,
        account: i64,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        self.insight_rows(
            "/insights/apps/search-term-popularity/query",
            account,
            request,
        )
        .await
    }

    /// `POST /insights/apps/impression-share/query` (`ImpressionShareQueryRequest`).
    pub async fn impression_share(
        &self,
        account: i64,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        self.insight_rows("/insights/apps/impression-share/query", account, request)
            .await
    }

    /// An insights query whose answer carries its rows under `result.rows`.
    async fn insight_rows(
        &self,
        path: &str,
        account: i64,
        request: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        let body = self
            .call(Method::POST, path, Some(account), Some(request))
            .await?;
        Ok(page_of(&body, &body["result"]["rows"]))
    }

    /// `GET /search/apps`: apps matching `query`, only the account's own with `owned`.
    pub async fn search_apps(
        &self,
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
        let body = self
            .call(
                Method::GET,
                &format!("/search/apps{q}"),
                Some(account),
                None,
            )
            .await?;
        serde_json::from_value(body["result"].clone())
            .map_err(|e| ProviderError::Decode(e.to_string()))
    }

    /// `GET /search/geo`: places matching `query` of kind `entity` (Country, AdminArea,
    /// Locality), optionally in `country`.
    pub async fn search_geo(
        &self,
        account: i64,
        query: &str,
        entity: &str,
        country: Option<&str>,
    ) -> Result<Vec<Value>, ProviderError> {
        let mut pairs = vec![("query", query.to_string()), ("entity", entity.to_string())];
        if let Some(c) = country {
            pairs.push(("countrycode", c.to_string()));
        }
        let body = self
            .call(
                Method::GET,
                &format!("/search/geo{}", encode(&pairs)),
                Some(account),
                None,
            )
            .await?;
        Ok(body["result"].as_array().cloned().unwrap_or_default())
    }

    /// `POST /change-history/query` (`AuditQuery`): change summaries, newest first.
    pub async fn change_history(
        &self,
        account: i64,
        query: &Value,
    ) -> Result<Page<Value>, ProviderError> {
        let body = self
            .call(
                Method::POST,
                "/change-history/query",
                Some(account),
                Some(query),
            )
            .await?;
        Ok(page_of(&body, &body["result"]))
    }

    /// `GET /change-history/{detailId}`: field-level changes of a transaction or event.
    pub async fn change_details(
        &self,
        account: i64,
        detail_id: &str,
    ) -> Result<Vec<Value>, ProviderError> {
        let body = self
            .call(
                Method::GET,
                &format!("/change-history/{detail_id}"),
                Some(account),
                None,
            )
            .await?;
        Ok(body["result"].as_array().cloned().unwrap_or_default())
    }
}
