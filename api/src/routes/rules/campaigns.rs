//! The campaigns rules apply to (`rules/rulesCampaigns*`): attach (`PUT`, limit
//! `AVAILABLERULESCAMPAIGNS`), detach (`DELETE`), set a rule's campaigns exactly
//! (`PUT …/many/{rule}`), set the rules of one campaign exactly (`POST …/many/{campaign}`,
//! the campaigns table's `rules` column) and turn a rule off or on for one campaign without
//! detaching it (`toggleRule`). A rule's campaigns are campaigns of its campaign group
//! (else 400 `campaignIds.N`).

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    Db,
    ids::{now_ms, string_id},
    rules::Rule,
    store,
};
use serde::Deserialize;
use utoipa::ToSchema;

use super::{
    IDS_MAX, StoredRule, check_campaigns_limit, crud::rule_ids, foreign_campaigns, lock_limits,
    rule_scope, stored_rule,
};
use crate::{
    access::{Campaign, EditRoles, Editor, InWorkspace, WorkspaceResource},
    envelope::{self, Envelope, Item, Items},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::ApiJson,
    state::AppState,
};

/// A rule and campaigns of its campaign group.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RuleCampaigns {
    /// A rule of the workspace.
    pub rule_id: String,
    /// 1–1,000 campaigns of the rule's campaign group.
    #[serde(with = "string_id::list")]
    #[schema(value_type = Vec<searchdeck_common::ids::AppleId>, min_items = 1, max_items = 1000)]
    pub campaign_ids: Vec<i64>,
}

/// The campaigns a rule is set to (`PUT rulesCampaigns/many/{id}`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RuleCampaignIds {
    /// 0–1,000 campaigns of the rule's campaign group (none detaches them all).
    #[serde(with = "string_id::list")]
    #[schema(value_type = Vec<searchdeck_common::ids::AppleId>, max_items = 1000)]
    pub campaign_ids: Vec<i64>,
}

/// The rules a campaign is set to (`POST rulesCampaigns/many/{id}`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RulesOfCampaign {
    /// 0–1,000 rules of the workspace acting in the campaign's group (none: no rule).
    #[schema(max_items = 1000)]
    pub rules_ids: Vec<String>,
}

/// `toggleRule`'s body.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RuleToggle {
    pub rule_id: String,
    /// A campaign the rule is attached to.
    #[serde(with = "string_id")]
    #[schema(value_type = searchdeck_common::ids::AppleId)]
    pub campaign_id: i64,
    pub enabled: bool,
}

/// Rule `id` of the caller's workspace named in a body (404 when it is not one).
async fn rule_in_body(
    state: &AppState,
    workspace_id: &str,
    id: &str,
) -> ApiResult<store::rules::RuleRow> {
    if crate::input::has_control(id, false) || id.trim().is_empty() {
        return Err(ApiError::not_found(StoredRule::NAME));
    }
    store::rules::get(&state.db.pool, workspace_id, id)
        .await?
        .ok_or_else(|| ApiError::not_found(StoredRule::NAME))
}

/// Checks that `ids` (1–1,000 when `required`, else at most 1,000, each once) are campaigns
/// of `rule`'s group: 400 on `campaignIds` / `campaignIds.N`.
async fn check_campaigns(
    state: &AppState,
    workspace_id: &str,
    rule: &store::rules::RuleRow,
    ids: &[i64],
    required: bool,
) -> ApiResult<()> {
    if (required && ids.is_empty()) || ids.len() > IDS_MAX {
        return Err(ApiError::field(
            "campaignIds",
            &format!("Name 1 to {IDS_MAX} campaigns"),
        ));
    }
    let mut errors: Vec<FieldError> = (1..ids.len())
        .filter(|&i| ids[..i].contains(&ids[i]))
        .map(|i| FieldError::new(format!("campaignIds.{i}"), "Name each campaign once"))
        .collect();
    match rule_scope(
        state,
        workspace_id,
        &rule.rule.account_id,
        &rule.rule.org_id,
    )
    .await?
    {
        Ok(org) => errors.extend(foreign_campaigns(state, &org, ids, "campaignIds").await?),
        Err(_) => errors.push(FieldError::new(
            "ruleId",
            "The rule's campaign group is no longer synced",
        )),
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ApiError::validation(errors))
    }
}

/// Attaches a rule to campaigns of its group (those attached stay as they are). Limit
/// `AVAILABLERULESCAMPAIGNS`.
#[utoipa::path(put, path = "/api/rules/rulesCampaigns", operation_id = "attach_rule", tag = "rules", request_body = RuleCampaigns,
    responses((status = 200, description = "The rule", body = Envelope<Item<Rule>>),
              (status = 400, description = "A campaign is not of the rule's campaign group", body = ErrorBody),
              (status = 403, description = "LIMIT_HAS_BEEN_REACHED (meta.type AVAILABLERULESCAMPAIGNS)", body = ErrorBody),
              (status = 404, description = "Not a rule of the workspace", body = ErrorBody)))]
pub async fn attach(
    State(state): State<AppState>,
    caller: Editor,
    ApiJson(body): ApiJson<RuleCampaigns>,
) -> ApiResult<impl IntoResponse> {
    let ws = &caller.workspace_id;
    let rule = rule_in_body(&state, ws, &body.rule_id).await?;
    check_campaigns(&state, ws, &rule, &body.campaign_ids, true).await?;
    let id = rule.rule.id.clone();
    let now = now_ms() / 1000;
    let (state, ids) = (&state, &body.campaign_ids);
    Db::retry_busy(|| async {
        let mut tx = state.db.begin_write().await?;
        let plan = lock_limits(state, &mut tx, ws).await?;
        check_campaigns_limit(&mut tx, plan, ws, |links| {
            links
                .entry(id.clone())
                .or_default()
                .extend(ids.iter().copied());
        })
        .await?;
        for c in ids {
            store::rules::attach(&mut *tx, &id, *c, now).await?;
        }
        tx.commit().await?;
        Ok::<(), ApiError>(())
    })
    .await?;
    Ok(envelope::item(stored_rule(state, ws, &id).await?))
}

/// Detaches a rule from campaigns (ones not attached are ignored).
#[utoipa::path(delete, path = "/api/rules/rulesCampaigns", operation_id = "detach_rule", tag = "rules", request_body = RuleCampaigns,
    responses((status = 200, description = "The rule", body = Envelope<Item<Rule>>),
              (status = 400, description = "No campaigns, or too many", body = ErrorBody),
              (status = 404, description = "Not a rule of the workspace", body = ErrorBody)))]
pub async fn detach(
    State(state): State<AppState>,
    caller: Editor,
    ApiJson(body): ApiJson<RuleCampaigns>,
) -> ApiResult<impl IntoResponse> {
    let ws = &caller.workspace_id;
    let rule = rule_in_body(&state, ws, &body.rule_id).await?;
    if body.campaign_ids.is_empty() || body.campaign_ids.len() > IDS_MAX {
        return Err(ApiError::field(
            "campaignIds",
            &format!("Name 1 to {IDS_MAX} campaigns"),
        ));
    }
    let mut tx = state.db.begin_write().await?;
    for c in &body.campaign_ids {
        store::rules::detach(&mut *tx, &rule.rule.id, *c).await?;
    }
    tx.commit().await?;
    Ok(envelope::item(
        stored_rule(&state, ws, &rule.rule.id).await?,
    ))
}

/// Sets a rule's campaigns to exactly these (none detaches them all). Limit
/// `AVAILABLERULESCAMPAIGNS`.
#[utoipa::path(put, path = "/api/rules/rulesCampaigns/many/{id}", tag = "rules",
    params(("id" = String, Path, description = "Rule id")),
    request_body = RuleCampaignIds,
    responses((status = 200, description = "The rule", body = Envelope<Item<Rule>>),
              (status = 400, description = "A campaign is not of the rule's campaign group", body = ErrorBody),
              (status = 403, description = "LIMIT_HAS_BEEN_REACHED (meta.type AVAILABLERULESCAMPAIGNS)", body = ErrorBody)))]
pub async fn set_campaigns(
    State(state): State<AppState>,
    rule: InWorkspace<StoredRule, EditRoles>,
    ApiJson(body): ApiJson<RuleCampaignIds>,
) -> ApiResult<impl IntoResponse> {
    let ws = rule.caller.workspace_id.clone();
    let row = rule.item.0;
    check_campaigns(&state, &ws, &row, &body.campaign_ids, false).await?;
    let id = row.rule.id.clone();
    let now = now_ms() / 1000;
    let (state, ids) = (&state, &body.campaign_ids);
    Db::retry_busy(|| async {
        let mut tx = state.db.begin_write().await?;
        let plan = lock_limits(state, &mut tx, &ws).await?;
        check_campaigns_limit(&mut tx, plan, &ws, |links| {
            links.insert(id.clone(), ids.iter().copied().collect());
        })
        .await?;
        store::rules::detach_except(&mut *tx, &id, ids).await?;
        for c in ids {
            store::rules::attach(&mut *tx, &id, *c, now).await?;
        }
        tx.commit().await?;
        Ok::<(), ApiError>(())
    })
    .await?;
    Ok(envelope::item(stored_rule(state, &ws, &id).await?))
}

/// Sets the rules applied to one campaign to exactly these (the campaigns table's `rules`
/// column); each must act in a campaign group that holds the campaign. Answers those rules.
/// Limit `AVAILABLERULESCAMPAIGNS`.
#[utoipa::path(post, path = "/api/rules/rulesCampaigns/many/{id}", tag = "rules",
    params(("id" = String, Path, description = "Campaign id")),
    request_body = RulesOfCampaign,
    responses((status = 200, description = "The campaign's rules", body = Envelope<Items<Rule>>),
              (status = 400, description = "A rule acts in another campaign group", body = ErrorBody),
              (status = 403, description = "LIMIT_HAS_BEEN_REACHED (meta.type AVAILABLERULESCAMPAIGNS)", body = ErrorBody)))]
pub async fn set_rules_of_campaign(
    State(state): State<AppState>,
    campaign: InWorkspace<Campaign, EditRoles>,
    ApiJson(body): ApiJson<RulesOfCampaign>,
) -> ApiResult<impl IntoResponse> {
    let ws = campaign.caller.workspace_id.clone();
    let copies = campaign.item.0;
    let campaign_id = copies.first().map(|c| c.id).unwrap_or_default();
    let ids = if body.rules_ids.is_empty() {
        Vec::new()
    } else {
        rule_ids(&body.rules_ids, "rulesIds")?
    };
    let mut errors = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let row = rule_in_body(&state, &ws, id).await?;
        let in_group = copies.iter().any(|c| {
            c.account_id == row.rule.account_id && c.org_id.to_string() == row.rule.org_id
        });
        if !in_group {
            errors.push(FieldError::new(
                format!("rulesIds.{i}"),
                "This rule acts in another campaign group",
            ));
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let now = now_ms() / 1000;
    let (state, ids) = (&state, &ids);
    Db::retry_busy(|| async {
        let mut tx = state.db.begin_write().await?;
        let plan = lock_limits(state, &mut tx, &ws).await?;
        check_campaigns_limit(&mut tx, plan, &ws, |links| {
            for (rule, campaigns) in links.iter_mut() {
                if !ids.contains(rule) {
                    campaigns.remove(&campaign_id);
                }
            }
            for id in ids {
                links.entry(id.clone()).or_default().insert(campaign_id);
            }
        })
        .await?;
        store::rules::detach_campaign_except(&mut *tx, &ws, campaign_id, ids).await?;
        for id in ids {
            store::rules::attach(&mut *tx, id, campaign_id, now).await?;
        }
        tx.commit().await?;
        Ok::<(), ApiError>(())
    })
    .await?;
    let mut items = Vec::new();
    for id in ids {
        items.push(stored_rule(state, &ws, id).await?);
    }
    Ok(envelope::items(items))
}

/// Turns a rule off or on for one campaign it is attached to, without detaching it.
#[utoipa::path(put, path = "/api/rules/rulesCampaigns/toggleRule", tag = "rules", request_body = RuleToggle,
    responses((status = 200, description = "The rule", body = Envelope<Item<Rule>>),
              (status = 400, description = "The rule is not attached to the campaign", body = ErrorBody),
              (status = 404, description = "Not a rule of the workspace", body = ErrorBody)))]
pub async fn toggle(
    State(state): State<AppState>,
    caller: Editor,
    ApiJson(body): ApiJson<RuleToggle>,
) -> ApiResult<impl IntoResponse> {
    let ws = &caller.workspace_id;
    let rule = rule_in_body(&state, ws, &body.rule_id).await?;
    if !store::rules::toggle(
        &state.db.pool,
        &rule.rule.id,
        body.campaign_id,
        body.enabled,
    )
    .await?
    {
        return Err(ApiError::field(
            "campaignId",
            "The rule is not attached to this campaign",
        ));
    }
    Ok(envelope::item(
        stored_rule(&state, ws, &rule.rule.id).await?,
    ))
}
