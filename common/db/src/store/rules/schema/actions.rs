//! A rule's actions on the wire (`docs/api/rules.md` "Actions"): what each does, a change by
//! a percentage or an amount, what `bidToTarget` aims at, where `addNegative` puts a search
//! term, the alert channels.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A change is by a percentage or by an amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum ChangeBy {
    Percent,
    Amount,
}

/// What `bidToTarget` aims at: a cost Apple reports (`CPA`, `CPT`), a cost of what the
/// attributed installs did (`COST_PER_TRIAL`, `COST_PER_PURCHASE`), or a cohort's return on
/// spend (`ROAS_D0` … `ROAS_D30`, judged only on installs old enough). Costs move the bid by
/// target ÷ actual, returns by actual ÷ target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum Target {
    #[serde(rename = "CPA")]
    Cpa,
    #[serde(rename = "CPT")]
    Cpt,
    #[serde(rename = "COST_PER_TRIAL")]
    CostPerTrial,
    #[serde(rename = "COST_PER_PURCHASE")]
    CostPerPurchase,
    #[serde(rename = "ROAS_D0")]
    RoasD0,
    #[serde(rename = "ROAS_D1")]
    RoasD1,
    #[serde(rename = "ROAS_D3")]
    RoasD3,
    #[serde(rename = "ROAS_D7")]
    RoasD7,
    #[serde(rename = "ROAS_D14")]
    RoasD14,
    #[serde(rename = "ROAS_D30")]
    RoasD30,
}

impl Target {
    /// Every target, in the order the rule editor offers them.
    pub const ALL: [Target; 10] = [
        Target::Cpa,
        Target::Cpt,
        Target::CostPerTrial,
        Target::CostPerPurchase,
        Target::RoasD0,
        Target::RoasD1,
        Target::RoasD3,
        Target::RoasD7,
        Target::RoasD14,
        Target::RoasD30,
    ];

    /// The Conversions or Cohort column the target reads (`costPerTrial`, `roasD7`); None for
    /// Apple's own costs.
    pub fn conversion_metric(self) -> Option<&'static str> {
        Some(match self {
            Target::Cpa | Target::Cpt => return None,
            Target::CostPerTrial => "costPerTrial",
            Target::CostPerPurchase => "costPerPurchase",
            Target::RoasD0 => "roasD0",
            Target::RoasD1 => "roasD1",
            Target::RoasD3 => "roasD3",
            Target::RoasD7 => "roasD7",
            Target::RoasD14 => "roasD14",
            Target::RoasD30 => "roasD30",
        })
    }

    /// Whether the target is a return (higher is better: the bid rises when the actual is
    /// above it) rather than a cost.
    pub fn is_return(self) -> bool {
        matches!(
            self,
            Target::RoasD0
                | Target::RoasD1
                | Target::RoasD3
                | Target::RoasD7
                | Target::RoasD14
                | Target::RoasD30
        )
    }
}

/// Where `addNegative` puts the search term.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum NegativePlace {
    AdGroup,
    Campaign,
}

/// An alert channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum Channel {
    Email,
    Slack,
}

fn exact() -> String {
    "EXACT".to_string()
}

/// One action (at most one of each type per rule).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Action {
    Pause,
    Enable,
    /// Bid (KEYWORDS) or default bid (ADGROUPS) = `amount`.
    SetBid {
        amount: String,
    },
    /// Bid × (1 + value/100) or bid + value; `value` signed, ≠ 0.
    ChangeBid {
        by: ChangeBy,
        value: String,
    },
    /// Bid × target / actual (a cost) or × actual / target (a ROAS), moved at most
    /// `maxStepPercent` (default 20).
    #[serde(rename_all = "camelCase")]
    BidToTarget {
        target: Target,
        /// Money in the org's currency for a cost; a ROAS as a fraction (`"1.2"`: 120 %).
        /// Required for the conversion targets; without it `CPA` aims at the ad group's CPA
        /// goal or the campaign's goal optimisation, `CPT` at the latter.
        #[serde(default)]
        amount: Option<String>,
        #[serde(default)]
        max_step_percent: Option<String>,
    },
    /// Daily budget (CAMPAIGNS) = `amount`.
    SetBudget {
        amount: String,
    },
    /// As `changeBid`, on the daily budget.
    ChangeBudget {
        by: ChangeBy,
        value: String,
    },
    /// The search term becomes a keyword of this ad group.
    #[serde(rename_all = "camelCase")]
    AddKeyword {
        campaign_id: String,
        ad_group_id: String,
        #[serde(default = "exact")]
        match_type: String,
        #[serde(default)]
        bid: Option<String>,
    },
    /// The search term becomes a negative keyword where it came from.
    #[serde(rename_all = "camelCase")]
    AddNegative {
        r#where: NegativePlace,
        #[serde(default = "exact")]
        match_type: String,
    },
    /// One alert per run listing the matched entities.
    Alert {
        channels: Vec<Channel>,
        #[serde(default)]
        emails: Vec<String>,
    },
}

impl Action {
    /// The action's `type` on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Pause => "pause",
            Action::Enable => "enable",
            Action::SetBid { .. } => "setBid",
            Action::ChangeBid { .. } => "changeBid",
            Action::BidToTarget { .. } => "bidToTarget",
            Action::SetBudget { .. } => "setBudget",
            Action::ChangeBudget { .. } => "changeBudget",
            Action::AddKeyword { .. } => "addKeyword",
            Action::AddNegative { .. } => "addNegative",
            Action::Alert { .. } => "alert",
        }
    }
}
