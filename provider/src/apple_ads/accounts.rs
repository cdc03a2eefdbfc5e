//! Who the credentials are and what they reach: `GET /me` (the Apple Ads user and
//! organisation), `GET /acls` (the ad accounts, each with the credentials' roles in it) and
//! `GET /ad-accounts/{id}` (an account's name, currency and time zone). A connection is
//! checked and its campaign groups listed through these.

use reqwest::Method;

use super::Acl;
use crate::calls::{AdAccount, Me, result};
use crate::client::Client;
use crate::error::ProviderError;

pub(super) async fn me(client: &Client) -> Result<Me, ProviderError> {
    result(client.call(Method::GET, "/me", None, None).await?)
}

pub(super) async fn acls(client: &Client) -> Result<Vec<Acl>, ProviderError> {
    let body = client.call(Method::GET, "/acls", None, None).await?;
    let acls = body["result"]["acls"].as_array().map_or(&[][..], |a| a);
    Ok(acls
        .iter()
        .filter_map(|a| {
            Some(Acl {
                ad_account_id: a["adAccount"]["id"].as_i64()?,
                name: a["adAccount"]["name"].as_str().map(str::to_string),
                roles: a["roles"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|r| r.as_str().map(str::to_string))
                    .collect(),
            })
        })
        .collect())
}

pub(super) async fn ad_account(client: &Client, id: i64) -> Result<AdAccount, ProviderError> {
    result(
        client
            .call(Method::GET, &format!("/ad-accounts/{id}"), Some(id), None)
            .await?,
    )
}
