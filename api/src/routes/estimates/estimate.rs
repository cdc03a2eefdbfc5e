//! The impression estimate (docs/api/suggester.md, "Estimates"): from a campaign group's
//! own keywords over the last days and Apple's search popularity, the daily impressions a
//! keyword may get — its own average where the group bids on it, else the group's curve of
//! impressions by popularity decile. Pure: the route reads the data, this decides.

use std::collections::HashMap;

/// One synced keyword's last 30 days, as the estimate reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct KeywordData {
    /// Normalised text.
    pub text: String,
    /// EXACT or BROAD.
    pub match_type: String,
    /// Its campaign's storefronts (upper case).
    pub countries: Vec<String>,
    /// Impressions over the days read.
    pub impressions: i64,
    /// Apple's search popularity of the text (best of the requested storefronts).
    pub popularity: Option<i64>,
}

/// Median of `values` (not empty).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// The popularity decile (0–9) of a popularity 1–100.
fn decile(popularity: i64) -> usize {
    ((popularity.clamp(1, 100) - 1) / 10) as usize
}

/// Estimated daily impressions of each of `keywords` (normalised) bid on as `match_type`
/// in `countries`, from the campaign group's own keywords `data` over `days` days, and the
/// keywords' popularity `popularity` (by text):
///
/// - a keyword the group bids on with that match type in a requested country, with
///   impressions: its own average daily impressions (all such keywords summed);
/// - otherwise the group's curve: per popularity decile, the median daily impressions of
///   its EXACT keywords with impressions and a known popularity in the requested countries
///   (of all its keywords when no EXACT one has data), read at the keyword's decile or the
///   nearest decile with data; BROAD multiplies it by the group's broad/exact ratio (mean
///   daily impressions of its BROAD keywords with data over its EXACT ones; 1.0 when one
///   side has none);
/// - 0 when the keyword's popularity is unknown or the group has no data.
pub fn estimate(
    keywords: &[String],
    countries: &[String],
    match_type: &str,
    data: &[KeywordData],
    popularity: &HashMap<String, i64>,
    days: i64,
) -> Vec<i64> {
    let days = days.max(1) as f64;
    let in_scope: Vec<&KeywordData> = data
        .iter()
        .filter(|k| k.impressions > 0 && k.countries.iter().any(|c| countries.contains(c)))
        .collect();
    let mean = |kind: &str| {
        let rows: Vec<f64> = in_scope
            .iter()
            .filter(|k| k.match_type == kind)
            .map(|k| k.impressions as f64 / days)
            .collect();
        (!rows.is_empty()).then(|| rows.iter().sum::<f64>() / rows.len() as f64)
    };
    let ratio = match (mean("BROAD"), mean("EXACT")) {
        (Some(b), Some(e)) if e > 0.0 => b / e,
        _ => 1.0,
    };
    let exact_only = in_scope
        .iter()
        .any(|k| k.match_type == "EXACT" && k.popularity.is_some());
    let mut by_decile: [Vec<f64>; 10] = Default::default();
    for k in &in_scope {
        if exact_only && k.match_type != "EXACT" {
            continue;
        }
        if let Some(p) = k.popularity {
            by_decile[decile(p)].push(k.impressions as f64 / days);
        }
    }
    let curve: Vec<Option<f64>> = by_decile
        .iter_mut()
        .map(|v| (!v.is_empty()).then(|| median(v)))
        .collect();
    keywords
        .iter()
        .map(|text| {
            let own: i64 = in_scope
                .iter()
                .filter(|k| &k.text == text && k.match_type == match_type)
                .map(|k| k.impressions)
                .sum();
            if own > 0 {
                return (own as f64 / days).round() as i64;
            }
            let Some(p) = popularity.get(text) else {
                return 0;
            };
            let d = decile(*p) as i64;
            let nearest = (0..10)
                .flat_map(|step| [d - step, d + step])
                .filter(|i| (0..10).contains(i))
                .find_map(|i| curve[i as usize]);
            let Some(daily) = nearest else {
                return 0;
            };
            let factor = if match_type == "BROAD" { ratio } else { 1.0 };
            (daily * factor).round().max(0.0) as i64
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kw(text: &str, kind: &str, impressions: i64, popularity: Option<i64>) -> KeywordData {
        KeywordData {
            text: text.into(),
            match_type: kind.into(),
            countries: vec!["US".into()],
            impressions,
            popularity,
        }
    }

    #[test]
    fn estimates_use_own_data_then_the_popularity_curve() {
        let data = vec![
            kw("photo", "EXACT", 300, Some(55)),
            kw("editor", "EXACT", 900, Some(58)),
            kw("filters", "EXACT", 600, Some(52)),
            kw("camera", "EXACT", 3000, Some(91)),
            kw("photo", "BROAD", 1200, Some(55)),
            kw("elsewhere", "EXACT", 9000, Some(55)),
        ];
        let mut data = data;
        data[5].countries = vec!["FR".into()];
        let pop: HashMap<String, i64> = [
            ("photo".to_string(), 55),
            ("collage".to_string(), 51),
            ("selfie".to_string(), 95),
            ("retro".to_string(), 75),
        ]
        .into();
        let us = vec!["US".to_string()];
        let asked: Vec<String> = ["photo", "collage", "selfie", "retro", "unknown"]
            .map(String::from)
            .into();
        // Own: 300 / 30 = 10. Decile 5 median of 10, 30, 20 = 20; decile 9: 100; 75 is
        // decile 7, nearest with data 5 or 9 (5 first): 20. Unknown popularity: 0.
        assert_eq!(
            estimate(&asked, &us, "EXACT", &data, &pop, 30),
            [10, 20, 100, 20, 0]
        );
        // BROAD: own broad 1200 / 30 = 40; the curve times broad/exact = 40 / 40 = 1.
        assert_eq!(
            estimate(&asked, &us, "BROAD", &data, &pop, 30),
            [40, 20, 100, 20, 0]
        );
        // Another storefront's data does not count; none at all: 0.
        assert_eq!(
            estimate(&asked, &["DE".to_string()], "EXACT", &data, &pop, 30),
            [0, 0, 0, 0, 0]
        );
        // France: only `elsewhere` (decile 5, 300 a day).
        assert_eq!(
            estimate(&asked, &["FR".to_string()], "EXACT", &data, &pop, 30),
            [300, 300, 300, 300, 0]
        );
    }
}
