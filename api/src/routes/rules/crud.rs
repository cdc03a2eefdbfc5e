//! The rules of a workspace: `GET rules/all` (filters `accountId`, `orgId`, `campaignId`),
//! `PUT rules/user` (create), `PUT rules/user/{id}` (replace) and `DELETE rules/user/many`.
//! A rule sent is validated whole with its campaign group's currency, its campaigns checked
//! against that group, then one transaction checks the plan's limits (after the workspace's
//! lock, `super::lock_limits`) and stores the rule and its attachments.

use std::collections::HashMap;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    Db,
    ids::{new_id, now_ms},
    rules::{Rule, VERSION, validate},
    store::{self, rules::RuleFilter},
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{
    IDS_MAX, StoredRule, check_campaigns_limit, check_rules_limit, foreign_campaigns, last_run,
    lock_limits, parsed_ids, rule_item, rule_scope, stored_rule,
};
use crate::{
    access::{EditRoles, Editor, InWorkspace, Member, WorkspaceResource},
    envelope::{self, Envelope, Item, Items},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiQuery},
    state::AppState,
};

/// The query of `GET rules/all`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct RulesQuery {
    /// Only the rules of this connection.
    pub account_id: Option<String>,
    /// Only the rules of this campaign group.
    #[param(pattern = "^[0-9]{1,18}$")]
    pub org_id: Option<String>,
    /// Only the rules attached to this campaign.
    #[param(pattern = "^[0-9]{1,18}$")]
    pub campaign_id: Option<String>,
}

fn id_filter(raw: Option<&str>, field: &str) -> ApiResult<Option<i64>> {
    match raw {
        None => Ok(None),
        Some(s) if s.len() <= 18 && validate::digits(s) => s
            .parse()
            .map(Some)
            .map_err(|_| ApiError::field(field, "Must be an id")),
        Some(_) => Err(ApiError::field(field, "Must be an id")),
    }
}

/// The workspace's rules, newest first, each with its campaigns (`campaignIds`), currency
/// and `lastRun`; narrowed by `accountId`, `orgId` and `campaignId` when given.
#[utoipa::path(get, path = "/api/rules/all", operation_id = "all_rules", tag = "rules", params(RulesQuery),
    responses((status = 200, description = "The rules", body = Envelope<Items<Rule>>),
              (status = 400, description = "orgId or campaignId is not an id", body = ErrorBody)))]
pub async fn all(
    State(state): State<AppState>,
    user: Member,
    ApiQuery(query): ApiQuery<RulesQuery>,
) -> ApiResult<impl IntoResponse> {
    let filter = RuleFilter {
        account_id: query
            .account_id
            .filter(|a| !crate::input::has_control(a, false)),
        org_id: id_filter(query.org_id.as_deref(), "orgId")?,
        campaign_id: id_filter(query.campaign_id.as_deref(), "campaignId")?,
    };
    let rows = store::rules::list(&state.db.pool, &user.workspace_id, &filter).await?;
    let mut campaigns: HashMap<String, Vec<i64>> = HashMap::new();
    for (rule, campaign, _) in store::rules::links(&state.db.pool, &user.workspace_id).await? {
        campaigns.entry(rule).or_default().push(campaign);
    }
    let mut items = Vec::with_capacity(rows.len());
    for row in rows {
        let ids = campaigns.remove(&row.rule.id).unwrap_or_default();
        let currency = row.rule.currency.clone();
        let last = last_run(&state, &row.rule.id).await?;
        items.push(rule_item(row, &ids, currency, last));
    }
    Ok(envelope::items(items))
}

/// A rule checked for storing: its campaign group and campaigns.
struct Checked {
    rule: Rule,
    org_id: i64,
    /// The campaigns to attach (None: keep the attachments).
    campaigns: Option<Vec<i64>>,
}

/// Validates `rule` for `workspace_id` as the contract says: scope, every rule of the
/// schema with the group's currency, campaigns of the group (`campaignIds.N`). `current`
/// are the rule's attachments when replacing (the campaigns `addKeyword` may name when the
/// body does not send `campaignIds`).
async fn checked(
    state: &AppState,
    workspace_id: &str,
    mut rule: Rule,
    current: &[i64],
) -> ApiResult<Checked> {
    let sent = rule.campaign_ids.clone();
    if sent.is_none() {
        rule.campaign_ids = Some(current.iter().map(i64::to_string).collect());
    }
    let scope = rule_scope(state, workspace_id, &rule.account_id, &rule.org_id).await?;
    let currency = scope
        .as_ref()
        .ok()
        .and_then(|o| o.currency.clone())
        .unwrap_or_default();
    let mut errors: Vec<FieldError> = match &scope {
        Ok(_) => Vec::new(),
        Err(e) => e.clone(),
    };
    if let Err(found) = validate::validate(&rule, &currency) {
        let scoped: Vec<String> = errors.iter().map(|e| e.field.clone()).collect();
        errors.extend(found.into_iter().filter(|e| !scoped.contains(&e.field)));
    }
    let campaigns = sent.as_deref().map(parsed_ids);
    if let (Ok(org), Some(ids)) = (&scope, &campaigns)
        && ids.len() == sent.as_ref().map_or(0, Vec::len)
    {
        errors.extend(foreign_campaigns(state, org, ids, "campaignIds").await?);
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    super::conversions_granted(state, workspace_id, &rule).await?;
    let org = scope.map_err(ApiError::validation)?;
    rule.campaign_ids = None;
    Ok(Checked {
        rule,
        org_id: org.org_id,
        campaigns,
    })
}

/// Creates a rule (limit `AVAILABLERULES`; with `campaignIds`, `AVAILABLERULESCAMPAIGNS`)
/// and answers it as stored. Validation answers 400 with field errors (`name`,
/// `conditions.groups.1.conditions.0.value`, `window.days`, `actions.0.amount`,
/// `guardrails.maxBid`, `campaignIds.2`, `accountId`, `orgId`, `version`); nothing is stored.
#[utoipa::path(put, path = "/api/rules/user", operation_id = "create_rule", tag = "rules", request_body = Rule,
    responses((status = 200, description = "The stored rule", body = Envelope<Item<Rule>>),
              (status = 400, description = "Invalid rule (field errors)", body = ErrorBody),
              (status = 403, description = "LIMIT_HAS_BEEN_REACHED (meta.type AVAILABLERULES or AVAILABLERULESCAMPAIGNS); or the plan locks the Conversions and Cohort metrics the rule names (pro_limited)", body = ErrorBody)))]
pub async fn create(
    State(state): State<AppState>,
    caller: Editor,
    ApiJson(rule): ApiJson<Rule>,
) -> ApiResult<impl IntoResponse> {
    let ws = caller.workspace_id.clone();
    let Checked {
        mut rule,
        org_id,
        campaigns,
    } = checked(&state, &ws, rule, &[]).await?;
    let id = new_id();
    let campaigns = campaigns.unwrap_or_default();
    let now = now_ms() / 1000;
    rule.id = id.clone();
    rule.version = VERSION;
    rule.name = rule.name.trim().to_string();
    rule.created_by = Some(caller.email.clone());
    rule.created_at = now;
    rule.updated_at = now;
    let (state, rule, campaigns) = (&state, &rule, &campaigns);
    Db::retry_busy(|| async {
        let mut tx = state.db.begin_write().await?;
        let plan = lock_limits(state, &mut tx, &ws).await?;
        check_rules_limit(&mut tx, plan, &ws).await?;
        check_campaigns_limit(&mut tx, plan, &ws, |links| {
            links.insert(id.clone(), campaigns.iter().copied().collect());
        })
        .await?;
        store::rules::insert(&mut *tx, &ws, Some(&caller.user_id), rule, org_id).await?;
        for c in campaigns {
            store::rules::attach(&mut *tx, &id, *c, now).await?;
        }
        tx.commit().await?;
        Ok::<(), ApiError>(())
    })
    .await?;
    tracing::info!(rule.id = %id, campaigns = campaigns.len(), "rule created");
    Ok(envelope::item(stored_rule(state, &ws, &id).await?))
}

/// Replaces a rule with the one sent (its author and creation time stay); with
/// `campaignIds`, its attachments become exactly those (limit `AVAILABLERULESCAMPAIGNS`).
/// Enabling a disabled rule restarts its schedule from now.
#[utoipa::path(put, path = "/api/rules/user/{id}", tag = "rules",
    params(("id" = String, Path, description = "Rule id")),
    request_body = Rule,
    responses((status = 200, description = "The stored rule", body = Envelope<Item<Rule>>),
              (status = 400, description = "Invalid rule (field errors)", body = ErrorBody),
              (status = 403, description = "LIMIT_HAS_BEEN_REACHED (meta.type AVAILABLERULESCAMPAIGNS); or the plan locks the Conversions and Cohort metrics the rule names (pro_limited)", body = ErrorBody)))]
pub async fn replace(
    State(state): State<AppState>,
    stored: InWorkspace<StoredRule, EditRoles>,
    ApiJson(rule): ApiJson<Rule>,
) -> ApiResult<impl IntoResponse> {
    let ws = stored.caller.workspace_id.clone();
    let old = stored.item.0;
    let id = old.rule.id.clone();
    let current: Vec<i64> = store::rules::campaigns(&state.db.pool, &id)
        .await?
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    let Checked {
        mut rule,
        org_id,
        campaigns,
    } = checked(&state, &ws, rule, &current).await?;
    // A rule moved to another campaign group leaves the campaigns of the old one.
    let moved = rule.account_id != old.rule.account_id
        || old.rule.org_id.parse::<i64>().ok() != Some(org_id);
    let campaigns = match campaigns {
        Some(c) => Some(c),
        None if moved => Some(Vec::new()),
        None => None,
    };
    let now = now_ms() / 1000;
    rule.id = id.clone();
    rule.version = VERSION;
    rule.name = rule.name.trim().to_string();
    let (state, rule, campaigns) = (&state, &rule, &campaigns);
    Db::retry_busy(|| async {
        let mut tx = state.db.begin_write().await?;
        if let Some(new) = campaigns {
            let plan = lock_limits(state, &mut tx, &ws).await?;
            check_campaigns_limit(&mut tx, plan, &ws, |links| {
                links.insert(id.clone(), new.iter().copied().collect());
            })
            .await?;
        }
        if !store::rules::replace(&mut *tx, &ws, rule, org_id, now).await? {
            return Err(ApiError::not_found(StoredRule::NAME));
        }
        if let Some(new) = campaigns {
            store::rules::detach_except(&mut *tx, &id, new).await?;
            for c in new {
                store::rules::attach(&mut *tx, &id, *c, now).await?;
            }
        }
        tx.commit().await?;
        Ok(())
    })
    .await?;
    Ok(envelope::item(stored_rule(state, &ws, &id).await?))
}

/// The body of `DELETE rules/user/many`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RulesIds {
    /// 1–1,000 rule ids of the workspace.
    #[schema(min_items = 1, max_items = 1000)]
    pub rules_ids: Vec<String>,
}

/// How many rules were deleted.
#[derive(Debug, Serialize, ToSchema)]
pub struct RulesDeleted {
    pub deleted: u64,
}

/// The rule ids of a request: 1–1,000, each once; 404 for an id that cannot be a rule.
pub fn rule_ids(ids: &[String], field: &str) -> ApiResult<Vec<String>> {
    if ids.is_empty() || ids.len() > super::IDS_MAX {
        return Err(ApiError::field(
            field,
            &format!("Name 1 to {IDS_MAX} rules"),
        ));
    }
    let mut out: Vec<String> = Vec::new();
    for id in ids {
        if crate::input::has_control(id, false) || id.trim().is_empty() {
            return Err(ApiError::not_found(StoredRule::NAME));
        }
        if !out.contains(id) {
            out.push(id.clone());
        }
    }
    Ok(out)
}

/// Deletes rules of the workspace (with their attachments). An id that is not a rule of the
/// workspace answers 404 and nothing is deleted.
#[utoipa::path(delete, path = "/api/rules/user/many", tag = "rules", request_body = RulesIds,
    responses((status = 200, description = "How many were deleted", body = Envelope<RulesDeleted>),
              (status = 400, description = "No ids, or too many", body = ErrorBody),
              (status = 404, description = "An id is not a rule of the workspace", body = ErrorBody)))]
pub async fn delete_many(
    State(state): State<AppState>,
    caller: Editor,
    ApiJson(body): ApiJson<RulesIds>,
) -> ApiResult<impl IntoResponse> {
    let ids = rule_ids(&body.rules_ids, "rulesIds")?;
    let mut tx = state.db.begin_write().await?;
    let deleted = store::rules::delete_many(&mut *tx, &caller.workspace_id, &ids).await?;
    if deleted != ids.len() as u64 {
        // Dropping the transaction rolls the deletion back.
        return Err(ApiError::not_found(StoredRule::NAME));
    }
    tx.commit().await?;
    tracing::info!(deleted, "rules deleted");
    Ok(envelope::ok(RulesDeleted { deleted }))
}
