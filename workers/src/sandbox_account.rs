//! A connection to the Apple Ads sandbox stored the way `account/create` stores one, and a
//! first sync queued for it: what the sync tests and `searchdeck bench sync` start from.
//!
//! [`register_key`] gives the sandbox a fresh public key and returns its client, team and
//! key ids; [`connect`] stores a key-pair connection of that sandbox user in a new
//! workspace, its private key sealed with the configured key, with every campaign group
//! selected; [`queue_sync`] queues `sync-account` with a task record, as connecting does,
//! and [`synced`] says whether `sync-reports` has finished for the connection.

use anyhow::Context as _;
use searchdeck_common::stored_credentials;
use searchdeck_common::{
    Db, ids,
    jobs::SyncAccount,
    queue::{Queue, outbox},
    secrets::SecretBox,
    store::{
        self,
        accounts::{NewAccount, OrgRow},
        users::NewUser,
    },
    tasks::{NewTask, create_with_job},
};
pub use searchdeck_provider::sandbox_key::{SandboxKey, register_key};
use searchdeck_provider::{AppleAds, AppleAdsExt, Client, ClientConfig, Credentials};

/// Stores a key-pair connection of the sandbox user behind `key` in a new workspace (a new
/// user owns it), with every campaign group the user can see selected; returns its id.
/// Each call makes a distinct connection, even for the same key.
pub async fn connect(
    db: &Db,
    secrets: &SecretBox,
    sandbox: &str,
    key: &SandboxKey,
) -> anyhow::Result<String> {
    let now = ids::now_ms();
    let (user, workspace) = (ids::new_id(), ids::new_id());
    store::users::insert(
        &db.pool,
        NewUser {
            id: &user,
            email: &format!("{user}@example.com"),
            password_hash: "x",
            full_name: "Sandbox user",
            source: "sandbox",
            now,
        },
    )
    .await?;
    store::workspaces::insert(&db.pool, &workspace, "Sandbox", now).await?;
    let creds = Credentials::ClientCredentials {
        client_id: key.client_id.clone(),
        team_id: key.team_id.clone(),
        key_id: key.key_id.clone(),
        key: key.key.clone(),
    };
    let client = Client::new(ClientConfig::sandbox(sandbox), creds)?;
    let me = client.me().await?;
    let apple_user = me.user_id.context("/me answered without a user id")?;
    let sealed = secrets.seal_str(
        &stored_credentials::context(&workspace, apple_user, "private_key"),
        &key.key.private_pem(),
    );
    let id = store::accounts::upsert(
        &db.pool,
        NewAccount {
            id: &ids::new_id(),
            workspace_id: &workspace,
            provider_user_id: apple_user,
            provider_org_id: me.org_id,
            name: "Synced",
            method: "key",
            client_id: &key.client_id,
            team_id: Some(&key.team_id),
            key_id: Some(&key.key_id),
            public_key: Some(&key.key.public_pem()),
            private_key_sealed: Some(&sealed),
            refresh_token_sealed: None,
            access_token_sealed: None,
            access_expires_at: None,
            created_by: &user,
            now,
        },
    )
    .await?;
    for (org_id, name) in client.ad_accounts().await? {
        let details = client.ad_account(org_id).await?;
        let org = OrgRow {
            org_id,
            display_name: name,
            currency: details.currency,
            time_zone: details.timezone,
            permission: "ADMIN".into(),
            selected: true,
        };
        store::accounts::upsert_org(&db.pool, &id, &org, now).await?;
    }
    Ok(id)
}

/// Queues `sync-account` for the connection with a task record in its workspace, through
/// the outbox, and relays it to the queue.
pub async fn queue_sync(db: &Db, queue: &Queue, account_id: &str) -> anyhow::Result<String> {
    let workspace: String = sqlx::query_scalar("SELECT workspace_id FROM accounts WHERE id = $1")
        .bind(account_id)
        .fetch_one(&db.pool)
        .await?;
    let task_id = create_with_job(
        db,
        NewTask {
            workspace_id: &workspace,
            user_id: None,
            kind: "sync-account",
            message: "Sync",
            total_steps: 1,
            account_id: None,
            org_id: None,
        },
        &SyncAccount {
            account_id: account_id.to_string(),
        },
    )
    .await?;
    outbox::relay_once(db, queue, 10).await?;
    Ok(task_id)
}

/// Whether a metrics sync of the connection has finished (`accounts.last_synced_at` set).
pub async fn synced(db: &Db, account_id: &str) -> Result<bool, sqlx::Error> {
    let at: Option<i64> = sqlx::query_scalar("SELECT last_synced_at FROM accounts WHERE id = $1")
        .bind(account_id)
        .fetch_one(&db.pool)
        .await?;
    Ok(at.is_some())
}
