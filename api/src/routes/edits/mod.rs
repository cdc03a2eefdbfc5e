//! Quick edits through the provider (issue 10, spec §2 quick-edit columns, §5 editable money
//! field, §6 roles, §7 `asa/campaigns/update/{id}`, `asa/groups/updatesV2/{id}`,
//! `asa/keywords/update/{a}/{b}`): one entity's budget, bids, goal, Search Match or status.
//!
//! Every edit runs the same steps: the editor guard (readers get 403), the entity resolved in
//! the caller's workspace (another workspace's id answers 404), the input checked (money a
//! non-negative number with no more decimals than the campaign group's currency has; status
//! ENABLED or PAUSED), unchanged fields dropped, the change sent through the rate-limited
//! provider client, then — in one transaction — the synced row written from the provider's
//! answer (so `asa/reports` shows the new value at once) and one change record per changed
//! field. A refusal by the provider comes back as a 400 with its message on our field name,
//! and nothing is written.

pub mod bulk;
pub mod bulk_routes;
pub mod campaign;
pub mod delete;
pub mod group;
pub mod keyword;
pub mod money;
pub mod negatives;
pub mod rename;
pub mod statuses;

use searchdeck_common::{
    Db, ids,
    store::{self, changes, synced_reads::CampaignRow},
};
use searchdeck_provider::{Client, ProviderError};
use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::{IntoResponses, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use crate::{
    error::{ApiError, ErrorBody, FieldError},
    routes::accounts::credentials,
    session::CurrentUser,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(campaign::router())
        .merge(group::router())
        .merge(keyword::router())
        .merge(bulk_routes::router())
        .merge(rename::router())
        .merge(negatives::router())
        .merge(delete::router())
        .merge(statuses::router())
}

/// Message of a request that names no field to change.
pub const NOTHING_TO_CHANGE: &str = "Choose a value to change";
/// Message of a status that is neither ENABLED nor PAUSED.
pub const STATUS_VALUES: &str = "Status must be ENABLED or PAUSED";

/// A user-settable status: ENABLED or PAUSED (any case, trimmed); else 400 on `field`.
pub fn parse_status(field: &str, raw: &str) -> Result<String, FieldError> {
    match raw.trim().to_ascii_uppercase().as_str() {
        s @ ("ENABLED" | "PAUSED") => Ok(s.to_string()),
        // The keyword table shows ACTIVE for an enabled keyword.
        "ACTIVE" => Ok("ENABLED".to_string()),
        _ => Err(FieldError::new(field, STATUS_VALUES)),
    }
}

/// 400 with every field error, if any.
pub fn check(errors: Vec<FieldError>) -> Result<(), ApiError> {
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ApiError::validation(errors))
    }
}

/// The provider client of connection `account_id`: one per connection, shared by its
/// requests, so its access token is exchanged once per lifetime rather than per edit.
pub async fn client(state: &AppState, account_id: &str) -> Result<Arc<Client>, ApiError> {
    let row = store::accounts::by_id(&state.db.pool, account_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Account"))?;
    state.provider.client_for(
        &row,
        || credentials::of(state, &row),
        credentials::provider_error,
    )
}

/// A provider failure of an edit as the caller sees it: a refusal is a 400 with the
/// provider's message on our name of the field it names (`fields` maps the provider's
/// request fields to ours), an entity gone at the provider a 404 on `what`, the rate limit a
/// 429 with its wait; the rest as every provider call answers them.
pub fn refused(err: ProviderError, fields: &[(&str, &str)], what: &str) -> ApiError {
    match err {
        ProviderError::Permanent { status: 404, .. } => ApiError::not_found(what),
        ProviderError::Permanent { message, field, .. } => {
            let ours = field.map(|f| {
                fields
                    .iter()
                    .find(|(p, _)| *p == f)
                    .map_or(f.clone(), |(_, o)| o.to_string())
            });
            match ours {
                Some(field) => ApiError::validation(vec![FieldError::new(field, message)]),
                None => ApiError::bad_request(message),
            }
        }
        ProviderError::RateLimited { retry_after } => ApiError::too_many_requests(
            "Apple Ads is busy. Try again in a moment",
            retry_after.as_secs().max(1),
        ),
        other => credentials::provider_error(other),
    }
}

/// One field an edit changed, as the answer and the change record show it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Changed {
    /// The table's column name (`dailyBudget`, `defaultBidAmount`, `cpaGoal`,
    /// `automatedKeywordsOptIn`, `cptBid`, `status`).
    pub field: String,
    /// Money as an exact decimal in the campaign group's currency, statuses as the provider
    /// writes them, booleans `true` / `false`; null when unset.
    pub old_value: Option<String>,
    pub new_value: Option<String>,
}

impl Changed {
    /// The change of `field` from `old` to `new`, if they differ.
    pub fn of(field: &str, old: Option<String>, new: Option<String>) -> Option<Changed> {
        (old != new).then(|| Changed {
            field: field.to_string(),
            old_value: old,
            new_value: new,
        })
    }
}

/// The answer of a quick edit: the entity's editable values now and what changed.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Edited {
    /// CAMPAIGN, AD_GROUP or KEYWORD.
    pub level: String,
    pub id: i64,
    pub campaign_id: i64,
    pub ad_group_id: Option<i64>,
    pub org_id: i64,
    pub account_id: String,
    /// The campaign group's currency, which every amount is in.
    pub currency: Option<String>,
    /// The editable fields' values after the edit (money as `{amount, currency}`).
    #[schema(value_type = Object)]
    pub values: Value,
    /// The fields that changed (empty when the request asked for the values already set:
    /// nothing is sent to Apple then).
    pub changes: Vec<Changed>,
}

/// The answers a quick edit gives when Apple Ads does not take the change for want of
/// capacity, as the OpenAPI document lists them (the other answers are the route's own).
#[derive(IntoResponses)]
pub enum ProviderBusy {
    /// Apple Ads rate limit
    #[response(status = 429)]
    RateLimited(ErrorBody),
    /// Apple Ads did not answer
    #[response(status = 502)]
    NoAnswer(ErrorBody),
}

/// Where an edit happened and who made it, for its change records.
pub struct Origin<'a> {
    pub user: &'a CurrentUser,
    pub account_id: &'a str,
    pub org_key: i64,
    pub org_id: i64,
    pub currency: Option<&'a str>,
}

impl<'a> Origin<'a> {
    /// An edit by `user` in the campaign group of campaign `c`.
    pub fn of(user: &'a CurrentUser, c: &'a CampaignRow) -> Self {
        Origin {
            user,
            account_id: &c.account_id,
            org_key: c.org_key,
            org_id: c.org_id,
            currency: c.currency.as_deref(),
        }
    }
}

/// The change of a status-only level (ads, negative keywords).
pub fn status_changes(old: &str, new: &str) -> Vec<Changed> {
    changed([("status", Some(old.to_string()), Some(new.to_string()))])
}

/// The entity an edit changed.
pub struct Target<'a> {
    pub level: &'static str,
    pub id: i64,
    pub campaign_id: i64,
    pub ad_group_id: Option<i64>,
    pub name: &'a str,
    pub campaign_name: &'a str,
}

/// One level's side of a quick edit: its provider entity, its fields, and how its state is
/// read from the provider's answer, compared, shown and stored. The steps around it are
/// [`apply`]'s.
pub trait Level: Sized + Send + Sync {
    /// The provider's entity path (`campaigns`, `adgroups`, `keywords`, `ads`,
    /// `negative-keywords`).
    const ENTITY: &'static str;
    /// What a 404 names.
    const WHAT: &'static str;
    /// Our names of the provider's request fields, for its refusals.
    const FIELDS: &'static [(&'static str, &'static str)];
    /// The fields whose values are money (their change records carry the currency).
    const MONEY: &'static [&'static str];
    /// The state the provider answered (`self` is the state before: fields the answer
    /// leaves out keep it).
    fn after(&self, answer: &Value) -> Self;
    /// The fields that differ from `self` in `now`.
    fn changes(&self, now: &Self) -> Vec<Changed>;
    /// The editable fields as the answer shows them.
    fn values(&self, currency: Option<&str>) -> Value;
    /// Writes `self` as entity `id`'s synced row.
    fn store(
        &self,
        ex: &mut sqlx::AnyConnection,
        org_key: i64,
        id: i64,
    ) -> impl Future<Output = Result<bool, sqlx::Error>> + Send;
}

/// Runs a checked quick edit: answers the values as they are when `request` (the provider's
/// fields that differ) is empty; else sends it, then writes the provider's answer as the
/// synced row and one change record per changed field in one transaction (retried when
/// SQLite is busy). A refusal comes back on our field name, nothing written.
pub async fn apply<L: Level>(
    state: &AppState,
    origin: Origin<'_>,
    target: Target<'_>,
    before: L,
    request: Map<String, Value>,
) -> Result<Edited, ApiError> {
    let mut answer = Edited {
        level: target.level.to_string(),
        id: target.id,
        campaign_id: target.campaign_id,
        ad_group_id: target.ad_group_id,
        org_id: origin.org_id,
        account_id: origin.account_id.to_string(),
        currency: origin.currency.map(str::to_string),
        values: before.values(origin.currency),
        changes: Vec::new(),
    };
    if request.is_empty() {
        return Ok(answer);
    }
    let client = client(state, origin.account_id).await?;
    let after: Value = client
        .update(origin.org_id, L::ENTITY, target.id, &Value::Object(request))
        .await
        .map_err(|e| refused(e, L::FIELDS, L::WHAT))?;
    let now = before.after(&after);
    let changed = before.changes(&now);
    let (pool, origin_ref, target_ref, now_ref, changed_ref) =
        (&state.db.pool, &origin, &target, &now, &changed);
    Db::retry_busy(move || async move {
        let mut tx = pool.begin().await?;
        now_ref
            .store(&mut tx, origin_ref.org_key, target_ref.id)
            .await?;
        record(&mut tx, origin_ref, target_ref, changed_ref, L::MONEY).await?;
        tx.commit().await
    })
    .await?;
    tracing::info!(
        level = target.level,
        entity.id = target.id,
        org.id = origin.org_id,
        changes = changed.len(),
        "quick edit applied"
    );
    answer.values = now.values(origin.currency);
    answer.changes = changed;
    Ok(answer)
}

/// Writes one change record per changed field (source: manual change).
pub async fn record(
    ex: &mut sqlx::AnyConnection,
    origin: &Origin<'_>,
    target: &Target<'_>,
    changed: &[Changed],
    money_fields: &[&str],
) -> Result<(), sqlx::Error> {
    let now = ids::now_ms() / 1000;
    for c in changed {
        changes::insert(
            &mut *ex,
            &changes::NewChange {
                id: ids::new_id(),
                workspace_id: origin.user.workspace_id.clone(),
                user_id: Some(origin.user.user_id.clone()),
                user_email: Some(origin.user.email.clone()),
                account_id: Some(origin.account_id.to_string()),
                org_id: origin.org_id,
                level: target.level,
                entity_id: target.id,
                campaign_id: target.campaign_id,
                ad_group_id: target.ad_group_id,
                entity_name: target.name.to_string(),
                campaign_name: target.campaign_name.to_string(),
                field: c.field.clone(),
                old_value: c.old_value.clone(),
                new_value: c.new_value.clone(),
                currency: money_fields
                    .contains(&c.field.as_str())
                    .then(|| origin.currency.map(str::to_string))
                    .flatten(),
                source: changes::MANUAL,
                job_id: None,
                created_at: now,
            },
        )
        .await?;
    }
    Ok(())
}

/// The changes of `pairs` (field, old, new) that differ.
pub fn changed(
    pairs: impl IntoIterator<Item = (&'static str, Option<String>, Option<String>)>,
) -> Vec<Changed> {
    pairs
        .into_iter()
        .filter_map(|(f, old, new)| Changed::of(f, old, new))
        .collect()
}

/// A status of a request, ENABLED or PAUSED, unless it is the one already set (a synced
/// keyword may say ACTIVE for ENABLED).
pub fn new_status(requested: Option<String>, current: &str) -> Option<String> {
    requested.filter(|s| !(s == current || (s == "ENABLED" && current == "ACTIVE")))
}

/// A text field of the provider's answer.
pub fn text(v: &Value) -> Option<String> {
    v.as_str().map(str::to_string)
}
