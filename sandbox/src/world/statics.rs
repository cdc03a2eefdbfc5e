//! Serde for the world's `&'static str` fields (device classes, change-history kinds):
//! known values map back to their constants; anything else is interned once.

use std::collections::HashSet;
use std::sync::{LazyLock, Mutex};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A `&'static str` field (an alias, so serde does not take it for a borrowed one).
pub type Name = &'static str;

const KNOWN: &[&str] = &[
    "IPHONE",
    "IPAD",
    "CREATE",
    "UPDATE",
    "DELETE",
    "Campaign",
    "AdGroup",
    "Keyword",
    "NegativeKeyword",
    "Ad",
    "Creative",
];

static INTERNED: LazyLock<Mutex<HashSet<&'static str>>> = LazyLock::new(Default::default);

/// The `'static` form of `s`.
pub fn intern(s: &str) -> &'static str {
    if let Some(k) = KNOWN.iter().find(|k| **k == s) {
        return k;
    }
    let mut set = INTERNED.lock().expect("intern table");
    if let Some(k) = set.get(s) {
        return k;
    }
    let leaked: &'static str = Box::leak(s.to_string().into_boxed_str());
    set.insert(leaked);
    leaked
}

/// `#[serde(with = "statics::one")]` for a `&'static str`.
pub mod one {
    use super::*;

    pub fn serialize<S: Serializer>(v: &&'static str, s: S) -> Result<S::Ok, S::Error> {
        v.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
        Ok(intern(&String::deserialize(d)?))
    }
}

/// `#[serde(with = "statics::list")]` for a `Vec<&'static str>`.
pub mod list {
    use super::*;

    pub fn serialize<S: Serializer>(v: &[&'static str], s: S) -> Result<S::Ok, S::Error> {
        v.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<&'static str>, D::Error> {
        Ok(Vec::<String>::deserialize(d)?
            .iter()
            .map(|s| intern(s))
            .collect())
    }
}
