//! What a report can show: the levels, each level's columns (docs/product.md#2-tables), the metrics
//! (docs/product.md#2-tables common and graph metrics, with their tap/view/total variants), which
//! columns are hidden by default and which are locked to the Growth plans
//! (docs/product.md#6-growth-only-metrics).

mod metric;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::money::currency::MoneyRule;
use crate::store::{report_entities::EntityKind, report_facts::Counters, report_facts::FactLevel};

pub use metric::{GRAPH_METRICS, Kind, Metric};

/// A report level (spec §3 column preset types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum Level {
    Accounts,
    Orgs,
    Campaigns,
    Groups,
    Keywords,
    Negative,
    Searchterms,
    Ads,
}

impl Level {
    pub const ALL: [Level; 8] = [
        Level::Accounts,
        Level::Orgs,
        Level::Campaigns,
        Level::Groups,
        Level::Keywords,
        Level::Negative,
        Level::Searchterms,
        Level::Ads,
    ];

    /// The wire name (`KEYWORDS`).
    pub fn name(self) -> &'static str {
        match self {
            Level::Accounts => "ACCOUNTS",
            Level::Orgs => "ORGS",
            Level::Campaigns => "CAMPAIGNS",
            Level::Groups => "GROUPS",
            Level::Keywords => "KEYWORDS",
            Level::Negative => "NEGATIVE",
            Level::Searchterms => "SEARCHTERMS",
            Level::Ads => "ADS",
        }
    }

    /// The level named `name` (case-insensitive).
    pub fn parse(name: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The fact level whose daily rows hold this level's metrics (None: no metrics, or
    /// summed from campaigns for ACCOUNTS and ORGS).
    pub fn facts(self) -> Option<FactLevel> {
        match self {
            Level::Campaigns => Some(FactLevel::Campaign),
            Level::Groups => Some(FactLevel::AdGroup),
            Level::Keywords => Some(FactLevel::Keyword),
            Level::Searchterms => Some(FactLevel::SearchTerm),
            Level::Ads => Some(FactLevel::Ad),
            Level::Accounts | Level::Orgs | Level::Negative => None,
        }
    }

    /// The entity table of the level (None for ACCOUNTS and ORGS).
    pub fn entity(self) -> Option<EntityKind> {
        match self {
            Level::Campaigns => Some(EntityKind::Campaign),
            Level::Groups => Some(EntityKind::AdGroup),
            Level::Keywords => Some(EntityKind::Keyword),
            Level::Negative => Some(EntityKind::Negative),
            Level::Searchterms => Some(EntityKind::SearchTerm),
            Level::Ads => Some(EntityKind::Ad),
            Level::Accounts | Level::Orgs => None,
        }
    }

    /// Whether rows carry metrics (negative keywords have none).
    pub fn has_metrics(self) -> bool {
        self != Level::Negative
    }

    /// Whether rows carry the Conversions and Cohort columns (the levels attribution
    /// providers name: campaigns, ad groups, keywords and ads; docs/api/attribution.md).
    pub fn has_conversions(self) -> bool {
        matches!(
            self,
            Level::Campaigns | Level::Groups | Level::Keywords | Level::Ads
        )
    }

    /// Whether rows have a search text with Apple's search popularity (`popularity`
    /// column, from `store::popularity`): keywords and search terms.
    pub fn has_popularity(self) -> bool {
        matches!(self, Level::Keywords | Level::Searchterms)
    }

    /// The level's tag type (tags exist for CAMPAIGNS, GROUPS, KEYWORDS, SEARCHTERMS).
    pub fn tag_level(self) -> Option<i64> {
        match self {
            Level::Campaigns | Level::Groups | Level::Keywords | Level::Searchterms => {
                self.facts().map(FactLevel::code)
            }
            _ => None,
        }
    }

    /// The identifier and name fields of the level's rows
    /// (docs/product.md#3-identifier-and-name-fields-per-level): (id field, name field, status
    /// field).
    pub fn id_fields(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Level::Accounts => ("accountId", "accountName", "status"),
            Level::Orgs => ("orgId", "orgName", "status"),
            Level::Campaigns => ("campaignId", "campaignName", "servingStatus"),
            Level::Groups => ("adGroupId", "adGroupName", "adGroupServingStatus"),
            Level::Keywords => ("keywordId", "keyword", "keywordStatus"),
            Level::Negative => ("id", "text", "status"),
            Level::Searchterms => ("searchTermId", "searchTermText", "searchTermStatus"),
            Level::Ads => ("adId", "creativeSetName", "adDisplayStatus"),
        }
    }

    /// The level's own columns of docs/product.md#2-tables besides id, name, status and metrics.
    pub fn columns(self) -> &'static [&'static str] {
        match self {
            Level::Accounts => &[],
            Level::Orgs => &["currency", "timeZone"],
            Level::Campaigns => &[
                "tag",
                "countriesOrRegions",
                "optimizationTypes",
                "dailyBudget",
                "orgId",
                "rules",
                "totalRevenue",
                "trackedInstalls",
                "adamId",
                "campaignStatus",
            ],
            Level::Groups => &[
                "tag",
                "totalRevenue",
                "defaultBidAmount",
                "cpaGoal",
                "automatedKeywordsOptIn",
                "campaignId",
                "adGroupStatus",
            ],
            Level::Keywords => &[
                "tag",
                "organicSearch",
                "qsStatus",
                "auctionInsights",
                "totalRevenue",
                "popularity",
                "cptBid",
                "currentAppPosition",
                "matchType",
                "keywordDisplayStatus",
                "campaignId",
                "adGroupId",
            ],
            Level::Negative => &[
                "adGroupId",
                "campaignId",
                "level",
                "matchType",
                "modificationTime",
            ],
            Level::Searchterms => &[
                "tag",
                "searchTermTextTranslate",
                "keywordDisplayStatus",
                "popularity",
                "organicSearch",
                "auctionInsights",
                "searchTermSource",
                "impressionShare",
                "keyword",
                "keywordId",
                "campaignId",
                "adGroupId",
            ],
            Level::Ads => &[
                "adStatus",
                "adGroupName",
                "adName",
                "creativeId",
                "campaignId",
                "adGroupId",
            ],
        }
    }
}

impl Level {
    /// Every column key a table of this level can show, in display order: the name, status
    /// and id fields, the level's own columns, then the metrics (none for NEGATIVE). Column
    /// presets are validated against this list.
    pub fn all_columns(self) -> Vec<&'static str> {
        let (id, name, status) = self.id_fields();
        let mut out = vec![name, status, id];
        out.extend(self.columns().iter().copied());
        if self.has_conversions() {
            out.extend(CONVERSION_COLUMNS);
            out.extend(COHORT_COLUMNS);
        }
        if self.has_metrics() {
            out.extend(Metric::ALL.iter().map(|m| m.name()));
        }
        let mut seen = std::collections::HashSet::new();
        out.retain(|c| seen.insert(*c));
        out
    }

    /// The columns of the built-in Default preset: every column of the level except those
    /// hidden by default, with the common metrics only (docs/product.md#2-tables).
    pub fn default_columns(self) -> Vec<&'static str> {
        self.all_columns()
            .into_iter()
            .filter(|c| !HIDDEN_BY_DEFAULT.contains(c))
            .filter(|c| Metric::parse(c).is_none_or(Metric::is_common))
            .collect()
    }
}

/// The groups of the edit-columns modal, in order (docs/product.md#2-tables;
/// docs/product.md#6-conversions-lock: the pro_limited plan locks the Conversions and Cohort
/// groups, the columns the attribution providers feed).
pub const COLUMN_GROUPS: [&str; 4] = ["Attributes", "Metrics", "Conversions", "Cohort"];

/// Columns fed by the attribution providers (the Conversions group; docs/api/attribution.md
/// "In the reports").
pub use crate::attribution::conversions::{COHORT_COLUMNS, CONVERSION_COLUMNS};

/// The edit-columns group of `column`: Conversions and Cohort for the columns attribution
/// feeds, Metrics for the provider's metrics, Attributes for everything else (names,
/// statuses, ids, settings).
pub fn group_of(column: &str) -> &'static str {
    if CONVERSION_COLUMNS.contains(&column) {
        COLUMN_GROUPS[2]
    } else if COHORT_COLUMNS.contains(&column) {
        COLUMN_GROUPS[3]
    } else if Metric::ALL.iter().any(|m| m.name() == column) {
        COLUMN_GROUPS[1]
    } else {
        COLUMN_GROUPS[0]
    }
}

/// Columns hidden by default (docs/product.md#2-tables): the spec's, and every Conversions
/// and Cohort column (shown once the user picks them, as totalRevenue and trackedInstalls
/// are).
pub const HIDDEN_BY_DEFAULT: &[&str] = &[
    "rules",
    "totalRevenue",
    "trackedInstalls",
    "organicSearch",
    "auctionInsights",
    "trackedInstallRate",
    "trials",
    "costPerTrial",
    "purchases",
    "costPerPurchase",
    "tapRevenue",
    "viewRevenue",
    "roas",
    "arpu",
    "revenueD0",
    "revenueD1",
    "revenueD3",
    "revenueD7",
    "revenueD14",
    "revenueD30",
    "roasD0",
    "roasD1",
    "roasD3",
    "roasD7",
    "roasD14",
    "roasD30",
];

/// Growth-only metrics and columns (docs/product.md#6-growth-only-metrics): locked unless the plan
/// is growth, growth_trial or agency.
pub const GROWTH_ONLY: &[&str] = &[
    "auctionInsights",
    "optimizationTypes",
    "qsStatus",
    "activeKeywords",
    "activeShare",
    "spendForecast",
    "activeCapacity",
    "impressionsForecast",
];

/// The message of the column groups the pro_limited plan locks
/// (docs/product.md#6-conversions-lock).
pub const PRO_LOCK_MESSAGE: &str = "Upgrade to Pro to track events from your MMP.";

/// The column groups the pro_limited plan locks (docs/product.md#6-conversions-lock):
/// Conversions ([`CONVERSION_COLUMNS`]) and Cohort ([`COHORT_COLUMNS`]).
pub const PRO_LOCKED_GROUPS: [&str; 2] = ["Conversions", "Cohort"];

/// What a workspace's plan grants of the report's columns
/// (docs/product.md#6-roles-and-permissions). The plan decides (`plan::Plan::columns`); the report
/// only obeys, so the engine knows no plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColumnAccess {
    /// The Growth-only columns ([`GROWTH_ONLY`]).
    pub growth: bool,
    /// The MMP-fed groups ([`PRO_LOCKED_GROUPS`]), which pro_limited locks.
    pub conversions: bool,
}

impl ColumnAccess {
    /// Every column (a Growth plan's access).
    pub const ALL: ColumnAccess = ColumnAccess {
        growth: true,
        conversions: true,
    };
}

/// Whether `access` locks `column` (docs/product.md#6-growth-only-metrics): the Growth-only columns
/// without Growth, the MMP-fed groups without conversions. A locked column is answered null and
/// listed in the report's `locked`.
pub fn locks(access: ColumnAccess, column: &str) -> bool {
    (GROWTH_ONLY.contains(&column) && !access.growth)
        || (!access.conversions && PRO_LOCKED_GROUPS.contains(&group_of(column)))
}

/// The column groups `access` locks with their message (docs/product.md#6-conversions-lock):
/// pro_limited's.
pub fn locked_groups(access: ColumnAccess) -> &'static [&'static str] {
    if access.conversions {
        &[]
    } else {
        &PRO_LOCKED_GROUPS
    }
}

#[cfg(test)]
mod tests;
