//! The metrics (docs/product.md#2-tables common and graph metrics, with their tap/view/total
//! variants): each a sum of counters or a ratio of sums, never an average of averages, with how its
//! value is shown.

use super::*;

/// How a metric's value is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A count.
    Count,
    /// Money of the org's currency, floored to its digits.
    Money,
    /// A ratio as a fraction (0.0523 for 5.23 %), six decimals.
    Ratio,
}

/// A metric: a sum of counters or a ratio of sums.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    Impressions,
    Taps,
    Installs,
    TapInstalls,
    ViewInstalls,
    TotalInstalls,
    NewDownloads,
    TapNewDownloads,
    ViewNewDownloads,
    TotalNewDownloads,
    Redownloads,
    TapRedownloads,
    ViewRedownloads,
    TotalRedownloads,
    LocalSpend,
    Ttr,
    AvgCpt,
    AvgCpm,
    AvgCpa,
    TapAvgCpa,
    ViewAvgCpa,
    TotalAvgCpa,
    ConversionRate,
    TapConversionRate,
    TotalConversionRate,
    Ipm,
}

use Metric::*;

impl Metric {
    /// Every metric, common metrics first in the order of docs/product.md#2-tables.
    pub const ALL: [Metric; 26] = [
        AvgCpm,
        Ipm,
        Impressions,
        Ttr,
        Taps,
        AvgCpt,
        ConversionRate,
        Installs,
        NewDownloads,
        Redownloads,
        AvgCpa,
        LocalSpend,
        TapInstalls,
        ViewInstalls,
        TotalInstalls,
        TapNewDownloads,
        ViewNewDownloads,
        TotalNewDownloads,
        TapRedownloads,
        ViewRedownloads,
        TotalRedownloads,
        TapAvgCpa,
        ViewAvgCpa,
        TotalAvgCpa,
        TapConversionRate,
        TotalConversionRate,
    ];

    /// The spec's name.
    pub fn name(self) -> &'static str {
        match self {
            Impressions => "impressions",
            Taps => "taps",
            Installs => "installs",
            TapInstalls => "tapInstalls",
            ViewInstalls => "viewInstalls",
            TotalInstalls => "totalInstalls",
            NewDownloads => "newDownloads",
            TapNewDownloads => "tapNewDownloads",
            ViewNewDownloads => "viewNewDownloads",
            TotalNewDownloads => "totalNewDownloads",
            Redownloads => "redownloads",
            TapRedownloads => "tapRedownloads",
            ViewRedownloads => "viewRedownloads",
            TotalRedownloads => "totalRedownloads",
            LocalSpend => "localSpend",
            Ttr => "ttr",
            AvgCpt => "avgCPT",
            AvgCpm => "avgCPM",
            AvgCpa => "avgCPA",
            TapAvgCpa => "tapAvgCPA",
            ViewAvgCpa => "viewAvgCPA",
            TotalAvgCpa => "totalAvgCPA",
            ConversionRate => "conversionRate",
            TapConversionRate => "tapConversionRate",
            TotalConversionRate => "totalConversionRate",
            Ipm => "IPM",
        }
    }

    /// The metric named `name` (exact spelling; `spend` is accepted for localSpend).
    pub fn parse(name: &str) -> Option<Metric> {
        let name = name.trim();
        if name == "spend" {
            return Some(LocalSpend);
        }
        Metric::ALL.into_iter().find(|m| m.name() == name)
    }

    pub fn kind(self) -> Kind {
        match self {
            LocalSpend | AvgCpt | AvgCpm | AvgCpa | TapAvgCpa | ViewAvgCpa | TotalAvgCpa => {
                Kind::Money
            }
            Ttr | ConversionRate | TapConversionRate | TotalConversionRate | Ipm => Kind::Ratio,
            _ => Kind::Count,
        }
    }

    /// The common metrics of every table (docs/product.md#2-tables).
    pub fn is_common(self) -> bool {
        Metric::ALL[..12].contains(&self)
    }

    /// The metric over summed counters: never an average of averages; None where a ratio
    /// has no denominator. Money is floored by `money`.
    pub fn value(self, c: &Counters, money: &MoneyRule) -> Option<Decimal> {
        let installs = c.tap_installs() + c.view_installs();
        let new_downloads = c.tap_new_downloads() + c.view_new_downloads();
        let redownloads = c.tap_redownloads() + c.view_redownloads();
        let spend = Decimal::new(c.spend_micros(), 6);
        let count = |v: i64| Some(Decimal::from(v));
        let per = |num: Decimal, den: i64, scale: i64| {
            (den != 0).then(|| num * Decimal::from(scale) / Decimal::from(den))
        };
        let ratio = |num: i64, den: i64, scale: i64| {
            per(Decimal::from(num), den, scale).map(|v| v.round_dp(6))
        };
        let cost = |den: i64, scale: i64| per(spend, den, scale).map(|v| money.floor(v));
        match self {
            Impressions => count(c.impressions()),
            Taps => count(c.taps()),
            Installs | TotalInstalls => count(installs),
            TapInstalls => count(c.tap_installs()),
            ViewInstalls => count(c.view_installs()),
            NewDownloads | TotalNewDownloads => count(new_downloads),
            TapNewDownloads => count(c.tap_new_downloads()),
            ViewNewDownloads => count(c.view_new_downloads()),
            Redownloads | TotalRedownloads => count(redownloads),
            TapRedownloads => count(c.tap_redownloads()),
            ViewRedownloads => count(c.view_redownloads()),
            LocalSpend => Some(money.floor(spend)),
            Ttr => ratio(c.taps(), c.impressions(), 1),
            AvgCpt => cost(c.taps(), 1),
            AvgCpm => cost(c.impressions(), 1000),
            AvgCpa | TotalAvgCpa => cost(installs, 1),
            TapAvgCpa => cost(c.tap_installs(), 1),
            ViewAvgCpa => cost(c.view_installs(), 1),
            ConversionRate | TapConversionRate => ratio(c.tap_installs(), c.taps(), 1),
            TotalConversionRate => ratio(installs, c.taps(), 1),
            Ipm => ratio(installs, c.impressions(), 1000),
        }
    }
}

/// The graph metrics of docs/product.md#2-tables (impressions, taps, installs tap/view/total, new
/// downloads and redownloads tap/view/total, ttr, average CPA tap/view/total, avgCPT, spend, CR tap
/// and total, IPM, CPM).
pub const GRAPH_METRICS: &[Metric] = &[
    Impressions,
    Taps,
    TapInstalls,
    ViewInstalls,
    TotalInstalls,
    TapNewDownloads,
    ViewNewDownloads,
    TotalNewDownloads,
    TapRedownloads,
    ViewRedownloads,
    TotalRedownloads,
    Ttr,
    TapAvgCpa,
    ViewAvgCpa,
    TotalAvgCpa,
    AvgCpt,
    LocalSpend,
    TapConversionRate,
    TotalConversionRate,
    Ipm,
    AvgCpm,
];
