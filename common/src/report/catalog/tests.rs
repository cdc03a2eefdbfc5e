//! The catalog's names round-trip, derived metrics come from sums, the plan's access locks
//! what it should, and each level's columns fall in their groups.

use super::*;
use Metric::*;

#[test]
fn names_round_trip_and_derived_metrics_come_from_sums() {
    for m in Metric::ALL {
        assert_eq!(Metric::parse(m.name()), Some(m));
    }
    for l in Level::ALL {
        assert_eq!(Level::parse(&l.name().to_lowercase()), Some(l));
    }
    let usd = MoneyRule::of(Some("USD"));
    let mut c = Counters::default();
    c.0[0] = 3; // impressions
    c.0[1] = 0; // taps
    c.0[10] = 1_000_000; // $1
    assert_eq!(Ttr.value(&c, &usd), Some(Decimal::ZERO));
    assert_eq!(AvgCpt.value(&c, &usd), None, "no taps: no CPT");
    assert_eq!(AvgCpm.value(&c, &usd).unwrap().to_string(), "333.33");
    c.0[2] = 2;
    c.0[3] = 1;
    assert_eq!(AvgCpa.value(&c, &usd).unwrap().to_string(), "0.33");
    assert_eq!(Ipm.value(&c, &usd).unwrap().to_string(), "1000");
}

#[test]
fn access_locks_growth_columns_and_conversion_groups() {
    for growth in [false, true] {
        for conversions in [false, true] {
            let access = ColumnAccess {
                growth,
                conversions,
            };
            assert_eq!(locks(access, "auctionInsights"), !growth, "{access:?}");
            assert_eq!(locks(access, "activeShare"), !growth, "{access:?}");
            assert_eq!(locks(access, "totalRevenue"), !conversions, "{access:?}");
            assert_eq!(locks(access, "trackedInstalls"), !conversions, "{access:?}");
            assert!(!locks(access, "localSpend") && !locks(access, "campaignName"));
            assert_eq!(locked_groups(access).len(), if conversions { 0 } else { 2 });
        }
    }
    let limited = ColumnAccess {
        growth: false,
        conversions: false,
    };
    assert_eq!(locked_groups(limited), ["Conversions", "Cohort"]);
    assert!(locked_groups(ColumnAccess::ALL).is_empty());
}

#[test]
fn columns_of_a_level_and_their_groups() {
    let keywords = Level::Keywords.all_columns();
    assert_eq!(&keywords[..3], ["keyword", "keywordStatus", "keywordId"]);
    assert!(keywords.contains(&"cptBid") && keywords.contains(&"tapInstalls"));
    let default = Level::Keywords.default_columns();
    assert!(default.contains(&"cptBid") && default.contains(&"localSpend"));
    assert!(!default.contains(&"organicSearch"), "hidden by default");
    assert!(!default.contains(&"tapInstalls"), "not a common metric");
    assert!(!Level::Negative.all_columns().contains(&"taps"));
    assert_eq!(group_of("taps"), "Metrics");
    assert_eq!(group_of("totalRevenue"), "Conversions");
    assert_eq!(group_of("cptBid"), "Attributes");
}

/// Every column the attribution providers feed is hidden until the user picks it
/// (docs/product.md#2-tables), the cohort ROAS columns included.
#[test]
fn every_conversion_and_cohort_column_is_hidden_by_default() {
    for column in CONVERSION_COLUMNS.iter().chain(&COHORT_COLUMNS) {
        assert!(HIDDEN_BY_DEFAULT.contains(column), "{column}");
    }
}
