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
use serde_json::{Map, Value, json};
use utoipa::{IntoResponses, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use crate::{
    domain::Fields,
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
    Fields { errors }.finish()
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

/// The ad group `b` of a quick-edit path `{a}/{b}` (the campaign `a` is resolved by the
/// guard): an id that is not a number names no ad group, 404.
pub fn ad_group_in_path(path: &(String, String)) -> Result<i64, ApiError> {
    path.1
        .trim()
        .parse::<i64>()
        .map_err(|_| ApiError::not_found("Ad group"))
}

/// Puts the requested status into the provider's `request`, unless it is the one already
/// set (a synced keyword may say ACTIVE for ENABLED).
pub fn request_status(request: &mut Map<String, Value>, requested: Option<String>, current: &str) {
    if let Some(s) =
        requested.filter(|s| !(s == current || (s == "ENABLED" && current == "ACTIVE")))
    {
        request.insert("status".into(), json!(s));
    }
}

/// The value of one editable field, by its kind, which says how it is compared and recorded
/// (as text) and how the answer shows it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Field<'a> {
    /// An amount in micros of the campaign group's currency, None when unset: recorded as
    /// an exact decimal with the currency, answered as `{amount, currency}`.
    Money(Option<i64>),
    /// A status as the provider writes it.
    Status(&'a str),
    /// An on/off setting (Search Match): `true` / `false`.
    Flag(bool),
}

impl Field<'_> {
    /// The value as the change record (and the answer's `changes`) write it.
    fn text(self) -> Option<String> {
        match self {
            Field::Money(micros) => money::text(micros),
            Field::Status(status) => Some(status.to_string()),
            Field::Flag(on) => Some(on.to_string()),
        }
    }

    /// The value as the answer's `values` show it.
    fn answer(self, currency: Option<&str>) -> Value {
        match self {
            Field::Money(micros) => money::answer(micros, currency),
            Field::Status(status) => json!(status),
            Field::Flag(on) => json!(on),
        }
    }
}

/// The entity a quick edit changes, in the campaign its route resolved.
pub struct Target<'a> {
    pub id: i64,
    /// Its ad group (None for a campaign and a campaign-level negative keyword).
    pub ad_group_id: Option<i64>,
    /// Its name as the change records show it (a keyword's text).
    pub name: &'a str,
}

impl<'a> Target<'a> {
    /// Campaign `c` itself.
    pub fn campaign(c: &'a CampaignRow) -> Self {
        Target {
            id: c.id,
            ad_group_id: None,
            name: &c.name,
        }
    }
}

/// One level's side of a quick edit: its provider entity, its editable fields, and how its
/// state is read from the provider's answer and stored. The steps around it (comparing,
/// answering, recording) are [`apply`]'s.
pub trait Level: Sized + Send + Sync {
    /// The level as the answer and the change records name it (`CAMPAIGN`, `AD_GROUP`,
    /// `KEYWORD`, `AD`, `NEGATIVE_KEYWORD`).
    const LEVEL: &'static str;
    /// The provider's entity path (`campaigns`, `adgroups`, `keywords`, `ads`,
    /// `negative-keywords`).
    const ENTITY: &'static str;
    /// What a 404 names.
    const WHAT: &'static str;
    /// Our names of the provider's request fields, for its refusals.
    const FIELDS: &'static [(&'static str, &'static str)];
    /// The state the provider answered (`self` is the state before: fields the answer
    /// leaves out keep it).
    fn after(&self, answer: &Value) -> Self;
    /// The editable fields by the table's column name, in the order the answer lists them.
    fn editable(&self) -> Vec<(&'static str, Field<'_>)>;
    /// Writes `self` as entity `id`'s synced row.
    fn store(
        &self,
        ex: &mut sqlx::AnyConnection,
        org_key: i64,
        id: i64,
    ) -> impl Future<Output = Result<bool, sqlx::Error>> + Send;
}

/// The editable fields of `state` as the answer shows them.
fn values(state: &impl Level, currency: Option<&str>) -> Value {
    let fields = state.editable().into_iter();
    Value::Object(
        fields
            .map(|(name, value)| (name.to_string(), value.answer(currency)))
            .collect(),
    )
}

/// The fields whose values differ between `before` and `now`.
fn changes<L: Level>(before: &L, now: &L) -> Vec<Changed> {
    before
        .editable()
        .into_iter()
        .zip(now.editable())
        .map(|((field, old), (_, new))| (field, old.text(), new.text()))
        .filter(|(_, old, new)| old != new)
        .map(|(field, old, new)| Changed {
            field: field.to_string(),
            old_value: old,
            new_value: new,
        })
        .collect()
}

/// A quick edit as its change records describe it: who made it, where, and on what.
struct Edit<'a> {
    user: &'a CurrentUser,
    campaign: &'a CampaignRow,
    level: &'static str,
    target: Target<'a>,
    /// The fields whose values are money (their change records carry the currency).
    money: Vec<&'static str>,
}

/// Runs a checked quick edit of `target` (in campaign `campaign`, by `user`): answers the
/// values as they are when `request` (the provider's fields that differ) is empty; else
/// sends it, then writes the provider's answer as the synced row and one change record per
/// changed field in one transaction (retried when SQLite is busy). A refusal comes back on
/// our field name, nothing written.
pub async fn apply<L: Level>(
    state: &AppState,
    user: &CurrentUser,
    campaign: &CampaignRow,
    target: Target<'_>,
    before: L,
    request: Map<String, Value>,
) -> Result<Edited, ApiError> {
    let currency = campaign.currency.as_deref();
    let mut answer = Edited {
        level: L::LEVEL.to_string(),
        id: target.id,
        campaign_id: campaign.id,
        ad_group_id: target.ad_group_id,
        org_id: campaign.org_id,
        account_id: campaign.account_id.clone(),
        currency: campaign.currency.clone(),
        values: values(&before, currency),
        changes: Vec::new(),
    };
    if request.is_empty() {
        return Ok(answer);
    }
    let client = client(state, &campaign.account_id).await?;
    let after: Value = client
        .update(
            campaign.org_id,
            L::ENTITY,
            target.id,
            &Value::Object(request),
        )
        .await
        .map_err(|e| refused(e, L::FIELDS, L::WHAT))?;
    let now = before.after(&after);
    let changed = changes(&before, &now);
    let money = before
        .editable()
        .into_iter()
        .filter(|(_, value)| matches!(value, Field::Money(_)))
        .map(|(field, _)| field)
        .collect();
    let edit = Edit {
        user,
        campaign,
        level: L::LEVEL,
        target,
        money,
    };
    let (pool, edit_ref, now_ref, changed_ref) = (&state.db.pool, &edit, &now, &changed);
    Db::retry_busy(move || async move {
        let mut tx = pool.begin().await?;
        now_ref
            .store(&mut tx, edit_ref.campaign.org_key, edit_ref.target.id)
            .await?;
        record(&mut tx, edit_ref, changed_ref).await?;
        tx.commit().await
    })
    .await?;
    tracing::info!(
        level = L::LEVEL,
        entity.id = edit.target.id,
        org.id = campaign.org_id,
        changes = changed.len(),
        "quick edit applied"
    );
    answer.values = values(&now, currency);
    answer.changes = changed;
    Ok(answer)
}

/// Writes one change record per changed field (source: manual change).
async fn record(
    ex: &mut sqlx::AnyConnection,
    edit: &Edit<'_>,
    changed: &[Changed],
) -> Result<(), sqlx::Error> {
    let now = ids::now_ms() / 1000;
    let c = edit.campaign;
    for change in changed {
        changes::insert(
            &mut *ex,
            &changes::NewChange {
                id: ids::new_id(),
                workspace_id: edit.user.workspace_id.clone(),
                user_id: Some(edit.user.user_id.clone()),
                user_email: Some(edit.user.email.clone()),
                account_id: Some(c.account_id.clone()),
                org_id: c.org_id,
                level: edit.level,
                entity_id: edit.target.id,
                campaign_id: c.id,
                ad_group_id: edit.target.ad_group_id,
                entity_name: edit.target.name.to_string(),
                campaign_name: c.name.clone(),
                field: change.field.clone(),
                old_value: change.old_value.clone(),
                new_value: change.new_value.clone(),
                currency: edit
                    .money
                    .contains(&change.field.as_str())
                    .then(|| c.currency.clone())
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

/// A text field of the provider's answer.
pub fn text(v: &Value) -> Option<String> {
    v.as_str().map(str::to_string)
}
