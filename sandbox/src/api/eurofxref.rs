//! A stand-in for the European Central Bank's reference-rate feed, outside `/v1` and without
//! a token, in the ECB's own XML format: `GET /eurofxref/eurofxref-hist-90d.xml` (the
//! working days of the last 90 days, newest first) and `GET /eurofxref/eurofxref-daily.xml`
//! (the latest working day). Days follow the sandbox's clock; weekends have no rates, as at
//! the ECB. Rates are deterministic: a fixed rate per currency moved by at most ±1 % by the
//! day, so tests and the dev server convert the same amounts offline every time.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use time::{Date, Duration, Weekday};

use crate::state::Sandbox;

/// Who the feed says publishes it (stored with each rate as its source).
pub const SENDER: &str = "Searchdeck sandbox";

/// Units per euro in ten-thousandths, before the day's movement. The rates of the sandbox's
/// ad accounts follow `data/apple-minimums.json`'s US-dollar rates (USD 1.0870 = 1 / 0.92).
const BASE: &[(&str, i64)] = &[
    ("USD", 10_870),
    ("JPY", 1_630_435),
    ("GBP", 8_587),
    ("AUD", 16_304),
    ("CAD", 14_783),
    ("INR", 902_174),
    ("BRL", 54_348),
    ("MXN", 184_783),
    ("CHF", 9_400),
    ("CNY", 77_000),
    ("SEK", 115_000),
    ("NOK", 117_000),
    ("DKK", 74_600),
    ("KRW", 14_500_000),
    ("SGD", 14_500),
    ("HKD", 84_500),
    ("NZD", 18_000),
    ("PLN", 43_000),
    ("CZK", 250_000),
    ("HUF", 3_900_000),
    ("TRY", 360_000),
    ("ZAR", 200_000),
    ("IDR", 170_000_000),
    ("THB", 380_000),
    ("ILS", 40_000),
    ("PHP", 620_000),
    ("MYR", 49_000),
    ("RON", 49_700),
    ("BGN", 19_558),
    ("ISK", 1_500_000),
];

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route("/eurofxref/eurofxref-hist-90d.xml", get(ninety_days))
        .route("/eurofxref/eurofxref-daily.xml", get(daily))
}

/// Units of `code` per euro on `day`, as the feed prints it (four decimals).
pub fn rate(code: &str, day: Date) -> Option<String> {
    let (i, (_, base)) = BASE.iter().enumerate().find(|(_, (c, _))| *c == code)?;
    let n = i64::from(day.to_julian_day()) * 37 + i as i64 * 101;
    let movement = n.rem_euclid(201) - 100; // ten-thousandths: ±1 %
    let e4 = base * (10_000 + movement) / 10_000;
    Some(format!("{}.{:04}", e4 / 10_000, e4 % 10_000))
}

/// The working days (Monday to Friday) among the `days` days ending at `today`, newest first.
pub fn working_days(today: Date, days: i64) -> Vec<Date> {
    (0..days)
        .map(|back| today - Duration::days(back))
        .filter(|d| !matches!(d.weekday(), Weekday::Saturday | Weekday::Sunday))
        .collect()
}

fn document(days: &[Date]) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gesmes:Envelope \
         xmlns:gesmes=\"http://www.gesmes.org/xml/2002-08-01\" \
         xmlns=\"http://www.ecb.int/vocabulary/2002-08-01/eurofxref\">\n\
         \t<gesmes:subject>Reference rates</gesmes:subject>\n\t<gesmes:Sender>\n",
    );
    xml.push_str(&format!("\t\t<gesmes:name>{SENDER}</gesmes:name>\n"));
    xml.push_str("\t</gesmes:Sender>\n\t<Cube>\n");
    for day in days {
        xml.push_str(&format!("\t\t<Cube time=\"{day}\">\n"));
        for (code, _) in BASE {
            if let Some(r) = rate(code, *day) {
                xml.push_str(&format!("\t\t\t<Cube currency=\"{code}\" rate=\"{r}\"/>\n"));
            }
        }
        xml.push_str("\t\t</Cube>\n");
    }
    xml.push_str("\t</Cube>\n</gesmes:Envelope>\n");
    xml
}

fn today(sandbox: &Sandbox) -> Date {
    sandbox.world.clock().now().date()
}

async fn ninety_days(State(sandbox): State<Arc<Sandbox>>) -> impl IntoResponse {
    let days = working_days(today(&sandbox), 90);
    ([(header::CONTENT_TYPE, "text/xml")], document(&days))
}

async fn daily(State(sandbox): State<Arc<Sandbox>>) -> impl IntoResponse {
    let days = working_days(today(&sandbox), 7);
    ([(header::CONTENT_TYPE, "text/xml")], document(&days[..1]))
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    #[test]
    fn rates_are_fixed_per_day_and_within_one_percent() {
        let day = date!(2026 - 11 - 20);
        assert_eq!(rate("USD", day), rate("USD", day));
        let usd: f64 = rate("USD", day).unwrap().parse().unwrap();
        assert!((1.0761..=1.0979).contains(&usd), "{usd}");
        assert_ne!(rate("USD", day), rate("USD", date!(2026 - 11 - 19)));
        assert!(rate("XAU", day).is_none());
    }

    #[test]
    fn weekends_have_no_rates() {
        // 2026-11-22 is a Sunday.
        let days = working_days(date!(2026 - 11 - 22), 7);
        assert_eq!(days.len(), 5);
        assert_eq!(days[0], date!(2026 - 11 - 20));
    }
}
