//! Apple Ads connections ("accounts"), their cached campaign groups (v1 ad accounts) and
//! each member's active account and org. What a connect needs before the connection exists
//! is in [`super::connects`].
//!
//! Secrets arrive here already sealed; this module never sees a private key or token in
//! clear.

mod orgs;
mod sync_state;

use sqlx::Row;

use super::Exec;

pub use orgs::{
    active, clear_active, delete_stale_orgs, dependents_of_org, orgs, select_org, set_active,
    upsert_org,
};
pub use sync_state::{SyncState, record_sync_failure, sync_states};

/// A stored connection, sealed secrets included (never serialise this to a client).
#[derive(Debug, Clone)]
pub struct AccountRow {
    pub id: String,
    pub workspace_id: String,
    pub provider_user_id: i64,
    pub provider_org_id: Option<i64>,
    pub name: String,
    /// `key` (API key pair) or `oauth` (popup connect).
    pub method: String,
    pub client_id: String,
    pub team_id: Option<String>,
    pub key_id: Option<String>,
    pub public_key: Option<String>,
    pub private_key_sealed: Option<String>,
    pub refresh_token_sealed: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub last_synced_at: Option<i64>,
    /// Keys of the same Apple Ads user beside the first, each with the campaign groups
    /// calls reach through it (empty for most connections).
    pub extra_keys: Vec<ExtraKey>,
}

/// A key of a connection beside its first one (`accounts.extra_keys`). Apple grants API
/// access per key: a second key of the same Apple Ads user limited to other campaign groups
/// is kept beside the first rather than replacing it, so both groups stay reachable.
/// Secrets are sealed as the first key's are, under the context `extra:<id>:<field>`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtraKey {
    /// Its own id (the sealing context of its secrets).
    pub id: String,
    /// `key` (API key pair) or `oauth` (popup connect).
    pub method: String,
    pub client_id: String,
    pub team_id: Option<String>,
    pub key_id: Option<String>,
    pub private_key_sealed: Option<String>,
    pub refresh_token_sealed: Option<String>,
    /// The campaign groups (ad account ids) calls reach through this key: those it reaches
    /// and the connection's first key does not. Never empty: a key that serves no group is
    /// dropped.
    pub org_ids: Vec<i64>,
    pub added_at: i64,
}

/// The connection to save: what either connect path learnt from the provider.
#[derive(Debug, Clone)]
pub struct NewAccount<'a> {
    pub id: &'a str,
    pub workspace_id: &'a str,
    pub provider_user_id: i64,
    pub provider_org_id: Option<i64>,
    pub name: &'a str,
    pub method: &'a str,
    pub client_id: &'a str,
    pub team_id: Option<&'a str>,
    pub key_id: Option<&'a str>,
    pub public_key: Option<&'a str>,
    pub private_key_sealed: Option<&'a str>,
    pub refresh_token_sealed: Option<&'a str>,
    pub access_token_sealed: Option<&'a str>,
    pub access_expires_at: Option<i64>,
    pub created_by: &'a str,
    pub now: i64,
}

impl<'a> NewAccount<'a> {
    /// A key-pair connection named "Acme" with no credentials stored, for fixtures and
    /// benchmarks that never call the provider (set other fields with `..` on it).
    pub fn without_credentials(
        id: &'a str,
        workspace_id: &'a str,
        created_by: &'a str,
        client_id: &'a str,
        now: i64,
    ) -> NewAccount<'a> {
        NewAccount {
            id,
            workspace_id,
            provider_user_id: 1,
            provider_org_id: None,
            name: "Acme",
            method: "key",
            client_id,
            team_id: None,
            key_id: None,
            public_key: None,
            private_key_sealed: None,
            refresh_token_sealed: None,
            access_token_sealed: None,
            access_expires_at: None,
            created_by,
            now,
        }
    }
}

/// A campaign group (spec §3 Org; a v1 ad account) of a connection, as cached and as
/// answered.
#[derive(Debug, Clone, PartialEq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrgRow {
    /// The provider's ad account id.
    #[serde(with = "crate::ids::string_id")]
    #[schema(value_type = String)]
    pub org_id: i64,
    pub display_name: String,
    /// ISO currency code of the ad account.
    pub currency: Option<String>,
    /// IANA time zone of the ad account (its reports' days).
    pub time_zone: Option<String>,
    /// The connection's role on the ad account, as the provider names it.
    pub permission: String,
    /// Whether the connection uses this campaign group (`account/addAccountIds`).
    pub selected: bool,
}

/// The active account (and org) of a member.
#[derive(Debug, Clone, PartialEq)]
pub struct Active {
    pub account_id: String,
    pub org_id: Option<i64>,
}

const COLUMNS: &str = "id, workspace_id, provider_user_id, provider_org_id, name, method, client_id, \
     team_id, key_id, public_key, private_key_sealed, refresh_token_sealed, created_at, updated_at, \
     last_synced_at, extra_keys";

fn account(row: &sqlx::any::AnyRow) -> Result<AccountRow, sqlx::Error> {
    Ok(AccountRow {
        id: row.try_get("id")?,
        workspace_id: row.try_get("workspace_id")?,
        provider_user_id: row.try_get("provider_user_id")?,
        provider_org_id: row.try_get("provider_org_id")?,
        name: row.try_get("name")?,
        method: row.try_get("method")?,
        client_id: row.try_get("client_id")?,
        team_id: row.try_get("team_id")?,
        key_id: row.try_get("key_id")?,
        public_key: row.try_get("public_key")?,
        private_key_sealed: row.try_get("private_key_sealed")?,
        refresh_token_sealed: row.try_get("refresh_token_sealed")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        last_synced_at: row.try_get("last_synced_at")?,
        extra_keys: match row.try_get::<Option<String>, _>("extra_keys")? {
            None => Vec::new(),
            Some(text) => serde_json::from_str(&text).map_err(|e| sqlx::Error::ColumnDecode {
                index: "extra_keys".into(),
                source: Box::new(e),
            })?,
        },
    })
}

/// Replaces the keys of connection `id` beside its first (none: NULL), marking the
/// connection updated so cached clients are built again.
pub async fn set_extra_keys(
    ex: impl Exec<'_>,
    id: &str,
    keys: &[ExtraKey],
    now: i64,
) -> Result<(), sqlx::Error> {
    let text = if keys.is_empty() {
        None
    } else {
        Some(serde_json::to_string(keys).map_err(|e| sqlx::Error::Encode(Box::new(e)))?)
    };
    sqlx::query("UPDATE accounts SET extra_keys = $2, updated_at = $3 WHERE id = $1")
        .bind(id)
        .bind(text)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

/// Saves a connection; a second connect of the same Apple Ads user in the workspace
/// replaces the name and credentials of the existing one. Returns the stored id.
pub async fn upsert(ex: impl Exec<'_>, a: NewAccount<'_>) -> Result<String, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO accounts (id, workspace_id, provider_user_id, provider_org_id, name, method, \
           client_id, team_id, key_id, public_key, private_key_sealed, refresh_token_sealed, \
           access_token_sealed, access_expires_at, created_by, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16) \
         ON CONFLICT (workspace_id, provider_user_id) DO UPDATE SET \
           provider_org_id = excluded.provider_org_id, name = excluded.name, \
           method = excluded.method, client_id = excluded.client_id, team_id = excluded.team_id, \
           key_id = excluded.key_id, public_key = excluded.public_key, \
           private_key_sealed = excluded.private_key_sealed, \
           refresh_token_sealed = excluded.refresh_token_sealed, \
           access_token_sealed = excluded.access_token_sealed, \
           access_expires_at = excluded.access_expires_at, updated_at = excluded.updated_at \
         RETURNING id",
    )
    .bind(a.id)
    .bind(a.workspace_id)
    .bind(a.provider_user_id)
    .bind(a.provider_org_id)
    .bind(a.name)
    .bind(a.method)
    .bind(a.client_id)
    .bind(a.team_id)
    .bind(a.key_id)
    .bind(a.public_key)
    .bind(a.private_key_sealed)
    .bind(a.refresh_token_sealed)
    .bind(a.access_token_sealed)
    .bind(a.access_expires_at)
    .bind(a.created_by)
    .bind(a.now)
    .fetch_one(ex)
    .await
}

/// The connection of the Apple Ads user `provider_user_id` in `workspace_id`, as (id, name),
/// if it is connected already (a connect then updates it instead of adding one).
pub async fn by_provider_user(
    ex: impl Exec<'_>,
    workspace_id: &str,
    provider_user_id: i64,
) -> Result<Option<(String, String)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, name FROM accounts WHERE workspace_id = $1 AND provider_user_id = $2",
    )
    .bind(workspace_id)
    .bind(provider_user_id)
    .fetch_optional(ex)
    .await
}

/// The connection `id` of `workspace_id`, if any.
pub async fn in_workspace(
    ex: impl Exec<'_>,
    workspace_id: &str,
    id: &str,
) -> Result<Option<AccountRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM accounts WHERE workspace_id = $1 AND id = $2"
    )))
    .bind(workspace_id)
    .bind(id)
    .fetch_optional(ex)
    .await?
    .map(|r| account(&r))
    .transpose()
}

/// The connection `id`, whatever its workspace (jobs that act for a connection).
pub async fn by_id(ex: impl Exec<'_>, id: &str) -> Result<Option<AccountRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM accounts WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(ex)
    .await?
    .map(|r| account(&r))
    .transpose()
}

/// Every connection of `workspace_id`, oldest first.
pub async fn all(ex: impl Exec<'_>, workspace_id: &str) -> Result<Vec<AccountRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM accounts WHERE workspace_id = $1 ORDER BY created_at, id"
    )))
    .bind(workspace_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(account)
    .collect()
}

/// Renames a connection.
pub async fn rename(ex: impl Exec<'_>, id: &str, name: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE accounts SET name = $2, updated_at = $3 WHERE id = $1")
        .bind(id)
        .bind(name)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

/// Removes a connection; its campaign groups and every member's active choice of it go
/// with it (foreign keys cascade).
pub async fn delete(ex: impl Exec<'_>, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM accounts WHERE id = $1")
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
}
