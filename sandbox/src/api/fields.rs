//! The fields each entity's `…/query` filters and sorts on (the reference's, per entity),
//! which the [`super::entity::Entity`] impls carry as `Entity::FIELDS`.

/// Fields `POST /campaigns/query` filters and sorts on.
pub const CAMPAIGNS: &[&str] = &[
    "id",
    "adAccountId",
    "name",
    "billingEvent",
    "paymentModel",
    "startTime",
    "endTime",
    "promotedObjectType",
    "promotedObjectId",
    "status",
    "systemStatus",
    "systemStatusReasons",
    "displayStatus",
    "dailyBudget",
    "creationTime",
    "modificationTime",
    "deleted",
];

/// Fields `POST /adgroups/query` filters and sorts on.
pub const AD_GROUPS: &[&str] = &[
    "id",
    "name",
    "adAccountId",
    "campaignId",
    "startTime",
    "endTime",
    "pricingModel",
    "automatedKeywordsOptIn",
    "status",
    "systemStatus",
    "displayStatus",
    "cpaCap",
    "creationTime",
    "modificationTime",
    "deleted",
];

/// Fields `POST /keywords/query` filters and sorts on.
pub const KEYWORDS: &[&str] = &[
    "id",
    "adAccountId",
    "campaignId",
    "adGroupId",
    "text",
    "matchType",
    "bid",
    "status",
    "displayStatus",
    "creationTime",
    "modificationTime",
    "deleted",
];

/// Fields `POST /negative-keywords/query` filters and sorts on.
pub const NEGATIVE_KEYWORDS: &[&str] = &[
    "id",
    "adAccountId",
    "campaignId",
    "adGroupId",
    "text",
    "matchType",
    "status",
    "creationTime",
    "modificationTime",
    "deleted",
];

/// Fields `POST /ads/query` filters and sorts on.
pub const ADS: &[&str] = &[
    "id",
    "adAccountId",
    "campaignId",
    "adGroupId",
    "creativeId",
    "name",
    "status",
    "systemStatus",
    "displayStatus",
    "creationTime",
    "modificationTime",
    "deleted",
];

/// Fields `POST /creatives/query` filters and sorts on.
pub const CREATIVES: &[&str] = &[
    "id",
    "adAccountId",
    "name",
    "creativeType",
    "systemStatus",
    "creationTime",
    "modificationTime",
    "deleted",
];
