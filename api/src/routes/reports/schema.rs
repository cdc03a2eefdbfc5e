//! The documented shape of a report answer (the contract the tables, rules and suggester
//! read). Rows are built by the engine as JSON objects; these types describe them.

use searchdeck_common::report::Report;
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

/// The metrics of a row, of the totals and (graph metrics) of a graph point. Counts are
/// integers; money is in the campaign group's currency floored to its digits (null in
/// ACCOUNTS rows mixing currencies); ratios are fractions with six decimals (ttr 0.0523 is
/// 5.23 %), null without a denominator. installs, newDownloads and redownloads are the
/// totals (tap + view); avgCPA is spend per total install; conversionRate is tap installs
/// per tap; IPM installs per thousand impressions; avgCPM spend per thousand impressions.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportMetrics {
    pub impressions: Option<i64>,
    pub taps: Option<i64>,
    pub installs: Option<i64>,
    pub tap_installs: Option<i64>,
    pub view_installs: Option<i64>,
    pub total_installs: Option<i64>,
    pub new_downloads: Option<i64>,
    pub tap_new_downloads: Option<i64>,
    pub view_new_downloads: Option<i64>,
    pub total_new_downloads: Option<i64>,
    pub redownloads: Option<i64>,
    pub tap_redownloads: Option<i64>,
    pub view_redownloads: Option<i64>,
    pub total_redownloads: Option<i64>,
    pub local_spend: Option<f64>,
    pub ttr: Option<f64>,
    #[serde(rename = "avgCPT")]
    pub avg_cpt: Option<f64>,
    #[serde(rename = "avgCPM")]
    pub avg_cpm: Option<f64>,
    #[serde(rename = "avgCPA")]
    pub avg_cpa: Option<f64>,
    #[serde(rename = "tapAvgCPA")]
    pub tap_avg_cpa: Option<f64>,
    #[serde(rename = "viewAvgCPA")]
    pub view_avg_cpa: Option<f64>,
    #[serde(rename = "totalAvgCPA")]
    pub total_avg_cpa: Option<f64>,
    pub conversion_rate: Option<f64>,
    pub tap_conversion_rate: Option<f64>,
    pub total_conversion_rate: Option<f64>,
    #[serde(rename = "IPM")]
    pub ipm: Option<f64>,
}

/// One report row: the metrics, the level's id, name and status fields (spec §3
/// "Identifier and name fields per level") and the level's columns of spec §2 Tables, each
/// present on the rows of the levels its description names (null where no data is synced
/// for it yet, and for Growth-only columns when locked). NEGATIVE rows have no metrics.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportItem {
    /// A deleted entity shown because it has metrics in the range.
    pub deleted: bool,
    /// CAMPAIGNS rows: hidden with `asa/campaigns/mark-hidden` (listed only when the body
    /// asks `includeHidden`).
    pub hidden: Option<bool>,
    /// The row's report tags (CAMPAIGNS, GROUPS, KEYWORDS, SEARCHTERMS).
    pub tag: Option<Vec<searchdeck_common::store::report_entities::TagRef>>,
    /// ORGS and ACCOUNTS rows: the row's currency (null for an account mixing currencies).
    pub currency: Option<String>,
    /// ORGS and ACCOUNTS rows: some of the row's metrics are not stored yet (its first sync
    /// is running): its numbers are partial, or all zero before any is stored.
    pub syncing: Option<bool>,
    /// ACCOUNTS: the connection's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account_id: Option<String>,
    /// ACCOUNTS: the connection's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account_name: Option<String>,
    /// ORGS: the campaign group (Apple's org id); CAMPAIGNS: the campaign's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub org_id: Option<String>,
    /// ORGS: the campaign group's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub org_name: Option<String>,
    /// ACCOUNTS: ACTIVE; ORGS: SELECTED or NOT_SELECTED (the connection's campaign groups in use); NEGATIVE: the negative keyword's status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// ORGS: the campaign group's time zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
    /// The row's campaign (CAMPAIGNS: its id; the parent of every lower level's row).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub campaign_id: Option<String>,
    /// CAMPAIGNS: the campaign's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign_name: Option<String>,
    /// CAMPAIGNS: the serving (display) status, else the status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serving_status: Option<String>,
    /// CAMPAIGNS: the campaign's own status (ENABLED, PAUSED).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign_status: Option<String>,
    /// CAMPAIGNS: the storefronts served.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub countries_or_regions: Option<Vec<String>>,
    /// CAMPAIGNS: the campaign's goal optimisation, null when off or locked by the plan (spec §6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optimization_types: Option<RowOptimization>,
    /// CAMPAIGNS: the daily budget in the campaign group's currency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub daily_budget: Option<f64>,
    /// CAMPAIGNS: the workspace's rules attached to the campaign, null when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Vec<searchdeck_common::store::rules::RuleRef>>,
    /// CAMPAIGNS: the promoted app's App Store id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub adam_id: Option<String>,
    /// The row's ad group (GROUPS: its id; null for a campaign's negative keyword).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub ad_group_id: Option<String>,
    /// GROUPS: the ad group's name; ADS: the ad's ad group's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ad_group_name: Option<String>,
    /// GROUPS: the serving (display) status, else the status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ad_group_serving_status: Option<String>,
    /// GROUPS: the ad group's own status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ad_group_status: Option<String>,
    /// GROUPS: the default CPT bid in the campaign group's currency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_bid_amount: Option<f64>,
    /// GROUPS: the CPA goal in the campaign group's currency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpa_goal: Option<f64>,
    /// GROUPS: Search Match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub automated_keywords_opt_in: Option<bool>,
    /// KEYWORDS: the keyword's id; SEARCHTERMS: the keyword that matched the term.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub keyword_id: Option<String>,
    /// KEYWORDS: the keyword's text; SEARCHTERMS: the keyword that matched the term.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
    /// KEYWORDS: the keyword's status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keyword_status: Option<String>,
    /// KEYWORDS: the display status; SEARCHTERMS: the matching keyword's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keyword_display_status: Option<String>,
    /// KEYWORDS and NEGATIVE: EXACT or BROAD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_type: Option<String>,
    /// KEYWORDS: the CPT bid in the campaign group's currency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpt_bid: Option<f64>,
    /// KEYWORDS and SEARCHTERMS: the stored App Store popularity of the text (1-100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub popularity: Option<i64>,
    /// KEYWORDS and SEARCHTERMS: not stored by this server yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = not_stored)]
    pub organic_search: Option<Value>,
    /// KEYWORDS: not stored by this server yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = not_stored)]
    pub qs_status: Option<Value>,
    /// KEYWORDS and SEARCHTERMS: not stored by this server yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = not_stored)]
    pub auction_insights: Option<Value>,
    /// KEYWORDS: not stored by this server yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = not_stored)]
    pub current_app_position: Option<Value>,
    /// NEGATIVE: the negative keyword's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub id: Option<String>,
    /// NEGATIVE: the negative keyword's text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// NEGATIVE: CAMPAIGN or AD_GROUP, where the negative keyword is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// NEGATIVE: when Apple Ads last changed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modification_time: Option<String>,
    /// SEARCHTERMS: the term's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub search_term_id: Option<String>,
    /// SEARCHTERMS: the search term.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_term_text: Option<String>,
    /// SEARCHTERMS: ADDED (a keyword of its ad group), EXCLUDED (a negative there) or NONE.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_term_status: Option<String>,
    /// SEARCHTERMS: not stored by this server yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = not_stored)]
    pub search_term_text_translate: Option<Value>,
    /// SEARCHTERMS: where Apple Ads matched it (its source).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_term_source: Option<String>,
    /// SEARCHTERMS: not stored by this server yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = not_stored)]
    pub impression_share: Option<Value>,
    /// ADS: the ad's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub ad_id: Option<String>,
    /// ADS: the creative's (else the ad's) name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creative_set_name: Option<String>,
    /// ADS: the display status, else the status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ad_display_status: Option<String>,
    /// ADS: the ad's own status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ad_status: Option<String>,
    /// ADS: the ad's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ad_name: Option<String>,
    /// ADS: the creative's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub creative_id: Option<String>,
    #[serde(flatten)]
    pub metrics: ReportMetrics,
    #[serde(flatten)]
    pub conversions: ConversionMetrics,
}

/// The Conversions and Cohort columns (CAMPAIGNS, GROUPS, KEYWORDS, ADS rows and their
/// totals; docs/api/attribution.md "In the reports"): what the attribution providers
/// report of the row's installs, each conversion counted on its install's day. Money in
/// the report's currency, floored; ratios as fractions (4 decimals); null when the plan
/// locks them (pro_limited) or a ratio has no denominator; absent on other levels.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConversionMetrics {
    /// Installs the providers attributed to the row.
    pub tracked_installs: Option<i64>,
    /// Tracked installs ÷ Apple's installs.
    pub tracked_install_rate: Option<f64>,
    /// Events counted as trials.
    pub trials: Option<i64>,
    /// Spend ÷ trials.
    pub cost_per_trial: Option<f64>,
    /// Events counted as purchases (new paying users).
    pub purchases: Option<i64>,
    /// Spend ÷ purchases.
    pub cost_per_purchase: Option<f64>,
    /// Revenue of the events counted as revenue, refunds subtracted (may be negative).
    pub total_revenue: Option<f64>,
    /// That revenue of tap-through installs.
    pub tap_revenue: Option<f64>,
    /// That revenue of view-through installs.
    pub view_revenue: Option<f64>,
    /// Revenue ÷ spend.
    pub roas: Option<f64>,
    /// Revenue ÷ tracked installs.
    pub arpu: Option<f64>,
    /// Revenue of the install day (installs at least one full day old).
    #[serde(rename = "revenueD0")]
    pub revenue_d0: Option<f64>,
    /// Revenue of the first day after the install, of installs old enough for it.
    #[serde(rename = "revenueD1")]
    pub revenue_d1: Option<f64>,
    /// Revenue of the first 3 days after the install, of installs old enough for it.
    #[serde(rename = "revenueD3")]
    pub revenue_d3: Option<f64>,
    /// Revenue of the first 7 days after the install, of installs old enough for it.
    #[serde(rename = "revenueD7")]
    pub revenue_d7: Option<f64>,
    /// Revenue of the first 14 days after the install, of installs old enough for it.
    #[serde(rename = "revenueD14")]
    pub revenue_d14: Option<f64>,
    /// Revenue of the first 30 days after the install, of installs old enough for it.
    #[serde(rename = "revenueD30")]
    pub revenue_d30: Option<f64>,
    /// `revenueD0` ÷ the spend of the install days old enough for it (null when no day
    /// of the range is).
    #[serde(rename = "roasD0")]
    pub roas_d0: Option<f64>,
    /// `revenueD1` ÷ the spend of the install days old enough for it (null when no day
    /// of the range is).
    #[serde(rename = "roasD1")]
    pub roas_d1: Option<f64>,
    /// `revenueD3` ÷ the spend of the install days old enough for it (null when no day
    /// of the range is).
    #[serde(rename = "roasD3")]
    pub roas_d3: Option<f64>,
    /// `revenueD7` ÷ the spend of the install days old enough for it (null when no day
    /// of the range is).
    #[serde(rename = "roasD7")]
    pub roas_d7: Option<f64>,
    /// `revenueD14` ÷ the spend of the install days old enough for it (null when no day
    /// of the range is).
    #[serde(rename = "roasD14")]
    pub roas_d14: Option<f64>,
    /// `revenueD30` ÷ the spend of the install days old enough for it (null when no day
    /// of the range is).
    #[serde(rename = "roasD30")]
    pub roas_d30: Option<f64>,
}

/// A report's totals: the metrics, and on the levels that have them the Conversions and
/// Cohort columns, over every matching row.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReportTotals {
    #[serde(flatten)]
    pub metrics: ReportMetrics,
    #[serde(flatten)]
    pub conversions: ConversionMetrics,
}

/// A CAMPAIGNS row's goal optimisation (`optimizationTypes`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RowOptimization {
    /// The goal optimisation's kind.
    #[serde(rename = "type")]
    pub kind: String,
    /// The target in `currency` (decimal text), or a ROAS_GOAL's percentage (`"120"`);
    /// null without one.
    pub target: Option<String>,
    pub currency: Option<String>,
    /// A ROAS_GOAL's cohort, in days after the install (0, 1, 3, 7, 14 or 30); null for
    /// the other types.
    #[serde(default)]
    pub cohort_day: Option<i64>,
    /// The largest change of a bid one goal-optimisation run makes, in percent (1–100); the
    /// goal editor of the campaigns table starts from it.
    #[schema(minimum = 1, maximum = 100)]
    pub max_step_percent: i64,
}

/// A column the server does not store yet: always null.
fn not_stored() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::Null)
        .build()
}

/// One day of the graph: the date and the graph metrics of spec §2.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GraphPoint {
    /// YYYY-MM-DD.
    pub date: String,
    /// Whether the day's metrics are stored (false: not synced yet, its zeros are no data).
    pub synced: bool,
    /// ACCOUNTS and ORGS mixing currencies: the day's money metrics per currency code.
    #[schema(value_type = Option<Object>)]
    pub by_currency: Option<Map<String, Value>>,
    /// With a reporting currency: the day's money metrics converted to it.
    #[schema(value_type = Option<Object>)]
    pub converted: Option<Map<String, Value>>,
    #[serde(flatten)]
    pub metrics: ReportMetrics,
}

/// The answer of `POST /api/asa/reports`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportResult {
    /// The page's rows.
    #[schema(value_type = Vec<ReportItem>)]
    pub items: Vec<Map<String, Value>>,
    /// Rows matching the filters (all pages).
    pub total: u64,
    /// The metrics over every matching row (null for NEGATIVE).
    #[schema(value_type = Option<ReportTotals>)]
    pub totals: Option<Map<String, Value>>,
    /// One point per day of the range when `graph` was asked for. Without filters it is
    /// the scope's daily totals (campaign group, campaign or ad group); with filters the
    /// sum of the matching rows.
    #[schema(value_type = Option<Vec<GraphPoint>>)]
    pub graph: Option<Vec<Map<String, Value>>>,
    /// ISO 4217 code of the money in the answer.
    pub currency: Option<String>,
    /// When the campaign group's metrics were last synced (RFC 3339).
    pub last_synced_at: Option<String>,
    /// Columns of the level the plan locks, answered null (spec §6): the Growth-only ones
    /// unless the plan is growth, growth_trial or agency; on pro_limited also the
    /// Conversions group's (`totalRevenue`, `trackedInstalls`).
    pub locked: Vec<String>,
    /// Column groups the plan locks with the upsell message: on pro_limited, Conversions
    /// and Cohort with 'Upgrade to Pro to track events from your MMP.'; empty otherwise.
    pub locked_groups: Vec<searchdeck_common::report::LockedGroup>,
    /// Columns of the level hidden by default (spec §2).
    pub hidden: Vec<String>,
    pub page: u32,
    pub page_size: u32,
    /// Some of the report's metrics are not stored yet (a first sync is running): rows,
    /// totals and days without them are no zeros. Read the report again meanwhile.
    pub syncing: bool,
    /// ACCOUNTS and ORGS whose rows mix currencies: the totals per currency, each
    /// `{currency, …metrics}` with money in that currency (the totals leave money null).
    #[schema(value_type = Option<Vec<Object>>)]
    pub subtotals: Option<Vec<Map<String, Value>>>,
    /// ACCOUNTS and ORGS with a `reportingCurrency`: the totals with money converted to it
    /// at the reference rates of `rateDate`, published by `source`.
    pub converted: Option<searchdeck_common::report::Converted>,
}

impl From<Report> for ReportResult {
    fn from(r: Report) -> ReportResult {
        ReportResult {
            items: r.items,
            total: r.total,
            totals: r.totals,
            graph: r.graph,
            currency: r.currency,
            last_synced_at: r.last_synced_at,
            locked: r.locked,
            locked_groups: r.locked_groups,
            hidden: r.hidden,
            page: r.page,
            page_size: r.page_size,
            syncing: r.syncing,
            subtotals: r.subtotals,
            converted: r.converted,
        }
    }
}
