//! Apple's change history: the audit summaries of an account (`POST /change-history/query`)
//! and the field changes of one changed entity (`GET /change-history/{detailId}`, paged),
//! which the sync stores so the activity log shows changes made outside Searchdeck.

use reqwest::Method;
use serde_json::Value;

use crate::calls::Page;
use crate::client::Client;
use crate::error::ProviderError;
use crate::insights::{encode, page_of};

pub(super) async fn change_history(
    client: &Client,
    account: i64,
    query: &Value,
) -> Result<Page<Value>, ProviderError> {
    let path = "/change-history/query";
    let body = client
        .call(Method::POST, path, Some(account), Some(query))
        .await?;
    Ok(page_of(&body, &body["result"]))
}

pub(super) async fn change_details(
    client: &Client,
    account: i64,
    detail_id: &str,
    limit: Option<u32>,
    offset: Option<u32>,
) -> Result<Page<Value>, ProviderError> {
    let mut pairs = Vec::new();
    if let Some(l) = limit {
        pairs.push(("limit", l.to_string()));
    }
    if let Some(o) = offset {
        pairs.push(("offset", o.to_string()));
    }
    let path = format!("/change-history/{}{}", segment(detail_id), encode(&pairs));
    let body = client.call(Method::GET, &path, Some(account), None).await?;
    Ok(page_of(&body, &body["result"]))
}

/// `s` as one path segment: every byte but unreserved ones percent-encoded (a detail id
/// is `EntityType.entityId.txnId`, but it is Apple's to shape).
fn segment(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
