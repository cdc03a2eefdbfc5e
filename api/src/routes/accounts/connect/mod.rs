//! Connecting an Apple Ads account ends the same way on both paths ([`key_pair`] and
//! [`popup`]): the credentials are proved with the provider, then the connection is saved
//! sealed, one per (workspace, Apple Ads user), with its campaign groups, and made the
//! caller's active account, in one transaction. A new connection is refused with
//! `LIMIT_HAS_BEEN_REACHED` (`AVAILABLEAPPS`, `AVAILABLEDEVS`) once the workspace's synced
//! apps or developers reach the plan's limits, checked in that transaction with the
//! workspace's row locked ([`crate::routes::plans::limits`]). What a connect did, and how
//! the user is told, is [`Saved`].
//!
//! [`key_pair`]: crate::routes::accounts::key_pair
//! [`popup`]: crate::routes::accounts::popup

mod saved;

use searchdeck_common::{
    Db,
    ids::{new_id, now_ms},
    jobs::{SYNC_EVERY_MS, SyncAccount},
    queue::{
        Job,
        outbox::{self, OutboxOptions},
    },
    store::{
        self,
        accounts::{ExtraKey, NewAccount, OrgRow},
    },
    stored_credentials,
    tasks::NewTask,
};
use searchdeck_provider::{Credentials, ProviderError};
use secrecy::SecretString;

pub use saved::Saved;

use crate::{
    error::ApiError,
    provider::provider_error,
    routes::{
        accounts::{
            credentials,
            keys::{self, Role},
            orgs, sync_now,
        },
        plans::limits as plan_limits,
    },
    session::CurrentUser,
    state::AppState,
};
use saved::described;

/// What a connect path learnt, secrets in clear until sealed by [`save`].
pub struct Connection<'a> {
    pub name: &'a str,
    pub method: &'a str,
    pub client_id: &'a str,
    pub team_id: Option<&'a str>,
    pub key_id: Option<&'a str>,
    pub public_key: Option<&'a str>,
    pub private_key: Option<&'a SecretString>,
    pub refresh_token: Option<&'a SecretString>,
    /// The access token and its lifetime in milliseconds.
    pub access_token: Option<(&'a SecretString, i64)>,
}

/// Proves `creds` with the provider (who the Apple Ads user is, which campaign groups it
/// reaches), then saves the connection sealed, its campaign groups, makes it the caller's
/// active account, registers its 3-hourly sync and queues its first sync (`sync-account`,
/// with a task), in one transaction. A second connect of the same Apple Ads user updates
/// its connection (name and credentials) rather than adding one, and says so in [`Saved`].
pub async fn save(
    state: &AppState,
    user: &CurrentUser,
    creds: Credentials,
    c: Connection<'_>,
    expected_user: Option<i64>,
) -> Result<Saved, ApiError> {
    let client = state.provider.client(creds).map_err(provider_error)?;
    let me = client.me().await.map_err(provider_error)?;
    let apple_user = me.user_id.ok_or_else(|| {
        ApiError::bad_request("Apple Ads did not say which user these credentials belong to")
    })?;
    if expected_user.is_some_and(|u| u != apple_user) {
        return Err(ApiError::bad_request(
            "These credentials belong to another Apple Ads user than this account's",
        ));
    }
    let found = orgs::fetch(client.as_ref()).await.map_err(provider_error)?;
    let first_works = first_key_works(state, &user.workspace_id, apple_user, &found).await?;
    let now = now_ms();
    let seal = |field: &str, secret: Option<&SecretString>| {
        secret.map(|s| {
            state.secrets.seal_str(
                &credentials::context(&user.workspace_id, apple_user, field),
                s,
            )
        })
    };
    let private_key = seal("private_key", c.private_key);
    let refresh_token = seal("refresh_token", c.refresh_token);
    let access_token = seal("access_token", c.access_token.map(|(t, _)| t));
    let new = new_id();
    let plan = state.engines.plan(&state.db, &user.workspace_id).await?;
    // One transaction, run again if SQLite was busy with another writer (a sync).
    let saved = Db::retry_busy(|| async {
        let mut tx = state.db.begin_write().await?;
        let before =
            store::accounts::by_provider_user(&mut *tx, &user.workspace_id, apple_user).await?;
        let key_plan = match &before {
            None => None,
            Some((existing, _)) => {
                let had = store::accounts::orgs(&mut *tx, existing).await?;
                let row = store::accounts::by_id(&mut *tx, existing)
                    .await?
                    .ok_or_else(|| ApiError::not_found("Account"))?;
                Some(keys::plan(&had, &row.extra_keys, &found, first_works))
            }
        };
        let role = key_plan.as_ref().map_or(Role::First, |p| p.role.clone());
        let (groups_kept, groups_lost) = match (&key_plan, &before) {
            (Some(key_plan), Some((existing, _))) => (
                described(&mut tx, existing, &key_plan.kept).await?,
                described(&mut tx, existing, &key_plan.lost).await?,
            ),
            _ => (Vec::new(), Vec::new()),
        };
        let groups_added = key_plan.as_ref().map_or_else(Vec::new, |p| {
            p.added.iter().map(|o| o.display_name.clone()).collect()
        });
        if let (Role::Redundant, Some((id, name))) = (&role, &before) {
            return Ok::<_, ApiError>(Saved {
                id: id.clone(),
                previous_name: Some(name.clone()),
                role,
                groups_added,
                groups_kept,
                groups_lost,
            });
        }
        if before.is_none() {
            // A new connection brings its apps: refused once the plan's are reached.
            plan_limits::lock(&mut tx, &user.workspace_id).await?;
            plan_limits::check_apps(&mut tx, plan, &user.workspace_id).await?;
        }
        let id = match (&role, &before) {
            (Role::Beside(org_ids), Some((id, old_name))) => {
                let mut beside = key_plan
                    .as_ref()
                    .map(|p| p.beside.clone())
                    .unwrap_or_default();
                beside.push(beside_key(
                    state,
                    user,
                    apple_user,
                    &c,
                    org_ids.clone(),
                    now,
                ));
                store::accounts::set_extra_keys(&mut *tx, id, &beside, now).await?;
                if old_name != c.name {
                    store::accounts::rename(&mut *tx, id, c.name, now).await?;
                }
                id.clone()
            }
            _ => {
                let id = store::accounts::upsert(
                    &mut *tx,
                    NewAccount {
                        id: &new,
                        workspace_id: &user.workspace_id,
                        provider_user_id: apple_user,
                        provider_org_id: me.org_id,
                        name: c.name,
                        method: c.method,
                        client_id: c.client_id,
                        team_id: c.team_id,
                        key_id: c.key_id,
                        public_key: c.public_key,
                        private_key_sealed: private_key.as_deref(),
                        refresh_token_sealed: refresh_token.as_deref(),
                        access_token_sealed: access_token.as_deref(),
                        access_expires_at: c.access_token.map(|(_, ms)| now + ms),
                        created_by: &user.user_id,
                        now,
                    },
                )
                .await?;
                if let Some(key_plan) = &key_plan {
                    store::accounts::set_extra_keys(&mut *tx, &id, &key_plan.beside, now).await?;
                }
                id
            }
        };
        // The groups every key of the connection reaches: the new key's and those kept with
        // the earlier keys.
        let mut reached = found.clone();
        reached.extend(key_plan.iter().flat_map(|p| p.kept.iter().cloned()));
        orgs::save(&mut tx, &id, &reached).await?;
        if c.private_key.is_some() {
            store::connects::delete_pending_key(&mut *tx, &user.user_id, &user.workspace_id)
                .await?;
        }
        let active = store::accounts::Active {
            account_id: id.clone(),
            org_id: None,
        };
        store::accounts::set_active(&mut *tx, &user.user_id, &user.workspace_id, &active, now)
            .await?;
        // The first sync starts now (its task in the member's background tasks), committed with
        // the connection through the outbox; the scheduler runs it again every 3 h.
        let sync = SyncAccount {
            account_id: id.clone(),
        };
        store::synced::set_schedule(
            &mut *tx,
            &id,
            &user.workspace_id,
            SyncAccount::KIND,
            &serde_json::to_value(&sync).map_err(anyhow::Error::from)?,
            SYNC_EVERY_MS,
            now,
        )
        .await?;
        let task_id = store::tasks::create(
            &mut *tx,
            NewTask {
                workspace_id: &user.workspace_id,
                user_id: Some(&user.user_id),
                kind: SyncAccount::KIND,
                message: "Syncing account",
                total_steps: 1,
                account_id: Some(&id),
                org_id: None,
            },
        )
        .await?;
        // "Sync now" joins this first sync (unless a sync of the connection already runs).
        store::tasks::claim_subject_if_free(&mut *tx, &task_id, &sync_now::subject(&id)).await?;
        outbox::push(
            &mut *tx,
            &sync,
            OutboxOptions {
                task_id: Some(task_id),
                ..Default::default()
            },
        )
        .await?;
        tx.commit().await?;
        Ok::<_, ApiError>(Saved {
            id,
            previous_name: before.map(|(_, name)| name),
            role,
            groups_added,
            groups_kept,
            groups_lost,
        })
    })
    .await?;
    if let Err(e) = outbox::relay_once(&state.db, &state.queue, 100).await {
        tracing::warn!(error = %format!("{e:#}"), "outbox relay deferred");
    }
    tracing::info!(account_id = %saved.id, method = c.method, updated = saved.previous_name.is_some(),
        role = ?saved.role, "Apple Ads account connected");
    Ok(saved)
}

/// Whether the first key of the connection the Apple Ads user already has still works, asked
/// of Apple only when it matters: when the new key, reaching `found`, would not replace it.
/// Only a refusal of the credentials (`Auth`) counts as not working; a provider that cannot
/// be reached leaves the first key in place.
async fn first_key_works(
    state: &AppState,
    workspace_id: &str,
    apple_user: i64,
    found: &[OrgRow],
) -> Result<bool, ApiError> {
    let pool = &state.db.pool;
    let Some((id, _)) = store::accounts::by_provider_user(pool, workspace_id, apple_user).await?
    else {
        return Ok(true);
    };
    let Some(row) = store::accounts::by_id(pool, &id).await? else {
        return Ok(true);
    };
    let had = store::accounts::orgs(pool, &id).await?;
    if keys::plan(&had, &row.extra_keys, found, true).role == Role::First {
        return Ok(true);
    }
    let client = state.provider.client_of(&row)?;
    Ok(!matches!(client.me().await, Err(ProviderError::Auth(_))))
}

/// The new credentials as a key beside the connection's first, sealed under its own id,
/// serving `org_ids`.
fn beside_key(
    state: &AppState,
    user: &CurrentUser,
    apple_user: i64,
    c: &Connection<'_>,
    org_ids: Vec<i64>,
    now: i64,
) -> ExtraKey {
    let id = new_id();
    let seal = |field: &str, secret: Option<&SecretString>| {
        secret.map(|s| {
            let field = stored_credentials::extra_field(&id, field);
            state.secrets.seal_str(
                &credentials::context(&user.workspace_id, apple_user, &field),
                s,
            )
        })
    };
    ExtraKey {
        private_key_sealed: seal("private_key", c.private_key),
        refresh_token_sealed: seal("refresh_token", c.refresh_token),
        id: id.clone(),
        method: c.method.to_string(),
        client_id: c.client_id.to_string(),
        team_id: c.team_id.map(str::to_string),
        key_id: c.key_id.map(str::to_string),
        org_ids,
        added_at: now,
    }
}
