//! Published Apple Ads reference figures, shown beside a workspace's own targets and never
//! as its data (docs/api/benchmarks.md "Reference figures"). Only figures found in a
//! published source are here, each with its source, address, period and sample size.
//!
//! Source: SplitMetrics, "Apple Search Ads Search Results Benchmarks Report" (2024 edition,
//! search results placement, data of January — December 2023 from apps on SplitMetrics
//! Acquire: 7.7M keywords, 2.54B impressions, 253.4M taps, 166.7M downloads, 15 categories,
//! 61 countries), <https://splitmetrics.com/apple-search-ads-search-results-benchmarks-2024/1-introduction/>;
//! its category figures as Business of Apps published them,
//! <https://www.businessofapps.com/insights/top-global-app-categories-by-popularity-cost/>.
//! SplitMetrics gives the sample of the report as a whole, not per category, so every
//! figure's `n` is the report's 166.7M downloads.
//!
//! No published per-event (cost per trial or purchase) or ROAS benchmark of Apple Ads was
//! found with its sample size (Adapty's Apple Ads benchmarks included), so the events and
//! revenues tables show none.

use serde::Serialize;
use utoipa::ToSchema;

/// The report's name as shown.
const SPLITMETRICS: &str = "SplitMetrics Apple Search Ads Search Results Benchmarks Report 2024";
/// Where the category figures were published.
const FIGURES_URL: &str =
    "https://www.businessofapps.com/insights/top-global-app-categories-by-popularity-cost/";
/// The report's own page (period and sample).
const REPORT_URL: &str =
    "https://splitmetrics.com/apple-search-ads-search-results-benchmarks-2024/1-introduction/";
/// The report's period.
const PERIOD: &str = "January — December 2023";
/// The report's sample: downloads.
const DOWNLOADS: i64 = 166_700_000;

/// The category every app belongs to (the average across categories).
pub const ALL_CATEGORIES: &str = "All categories";

/// A published figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figure {
    /// `cpa` (cost per install, USD), `ttr` or `cr` (percent).
    pub metric: &'static str,
    /// The App Store genre (`primaryGenreName`) it is for, or [`ALL_CATEGORIES`].
    pub category: &'static str,
    /// Exact decimal.
    pub value: &'static str,
}

/// Every figure, for the installs table (cost per install and what it depends on).
pub const INSTALL_FIGURES: &[Figure] = &[
    Figure {
        metric: "cpa",
        category: ALL_CATEGORIES,
        value: "2.58",
    },
    Figure {
        metric: "cpa",
        category: "Finance",
        value: "8.57",
    },
    Figure {
        metric: "cpa",
        category: "Music",
        value: "0.99",
    },
    Figure {
        metric: "ttr",
        category: "Entertainment",
        value: "27.86",
    },
    Figure {
        metric: "cr",
        category: "Entertainment",
        value: "79.88",
    },
];

/// A published reference figure as the answers carry it: never the workspace's data.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReferenceFigure {
    /// `cpa` (average cost per acquisition: spend ÷ downloads), `ttr` (tap-through rate) or
    /// `cr` (conversion rate: downloads ÷ taps).
    #[schema(pattern = "^(cpa|ttr|cr)$")]
    pub metric: String,
    /// The App Store category the figure is for (`All categories`: the average across them).
    pub category: String,
    /// Exact decimal: USD for `cpa`, percent for `ttr` and `cr`.
    pub value: String,
    /// `USD` or `percent`.
    #[schema(pattern = "^(USD|percent)$")]
    pub unit: String,
    /// Who published it.
    pub source: String,
    /// Where the figure was published.
    pub url: String,
    /// The report it comes from (its period and sample).
    pub report_url: String,
    /// The period the figure covers.
    pub period: String,
    /// Sample size: how many of `nOf` the figure's report is based on.
    pub n: i64,
    /// What `n` counts (`downloads`).
    pub n_of: String,
}

impl ReferenceFigure {
    fn of(f: &Figure) -> ReferenceFigure {
        ReferenceFigure {
            metric: f.metric.into(),
            category: f.category.into(),
            value: f.value.into(),
            unit: if f.metric == "cpa" { "USD" } else { "percent" }.into(),
            source: SPLITMETRICS.into(),
            url: FIGURES_URL.into(),
            report_url: REPORT_URL.into(),
            period: PERIOD.into(),
            n: DOWNLOADS,
            n_of: "downloads".into(),
        }
    }
}

/// The figures of `table` for an app of `category` (its App Store genre, when known): the
/// average across categories, then the category's own.
pub fn for_category(table: &[Figure], category: Option<&str>) -> Vec<ReferenceFigure> {
    table
        .iter()
        .filter(|f| f.category == ALL_CATEGORIES || Some(f.category) == category)
        .map(ReferenceFigure::of)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_app_gets_the_average_and_its_own_category() {
        let finance = for_category(INSTALL_FIGURES, Some("Finance"));
        let got: Vec<(&str, &str)> = finance
            .iter()
            .map(|f| (f.category.as_str(), f.value.as_str()))
            .collect();
        assert_eq!(got, [(ALL_CATEGORIES, "2.58"), ("Finance", "8.57")]);
        assert_eq!(for_category(INSTALL_FIGURES, None).len(), 1);
        assert_eq!(
            for_category(INSTALL_FIGURES, Some("Entertainment")).len(),
            3
        );
        assert!(
            finance
                .iter()
                .all(|f| f.n > 0 && f.url.starts_with("https://"))
        );
    }
}
