//! The Sales and Trends SALES SUMMARY report (version [`VERSION`]) as App Store Connect
//! serves it: a gzip-compressed, tab-separated file whose first line names the columns
//! (Apple's "Sales and Trends reports" reference): among them `Apple Identifier`, `SKU`,
//! `Parent Identifier` (an in-app purchase's app, by SKU), `Product Type Identifier`,
//! `Units` (negative for refunds), `Developer Proceeds` (per unit), `Currency of Proceeds`,
//! `Customer Price`, `Customer Currency`, `Country Code` and `Begin Date` (`MM/DD/YYYY`).
//! Columns are found by name, so Apple adding one breaks nothing.
//!
//! [`attribute`] sums the rows into what Searchdeck stores: per app (an in-app purchase's
//! row goes to its parent app), day, country and product type, the units and the proceeds
//! (units × developer proceeds) in micros of the proceeds' currency.

use std::collections::BTreeMap;
use std::io::Read;

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use time::Date;

use super::AscApp;

/// The report version asked for a DAILY SALES SUMMARY.
pub const VERSION: &str = "1_0";

/// The columns read, in Apple's names.
pub const COLUMNS: [&str; 11] = [
    "Apple Identifier",
    "SKU",
    "Parent Identifier",
    "Product Type Identifier",
    "Units",
    "Developer Proceeds",
    "Currency of Proceeds",
    "Customer Price",
    "Customer Currency",
    "Country Code",
    "Begin Date",
];

/// One line of the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SalesRow {
    pub apple_identifier: i64,
    pub sku: String,
    /// The parent app's SKU of an in-app purchase; empty for an app.
    pub parent_identifier: String,
    pub product_type: String,
    pub units: i64,
    /// Proceeds per unit, in `currency_of_proceeds`.
    pub developer_proceeds: Decimal,
    pub currency_of_proceeds: String,
    pub customer_price: Decimal,
    pub customer_currency: String,
    pub country_code: String,
    pub begin_date: Date,
}

/// Reads a gzip'd report.
pub fn parse(gzipped: &[u8]) -> Result<Vec<SalesRow>, String> {
    let mut text = String::new();
    flate2::read::GzDecoder::new(gzipped)
        .read_to_string(&mut text)
        .map_err(|e| format!("the sales report is not gzip'd text: {e}"))?;
    parse_text(&text)
}

/// Reads a report's text (tab-separated, a header line first).
pub fn parse_text(text: &str) -> Result<Vec<SalesRow>, String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<&str> = lines
        .next()
        .ok_or("the sales report is empty")?
        .split('\t')
        .map(str::trim)
        .collect();
    let at = COLUMNS
        .iter()
        .map(|name| {
            header
                .iter()
                .position(|h| h == name)
                .ok_or_else(|| format!("the sales report has no column {name:?}"))
        })
        .collect::<Result<Vec<usize>, String>>()?;
    let mut rows = Vec::new();
    for (n, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split('\t').map(str::trim).collect();
        let cell = |i: usize| cells.get(at[i]).copied().unwrap_or_default();
        let bad = |what: &str| format!("line {} of the sales report: {what}", n + 2);
        let decimal = |i: usize| -> Result<Decimal, String> {
            let raw = cell(i);
            if raw.is_empty() {
                return Ok(Decimal::ZERO);
            }
            raw.parse().map_err(|_| bad(COLUMNS[i]))
        };
        rows.push(SalesRow {
            apple_identifier: cell(0).parse().map_err(|_| bad(COLUMNS[0]))?,
            sku: cell(1).to_string(),
            parent_identifier: cell(2).to_string(),
            product_type: cell(3).to_string(),
            units: cell(4).parse().map_err(|_| bad(COLUMNS[4]))?,
            developer_proceeds: decimal(5)?,
            currency_of_proceeds: cell(6).to_string(),
            customer_price: decimal(7)?,
            customer_currency: cell(8).to_string(),
            country_code: cell(9).to_string(),
            begin_date: us_date(cell(10)).ok_or_else(|| bad(COLUMNS[10]))?,
        });
    }
    Ok(rows)
}

/// `MM/DD/YYYY`.
fn us_date(raw: &str) -> Option<Date> {
    let mut parts = raw.split('/');
    let month: u8 = parts.next()?.parse().ok()?;
    let day: u8 = parts.next()?.parse().ok()?;
    let year: i32 = parts.next()?.parse().ok()?;
    Date::from_calendar_date(year, time::Month::try_from(month).ok()?, day).ok()
}

/// What one app sold on one day in one country as one product type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sale {
    pub adam_id: i64,
    pub day: Date,
    pub country: String,
    pub product_type: String,
    pub units: i64,
    /// Units × developer proceeds, micros of `currency`.
    pub proceeds_micros: i64,
    pub currency: String,
}

/// A sale's natural key: app, day, country, product type.
type SaleKey = (i64, Date, String, String);

/// The rows of `rows` summed per app (of `apps`), day, country and product type; rows of
/// no app of the key (another team's, an app removed) are left out. Two currencies of
/// proceeds in one key keep the first's and sum only its rows (Apple pays one currency per
/// storefront).
pub fn attribute(rows: &[SalesRow], apps: &[AscApp]) -> Vec<Sale> {
    let by_sku: BTreeMap<&str, i64> = apps.iter().map(|a| (a.sku.as_str(), a.adam_id)).collect();
    let mut sums: BTreeMap<SaleKey, (i64, i64, String)> = BTreeMap::new();
    for r in rows {
        let adam_id = if r.parent_identifier.is_empty() {
            Some(r.apple_identifier).filter(|id| apps.iter().any(|a| a.adam_id == *id))
        } else {
            by_sku.get(r.parent_identifier.as_str()).copied()
        };
        let Some(adam_id) = adam_id else { continue };
        let proceeds = (r.developer_proceeds * Decimal::from(r.units) * Decimal::from(1_000_000))
            .round()
            .to_i64()
            .unwrap_or(0);
        let key = (
            adam_id,
            r.begin_date,
            r.country_code.clone(),
            r.product_type.clone(),
        );
        let sum = sums
            .entry(key)
            .or_insert_with(|| (0, 0, r.currency_of_proceeds.clone()));
        if sum.2 == r.currency_of_proceeds {
            sum.0 += r.units;
            sum.1 += proceeds;
        }
    }
    sums.into_iter()
        .map(
            |((adam_id, day, country, product_type), (units, proceeds_micros, currency))| Sale {
                adam_id,
                day,
                country,
                product_type,
                units,
                proceeds_micros,
                currency,
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "Provider\tProvider Country\tSKU\tDeveloper\tTitle\tVersion\tProduct Type Identifier\tUnits\tDeveloper Proceeds\tBegin Date\tEnd Date\tCustomer Currency\tCountry Code\tCurrency of Proceeds\tApple Identifier\tCustomer Price\tPromo Code\tParent Identifier\tSubscription\tPeriod\n\
APPLE\tUS\tsd-1\tDev\tApp\t1.0\t1F\t12\t0\t11/03/2026\t11/03/2026\tUSD\tUS\tUSD\t1\t0\t\t\t\t\n\
APPLE\tUS\tsd-1.sub\tDev\tPro\t\tIAY\t3\t6.99\t11/03/2026\t11/03/2026\tUSD\tUS\tUSD\t11\t9.99\t\tsd-1\tRenewal\t1 Month\n\
APPLE\tUS\tsd-1.sub\tDev\tPro\t\tIAY\t-1\t6.99\t11/03/2026\t11/03/2026\tUSD\tUS\tUSD\t11\t9.99\t\tsd-1\tRenewal\t1 Month\n\
APPLE\tUS\tother\tDev\tOther\t1.0\t1F\t5\t0\t11/03/2026\t11/03/2026\tUSD\tUS\tUSD\t99\t0\t\t\t\t\n";

    #[test]
    fn rows_are_summed_per_app_and_product_type() {
        let rows = parse_text(REPORT).unwrap();
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[1].begin_date.to_string(), "2026-11-03");
        let apps = [AscApp {
            adam_id: 1,
            name: "App".into(),
            bundle_id: "b".into(),
            sku: "sd-1".into(),
        }];
        let sales = attribute(&rows, &apps);
        assert_eq!(sales.len(), 2, "{sales:?}");
        assert_eq!(
            (
                sales[0].product_type.as_str(),
                sales[0].units,
                sales[0].proceeds_micros
            ),
            ("1F", 12, 0)
        );
        assert_eq!(
            (
                sales[1].product_type.as_str(),
                sales[1].units,
                sales[1].proceeds_micros
            ),
            ("IAY", 2, 13_980_000)
        );
    }

    #[test]
    fn a_report_without_a_needed_column_is_refused() {
        assert!(
            parse_text("Units\tSKU\n1\tx\n")
                .unwrap_err()
                .contains("Apple Identifier")
        );
        assert!(parse(b"not gzip").is_err());
    }
}
