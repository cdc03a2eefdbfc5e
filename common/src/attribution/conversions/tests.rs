use super::*;
use time::macros::date;

fn sum(entity: i64, name: &str, events: i64, revenue: i64, currency: &str) -> Sum {
    Sum {
        entity_id: entity,
        provider: "appsflyer".into(),
        adam_id: 7,
        event_name: name.into(),
        claim_type: "Click".into(),
        placement: String::new(),
        currency: currency.into(),
        events,
        revenue_micros: revenue,
        cohorts: vec![(events, revenue / 2); COHORT_DAYS.len()],
    }
}

fn mapping() -> Mapping {
    let name = |n: &str, counts: Counts| EventName {
        provider: "appsflyer".into(),
        adam_id: 7,
        event_name: n.into(),
        counts,
        events: 1,
        first_seen_at: 0,
        last_seen_at: 0,
    };
    Mapping::new(vec![
        name(
            "af_start_trial",
            Counts {
                trial: true,
                ..Counts::default()
            },
        ),
        name(
            "af_purchase",
            Counts {
                purchase: true,
                revenue: true,
                ..Counts::default()
            },
        ),
        name("af_ad_revenue", Counts::default()),
    ])
}

#[test]
fn cohorts_count_installs_old_enough() {
    let cuts = cohorts(date!(2026 - 12 - 10));
    assert_eq!(cuts[0].through, "2026-12-09");
    assert_eq!(cuts[3].age_days, 7);
    assert_eq!(cuts[3].through, "2026-12-02");
}

#[test]
fn rows_sum_what_each_name_counts_as_in_the_report_currency() {
    let sums = [
        sum(1, INSTALL_EVENT, 10, 0, ""),
        sum(1, "af_start_trial", 4, 0, ""),
        sum(1, "af_purchase", 2, 20_000_000, "USD"),
        sum(1, "af_purchase", 1, -5_000_000, "USD"),
        // Not counted as revenue by the user's setting.
        sum(1, "af_ad_revenue", 9, 1_000_000, "USD"),
        // Not known: counts as nothing.
        sum(1, "custom_event", 3, 3_000_000, "USD"),
        sum(2, INSTALL_EVENT, 1, 0, ""),
    ];
    let by = by_entity(&sums, &mapping(), Some("USD"), &RateSet::default());
    let one = &by[&1];
    assert_eq!(one.tracked_installs, 10);
    assert_eq!(one.trials, 4);
    assert_eq!(one.purchases, 3);
    // A refund keeps its sign.
    assert_eq!(one.revenue_micros, 15_000_000);
    assert_eq!(one.tap_revenue_micros, 15_000_000);
    assert_eq!(one.cohort_revenue_micros[3], 7_500_000);
    assert_eq!(by[&2].tracked_installs, 1);
    let total = total(by.values());
    assert_eq!(total.tracked_installs, 11);
}

#[test]
fn revenue_without_a_rate_is_left_out_and_named() {
    let sums = [sum(1, "af_purchase", 1, 1_000_000, "EUR")];
    let by = by_entity(&sums, &mapping(), Some("USD"), &RateSet::default());
    assert_eq!(by[&1].revenue_micros, 0);
    assert_eq!(by[&1].unconverted, ["EUR"]);
}

#[test]
fn derived_columns_come_from_the_sums() {
    let c = Conversions {
        tracked_installs: 8,
        trials: 4,
        purchases: 0,
        revenue_micros: 30_000_000,
        tap_revenue_micros: 30_000_000,
        view_revenue_micros: 0,
        cohort_revenue_micros: vec![0; 6],
        unconverted: Vec::new(),
    };
    let usd = MoneyRule::of(Some("USD"));
    let apple = |spend_micros, installs| Apple {
        spend_micros,
        installs,
        cohort_spend_micros: &[],
    };
    let v: HashMap<_, _> = values(&c, apple(20_000_000, 10), Some(&usd))
        .into_iter()
        .collect();
    assert_eq!(v["trackedInstallRate"], Some(Decimal::new(8, 1)));
    assert_eq!(v["costPerTrial"], Some(Decimal::new(500, 2)));
    assert_eq!(v["costPerPurchase"], None);
    assert_eq!(v["roas"], Some(Decimal::new(15, 1)));
    assert_eq!(v["arpu"], Some(Decimal::new(375, 2)));
    assert_eq!(v["totalRevenue"], Some(Decimal::new(3000, 2)));
    let mixed: HashMap<_, _> = values(&c, apple(20_000_000, 10), None)
        .into_iter()
        .collect();
    assert_eq!(mixed["roas"], None);
    assert_eq!(mixed["trials"], Some(Decimal::from(4)));
    assert_eq!(
        values(&c, apple(0, 0), Some(&usd)).len(),
        CONVERSION_COLUMNS.len() + COHORT_COLUMNS.len()
    );
}

#[test]
fn cohort_roas_is_over_the_spend_of_the_days_old_enough() {
    let c = Conversions {
        revenue_micros: 50_000_000,
        // D7's revenue of the installs at least 7 days old: 12.00.
        cohort_revenue_micros: vec![2_000_000, 4_000_000, 6_000_000, 12_000_000, 0, 0],
        ..Conversions::default()
    };
    let usd = MoneyRule::of(Some("USD"));
    // The range spent 100.00, of which 40.00 on days old enough for D7, none for D14.
    let cohort_spend = [90_000_000, 80_000_000, 60_000_000, 40_000_000, 0, 0];
    let apple = Apple {
        spend_micros: 100_000_000,
        installs: 10,
        cohort_spend_micros: &cohort_spend,
    };
    let v = |column| value(&c, apple, Some(&usd), column);
    assert_eq!(v("roasD7"), Some(Decimal::new(3, 1)), "12 / 40");
    assert_eq!(v("revenueD7"), Some(Decimal::new(1200, 2)));
    assert_eq!(
        v("roas"),
        Some(Decimal::new(5, 1)),
        "50 / 100 over every day"
    );
    assert_eq!(v("roasD14"), None, "no day old enough: unknown, never 0 %");
    let unread = Apple {
        cohort_spend_micros: &[],
        ..apple
    };
    assert_eq!(value(&c, unread, Some(&usd), "roasD7"), None);
    assert_eq!(value(&c, apple, None, "roasD7"), None, "mixed currencies");
    assert_eq!(cohort_index("roasD7"), Some(3));
    assert_eq!(cohort_index("revenueD30"), Some(5));
    assert_eq!(cohort_index("roas"), None);
    assert_eq!(cohort_label("roasD7").as_deref(), Some("ROAS D7"));
    assert_eq!(cohort_label("revenueD14").as_deref(), Some("Revenue D14"));
    assert_eq!(display("roasD0"), "percent");
}
