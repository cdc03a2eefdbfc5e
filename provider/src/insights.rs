//! The wire types of the discovery and insights calls ([`crate::AppleAds`]: keyword
//! suggestions, search-term popularity, impression share, app search, geo search and change
//! history) and the helpers they share.

use serde::Deserialize;
use serde_json::Value;

use crate::calls::Page;

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

/// A page of `rows` of answer `body`.
pub(crate) fn page_of(body: &Value, rows: &Value) -> Page<Value> {
    Page {
        items: rows.as_array().cloned().unwrap_or_default(),
        total: body["pagination"]["totalCount"].as_u64(),
    }
}

/// A query string (`?a=1&b=2`) of `pairs`, encoded.
pub(crate) fn encode(pairs: &[(&str, String)]) -> String {
    let mut url = reqwest::Url::parse("http://x/").expect("static URL");
    url.query_pairs_mut()
        .extend_pairs(pairs.iter().map(|(k, v)| (*k, v.as_str())));
    url.query().map(|q| format!("?{q}")).unwrap_or_default()
}
