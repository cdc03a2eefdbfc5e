//! Copies of campaigns (`PUT asa/campaigns/copy`, docs/product.md#3-duplicate-campaign-settings):
//! the settings checked, each copy named '<name> copy N', and a `copy-campaigns` task that
//! reads the originals from Apple when it starts.

use std::collections::{HashMap, HashSet};

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    jobs::{CREATION_MAX_CAMPAIGNS, CopyCampaigns, CopySettings, PlannedCopy},
    store::campaign_views,
};
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::{GroupQuery, Making, TaskStarted, campaign_group, input::name_key, scope, start};
use crate::{
    access::{EditRoles, InWorkspace, QueriedAccount},
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiQuery},
    money::{self, Minimum},
    state::AppState,
};

/// Spec §3 Duplicate-campaign settings.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CopyRequest {
    /// 1–50 campaigns of the campaign group.
    #[serde(default, with = "searchdeck_common::ids::string_id::option_list")]
    #[schema(value_type = Vec<searchdeck_common::ids::AppleId>, required = true, min_items = 1, max_items = 50)]
    pub campaigns: Option<Vec<i64>>,
    /// 1–10, default 1.
    #[schema(minimum = 1, maximum = 10)]
    pub number_of_copies: Option<i64>,
    /// Copy the ad groups, their keywords and negatives (default true).
    pub ad_group: Option<bool>,
    /// Copy the campaign's negatives (default true).
    pub campaign_negative_keywords: Option<bool>,
    /// Copy the ads (default true).
    pub custom_ads: Option<bool>,
    /// Every copied bid set to this.
    #[schema(value_type = Option<money::MoneyIn>)]
    pub cpt_bid: Option<Value>,
    /// Every copied ad group's CPA goal set to this.
    #[schema(value_type = Option<money::MoneyIn>)]
    pub cpa_goal: Option<Value>,
    /// PAUSED (default) or ENABLED.
    #[schema(pattern = "^(ENABLED|PAUSED)$")]
    pub status: Option<String>,
}

/// `name` with ' copy N', N the first from 1 not in `taken` (which then holds it).
pub fn copy_name(name: &str, taken: &mut HashSet<String>) -> String {
    (1..)
        .map(|n| format!("{name} copy {n}"))
        .find(|candidate| taken.insert(name_key(candidate)))
        .expect("some number is free")
}

/// Copies campaigns of campaign group `orgId` (spec §3 Duplicate-campaign settings): each
/// `numberOfCopies` times, named '<name> copy N', PAUSED unless asked otherwise, read from
/// Apple when the job starts. Editors only; a campaign not in the campaign group answers
/// 404. Runs as `copy-campaigns`.
#[utoipa::path(put, path = "/api/asa/campaigns/copy", tag = "creation",
    params(GroupQuery),
    request_body = CopyRequest,
    responses((status = 200, description = "The copy is queued: its task id", body = Envelope<TaskStarted>),
              (status = 400, description = "Invalid fields", body = ErrorBody),
              (status = 403, description = "LIMIT_HAS_BEEN_REACHED (meta.type AVAILABLECAMPAIGNS)", body = ErrorBody),
              (status = 404, description = "A campaign is not in the campaign group", body = ErrorBody)))]
pub async fn copy(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount, EditRoles>,
    ApiQuery(query): ApiQuery<GroupQuery>,
    ApiJson(body): ApiJson<CopyRequest>,
) -> ApiResult<impl IntoResponse> {
    let (org, currency) =
        campaign_group(&state, &account.item.0.id, query.org_id.as_deref()).await?;
    let mut errors = Vec::new();
    let ids = body.campaigns.clone().unwrap_or_default();
    if ids.is_empty() || ids.len() > CREATION_MAX_CAMPAIGNS {
        errors.push(FieldError::new(
            "campaigns",
            format!("Choose 1 to {CREATION_MAX_CAMPAIGNS} campaigns"),
        ));
    }
    let copies_each = body.number_of_copies.unwrap_or(1);
    if !(1..=10).contains(&copies_each) {
        errors.push(FieldError::new("numberOfCopies", "Must be 1 to 10"));
    }
    let status = match body.status.as_deref().map(str::trim) {
        None | Some("") | Some("PAUSED") => "PAUSED",
        Some("ENABLED") => "ENABLED",
        Some(_) => {
            errors.push(FieldError::new("status", "Must be one of: ENABLED, PAUSED"));
            "PAUSED"
        }
    };
    let mut money_of = |raw: Option<&Value>, field: &str, label: &str, min: Option<Minimum>| {
        let raw = raw.filter(|v| !v.is_null())?;
        let micros = money::parse(field, label, raw, Some(&currency))
            .map_err(|e| errors.push(e))
            .ok()?;
        let floor = min.map_or(1, |m| money::minimum(m, &currency));
        if micros < floor {
            errors.push(FieldError::new(
                field,
                format!(
                    "{label} must be at least {} {currency}",
                    money::text(Some(floor)).unwrap_or_default()
                ),
            ));
            return None;
        }
        Some(micros)
    };
    let cpt_bid = money_of(body.cpt_bid.as_ref(), "cptBid", "Bid", Some(Minimum::Bid));
    let cpa_goal = money_of(body.cpa_goal.as_ref(), "cpaGoal", "CPA goal", None);
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let existing = campaign_views::campaigns(&state.db.pool, org.org_key, false).await?;
    let by_id: HashMap<i64, &str> = existing.iter().map(|c| (c.id, c.name.as_str())).collect();
    let mut taken: HashSet<String> = existing.iter().map(|c| name_key(&c.name)).collect();
    let mut copies = Vec::new();
    for id in &ids {
        let name = by_id
            .get(id)
            .ok_or_else(|| ApiError::not_found("Campaign"))?
            .to_string();
        for _ in 0..copies_each {
            copies.push(PlannedCopy {
                source_id: *id,
                name: copy_name(&name, &mut taken),
            });
        }
    }
    let ad_group = body.ad_group.unwrap_or(true);
    let groups: u64 = if ad_group {
        let mut n = 0;
        for c in &copies {
            n += campaign_views::ad_groups(&state.db.pool, org.org_key, c.source_id, false)
                .await?
                .len() as u64;
        }
        n
    } else {
        0
    };
    let total = copies.len() as i64 + groups as i64;
    let making = Making {
        campaigns: copies.len() as u64,
        groups,
    };
    let job = CopyCampaigns {
        scope: scope(&account.caller, &org, &currency),
        copies,
        settings: CopySettings {
            ad_group,
            campaign_negative_keywords: body.campaign_negative_keywords.unwrap_or(true),
            custom_ads: body.custom_ads.unwrap_or(true),
            cpt_bid_micros: cpt_bid,
            cpa_goal_micros: cpa_goal,
            status: status.into(),
        },
    };
    let started = start(
        &state,
        &account.caller,
        &org,
        "copy-campaigns",
        "Copying campaigns...",
        total,
        making,
        &job,
    )
    .await?;
    Ok(envelope::ok(started))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_take_the_first_free_number() {
        let mut taken: HashSet<String> = ["us brand", "us brand copy 1"]
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(copy_name("US Brand", &mut taken), "US Brand copy 2");
        assert_eq!(copy_name("US Brand", &mut taken), "US Brand copy 3");
        assert_eq!(copy_name("Other", &mut taken), "Other copy 1");
    }
}
