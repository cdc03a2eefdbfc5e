//! `GET /appstoreconnect/v1/salesReports` standing in: the DAILY SALES SUMMARY report
//! (`filter[frequency]=DAILY`, `filter[reportType]=SALES`, `filter[reportSubType]=SUMMARY`,
//! `filter[vendorNumber]`, `filter[reportDate]=YYYY-MM-DD`, `filter[version]` 1_0 when
//! given), answered `application/a-gzip`: a gzip'd tab-separated file with the columns of
//! Apple's Sales and Trends reference, one line per app (or in-app purchase), country and
//! product type.
//!
//! The numbers are the world's ([`daily`]): each advertised app's downloads of a day are
//! its Apple Ads installs (the campaigns' served installs, split over each campaign's
//! countries) and half as many organic ones (`1F`, free); 8–16 % of the downloads' count
//! buys its auto-renewable subscription (`IAY`) and 3 % a one-off in-app purchase (`IA1`)
//! at half the price, priced in the app's currency (its ad account's) with 70 % of the
//! price as the developer's proceeds. A day without sales, today and days to come answer
//! 404 as Apple does.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use time::Date;

use super::{VENDOR_NUMBER, authorized, error, unauthorized};
use crate::api::mmp::cohorts::{currency_of, price};
use crate::metrics::{mix_pub, unit};
use crate::sim::Simulation;
use crate::state::Sandbox;
use crate::world::{App, World};

/// An app's SKU (in-app purchases name their app by it).
pub fn sku(adam_id: i64) -> String {
    format!("sd-{adam_id}")
}

/// An app's bundle id.
pub fn bundle_id(app: &App) -> String {
    let slug: String = app
        .name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_lowercase();
    format!("com.sandbox.{slug}")
}

/// One line of a day's report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub adam_id: i64,
    /// The Apple ID of the line's product: the app, or its in-app purchase.
    pub apple_identifier: i64,
    pub title: String,
    pub product_type: &'static str,
    pub country: String,
    pub units: i64,
    /// Micros of `currency`, per unit.
    pub price_micros: i64,
    pub proceeds_micros: i64,
    pub currency: &'static str,
}

/// Micros rounded to the currency's smallest unit (whole units for JPY and KRW).
fn to_minor(micros: i64, currency: &str) -> i64 {
    let step = if matches!(currency, "JPY" | "KRW") {
        1_000_000
    } else {
        10_000
    };
    (micros + step / 2) / step * step
}

/// The world's sales of `day`, by app, country and product type.
pub fn daily(w: &World, sim: &mut Simulation<'_>, day: Date) -> Vec<Line> {
    let mut installs: BTreeMap<(i64, String), u64> = BTreeMap::new();
    for c in w.campaigns.values() {
        if w.apps.get(&c.adam_id).is_none_or(|a| a.owner.is_none())
            || day >= w.campaign_now(c.id).today
        {
            continue;
        }
        let total: u64 = sim
            .campaign_units(c.id, day)
            .iter()
            .map(|(_, t)| t.tap_installs() + t.view_installs())
            .sum();
        let countries = c.countries_on(day);
        let n = countries.len().max(1) as u64;
        for (k, country) in countries.iter().enumerate() {
            let share = total / n + u64::from((k as u64) < total % n);
            *installs.entry((c.adam_id, country.clone())).or_default() += share;
        }
    }
    let mut lines = Vec::new();
    for ((adam_id, country), ads) in installs {
        let (Some(app), Some(currency)) = (w.apps.get(&adam_id), currency_of(w, adam_id)) else {
            continue;
        };
        let downloads = ads + ads / 2;
        let h = mix_pub(&[
            w.seed,
            adam_id as u64,
            day.to_julian_day() as u64,
            country.bytes().fold(0, |a, b| a * 31 + u64::from(b)),
            0xa5c,
        ]);
        let subscriptions = (downloads as f64 * (0.08 + 0.08 * unit(h))).floor() as i64;
        let purchases = (downloads as f64 * 0.03).floor() as i64;
        let price = price(currency);
        let line = |apple_identifier, title: String, product_type, units, price_micros: i64| Line {
            adam_id,
            apple_identifier,
            title,
            product_type,
            country: country.clone(),
            units,
            price_micros: to_minor(price_micros, currency),
            proceeds_micros: to_minor(price_micros * 7 / 10, currency),
            currency,
        };
        for l in [
            line(adam_id, app.name.clone(), "1F", downloads as i64, 0),
            line(
                adam_id * 10 + 1,
                format!("{} Pro", app.name),
                "IAY",
                subscriptions,
                price,
            ),
            line(
                adam_id * 10 + 2,
                format!("{} Pack", app.name),
                "IA1",
                purchases,
                price / 2,
            ),
        ] {
            if l.units > 0 {
                lines.push(l);
            }
        }
    }
    lines
}

/// Micros as the report writes amounts: `6.99`, `1050`.
fn amount(micros: i64, currency: &str) -> String {
    if matches!(currency, "JPY" | "KRW") {
        return (micros / 1_000_000).to_string();
    }
    format!(
        "{}.{:02}",
        micros / 1_000_000,
        (micros % 1_000_000) / 10_000
    )
}

/// The report's text for `lines` of `day`.
pub fn text(lines: &[Line], day: Date) -> String {
    let date = format!(
        "{:02}/{:02}/{}",
        u8::from(day.month()),
        day.day(),
        day.year()
    );
    let mut out = String::from(
        "Provider\tProvider Country\tSKU\tDeveloper\tTitle\tVersion\tProduct Type Identifier\tUnits\tDeveloper Proceeds\tBegin Date\tEnd Date\tCustomer Currency\tCountry Code\tCurrency of Proceeds\tApple Identifier\tCustomer Price\tPromo Code\tParent Identifier\tSubscription\tPeriod\tCategory\tCMB\tDevice\tSupported Platforms\tProceeds Reason\tPreserved Pricing\tClient\tOrder Type\n",
    );
    for l in lines {
        let app_line = l.apple_identifier == l.adam_id;
        let (sku_of, parent) = if app_line {
            (sku(l.adam_id), String::new())
        } else {
            (
                format!("{}.{}", sku(l.adam_id), l.product_type.to_lowercase()),
                sku(l.adam_id),
            )
        };
        let (subscription, period) = if l.product_type == "IAY" {
            ("New", "1 Month")
        } else {
            ("", "")
        };
        out.push_str(&format!(
            "APPLE\tUS\t{sku_of}\tSandbox Developer\t{}\t{}\t{}\t{}\t{}\t{date}\t{date}\t{cur}\t{}\t{cur}\t{}\t{}\t\t{parent}\t{subscription}\t{period}\tProductivity\t\tiPhone\tiOS\t\t\t\t\n",
            l.title,
            if app_line { "1.0" } else { "" },
            l.product_type,
            l.units,
            amount(l.proceeds_micros, l.currency),
            l.country,
            l.apple_identifier,
            amount(l.price_micros, l.currency),
            cur = l.currency,
        ));
    }
    out
}

fn invalid(detail: &str) -> Response {
    error(
        StatusCode::BAD_REQUEST,
        "PARAMETER_ERROR.INVALID",
        "A parameter has an invalid value",
        detail,
    )
}

pub async fn report(
    State(sandbox): State<Arc<Sandbox>>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    if !authorized(&sandbox, &headers) {
        return unauthorized();
    }
    let filter = |k: &str| q.get(&format!("filter[{k}]")).map(String::as_str);
    for (k, want) in [
        ("frequency", "DAILY"),
        ("reportType", "SALES"),
        ("reportSubType", "SUMMARY"),
    ] {
        if filter(k) != Some(want) {
            return invalid(&format!("The stand-in serves filter[{k}]={want} only"));
        }
    }
    if filter("version").is_some_and(|v| v != "1_0") {
        return invalid("'filter[version]' must be 1_0 for a DAILY SALES SUMMARY report");
    }
    if filter("vendorNumber") != Some(VENDOR_NUMBER) {
        return error(
            StatusCode::FORBIDDEN,
            "FORBIDDEN_ERROR",
            "This request is forbidden for security reasons",
            "You don't have access to this vendor number.",
        );
    }
    let Some(day) = filter("reportDate").and_then(|d| {
        Date::parse(d, time::macros::format_description!("[year]-[month]-[day]")).ok()
    }) else {
        return invalid("'filter[reportDate]' must be YYYY-MM-DD for a DAILY report");
    };
    let today = sandbox.world.clock().now().date();
    let none = || {
        error(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            "The request expected results but none were found.",
            "Report is not available yet. Daily reports for the Americas are available by 5 am Pacific Time; Japan, Australia, and New Zealand by 5 am Japan Standard Time; and 5 am Central European Time for all other territories.",
        )
    };
    if day >= today {
        return none();
    }
    let w = sandbox.world.read();
    let lines = tokio::task::spawn_blocking(move || daily(&w, &mut Simulation::new(&w), day))
        .await
        .unwrap_or_default();
    if lines.is_empty() {
        return error(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            "The request expected results but none were found.",
            "There were no sales for the date specified.",
        );
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    if gz.write_all(text(&lines, day).as_bytes()).is_err() {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    }
    let Ok(body) = gz.finish() else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    ([(header::CONTENT_TYPE, "application/a-gzip")], body).into_response()
}
