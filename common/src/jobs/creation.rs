//! `create-campaigns` and `copy-campaigns` (issue 23; contract: docs/api/creation.md): a
//! whole campaign structure made at Apple Ads exactly once — campaigns, their ad groups,
//! keywords, ad-group and campaign negatives, the suggester's discovery campaign and custom
//! product page ads. The routes (`PUT asa/campaigns/asa/all`, `POST
//! asa/groups/createByList/{id}`) validate everything and put the [`CreationPlan`] in the
//! payload; `PUT asa/campaigns/copy` puts the [`CopyCampaigns`] settings, and its job reads
//! the originals from Apple and builds the same kind of plan. One executor runs both
//! (`searchdeck_workers::jobs::create_campaigns`).

use serde::{Deserialize, Serialize};

use crate::queue::Job;

/// Most campaigns one plan creates (discovery excluded).
pub const MAX_CAMPAIGNS: usize = 50;
/// Most ad groups of one campaign in a plan.
pub const MAX_GROUPS: usize = 50;
/// Most keywords of one ad group in a plan.
pub const MAX_KEYWORDS: usize = 5_000;
/// The discovery campaign's ad group (docs/product.md#9-discovery-campaign).
pub const DISCOVERY_GROUP: &str = "General";

/// Where a plan runs and who asked: the connection and campaign group.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CreationScope {
    pub workspace_id: String,
    pub user_id: Option<String>,
    /// The connection whose credentials the calls use.
    pub account_id: String,
    /// `sync_orgs.org_key` of the campaign group (our synced tables).
    pub org_key: i64,
    /// Apple's id of the campaign group (ad account).
    #[serde(with = "crate::ids::string_id")]
    pub org_id: i64,
    /// The campaign group's currency: every amount of the plan is in it.
    pub currency: String,
}

/// A negative keyword to add (campaign or ad group level, per where it is listed).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "camelCase")]
pub struct PlannedNegative {
    pub text: String,
    /// EXACT or BROAD.
    pub match_type: String,
}

/// A keyword to add to an ad group.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PlannedKeyword {
    pub text: String,
    /// EXACT or BROAD.
    pub match_type: String,
    /// Micros; None: the ad group's default bid.
    #[serde(default)]
    pub bid_micros: Option<i64>,
    /// ACTIVE or PAUSED (Apple's keyword statuses); None: ACTIVE.
    #[serde(default)]
    pub status: Option<String>,
}

/// An ad group to create, with what goes in it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PlannedGroup {
    pub name: String,
    pub default_bid_micros: i64,
    #[serde(default)]
    pub cpa_goal_micros: Option<i64>,
    /// Search Match.
    #[serde(default)]
    pub automated_keywords_opt_in: bool,
    /// ENABLED or PAUSED; None: ENABLED (the campaign's status decides whether it spends).
    #[serde(default)]
    pub status: Option<String>,
    /// Apple's `targeting` of the ad group as the original has it (copies only).
    #[serde(default)]
    pub targeting: Option<serde_json::Value>,
    #[serde(default)]
    pub keywords: Vec<PlannedKeyword>,
    #[serde(default)]
    pub negatives: Vec<PlannedNegative>,
    /// Ads to make with these existing creatives (copies: the original's ads).
    #[serde(default)]
    pub creative_ids: Vec<i64>,
}

/// A campaign to create (or, with `existing_id`, one that exists and gets new ad groups).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PlannedCampaign {
    pub name: String,
    /// An existing campaign to add the ad groups to (`createByList`): nothing is created
    /// for the campaign itself.
    #[serde(default, with = "crate::ids::string_id::option")]
    pub existing_id: Option<i64>,
    #[serde(default)]
    pub countries: Vec<String>,
    /// The app this campaign promotes when it is not the plan's (`adamId`): a copy promotes
    /// its own original's app, whatever the other copies of the request promote.
    #[serde(default, with = "crate::ids::string_id::option")]
    pub adam_id: Option<i64>,
    /// ENABLED or PAUSED.
    #[serde(default = "paused")]
    pub status: String,
    #[serde(default)]
    pub daily_budget_micros: i64,
    /// Campaign-level negatives.
    #[serde(default)]
    pub negatives: Vec<PlannedNegative>,
    pub groups: Vec<PlannedGroup>,
}

fn paused() -> String {
    "PAUSED".into()
}

/// The suggester's discovery campaign (docs/product.md#9-discovery-campaign): made after the
/// others, PAUSED, with one ad group [`DISCOVERY_GROUP`] on Search Match holding every keyword of
/// the plan as an EXACT negative.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PlannedDiscovery {
    pub name: String,
    pub countries: Vec<String>,
    pub daily_budget_micros: i64,
    pub default_bid_micros: i64,
    #[serde(default)]
    pub cpa_goal_micros: Option<i64>,
}

/// Everything one creation makes, in order.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CreationPlan {
    /// The app the campaigns promote.
    #[serde(with = "crate::ids::string_id")]
    pub adam_id: i64,
    pub campaigns: Vec<PlannedCampaign>,
    #[serde(default)]
    pub discovery: Option<PlannedDiscovery>,
    /// One ad per created ad group with this custom product page.
    #[serde(default)]
    pub product_page_id: Option<String>,
}

impl CreationPlan {
    /// Campaigns to create, discovery included (existing ones not counted).
    pub fn campaigns_total(&self) -> u64 {
        self.campaigns
            .iter()
            .filter(|c| c.existing_id.is_none())
            .count() as u64
            + u64::from(self.discovery.is_some())
    }

    /// Ad groups to create, discovery's included.
    pub fn groups_total(&self) -> u64 {
        self.campaigns
            .iter()
            .map(|c| c.groups.len() as u64)
            .sum::<u64>()
            + u64::from(self.discovery.is_some())
    }

    /// Keywords to add.
    pub fn keywords_total(&self) -> u64 {
        self.campaigns
            .iter()
            .flat_map(|c| &c.groups)
            .map(|g| g.keywords.len() as u64)
            .sum()
    }
}

/// Payload of `create-campaigns`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CreateCampaigns {
    #[serde(flatten)]
    pub scope: CreationScope,
    pub plan: CreationPlan,
}

impl Job for CreateCampaigns {
    const KIND: &'static str = "create-campaigns";
    // Every run resumes from what is recorded: nothing is made twice.
    const MAX_ATTEMPTS: u32 = 10;
    type Progress = CreationProgress;
}

/// What a copy carries (docs/product.md#3-duplicate-campaign-settings).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CopySettings {
    /// Ad groups with targeting, Search Match, bids and CPA goal, their keywords and
    /// ad-group negatives.
    pub ad_group: bool,
    /// The campaign's negatives.
    pub campaign_negative_keywords: bool,
    /// The ads (with their creatives: custom product pages stay).
    pub custom_ads: bool,
    /// Every copied ad group default bid and keyword bid set to this (micros).
    #[serde(default)]
    pub cpt_bid_micros: Option<i64>,
    /// Every copied ad group's CPA goal set to this (micros).
    #[serde(default)]
    pub cpa_goal_micros: Option<i64>,
    /// ENABLED or PAUSED.
    pub status: String,
}

/// One copy to make: of campaign `source_id`, named `name`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PlannedCopy {
    #[serde(with = "crate::ids::string_id")]
    pub source_id: i64,
    /// '<original> copy N', unique in the campaign group (chosen by the route).
    pub name: String,
}

/// Payload of `copy-campaigns`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CopyCampaigns {
    #[serde(flatten)]
    pub scope: CreationScope,
    pub copies: Vec<PlannedCopy>,
    pub settings: CopySettings,
}

impl Job for CopyCampaigns {
    const KIND: &'static str = "copy-campaigns";
    const MAX_ATTEMPTS: u32 = 10;
    type Progress = CreationProgress;
}

/// A campaign made (or found made) and its ad groups, by the names sent.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignMapping {
    pub name: String,
    #[serde(with = "crate::ids::string_id")]
    #[schema(value_type = String)]
    pub campaign_id: i64,
    pub ad_groups: Vec<GroupMapping>,
}

/// An ad group made (or found made).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GroupMapping {
    pub name: String,
    #[serde(with = "crate::ids::string_id")]
    #[schema(value_type = String)]
    pub ad_group_id: i64,
}

/// A failure that stopped the job.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MethodError {
    /// createCampaign, createAdGroup, createKeywords, createNegatives, createAd, discovery.
    pub method: String,
    /// The entity's name.
    pub name: String,
    pub message: String,
}

/// An item Apple refused in a bulk call (the rest went on).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RejectedItem {
    pub campaign: String,
    pub ad_group: Option<String>,
    pub text: String,
    pub match_type: String,
    pub message: String,
}

/// Spec §3 Creation progress: the task's details while a creation or copy runs and after.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreationProgress {
    pub groups_created: u64,
    pub groups_total: u64,
    pub campaigns_created: u64,
    pub campaigns_total: u64,
    pub keywords_created: u64,
    pub keywords_total: u64,
    pub finish: bool,
    pub errors_method: Vec<MethodError>,
    pub campaigns_mapping: Vec<CampaignMapping>,
    #[serde(default, with = "crate::ids::string_id::option")]
    #[schema(value_type = Option<String>)]
    pub discovery_campaign_id: Option<i64>,
    pub rejected: Vec<RejectedItem>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_count_discovery_and_skip_existing_campaigns() {
        let group = |n: usize| PlannedGroup {
            name: "Exact".into(),
            default_bid_micros: 1_000_000,
            cpa_goal_micros: None,
            automated_keywords_opt_in: false,
            status: None,
            targeting: None,
            keywords: (0..n)
                .map(|i| PlannedKeyword {
                    text: format!("k{i}"),
                    match_type: "EXACT".into(),
                    bid_micros: None,
                    status: None,
                })
                .collect(),
            negatives: vec![],
            creative_ids: vec![],
        };
        let campaign = |existing: Option<i64>| PlannedCampaign {
            name: "A".into(),
            existing_id: existing,
            countries: vec!["US".into()],
            adam_id: None,
            status: "PAUSED".into(),
            daily_budget_micros: 5_000_000,
            negatives: vec![],
            groups: vec![group(3), group(2)],
        };
        let plan = CreationPlan {
            adam_id: 1,
            campaigns: vec![campaign(None), campaign(Some(9))],
            discovery: Some(PlannedDiscovery {
                name: "D".into(),
                countries: vec!["US".into()],
                daily_budget_micros: 1,
                default_bid_micros: 1,
                cpa_goal_micros: None,
            }),
            product_page_id: None,
        };
        assert_eq!(plan.campaigns_total(), 2);
        assert_eq!(plan.groups_total(), 5);
        assert_eq!(plan.keywords_total(), 10);
        let p = CreationProgress {
            discovery_campaign_id: Some(7),
            ..Default::default()
        };
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(v["discoveryCampaignId"], "7");
        assert_eq!(v["errorsMethod"], serde_json::json!([]));
        assert_eq!(v["groupsCreated"], 0);
    }
}
