//! Daily reference exchange rates: the feed's format (the European Central Bank's
//! `eurofxref` XML, and its CSV files), and decimal conversion between currencies through
//! the euro. Rates are stored per day by the `fetch-rates` job (`store::fx_rates`) and read
//! by reports converted to a reporting currency (`report::mixed`).
//!
//! A rate is how many units of a currency one euro buys on a day (the euro itself is 1).
//! An amount converts as `amount / rate(from) * rate(to)`, in `Decimal` (never a float),
//! to whole micros of the target currency (truncated towards zero); the report then floors
//! money to the target currency's digits like any other amount.

use std::collections::BTreeMap;

use quick_xml::{Reader, events::Event};
use rust_decimal::{Decimal, prelude::ToPrimitive};
use time::{Date, macros::format_description};

/// The euro: the base of every rate (its own rate is 1 and never stored).
pub const BASE: &str = "EUR";

/// What the ECB's feed is stored as (its sender's name is "European Central Bank").
pub const ECB: &str = "ECB";

/// The rates of one day of a feed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayRates {
    pub day: Date,
    /// Units of each currency per euro (the euro itself not listed).
    pub rates: BTreeMap<String, Decimal>,
}

/// A parsed feed: who publishes it and its days.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feed {
    /// The publisher, stored with each rate (`ECB` for the European Central Bank).
    pub source: String,
    pub days: Vec<DayRates>,
}

/// Why a feed could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("unreadable reference-rate feed: {0}")]
pub struct FeedError(pub String);

fn bad(message: impl Into<String>) -> FeedError {
    FeedError(message.into())
}

/// A rate as published: a positive decimal.
fn rate(text: &str) -> Option<Decimal> {
    text.trim()
        .parse::<Decimal>()
        .ok()
        .filter(|r| *r > Decimal::ZERO)
}

fn currency_code(text: &str) -> Option<String> {
    let code = text.trim().to_ascii_uppercase();
    (code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase())).then_some(code)
}

fn iso_day(text: &str) -> Option<Date> {
    Date::parse(text.trim(), format_description!("[year]-[month]-[day]")).ok()
}

/// Reads a feed in either of the ECB's formats: XML (`eurofxref-daily.xml`,
/// `eurofxref-hist-90d.xml`, `eurofxref-hist.xml`) or CSV (`eurofxref.csv`,
/// `eurofxref-hist.csv`). Days come out oldest first.
pub fn parse(body: &str) -> Result<Feed, FeedError> {
    let trimmed = body.trim_start_matches('\u{feff}').trim_start();
    let mut feed = if trimmed.starts_with('<') {
        parse_xml(trimmed)?
    } else {
        parse_csv(trimmed)?
    };
    feed.days.sort_by_key(|d| d.day);
    if feed.days.is_empty() {
        return Err(bad("no day of rates"));
    }
    Ok(feed)
}

fn parse_xml(xml: &str) -> Result<Feed, FeedError> {
    let mut reader = Reader::from_str(xml);
    let mut days: Vec<DayRates> = Vec::new();
    let mut sender: Option<String> = None;
    let mut in_name = false;
    loop {
        let event = reader.read_event().map_err(|e| bad(format!("XML: {e}")))?;
        match event {
            Event::Start(e) | Event::Empty(e) => {
                let local = e.local_name();
                match local.as_ref() {
                    "name" => in_name = sender.is_none(),
                    "Cube" => {
                        let attr = |name: &str| -> Result<Option<String>, FeedError> {
                            Ok(e.try_get_attribute(name)
                                .map_err(|e| bad(format!("XML: {e}")))?
                                .map(|a| a.value.into_owned()))
                        };
                        if let Some(time) = attr("time")? {
                            let day = iso_day(&time).ok_or_else(|| bad(format!("day {time}")))?;
                            days.push(DayRates {
                                day,
                                rates: BTreeMap::new(),
                            });
                        } else if let (Some(code), Some(value)) = (attr("currency")?, attr("rate")?)
                        {
                            let day = days.last_mut().ok_or_else(|| bad("a rate outside a day"))?;
                            let code =
                                currency_code(&code).ok_or_else(|| bad(format!("code {code}")))?;
                            let value =
                                rate(&value).ok_or_else(|| bad(format!("rate {code} {value}")))?;
                            day.rates.insert(code, value);
                        }
                    }
                    _ => {}
                }
            }
            Event::Text(t) if in_name => {
                let text = AsRef::<str>::as_ref(&t).trim().to_string();
                if !text.is_empty() {
                    sender = Some(text);
                }
            }
            Event::End(_) => in_name = false,
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(Feed {
        source: source_of(sender.as_deref()),
        days,
    })
}

/// The stored name of a publisher: `ECB` for the European Central Bank, else its own name.
fn source_of(sender: Option<&str>) -> String {
    match sender.map(str::trim) {
        None | Some("") | Some("European Central Bank") => ECB.to_string(),
        Some(other) => other.to_string(),
    }
}

fn parse_csv(csv: &str) -> Result<Feed, FeedError> {
    let mut lines = csv.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<&str> = lines
        .next()
        .ok_or_else(|| bad("empty"))?
        .split(',')
        .map(str::trim)
        .collect();
    if !header
        .first()
        .is_some_and(|h| h.eq_ignore_ascii_case("date"))
    {
        return Err(bad("the first column is not Date"));
    }
    let long = format_description!("[day padding:none] [month repr:long] [year]");
    let mut days = Vec::new();
    for line in lines {
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        let text = cells.first().copied().unwrap_or_default();
        let day = iso_day(text)
            .or_else(|| Date::parse(text, long).ok())
            .ok_or_else(|| bad(format!("day {text}")))?;
        let mut rates = BTreeMap::new();
        for (name, cell) in header.iter().zip(&cells).skip(1) {
            // "N/A" where a currency was not quoted that day.
            if let (Some(code), Some(value)) = (currency_code(name), rate(cell)) {
                rates.insert(code, value);
            }
        }
        days.push(DayRates { day, rates });
    }
    Ok(Feed {
        source: ECB.to_string(),
        days,
    })
}

/// The rates a conversion uses: per currency, its rate and the day it was published (the
/// latest on or before the day asked for).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RateSet {
    pub rates: BTreeMap<String, (Decimal, Date)>,
    pub source: Option<String>,
}

impl RateSet {
    /// Units of `code` per euro (1 for the euro).
    pub fn per_euro(&self, code: &str) -> Option<Decimal> {
        if code.eq_ignore_ascii_case(BASE) {
            return Some(Decimal::ONE);
        }
        self.rates.get(&code.to_ascii_uppercase()).map(|(r, _)| *r)
    }

    /// `micros` of `from` in micros of `to` (truncated towards zero), None without a rate
    /// for either.
    pub fn convert_micros(&self, micros: i64, from: &str, to: &str) -> Option<i64> {
        if from.eq_ignore_ascii_case(to) {
            return Some(micros);
        }
        let (rf, rt) = (self.per_euro(from)?, self.per_euro(to)?);
        (Decimal::from(micros) / rf * rt).trunc().to_i64()
    }

    /// The newest publication day among the rates of `codes` (the euro has none).
    pub fn day_of<'a>(&self, codes: impl IntoIterator<Item = &'a str>) -> Option<Date> {
        codes
            .into_iter()
            .filter_map(|c| self.rates.get(&c.to_ascii_uppercase()).map(|(_, d)| *d))
            .max()
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use time::macros::date;

    use super::*;

    const XML: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
	<gesmes:subject>Reference rates</gesmes:subject>
	<gesmes:Sender>
		<gesmes:name>European Central Bank</gesmes:name>
	</gesmes:Sender>
	<Cube>
		<Cube time="2026-11-20">
			<Cube currency="USD" rate="1.0523"/>
			<Cube currency="JPY" rate="162.41"/>
		</Cube>
		<Cube time="2026-11-19">
			<Cube currency="USD" rate="1.0498"/>
			<Cube currency="JPY" rate="161.9"/>
		</Cube>
	</Cube>
</gesmes:Envelope>"#;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn reads_the_ecb_xml_oldest_day_first() {
        let feed = parse(XML).unwrap();
        assert_eq!(feed.source, "ECB");
        assert_eq!(feed.days.len(), 2);
        assert_eq!(feed.days[0].day, date!(2026 - 11 - 19));
        assert_eq!(feed.days[1].rates["USD"], d("1.0523"));
        assert_eq!(feed.days[1].rates["JPY"], d("162.41"));
    }

    #[test]
    fn reads_both_csv_files() {
        let daily = "Date, USD, JPY, \n20 November 2026, 1.0523, 162.41, \n";
        let feed = parse(daily).unwrap();
        assert_eq!(feed.days[0].day, date!(2026 - 11 - 20));
        assert_eq!(feed.days[0].rates["JPY"], d("162.41"));
        let hist = "Date,USD,ISK,\n2026-11-20,1.0523,N/A,\n2026-11-19,1.0498,N/A,\n";
        let feed = parse(hist).unwrap();
        assert_eq!(feed.days.len(), 2);
        assert!(!feed.days[0].rates.contains_key("ISK"), "N/A is no rate");
    }

    #[test]
    fn refuses_what_is_not_a_feed() {
        assert!(parse("").is_err());
        assert!(parse("<html><body>Maintenance</body></html>").is_err());
        assert!(parse("Date,USD\n2026-11-20,-1\n").is_ok_and(|f| f.days[0].rates.is_empty()));
        assert!(parse(r#"<Cube><Cube time="2026-13-01"/></Cube>"#).is_err());
        assert!(parse(r#"<Cube><Cube currency="USD" rate="1"/></Cube>"#).is_err());
    }

    #[test]
    fn converts_through_the_euro_in_decimals() {
        let day = date!(2026 - 11 - 20);
        let set = RateSet {
            rates: [
                ("USD".into(), (d("1.0523"), day)),
                ("JPY".into(), (d("162.41"), day)),
            ]
            .into_iter()
            .collect(),
            source: Some("ECB".into()),
        };
        // 100 USD = 100 / 1.0523 EUR = 95.029934…
        assert_eq!(
            set.convert_micros(100_000_000, "USD", "EUR"),
            Some(95_029_934)
        );
        // 16,241 JPY = 100 EUR = 105.23 USD exactly.
        assert_eq!(
            set.convert_micros(16_241_000_000, "JPY", "USD"),
            Some(105_230_000)
        );
        assert_eq!(set.convert_micros(5, "EUR", "eur"), Some(5));
        assert_eq!(set.convert_micros(5, "GBP", "EUR"), None);
        assert_eq!(set.day_of(["USD", "EUR"]), Some(day));
    }
}
