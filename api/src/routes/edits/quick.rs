//! The steps every quick edit shares. Each route's handler is [`edit`] over its body, whose
//! [`Level`] declares only what differs between levels (the provider's entity, the editable
//! fields, how the body finds its entity and becomes the request to Apple, how the answer is
//! read and stored); [`apply`] compares the provider's answer with the state before, writes
//! the synced row and the change records in one transaction, and answers.

use axum::Json;
use searchdeck_common::{
    Db, ids,
    store::{activity::changes, activity::notifications, campaign_views::CampaignRow},
};
use searchdeck_provider::Entity;
use serde_json::{Map, Value, json};

use super::{Changed, Edited, money, refused};
use crate::{
    access::{Campaign, CampaignOfAdGroup, EditRoles, InWorkspace, ScopeQuery, pick},
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult},
    session::CurrentUser,
    state::AppState,
};

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
pub struct Target {
    pub id: i64,
    /// Its ad group (None for a campaign and a campaign-level negative keyword).
    pub ad_group_id: Option<i64>,
    /// Its name as the change records show it (a keyword's text).
    pub name: String,
}

/// One level's quick edit, implemented by its route's body: what the level is at the
/// provider, how the body finds its entity and becomes the request to Apple, and how the
/// entity's state is read from the provider's answer and stored. The steps around it
/// (resolving the campaign, comparing, sending, answering, recording) are [`edit`]'s and
/// [`apply`]'s.
pub trait Level: Sized + Send + Sync {
    /// The level as the answer and the change records name it (`CAMPAIGN`, `AD_GROUP`,
    /// `KEYWORD`, `AD`, `NEGATIVE_KEYWORD`).
    const LEVEL: &'static str;
    /// The provider's entity (campaigns, ad groups, keywords, ads, negative keywords).
    const ENTITY: Entity;
    /// What a 404 names.
    const WHAT: &'static str;
    /// Our names of the provider's request fields, for its refusals.
    const FIELDS: &'static [(&'static str, &'static str)];
    /// The entity's editable state as stored.
    type State: Send + Sync;
    /// What the route's path names besides the campaign its guard resolved: `()`, or the
    /// `{a}/{b}` path whose `b` is an ad group of campaign `a`.
    type Path: Send;

    /// The entity the body names in campaign `c` (and `path`), with its state before the
    /// edit: a missing id is a 400 on its field, an entity not there (or deleted) a 404.
    fn find(
        &self,
        state: &AppState,
        c: &CampaignRow,
        path: Self::Path,
    ) -> impl Future<Output = Result<(Target, Self::State), ApiError>> + Send;
    /// The provider's request fields of the body that differ from `before` (empty when
    /// nothing changes), its values checked against the campaign group's `currency`: a
    /// body naming no field, or an invalid value, is a 400 on the field.
    fn request(
        self,
        before: &Self::State,
        currency: Option<&str>,
    ) -> Result<Map<String, Value>, ApiError>;
    /// The state the provider answered (`before`: fields the answer leaves out keep it).
    fn after(before: &Self::State, answer: &Value) -> Self::State;
    /// The editable fields by the table's column name, in the order the answer lists them.
    fn editable(state: &Self::State) -> Vec<(&'static str, Field<'_>)>;
    /// Writes `state` as entity `id`'s synced row.
    fn store(
        state: &Self::State,
        ex: &mut sqlx::AnyConnection,
        org_key: i64,
        id: i64,
    ) -> impl Future<Output = Result<bool, sqlx::Error>> + Send;
}

/// The guards of the quick-edit routes: every synced copy of the campaign in the path.
pub trait CampaignCopies: Send {
    fn copies(self) -> Vec<CampaignRow>;
}

impl CampaignCopies for Campaign {
    fn copies(self) -> Vec<CampaignRow> {
        self.0
    }
}

impl CampaignCopies for CampaignOfAdGroup {
    fn copies(self) -> Vec<CampaignRow> {
        self.0
    }
}

/// Every quick-edit route's handler: the copy of the guard's campaign the query names,
/// the entity the body names in it, the body checked and turned into the request to Apple,
/// then [`apply`]; answers the entity's values after the edit.
pub async fn edit<L: Level>(
    state: &AppState,
    campaign: InWorkspace<impl CampaignCopies, EditRoles>,
    query: &ScopeQuery,
    path: L::Path,
    body: L,
) -> ApiResult<Json<Envelope<Item<Edited>>>> {
    let c = pick(campaign.item.copies(), query)?;
    let (target, before) = body.find(state, &c, path).await?;
    let request = body.request(&before, c.currency.as_deref())?;
    let user = campaign.caller.user();
    let edited = apply::<L>(state, user, &c, target, before, request).await?;
    Ok(envelope::item(edited))
}

/// The editable fields of `state` as the answer shows them.
fn values<L: Level>(state: &L::State, currency: Option<&str>) -> Value {
    let fields = L::editable(state).into_iter();
    Value::Object(
        fields
            .map(|(name, value)| (name.to_string(), value.answer(currency)))
            .collect(),
    )
}

/// The fields whose values differ between `before` and `now`.
fn changes<L: Level>(before: &L::State, now: &L::State) -> Vec<Changed> {
    L::editable(before)
        .into_iter()
        .zip(L::editable(now))
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
    target: Target,
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
    target: Target,
    before: L::State,
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
        values: values::<L>(&before, currency),
        changes: Vec::new(),
    };
    if request.is_empty() {
        return Ok(answer);
    }
    let client = state
        .provider
        .client_by_id(&state.db, &campaign.account_id)
        .await?;
    let after = client
        .update_json(
            campaign.org_id,
            L::ENTITY,
            target.id,
            &Value::Object(request),
        )
        .await
        .map_err(|e| refused(e, L::FIELDS, L::WHAT))?;
    let now = L::after(&before, &after);
    let changed = changes::<L>(&before, &now);
    let money = L::editable(&before)
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
        let mut tx = searchdeck_common::db::begin_write(pool).await?;
        L::store(
            now_ref,
            &mut tx,
            edit_ref.campaign.org_key,
            edit_ref.target.id,
        )
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
    answer.values = values::<L>(&now, currency);
    answer.changes = changed;
    Ok(answer)
}

/// Writes the edit's notification (key `edit:<uuid>`, tag manual change, by the member) and
/// one change record per changed field in it.
async fn record(
    ex: &mut sqlx::AnyConnection,
    edit: &Edit<'_>,
    changed: &[Changed],
) -> Result<(), sqlx::Error> {
    if changed.is_empty() {
        return Ok(());
    }
    let now = ids::now_ms() / 1000;
    let c = edit.campaign;
    let user = edit.user;
    let fields: Vec<&str> = changed.iter().map(|c| c.field.as_str()).collect();
    let notification = notifications::NewNotification {
        workspace_id: user.workspace_id.clone(),
        key: format!("edit:{}", ids::new_id()),
        tag: notifications::TAG_MANUAL,
        kind: notifications::TYPE_CHANGE,
        title: notifications::titles::quick(edit.level, &fields),
        action: "UPDATE".into(),
        target: edit.level.into(),
        source: notifications::SOURCE_USER,
        source_name: notifications::member_name(&mut *ex, &user.user_id)
            .await?
            .map_or_else(|| user.email.clone(), |(name, _)| name),
        user_id: Some(user.user_id.clone()),
        email: Some(user.email.clone()),
        rule_id: None,
        account_id: Some(c.account_id.clone()),
        org_id: Some(c.org_id),
        undo_of: None,
        created_at: now,
    };
    let notification_id = notifications::record(&mut *ex, &notification).await?;
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
                entity_name: edit.target.name.clone(),
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
                notification_id: Some(notification_id.clone()),
                created_at: now,
            },
        )
        .await?;
    }
    Ok(())
}
