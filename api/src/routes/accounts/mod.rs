//! Apple Ads connections ("accounts", docs/product.md#3-account) and their campaign groups (v1 ad
//! accounts, spec "orgs"): connecting by key pair (`key_pair`) or popup (`popup`), both
//! ending in `connect`; listing, choosing, renaming and removing them (`manage`); and the
//! campaign groups (`orgs`). The connect routes of both paths are routed here; `connect`
//! holds the `save` they share.
//!
//! Private keys and tokens are sealed with the [`SecretBox`](searchdeck_common::secrets)
//! before they are stored and are never part of any answer: [`AccountItem`] has no field
//! that could carry them.

pub mod apps;
pub mod connect;
pub mod credentials;
pub mod key_pair;
pub mod keys;
pub mod limits;
pub mod manage;
pub mod orgs;
pub mod popup;
pub mod sync_now;

use searchdeck_common::{
    ids::rfc3339,
    store::{self, accounts::AccountRow, accounts::OrgRow},
};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    domain::REQUIRED, error::ApiError, middleware::state_changing_gets, route, state::AppState,
};

/// Longest account name (docs/product.md#9-account-selector).
pub const NAME_MAX: usize = 30;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(key_pair::get_public_key))
        .routes(route!(key_pair::create))
        // GET routes that change state (the spec keeps their method): `urlOauth` stores a
        // connect state, `oauth` saves the connection.
        .merge(state_changing_gets(
            OpenApiRouter::new()
                .routes(route!(popup::url_oauth))
                .routes(route!(popup::oauth)),
        ))
        .merge(manage::router())
        .merge(orgs::router())
        .merge(apps::router())
        .merge(limits::router())
        .merge(sync_now::router())
}

/// A connection as the web app sees it (spec §3 Account); never carries a secret.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountItem {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    /// `key` (API key pair) or `oauth` (popup connect).
    pub method: String,
    pub client_id: String,
    pub team_id: Option<String>,
    pub key_id: Option<String>,
    /// The public key registered with Apple (key-pair connections).
    pub public_key: Option<String>,
    /// The Apple Ads user this connection acts as.
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub apple_user_id: i64,
    /// The campaign groups the connection uses.
    pub acls: Vec<OrgRow>,
    pub created_at: String,
    /// When data was last synced; null until the first sync.
    pub last_synced_at: Option<String>,
    /// When the periodic sync (every 3 hours) next starts.
    pub next_sync_at: String,
}

/// The item of `row` with its cached campaign groups that are in use.
pub async fn item(state: &AppState, row: AccountRow) -> Result<AccountItem, ApiError> {
    let acls = store::accounts::orgs(&state.db.pool, &row.id)
        .await?
        .into_iter()
        .filter(|o| o.selected)
        .collect();
    Ok(AccountItem {
        id: row.id,
        name: row.name,
        method: row.method,
        client_id: row.client_id,
        team_id: row.team_id,
        key_id: row.key_id,
        public_key: row.public_key,
        apple_user_id: row.provider_user_id,
        acls,
        created_at: rfc3339(row.created_at),
        last_synced_at: row.last_synced_at.map(rfc3339),
        next_sync_at: rfc3339(next_sync(searchdeck_common::ids::now_ms())),
    })
}

/// When the periodic sync next starts after `now` (Unix ms): its periods are aligned on the
/// epoch (the scheduler's `period_start`).
pub fn next_sync(now: i64) -> i64 {
    let every = searchdeck_common::jobs::SYNC_EVERY_MS;
    now - now.rem_euclid(every) + every
}

/// A valid account name (docs/product.md#5-add-account-name): required, at most 30 characters;
/// trimmed.
pub fn parse_name(raw: Option<&str>) -> Result<String, String> {
    let name = raw.unwrap_or_default().trim();
    if name.is_empty() {
        Err(REQUIRED.into())
    } else if name.chars().count() > NAME_MAX {
        Err(format!(
            "Account name must be at most {NAME_MAX} characters"
        ))
    } else {
        Ok(name.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_required_and_short() {
        assert_eq!(parse_name(None), Err(REQUIRED.into()));
        assert_eq!(parse_name(Some("   ")), Err(REQUIRED.into()));
        assert_eq!(parse_name(Some(" Main ")), Ok("Main".into()));
        assert!(parse_name(Some(&"é".repeat(30))).is_ok());
        assert!(parse_name(Some(&"a".repeat(31))).is_err());
    }
}
