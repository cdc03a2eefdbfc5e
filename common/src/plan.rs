//! The workspace's plan (docs/product.md#4-plans) and what each plan allows.
//!
//! [`current`] is the one function every caller asks: it derives the plan from the
//! workspace's purchases ([`crate::store::purchases`]) and last month's ad spend in US
//! dollars ([`spend`]) with the pure [`derive::derive`] (docs/api/plans.md). The banner and
//! upsell modal that apply follow from the result in [`prompts`].
//!
//! Limits per plan are our decision, written down here (and in docs/api/plans.md "Limits
//! per plan") because the spec shows only the limit-reached answer
//! (docs/product.md#8-limit-reached: `LIMIT_HAS_BEEN_REACHED` with a meta type) and the upselling
//! ranges (docs/product.md#9-plans-and-trials: 5-5, 6-35, 36-50, 51-100). They are **one table**,
//! [`LIMITS`], one row per plan; every check and every answer ([`Plan::limits`] and its views
//! [`Plan::app_limits`], [`Plan::creation_limits`], [`Plan::rule_limits`]) reads it:
//!
//! | plan                           | apps | developers | campaigns per campaign group | keyword groups per creation | rules | campaigns with rules |
//! |--------------------------------|------|------------|------------------------------|-----------------------------|-------|----------------------|
//! | pro_free, pro_limited          | 5    | 2          | 100                          | 100                         | 10    | 20                   |
//! | pro_trial, pro_free_trial, pro | 35   | 10         | 500                          | 500                         | 50    | 200                  |
//! | growth, growth_trial           | 100  | 30         | 2,000                        | 2,500                       | 200   | 1,000                |
//! | agency                         | no limit | no limit | no limit                   | no limit                    | no limit | no limit          |
//!
//! Meta types (docs/product.md#8-limit-reached): `AVAILABLEAPPS`, `AVAILABLEDEVS`,
//! `AVAILABLECAMPAIGNS`, `AVAILABLETARGETINGKEYWORDSGROUPS`, `AVAILABLERULES`,
//! `AVAILABLERULESCAMPAIGNS`. Campaigns count those of the campaign group not deleted plus those a
//! creation or copy makes (discovery included) and those creations still running will make; keyword
//! groups (ad groups) those one creation, copy or `createByList` makes. Rules are the workspace's
//! rules; campaigns with rules the distinct campaigns with at least one rule attached.
//!
//! Apps are the distinct App Store apps synced for the workspace's connections; developers
//! the distinct developer names of those apps. The marketing copy's "free plan with 1
//! campaign and 50 keywords" (docs/product.md#9-marketing-copy-and-error-reporting) is *not*
//! enforced: the spec's own plan list makes the free tier Pro (pro_free), and nothing in it shows
//! such a limit being applied.

pub mod clock;
pub mod derive;
pub mod prompts;

pub mod spend;

/// A workspace's plan (spec §4 Plans), spelt as the spec spells it on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Plan {
    ProFree,
    ProLimited,
    ProTrial,
    ProFreeTrial,
    Pro,
    Growth,
    GrowthTrial,
    Agency,
}

impl Plan {
    /// Every plan of docs/product.md#4-plans.
    pub const ALL: [Plan; 8] = [
        Plan::ProFree,
        Plan::ProLimited,
        Plan::ProTrial,
        Plan::ProFreeTrial,
        Plan::Pro,
        Plan::Growth,
        Plan::GrowthTrial,
        Plan::Agency,
    ];

    /// The spec's name of the plan.
    pub fn as_str(self) -> &'static str {
        match self {
            Plan::ProFree => "pro_free",
            Plan::ProLimited => "pro_limited",
            Plan::ProTrial => "pro_trial",
            Plan::ProFreeTrial => "pro_free_trial",
            Plan::Pro => "pro",
            Plan::Growth => "growth",
            Plan::GrowthTrial => "growth_trial",
            Plan::Agency => "agency",
        }
    }

    /// Whether Growth-only metrics are unlocked (docs/product.md#6-growth-only-metrics).
    pub fn has_growth(self) -> bool {
        matches!(self, Plan::Growth | Plan::GrowthTrial | Plan::Agency)
    }

    /// What the plan grants of the report's columns (docs/product.md#6-growth-only-metrics):
    /// Growth-only columns with Growth, the MMP-fed groups on every plan but pro_limited.
    pub fn columns(self) -> crate::report::catalog::ColumnAccess {
        crate::report::catalog::ColumnAccess {
            growth: self.has_growth(),
            conversions: self != Plan::ProLimited,
        }
    }

    /// Everything the plan limits: its row of [`LIMITS`].
    pub fn limits(self) -> Limits {
        LIMITS
            .iter()
            .find(|(plans, _)| plans.contains(&self))
            .map_or(Limits::NONE, |(_, limits)| *limits)
    }

    /// The app and developer limits of the plan (a view of [`Plan::limits`]).
    pub fn app_limits(self) -> AppLimits {
        let l = self.limits();
        AppLimits {
            apps: l.apps,
            developers: l.developers,
        }
    }

    /// The campaign-creation limits of the plan (a view of [`Plan::limits`]).
    pub fn creation_limits(self) -> CreationLimits {
        let l = self.limits();
        CreationLimits {
            campaigns: l.campaigns,
            ad_groups: l.keyword_groups,
        }
    }

    /// The automated-rule limits of the plan (a view of [`Plan::limits`]).
    pub fn rule_limits(self) -> RuleLimits {
        let l = self.limits();
        RuleLimits {
            rules: l.rules,
            campaigns: l.rules_campaigns,
        }
    }
}

/// Everything a plan limits (`None`: no limit): one row of [`LIMITS`]. On the wire (the
/// `limits` of `plan/current`) as `PlanLimits`, null for no limit (docs/api/plans.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = PlanLimits)]
pub struct Limits {
    /// Distinct App Store apps synced for the workspace's connections (`AVAILABLEAPPS`).
    pub apps: Option<u32>,
    /// Distinct developers of those apps (`AVAILABLEDEVS`).
    pub developers: Option<u32>,
    /// Campaigns per campaign group (`AVAILABLECAMPAIGNS`).
    pub campaigns: Option<u64>,
    /// Keyword groups (ad groups) one creation makes (`AVAILABLETARGETINGKEYWORDSGROUPS`).
    pub keyword_groups: Option<u64>,
    /// Rules of the workspace (`AVAILABLERULES`).
    pub rules: Option<u64>,
    /// Distinct campaigns with a rule attached (`AVAILABLERULESCAMPAIGNS`).
    pub rules_campaigns: Option<u64>,
}

impl Limits {
    /// No limit at all (agency).
    pub const NONE: Limits = Limits {
        apps: None,
        developers: None,
        campaigns: None,
        keyword_groups: None,
        rules: None,
        rules_campaigns: None,
    };

    const fn of(
        apps: u32,
        developers: u32,
        campaigns: u64,
        keyword_groups: u64,
        rules: u64,
        rules_campaigns: u64,
    ) -> Limits {
        Limits {
            apps: Some(apps),
            developers: Some(developers),
            campaigns: Some(campaigns),
            keyword_groups: Some(keyword_groups),
            rules: Some(rules),
            rules_campaigns: Some(rules_campaigns),
        }
    }
}

/// The one table of limits per plan (module docs): apps, developers, campaigns per campaign
/// group, keyword groups per creation, rules, campaigns with rules.
pub const LIMITS: [(&[Plan], Limits); 4] = [
    (
        &[Plan::ProFree, Plan::ProLimited],
        Limits::of(5, 2, 100, 100, 10, 20),
    ),
    (
        &[Plan::ProTrial, Plan::ProFreeTrial, Plan::Pro],
        Limits::of(35, 10, 500, 500, 50, 200),
    ),
    (
        &[Plan::Growth, Plan::GrowthTrial],
        Limits::of(100, 30, 2_000, 2_500, 200, 1_000),
    ),
    (&[Plan::Agency], Limits::NONE),
];

/// How many rules a workspace may hold and how many distinct campaigns may have a rule
/// attached (`None`: no limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleLimits {
    pub rules: Option<u64>,
    pub campaigns: Option<u64>,
}

impl RuleLimits {
    /// The meta type (docs/product.md#8-limit-reached) when `rules` rules would pass the limit.
    pub fn rules_exceeded(self, rules: u64) -> Option<&'static str> {
        self.rules
            .is_some_and(|max| rules > max)
            .then_some("AVAILABLERULES")
    }

    /// The meta type (docs/product.md#8-limit-reached) when `campaigns` distinct campaigns with
    /// rules would pass the limit.
    pub fn campaigns_exceeded(self, campaigns: u64) -> Option<&'static str> {
        self.campaigns
            .is_some_and(|max| campaigns > max)
            .then_some("AVAILABLERULESCAMPAIGNS")
    }
}

/// How many campaigns a campaign group may hold and ad groups one creation may make
/// (`None`: no limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CreationLimits {
    pub campaigns: Option<u64>,
    pub ad_groups: Option<u64>,
}

impl CreationLimits {
    /// The limit a creation of `new_campaigns` campaigns (with `existing` in the group) and
    /// `new_groups` ad groups passes, if any: its meta type (docs/product.md#8-limit-reached).
    pub fn exceeded(
        self,
        existing: u64,
        new_campaigns: u64,
        new_groups: u64,
    ) -> Option<&'static str> {
        if self
            .campaigns
            .is_some_and(|max| existing + new_campaigns > max)
        {
            Some("AVAILABLECAMPAIGNS")
        } else if self.ad_groups.is_some_and(|max| new_groups > max) {
            Some("AVAILABLETARGETINGKEYWORDSGROUPS")
        } else {
            None
        }
    }
}

/// The plan of `workspace_id` now: the one place every caller asks (report locks, column
/// presets, app, campaign and rule limits), usually through `engines::Engines::plan`.
/// `reports` and `memo` serve last month's spend, which free plans depend on.
pub async fn current(
    db: &crate::Db,
    reports: &crate::report::Caches,
    memo: &spend::Memo,
    workspace_id: &str,
) -> Result<Plan, crate::report::ReportError> {
    Ok(
        standing(db, reports, memo, workspace_id, crate::ids::now_ms())
            .await?
            .plan,
    )
}

/// Where `workspace_id` stands at `now` (ms): its plan, trial status and the purchases
/// behind them. Last month's spend is read only when a free plan depends on it.
pub async fn standing(
    db: &crate::Db,
    reports: &crate::report::Caches,
    memo: &spend::Memo,
    workspace_id: &str,
    now: i64,
) -> Result<derive::Standing, crate::report::ReportError> {
    let purchases = crate::store::purchases::all(&db.pool, workspace_id).await?;
    let paid = derive::derive(&purchases, rust_decimal::Decimal::ZERO, now);
    if paid.plan != Plan::ProFree {
        return Ok(paid);
    }
    let spend = spend::last_month_usd(db, reports, memo, workspace_id, now).await?;
    Ok(derive::derive(&purchases, spend, now))
}

/// How many apps and developers a plan allows (`None`: no limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppLimits {
    pub apps: Option<u32>,
    pub developers: Option<u32>,
}

impl AppLimits {
    /// The meta type (docs/product.md#8-limit-reached) when `apps` apps or `developers`
    /// developers already reach the limits, so no more may be added (apps checked first).
    pub fn reached(self, apps: u64, developers: u64) -> Option<&'static str> {
        if self.apps.is_some_and(|max| apps >= u64::from(max)) {
            Some("AVAILABLEAPPS")
        } else if self
            .developers
            .is_some_and(|max| developers >= u64::from(max))
        {
            Some("AVAILABLEDEVS")
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_grant_growth_columns_and_every_plan_but_pro_limited_conversions() {
        use crate::report::catalog::{locked_groups, locks};
        for plan in Plan::ALL {
            let access = plan.columns();
            assert_eq!(
                locks(access, "auctionInsights"),
                !plan.has_growth(),
                "{plan:?}"
            );
            let pro_limited = plan == Plan::ProLimited;
            assert_eq!(locks(access, "totalRevenue"), pro_limited, "{plan:?}");
            assert_eq!(locked_groups(access).len(), if pro_limited { 2 } else { 0 });
        }
    }

    #[test]
    fn every_plan_has_one_row_of_the_limits_table() {
        for plan in Plan::ALL {
            let rows = LIMITS.iter().filter(|(p, _)| p.contains(&plan)).count();
            assert_eq!(rows, 1, "{plan:?}");
        }
        assert_eq!(
            Plan::ProLimited.limits(),
            Limits::of(5, 2, 100, 100, 10, 20)
        );
        assert_eq!(Plan::ProFreeTrial.limits(), Plan::Pro.limits());
        assert_eq!(Plan::GrowthTrial.limits().keyword_groups, Some(2_500));
        assert_eq!(Plan::Agency.limits(), Limits::NONE);
    }

    #[test]
    fn limits_grow_with_the_plan() {
        assert_eq!(
            Plan::ProFree.app_limits(),
            AppLimits {
                apps: Some(5),
                developers: Some(2)
            }
        );
        assert_eq!(Plan::ProLimited.app_limits(), Plan::ProFree.app_limits());
        assert_eq!(Plan::Pro.app_limits().apps, Some(35));
        assert_eq!(Plan::GrowthTrial.app_limits().developers, Some(30));
        assert_eq!(
            Plan::Agency.app_limits(),
            AppLimits {
                apps: None,
                developers: None
            }
        );
    }

    #[test]
    fn app_limits_are_reached_at_the_limit() {
        let free = Plan::ProFree.app_limits();
        assert_eq!(free.reached(4, 1), None);
        assert_eq!(free.reached(5, 0), Some("AVAILABLEAPPS"));
        assert_eq!(free.reached(9, 9), Some("AVAILABLEAPPS"));
        assert_eq!(free.reached(1, 2), Some("AVAILABLEDEVS"));
        assert_eq!(Plan::Agency.app_limits().reached(1 << 40, 1 << 40), None);
    }

    #[test]
    fn creation_limits_follow_the_table() {
        let free = Plan::ProFree.creation_limits();
        assert_eq!(free.exceeded(90, 10, 100), None);
        assert_eq!(free.exceeded(91, 10, 1), Some("AVAILABLECAMPAIGNS"));
        assert_eq!(
            free.exceeded(0, 1, 101),
            Some("AVAILABLETARGETINGKEYWORDSGROUPS")
        );
        assert_eq!(Plan::Pro.creation_limits().campaigns, Some(500));
        assert_eq!(Plan::Growth.creation_limits().ad_groups, Some(2_500));
        assert_eq!(
            Plan::Agency
                .creation_limits()
                .exceeded(1 << 40, 50, 1 << 20),
            None
        );
    }

    #[test]
    fn rule_limits_follow_the_table() {
        let free = Plan::ProLimited.rule_limits();
        assert_eq!(free.rules_exceeded(10), None);
        assert_eq!(free.rules_exceeded(11), Some("AVAILABLERULES"));
        assert_eq!(free.campaigns_exceeded(20), None);
        assert_eq!(free.campaigns_exceeded(21), Some("AVAILABLERULESCAMPAIGNS"));
        assert_eq!(
            Plan::ProTrial.rule_limits(),
            RuleLimits {
                rules: Some(50),
                campaigns: Some(200)
            }
        );
        assert_eq!(Plan::GrowthTrial.rule_limits().campaigns, Some(1_000));
        assert_eq!(Plan::Growth.rule_limits().rules, Some(200));
        let agency = Plan::Agency.rule_limits();
        assert_eq!(agency.rules_exceeded(1 << 40), None);
        assert_eq!(agency.campaigns_exceeded(1 << 40), None);
    }

    #[test]
    fn growth_metrics_unlock_on_growth_plans_only() {
        let unlocked: Vec<&str> = Plan::ALL
            .into_iter()
            .filter(|p| p.has_growth())
            .map(Plan::as_str)
            .collect();
        assert_eq!(unlocked, ["growth", "growth_trial", "agency"]);
    }
}
