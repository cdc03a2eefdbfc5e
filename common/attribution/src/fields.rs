//! The values every adapter reads, parsed one way whatever the provider: ids, amounts,
//! currencies, countries, times and the Apple Ads claim and conversion types. Each reader
//! takes the field's name in the provider's own terms (`iad_campaign_id`, `event.price`) and
//! records a [`FieldError`] under it when the value is malformed, so one postback lists all
//! its problems at once.
//!
//! A value that is empty, or a macro the provider did not fill and sent literally
//! (`{iad_keyword_id}`, `${(name)!}`, `%7Biad_keyword_id%7D` once decoded), is absent.

use std::{borrow::Cow, str::FromStr};

use rust_decimal::{Decimal, RoundingStrategy};
use searchdeck_model::{
    FieldError,
    attribution::{ClaimType, ConversionType},
    money::{self, MAX_AMOUNT, currency},
};
use serde_json::Value;
use time::{OffsetDateTime, PrimitiveDateTime, format_description::well_known::Rfc3339, macros};

/// The field errors found so far in one postback.
#[derive(Debug, Default)]
pub(crate) struct Errors(pub(crate) Vec<FieldError>);

/// `raw` unless it is empty or an unfilled macro.
pub(crate) fn present(raw: Option<&str>) -> Option<&str> {
    let v = raw?.trim();
    let unfilled = (v.starts_with('{') && v.ends_with('}'))
        || (v.starts_with("${") && v.ends_with('}'))
        || v.eq_ignore_ascii_case("null");
    (!v.is_empty() && !unfilled).then_some(v)
}

/// The text of a JSON value (a string as is, a number or a boolean written out), if any.
pub(crate) fn text(value: Option<&Value>) -> Option<Cow<'_, str>> {
    match value? {
        Value::String(s) => Some(Cow::Borrowed(s.as_str())),
        Value::Number(n) => Some(Cow::Owned(n.to_string())),
        Value::Bool(b) => Some(Cow::Owned(b.to_string())),
        _ => None,
    }
}

/// Whether a media source or network name is Apple Ads (Apple Search Ads, iOS Search Ads,
/// Apple Ads, in any case and spacing).
pub(crate) fn is_apple_ads(source: &str) -> bool {
    let s: String = source
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase();
    matches!(
        s.as_str(),
        "applesearchads" | "iossearchads" | "appleads" | "searchads" | "applesearch" | "asa"
    )
}

impl Errors {
    pub(crate) fn push(&mut self, field: &str, message: impl Into<String>) {
        self.0.push(FieldError::new(field, message));
    }

    /// An Apple Ads id (a positive integer). Adjust's `-1` (the default product page's ad)
    /// means none.
    pub(crate) fn id(&mut self, field: &str, raw: Option<&str>) -> Option<i64> {
        let v = present(raw)?;
        if v == "-1" {
            return None;
        }
        match v.parse::<i64>() {
            Ok(n) if n > 0 => Some(n),
            _ => {
                self.push(field, "must be a positive whole number");
                None
            }
        }
    }

    /// An App Store id, with or without AppsFlyer's `id` prefix (`id123456789`).
    pub(crate) fn adam_id(&mut self, field: &str, raw: Option<&str>) -> Option<i64> {
        let v = present(raw)?;
        let digits = v.strip_prefix("id").unwrap_or(v);
        self.id(field, Some(digits))
    }

    /// An amount of money as a decimal (`4.99`, `-4.99`, `1e-2`), exactly.
    pub(crate) fn amount(&mut self, field: &str, raw: Option<&str>) -> Option<Decimal> {
        let v = present(raw)?;
        match Decimal::from_str(v).or_else(|_| Decimal::from_scientific(v)) {
            Ok(d) if d.abs() <= Decimal::from(MAX_AMOUNT) => Some(d),
            Ok(_) => {
                self.push(field, format!("must be at most {MAX_AMOUNT} in size"));
                None
            }
            Err(_) => {
                self.push(field, "must be a decimal amount");
                None
            }
        }
    }

    /// An ISO 4217 code known to the currency table, upper case.
    pub(crate) fn currency(&mut self, field: &str, raw: Option<&str>) -> Option<String> {
        let v = present(raw)?;
        if currency::of(v).is_some() {
            Some(v.to_ascii_uppercase())
        } else {
            self.push(field, "must be an ISO 4217 currency code");
            None
        }
    }

    /// Revenue in micros of its currency; the amount's sign is kept (a refund is negative).
    /// An amount without its currency is refused on `currency_field`.
    pub(crate) fn revenue(
        &mut self,
        (amount_field, amount): (&str, Option<&str>),
        (currency_field, code): (&str, Option<&str>),
    ) -> Option<searchdeck_model::attribution::Revenue> {
        let amount = self.amount(amount_field, amount);
        let code = self.currency(currency_field, code);
        let amount = amount?;
        let Some(currency) = code else {
            if self.0.iter().all(|e| e.field != currency_field) {
                self.push(currency_field, "is required with an amount");
            }
            return None;
        };
        let micros =
            money::micros(amount.round_dp_with_strategy(6, RoundingStrategy::MidpointNearestEven))?;
        Some(searchdeck_model::attribution::Revenue { micros, currency })
    }

    /// An ISO 3166-1 alpha-2 code, upper case.
    pub(crate) fn country(&mut self, field: &str, raw: Option<&str>) -> Option<String> {
        let v = present(raw)?;
        if v.len() == 2 && v.chars().all(|c| c.is_ascii_alphabetic()) {
            Some(v.to_ascii_uppercase())
        } else {
            self.push(field, "must be a two-letter country or region code");
            None
        }
    }

    /// A time: RFC 3339, Unix seconds or milliseconds, or a UTC `2026-01-01 12:00:00.000`.
    pub(crate) fn time(&mut self, field: &str, raw: Option<&str>) -> Option<OffsetDateTime> {
        let v = present(raw)?;
        let parsed = parse_time(v);
        if parsed.is_none() {
            self.push(field, "must be a date and time");
        }
        parsed
    }

    /// AdServices `claimType` in the provider's spelling.
    pub(crate) fn claim_type(&mut self, field: &str, raw: Option<&str>) -> Option<ClaimType> {
        let v = present(raw)?;
        let parsed = ClaimType::parse(v);
        if parsed.is_none() {
            self.push(field, "must be Click or Impression");
        }
        parsed
    }

    /// AdServices `conversionType` in the provider's spelling.
    pub(crate) fn conversion_type(
        &mut self,
        field: &str,
        raw: Option<&str>,
    ) -> Option<ConversionType> {
        let v = present(raw)?;
        let parsed = ConversionType::parse(v);
        if parsed.is_none() {
            self.push(field, "must be Download, Redownload or PreOrder");
        }
        parsed
    }
}

fn parse_time(v: &str) -> Option<OffsetDateTime> {
    if v.bytes().all(|b| b.is_ascii_digit()) {
        let n: i64 = v.parse().ok()?;
        // Ten digits or fewer are seconds (until 2286); more are milliseconds.
        return if v.len() <= 10 {
            OffsetDateTime::from_unix_timestamp(n).ok()
        } else {
            OffsetDateTime::from_unix_timestamp_nanos(i128::from(n) * 1_000_000).ok()
        };
    }
    if let Ok(t) = OffsetDateTime::parse(v, &Rfc3339) {
        return Some(t);
    }
    let with_fraction =
        macros::format_description!("[year]-[month]-[day] [hour]:[minute]:[second].[subsecond]");
    let whole = macros::format_description!("[year]-[month]-[day] [hour]:[minute]:[second]");
    PrimitiveDateTime::parse(v, with_fraction)
        .or_else(|_| PrimitiveDateTime::parse(v, whole))
        .ok()
        .map(PrimitiveDateTime::assume_utc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unfilled_macros_and_empty_values_are_absent() {
        for raw in ["", " ", "{iad_keyword_id}", "${(name)!}", "null"] {
            assert_eq!(present(Some(raw)), None, "{raw:?}");
        }
        assert_eq!(present(Some(" 42 ")), Some("42"));
    }

    #[test]
    fn times_read_every_documented_format() {
        let t = |s| parse_time(s).map(OffsetDateTime::unix_timestamp);
        assert_eq!(t("1658726378"), Some(1_658_726_378));
        assert_eq!(t("1658726378679"), Some(1_658_726_378));
        assert_eq!(t("2022-07-25T05:19:38Z"), Some(1_658_726_378));
        assert_eq!(t("2022-07-25 05:19:38.679"), Some(1_658_726_378));
        assert_eq!(t("2022-07-25 05:19:38"), Some(1_658_726_378));
        assert_eq!(t("yesterday"), None);
    }

    #[test]
    fn revenue_is_exact_and_keeps_its_sign() {
        let mut e = Errors::default();
        let r = e.revenue(("a", Some("-4.99")), ("c", Some("usd")));
        assert_eq!(
            r.map(|r| (r.micros, r.currency)),
            Some((-4_990_000, "USD".into()))
        );
        let r = e.revenue(("a", Some("0.1")), ("c", Some("EUR")));
        assert_eq!(r.map(|r| r.micros), Some(100_000));
        assert!(e.0.is_empty());
        let refused = |amount, code| {
            let mut e = Errors::default();
            assert!(e.revenue(("a", amount), ("c", code)).is_none());
            e.0.into_iter().map(|e| e.field).collect::<Vec<_>>()
        };
        assert_eq!(refused(Some("1"), Some("XYZ")), ["c"]);
        assert_eq!(refused(Some("1"), None), ["c"]);
        assert_eq!(refused(Some("abc"), Some("USD")), ["a"]);
    }

    #[test]
    fn apple_ads_spellings() {
        for s in [
            "Apple Search Ads",
            "iOS Search Ads",
            "apple_search_ads",
            "Apple Ads",
        ] {
            assert!(is_apple_ads(s), "{s}");
        }
        assert!(!is_apple_ads("Facebook Ads"));
        assert!(!is_apple_ads("googleadwords_int"));
    }
}
