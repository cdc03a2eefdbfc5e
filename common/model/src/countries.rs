//! The App Store countries and regions Apple Ads serves (docs/product.md#7-the-calls-it-makes
//! `country/*`), with their App Store locales and languages: one data file,
//! `common/data/countries.json`, read once.
//!
//! The list is Apple Ads' served storefronts (ISO 3166-1 alpha-2 codes, as the provider's
//! `countriesOrRegions` takes them). Storefronts Apple Ads does not serve (for example
//! China mainland and Russia) are not in it.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

/// A country or region Apple Ads serves.
#[derive(Debug, Clone, Deserialize, Serialize, utoipa::ToSchema)]
pub struct Country {
    /// ISO 3166-1 alpha-2 code, upper case.
    pub code: String,
    /// English name.
    pub name: String,
    /// App Store locales of the storefront (`language_REGION`), the main one first.
    pub locales: Vec<String>,
    /// ISO 639 codes of the storefront's languages, the main one first.
    pub languages: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct Data {
    countries: Vec<Country>,
    languages: std::collections::BTreeMap<String, String>,
}

static DATA: LazyLock<Data> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../data/countries.json"))
        .expect("common/data/countries.json is valid")
});

/// Every served country or region, by code.
pub fn all() -> &'static [Country] {
    &DATA.countries
}

/// The country or region of `code` (any case).
pub fn find(code: &str) -> Option<&'static Country> {
    DATA.countries
        .iter()
        .find(|c| c.code.eq_ignore_ascii_case(code))
}

/// The English name of language `code` (ISO 639).
pub fn language_name(code: &str) -> Option<&'static str> {
    DATA.languages.get(code).map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_file_is_consistent() {
        let all = all();
        assert!(all.len() > 100, "{}", all.len());
        let mut codes: Vec<&str> = all.iter().map(|c| c.code.as_str()).collect();
        let sorted = {
            let mut s = codes.clone();
            s.sort_unstable();
            s
        };
        assert_eq!(codes, sorted, "sorted by code");
        codes.dedup();
        assert_eq!(codes.len(), all.len(), "codes are unique");
        for c in all {
            assert!(
                c.code.len() == 2 && c.code.chars().all(|ch| ch.is_ascii_uppercase()),
                "{c:?}"
            );
            assert!(!c.name.is_empty() && !c.locales.is_empty(), "{c:?}");
            let mut langs: Vec<String> = Vec::new();
            for locale in &c.locales {
                let (lang, region) = locale.split_once('_').expect("language_REGION");
                assert_eq!(region, c.code, "{locale} belongs to {}", c.code);
                if !langs.iter().any(|l| l == lang) {
                    langs.push(lang.to_string());
                }
            }
            assert_eq!(
                langs, c.languages,
                "languages follow the locales of {}",
                c.code
            );
            for l in &c.languages {
                assert!(language_name(l).is_some(), "{l} has a name");
            }
        }
        // The sandbox world's storefronts are all served.
        for code in ["US", "GB", "DE", "JP", "FR", "CA", "AU", "MX"] {
            assert!(find(code).is_some(), "{code}");
        }
        assert_eq!(find("us").map(|c| c.name.as_str()), Some("United States"));
        assert!(find("CN").is_none() && find("RU").is_none());
    }
}
