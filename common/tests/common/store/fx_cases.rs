//! Conformance cases of `store::fx_rates` (run on both backends by the `store` suite): the rate
//! of a day is the latest published on or before it, and reports over campaign groups of
//! several currencies give subtotals per currency and convert at the stored rates.

use searchdeck_common::{
    Db, Engines,
    store::{
        self,
        report_facts::{self, FactLevel},
    },
    test_support::connected_org,
};

use super::day;

fn rate(day: &str, currency: &str, rate: &str) -> store::fx_rates::StoredRate {
    store::fx_rates::StoredRate {
        day: day.into(),
        currency: currency.into(),
        rate: rate.into(),
        source: "ECB".into(),
    }
}

pub async fn fx_rates_are_the_latest_on_or_before_a_day(db: &Db) {
    use store::fx_rates;
    assert_eq!(fx_rates::latest_day(&db.pool).await.unwrap(), None);
    for r in [
        rate("2026-11-19", "USD", "1.0498"),
        rate("2026-11-20", "USD", "1.0523"),
        rate("2026-11-18", "JPY", "161.9"),
        rate("2026-11-23", "USD", "1.06"),
    ] {
        fx_rates::upsert(&db.pool, &r, 1).await.unwrap();
    }
    // A restated rate replaces the published one.
    fx_rates::upsert(&db.pool, &rate("2026-11-20", "USD", "1.0525"), 2)
        .await
        .unwrap();
    // Sunday the 22nd: the Friday's dollar, and the yen's latest (an older day).
    let rates = fx_rates::on_or_before(&db.pool, "2026-11-22")
        .await
        .unwrap();
    assert_eq!(
        rates,
        [
            rate("2026-11-18", "JPY", "161.9"),
            rate("2026-11-20", "USD", "1.0525")
        ]
    );
    let set = fx_rates::rate_set(&db.pool, day(22)).await.unwrap();
    assert_eq!(set.source.as_deref(), Some("ECB"));
    assert_eq!(set.day_of(["USD", "JPY"]), Some(day(20)));
    assert!(
        fx_rates::on_or_before(&db.pool, "2026-11-17")
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        fx_rates::latest_day(&db.pool).await.unwrap().as_deref(),
        Some("2026-11-23")
    );
}

/// Campaign-level metrics of `org_key` on November `d`: `taps` taps and `spend_micros`.
async fn campaign_day(db: &Db, org_key: i64, d: u8, taps: i64, spend_micros: i64) {
    let on = day(d).to_string();
    let row = store::synced::metrics::DayRow {
        day: on.clone(),
        entity_id: 7,
        campaign_id: 7,
        ad_group_id: 0,
        impressions: taps * 10,
        taps,
        tap_installs: taps / 2,
        spend_micros,
        ..Default::default()
    };
    store::synced::metrics::replace_days(&db.pool, org_key, FactLevel::Campaign, &on, &on, &[row])
        .await
        .unwrap();
}

pub async fn reports_over_currencies_give_subtotals_and_convert_at_stored_rates(db: &Db) {
    use searchdeck_common::report::{self, Cancel, Context, ReportBody};
    use serde_json::json;
    use store::accounts::OrgRow;

    let (workspace_id, account_id, usd) = connected_org(db, "fx@example.com").await;
    let jpy = store::synced::ensure_org(&db.pool, &account_id, 43, Some("JPY"), None)
        .await
        .unwrap();
    for (org_id, currency) in [(42, "USD"), (43, "JPY"), (44, "EUR")] {
        let row = OrgRow {
            org_id,
            display_name: format!("Group {currency}"),
            currency: Some(currency.into()),
            time_zone: None,
            permission: "ADMIN".into(),
            selected: true,
        };
        store::accounts::upsert_org(&db.pool, &account_id, &row, 1)
            .await
            .unwrap();
    }
    // 108.70 USD and 16,304.35 JPY are 100 EUR each at the rates of the 20th.
    campaign_day(db, usd, 20, 10, 108_700_000).await;
    campaign_day(db, jpy, 20, 30, 16_304_350_000).await;
    campaign_day(db, jpy, 21, 2, 1_000_000).await;
    for key in [usd, jpy] {
        report_facts::refresh(db, key, FactLevel::Campaign, day(1))
            .await
            .unwrap();
        store::synced::set_metrics_synced(&db.pool, key, "2026-11-01", "2026-11-21", 1, "job:done")
            .await
            .unwrap();
    }
    store::synced::set_last_synced(&db.pool, &account_id, 1)
        .await
        .unwrap();
    for r in [
        rate("2026-11-20", "USD", "1.0870"),
        rate("2026-11-20", "JPY", "163.0435"),
        rate("2026-11-19", "USD", "2"),
    ] {
        store::fx_rates::upsert(&db.pool, &r, 1).await.unwrap();
    }
    let engines = Engines::default();
    let caches = &engines.reports;
    let ctx = Context {
        workspace_id: workspace_id.clone(),
        account_id: account_id.clone(),
        org: None,
        columns: engines.plan(db, &workspace_id).await.unwrap().columns(),
    };
    let body = |level: &str, reporting: Option<&str>| ReportBody {
        level: Some(level.into()),
        start_date: Some("2026-11-19".into()),
        end_date: Some("2026-11-22".into()),
        graph: true,
        reporting_currency: reporting.map(str::to_string),
        ..Default::default()
    };
    let run = |b: ReportBody| {
        let ctx = ctx.clone();
        async move {
            report::run(db, caches, &ctx, &b.parse().unwrap(), &Cancel::new())
                .await
                .unwrap()
        }
    };

    // Per currency, never added up: the totals leave money out, the subtotals have it.
    let orgs = run(body("ORGS", None)).await;
    assert_eq!(orgs.currency, None);
    let totals = orgs.totals.as_ref().unwrap();
    assert_eq!(totals["localSpend"], json!(null));
    assert_eq!(totals["taps"], json!(42));
    let subtotals = orgs.subtotals.as_ref().unwrap();
    let by: Vec<(&str, &serde_json::Value, &serde_json::Value)> = subtotals
        .iter()
        .map(|s| {
            (
                s["currency"].as_str().unwrap(),
                &s["localSpend"],
                &s["avgCPT"],
            )
        })
        .collect();
    // The EUR group has no metrics stored (it shows as syncing) and adds nothing.
    assert_eq!(
        by,
        [
            ("JPY", &json!(16305), &json!(509)),
            ("USD", &json!(108.7), &json!(10.87)),
        ]
    );
    assert!(orgs.converted.is_none());
    let graph = orgs.graph.as_ref().unwrap();
    let on20 = graph.iter().find(|p| p["date"] == "2026-11-20").unwrap();
    assert_eq!(on20["localSpend"], json!(null));
    assert_eq!(on20["byCurrency"]["USD"]["localSpend"], json!(108.7));
    assert_eq!(on20["byCurrency"]["JPY"]["localSpend"], json!(16304));
    assert_eq!(on20["synced"], json!(true));
    let on22 = graph.iter().find(|p| p["date"] == "2026-11-22").unwrap();
    assert_eq!(on22["synced"], json!(false), "after metrics_through");
    // The group without stored metrics is flagged, not shown as zeros that look like data.
    let syncing: Vec<(String, bool)> = orgs
        .items
        .iter()
        .map(|r| {
            (
                r["orgName"].as_str().unwrap().to_string(),
                r["syncing"] == json!(true),
            )
        })
        .collect();
    assert!(
        syncing.contains(&("Group EUR".to_string(), true)),
        "{syncing:?}"
    );
    assert!(
        syncing.contains(&("Group USD".to_string(), false)),
        "{syncing:?}"
    );
    assert!(orgs.syncing);

    // Converted to euros at the rates in force on the range's last day (a Sunday: the
    // Friday's), decimal and floored to the euro's cents.
    let eur = run(body("ORGS", Some("eur"))).await;
    let converted = eur.converted.as_ref().unwrap();
    assert_eq!(converted.currency, "EUR");
    assert_eq!(converted.rate_date.as_deref(), Some("2026-11-20"));
    assert_eq!(converted.asked_date, "2026-11-22");
    assert_eq!(converted.source.as_deref(), Some("ECB"));
    assert!(converted.missing.is_empty());
    // 100 + 100 + 1,000,000 / 163.0435 micros (6.133332…) = 200.006133 EUR.
    assert_eq!(converted.totals["localSpend"], json!(200));
    assert_eq!(converted.totals["taps"], json!(42));
    let graph = eur.graph.as_ref().unwrap();
    let on20 = graph.iter().find(|p| p["date"] == "2026-11-20").unwrap();
    assert_eq!(on20["converted"]["localSpend"], json!(200));
    // To yen, whole units.
    let yen = run(body("ORGS", Some("JPY"))).await;
    assert_eq!(yen.converted.unwrap().totals["localSpend"], json!(32609));

    // All accounts: the one account spans currencies, with the same subtotals.
    let accounts = run(body("ACCOUNTS", Some("EUR"))).await;
    assert_eq!(accounts.items[0]["currency"], json!(null));
    assert_eq!(accounts.subtotals.as_ref().unwrap().len(), 2);
    assert_eq!(accounts.converted.unwrap().totals["localSpend"], json!(200));

    // An unknown reporting currency is a field error, not a failure.
    let bad = body("ORGS", Some("XXX")).parse().unwrap_err();
    assert_eq!(bad[0].field, "reportingCurrency");
}
