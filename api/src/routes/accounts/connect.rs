//! Connecting an Apple Ads account ends the same way on both paths ([`key_pair`] and
//! [`popup`]): the credentials are proved with the provider, then the connection is saved
//! sealed, one per (workspace, Apple Ads user), with its campaign groups, and made the
//! caller's active account, in one transaction. A new connection is refused with
//! `LIMIT_HAS_BEEN_REACHED` (`AVAILABLEAPPS`, `AVAILABLEDEVS`) once the workspace's synced
//! apps or developers reach the plan's limits, checked in that transaction with the
//! workspace's row locked ([`crate::plan_limits`]).
//!
//! [`key_pair`]: super::key_pair
//! [`popup`]: super::popup

use searchdeck_common::{
    Db,
    ids::{new_id, now_ms},
    jobs::{SYNC_EVERY_MS, SyncAccount},
    plan,
    queue::{
        Job,
        outbox::{self, OutboxOptions},
    },
    store::{self, accounts::NewAccount},
    tasks::NewTask,
};
use searchdeck_provider::Credentials;
use secrecy::SecretString;

use super::{credentials, orgs};
use crate::{
    error::ApiError, plan_limits, provider::provider_error, session::CurrentUser, state::AppState,
};

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

/// What a connect did: added a connection, or updated the one the same Apple Ads user
/// already had in the workspace (its name and credentials).
#[derive(Debug, Clone)]
pub struct Saved {
    /// The connection's id.
    pub id: String,
    /// The existing connection's name before this connect; None when it was added.
    pub previous_name: Option<String>,
    /// Campaign groups the new credentials reach that the connection did not (their names).
    pub groups_added: Vec<String>,
}

/// 409 code of credentials that reach fewer campaign groups than the connection's.
pub const NARROWER_KEY: &str = "NARROWER_CREDENTIALS";

impl Saved {
    /// What the user is told: 'New account added', or that the Apple Ads user was already
    /// connected (under which name) and what changed.
    pub fn message(&self, name: &str) -> String {
        let base = match &self.previous_name {
            None => return "New account added".into(),
            Some(old) if old == name => format!(
                "This Apple Ads user is already connected as \u{201c}{old}\u{201d}; its credentials were updated"
            ),
            Some(old) => format!(
                "This Apple Ads user is already connected as \u{201c}{old}\u{201d}; its name was updated to \u{201c}{name}\u{201d}"
            ),
        };
        if self.groups_added.is_empty() {
            base
        } else {
            format!(
                "{base}. Campaign groups added: {}",
                self.groups_added.join(", ")
            )
        }
    }
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
    let plan = plan::current(&state.db, &user.workspace_id).await?;
    // One transaction, run again if SQLite was busy with another writer (a sync).
    let saved = Db::retry_busy(|| async {
        let mut tx = state.db.begin_write().await?;
        let before =
            store::accounts::by_provider_user(&mut *tx, &user.workspace_id, apple_user).await?;
        let mut groups_added = Vec::new();
        if let Some((existing, _)) = &before {
            // New credentials of the same Apple Ads user never silently re-scope the
            // connection: a key limited to other campaign groups would cut the rules and
            // lists of the groups it cannot reach. Refused, saying which and what depends
            // on them; groups the key adds are named in the answer.
            let had = store::accounts::orgs(&mut *tx, existing).await?;
            groups_added = found
                .iter()
                .filter(|f| !had.iter().any(|h| h.org_id == f.org_id))
                .map(|f| f.display_name.clone())
                .collect();
            let mut lost = Vec::new();
            for h in had.iter().filter(|h| h.selected && !found.iter().any(|f| f.org_id == h.org_id)) {
                let (rules, lists) =
                    store::accounts::dependents_of_org(&mut tx, existing, h.org_id).await?;
                lost.push(lost_group(&h.display_name, h.org_id, &rules, &lists));
            }
            if !lost.is_empty() {
                return Err(ApiError::Status {
                    status: axum::http::StatusCode::CONFLICT,
                    message: format!(
                        "These credentials do not reach every campaign group this account uses, so \
                         the account keeps its current ones. No longer reachable with them: {}. Use \
                         credentials with access to these groups, or remove the account first to \
                         connect it with only the groups these credentials reach",
                        lost.join("; ")
                    ),
                    errors: Vec::new(),
                    meta: Some(serde_json::json!({"code": NARROWER_KEY})),
                    retry_after: None,
                });
            }
        }
        if before.is_none() {
            // A new connection brings its apps: refused once the plan's are reached.
            plan_limits::lock(&mut tx, &user.workspace_id).await?;
            plan_limits::check_apps(&mut tx, plan, &user.workspace_id).await?;
        }
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
        orgs::save(&mut tx, &id, &found).await?;
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
        store::tasks::claim_subject_if_free(&mut *tx, &task_id, &super::sync_now::subject(&id))
            .await?;
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
            groups_added,
        })
    })
    .await?;
    if let Err(e) = outbox::relay_once(&state.db, &state.queue, 100).await {
        tracing::warn!(error = %format!("{e:#}"), "outbox relay deferred");
    }
    tracing::info!(account_id = %saved.id, method = c.method, updated = saved.previous_name.is_some(),
        "Apple Ads account connected");
    Ok(saved)
}

/// A campaign group the new credentials do not reach, with what depends on it.
fn lost_group(name: &str, org_id: i64, rules: &[String], lists: &[String]) -> String {
    let mut needs = Vec::new();
    if !rules.is_empty() {
        needs.push(format!(
            "{} {} ({})",
            rules.len(),
            if rules.len() == 1 { "rule" } else { "rules" },
            rules.join(", ")
        ));
    }
    if !lists.is_empty() {
        needs.push(format!(
            "{} negative keyword {} ({})",
            lists.len(),
            if lists.len() == 1 { "list" } else { "lists" },
            lists.join(", ")
        ));
    }
    if needs.is_empty() {
        format!("\u{201c}{name}\u{201d} ({org_id})")
    } else {
        format!(
            "\u{201c}{name}\u{201d} ({org_id}), used by {}",
            needs.join(" and ")
        )
    }
}
