//! Report dimensions (`groupBy`) and hours: how a keyword-day's traffic divides among
//! storefronts, device classes, genders, age ranges and the hours of the day.

use crate::world::words::country_weight;
use time::Date;

use crate::world::{AdGroup, Campaign};

/// A `groupBy` value the sandbox simulates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dim {
    CountryOrRegion,
    CountryCode,
    DeviceClass,
    Gender,
    AgeRange,
}

/// Every `groupBy` value the reference lists, simulated or not.
pub const REFERENCE_GROUP_BY: &[&str] = &[
    "deviceClass",
    "ageRange",
    "gender",
    "countryCode",
    "adminArea",
    "locality",
    "countryOrRegion",
];

const GENDERS: &[(&str, f64)] = &[("F", 0.47), ("M", 0.53)];
const AGES: &[(&str, f64)] = &[
    ("18-24", 0.21),
    ("25-34", 0.29),
    ("35-44", 0.21),
    ("45-54", 0.14),
    ("55-64", 0.1),
    ("65+", 0.05),
];

impl Dim {
    /// Parses a wire name; `None` for names the sandbox does not simulate.
    pub fn parse(s: &str) -> Option<Dim> {
        Some(match s {
            "countryOrRegion" => Dim::CountryOrRegion,
            "countryCode" => Dim::CountryCode,
            "deviceClass" => Dim::DeviceClass,
            "gender" => Dim::Gender,
            "ageRange" => Dim::AgeRange,
            _ => return None,
        })
    }

    /// The wire name (also the metadata field of the value).
    pub fn name(self) -> &'static str {
        match self {
            Dim::CountryOrRegion => "countryOrRegion",
            Dim::CountryCode => "countryCode",
            Dim::DeviceClass => "deviceClass",
            Dim::Gender => "gender",
            Dim::AgeRange => "ageRange",
        }
    }

    /// The most values this dimension has for any ad group.
    pub fn max_values(self) -> usize {
        match self {
            Dim::CountryOrRegion | Dim::CountryCode => crate::world::words::COUNTRIES.len(),
            Dim::DeviceClass => 2,
            Dim::Gender => GENDERS.len(),
            Dim::AgeRange => AGES.len(),
        }
    }

    /// A value as a number that names it in every campaign and ad group.
    pub fn code(self, value: &str) -> u16 {
        match self {
            Dim::CountryOrRegion | Dim::CountryCode => {
                let b = value.as_bytes();
                (u16::from(*b.first().unwrap_or(&b'?')) << 8)
                    | u16::from(*b.get(1).unwrap_or(&b'?'))
            }
            Dim::DeviceClass => u16::from(value == "IPAD"),
            Dim::Gender => position(GENDERS, value),
            Dim::AgeRange => position(AGES, value),
        }
    }

    /// The value a [`Dim::code`] names.
    pub fn decode(self, code: u16) -> String {
        match self {
            Dim::CountryOrRegion | Dim::CountryCode => {
                String::from_utf8_lossy(&[(code >> 8) as u8, (code & 0xff) as u8]).into_owned()
            }
            Dim::DeviceClass => if code == 1 { "IPAD" } else { "IPHONE" }.to_string(),
            Dim::Gender => GENDERS[usize::from(code) % GENDERS.len()].0.to_string(),
            Dim::AgeRange => AGES[usize::from(code) % AGES.len()].0.to_string(),
        }
    }

    /// The values of this dimension for a keyword of `group` in `campaign` on `day` (the
    /// countries and device classes in effect that day), with weights.
    pub fn values(self, campaign: &Campaign, group: &AdGroup, day: Date) -> Vec<(String, f64)> {
        match self {
            Dim::CountryOrRegion | Dim::CountryCode => campaign
                .countries_on(day)
                .iter()
                .map(|c| (c.clone(), country_weight(c)))
                .collect(),
            Dim::DeviceClass => group
                .settings_on(day)
                .2
                .iter()
                .map(|d| (d.to_string(), if *d == "IPAD" { 0.2 } else { 0.8 }))
                .collect(),
            Dim::Gender => owned(GENDERS),
            Dim::AgeRange => owned(AGES),
        }
    }
}

fn position(table: &[(&str, f64)], value: &str) -> u16 {
    table.iter().position(|(v, _)| *v == value).unwrap_or(0) as u16
}

fn owned(table: &[(&str, f64)]) -> Vec<(String, f64)> {
    table.iter().map(|(v, w)| (v.to_string(), *w)).collect()
}

/// Share of a day's searches in each hour (UTC): quiet nights, busy evenings.
pub fn hour_weights() -> [f64; 24] {
    let mut w = [0.0; 24];
    for (h, slot) in w.iter_mut().enumerate() {
        let x = (h as f64 - 20.0) / 24.0 * std::f64::consts::TAU;
        *slot = 1.0 + 0.75 * x.cos();
    }
    w
}
