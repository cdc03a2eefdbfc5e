//! In-process caches of report inputs, one set per process (`engines::Engines::reports`,
//! beside the [`Db`](crate::Db) handle), so one API process answers repeated reports of a
//! large campaign group without rereading and redecoding the same rows:
//!
//! - the **row universe** of a level and scope (every entity id with its parents and deleted
//!   flag), valid while `sync_orgs.entities_version` of the group is unchanged: every writer
//!   of synced entities sets it anew ([`crate::store::synced::entities_changed`]), in the
//!   same transaction as its write, so another process's write is seen on the next report;
//! - the **rule attributes** of a level (every non-deleted campaign, ad group or keyword with
//!   its name or text, status, match type and own money: what automated rules read besides
//!   metrics), valid while the same `entities_version` is unchanged: the edits written back
//!   after Apple accepted a change set it too (`store::synced::edits`);
//! - **decoded day blobs** (ids and counters in the compact columnar form of
//!   [`super::decoded`]), valid while the blob's `stamp` is unchanged: every blob is written
//!   with a fresh random stamp, read in the same row as its bytes.
//!
//! A version or stamp of 0 (rows written before these columns existed, or by a writer that
//! does not stamp) is never cached. Both caches share one bound in bytes,
//! [`CACHE_BYTES`]; past it the least recently used entries go first.

use std::{
    collections::HashMap,
    hash::Hash,
    sync::{Arc, Mutex},
};

pub use super::decoded::DecodedBlob;
use crate::store::report_entities::{self, EntityKind, EntityScope};

/// The most bytes one set of caches holds (entries are weighed by the
/// memory of their vectors). A decoded daily blob of 100,000 keywords weighs about 4 MB, a
/// checkpoint 4.4 MB, a universe of 100,000 entities 2.5 MB: a year of a 100,000-keyword
/// campaign group's reports read some 20 to 30 blobs.
pub const CACHE_BYTES: usize = 256 << 20;

/// Every entity of a level in a scope, by ascending id: the rows a report can show.
#[derive(Debug, Default, Clone)]
pub struct Universe {
    pub ids: Vec<i64>,
    pub campaign_ids: Vec<i64>,
    pub ad_group_ids: Vec<i64>,
    pub deleted: Vec<bool>,
    /// Campaigns hidden from the tables (`asa/campaigns/mark-hidden`); false at other levels.
    pub hidden: Vec<bool>,
}

impl Universe {
    fn bytes(&self) -> usize {
        self.ids.capacity() * 24 + self.deleted.capacity() + self.hidden.capacity() + 64
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// The key of a blob: (org_key, level, kind, Julian day).
pub type BlobKey = (i64, i64, i64, i32);

/// The key of a universe: (org_key, entity kind, campaign scope, ad group scope).
pub type UniverseKey = (i64, u8, Option<i64>, Option<i64>);

/// The key of a level's rule attributes: (org_key, entity kind).
pub type AttributesKey = (i64, u8);

/// The rule attributes of a level, by ascending id.
pub type Attributes = Vec<crate::store::report_entities::RuleEntity>;

fn attributes_bytes(a: &Attributes) -> usize {
    let text = |s: &Option<String>| s.as_ref().map_or(0, String::capacity);
    a.capacity() * std::mem::size_of::<crate::store::report_entities::RuleEntity>()
        + a.iter()
            .map(|e| e.name.capacity() + text(&e.status) + text(&e.match_type))
            .sum::<usize>()
        + 64
}

#[derive(Debug)]
enum Value {
    Blob(Arc<DecodedBlob>),
    Universe(Arc<Universe>),
    Attributes(Arc<Attributes>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    Blob(BlobKey),
    Universe(UniverseKey),
    Attributes(AttributesKey),
}

#[derive(Debug)]
struct Entry {
    /// The stamp or version the value was read with.
    stamp: i64,
    value: Value,
    bytes: usize,
    used: u64,
}

#[derive(Debug, Default)]
struct Inner {
    entries: HashMap<Key, Entry>,
    bytes: usize,
    tick: u64,
}

/// One process's report caches (`engines::Engines::reports`; cheap to clone: shared).
#[derive(Debug, Clone)]
pub struct Caches {
    inner: Arc<Mutex<Inner>>,
    limit: usize,
}

impl Default for Caches {
    fn default() -> Self {
        Caches::with_limit(CACHE_BYTES)
    }
}

impl Caches {
    /// Caches holding at most `limit` bytes.
    pub fn with_limit(limit: usize) -> Caches {
        Caches {
            inner: Arc::default(),
            limit,
        }
    }

    fn get(&self, key: Key, stamp: i64) -> Option<Value> {
        if stamp == 0 {
            return None;
        }
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.tick += 1;
        let tick = inner.tick;
        let e = inner.entries.get_mut(&key)?;
        if e.stamp != stamp {
            return None;
        }
        e.used = tick;
        Some(match &e.value {
            Value::Blob(b) => Value::Blob(b.clone()),
            Value::Universe(u) => Value::Universe(u.clone()),
            Value::Attributes(a) => Value::Attributes(a.clone()),
        })
    }

    fn put(&self, key: Key, stamp: i64, value: Value, bytes: usize) {
        if stamp == 0 || bytes > self.limit {
            return;
        }
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.tick += 1;
        let used = inner.tick;
        if let Some(old) = inner.entries.insert(
            key,
            Entry {
                stamp,
                value,
                bytes,
                used,
            },
        ) {
            inner.bytes -= old.bytes;
        }
        inner.bytes += bytes;
        while inner.bytes > self.limit {
            let Some((&oldest, _)) = inner.entries.iter().min_by_key(|(_, e)| e.used) else {
                break;
            };
            if let Some(e) = inner.entries.remove(&oldest) {
                inner.bytes -= e.bytes;
            }
        }
    }

    /// The decoded blob `key` if cached with `stamp`.
    pub fn blob(&self, key: BlobKey, stamp: i64) -> Option<Arc<DecodedBlob>> {
        match self.get(Key::Blob(key), stamp)? {
            Value::Blob(b) => Some(b),
            _ => None,
        }
    }

    /// Keeps decoded blob `key` read with `stamp`.
    pub fn put_blob(&self, key: BlobKey, stamp: i64, blob: Arc<DecodedBlob>) {
        let bytes = blob.bytes();
        self.put(Key::Blob(key), stamp, Value::Blob(blob), bytes);
    }

    /// The universe `key` if cached under entities version `version`.
    pub fn universe(&self, key: UniverseKey, version: i64) -> Option<Arc<Universe>> {
        match self.get(Key::Universe(key), version)? {
            Value::Universe(u) => Some(u),
            _ => None,
        }
    }

    /// Keeps universe `key` read under entities version `version`.
    pub fn put_universe(&self, key: UniverseKey, version: i64, universe: Arc<Universe>) {
        let bytes = universe.bytes();
        self.put(
            Key::Universe(key),
            version,
            Value::Universe(universe),
            bytes,
        );
    }

    /// The rule attributes `key` if cached under entities version `version`.
    pub fn attributes(&self, key: AttributesKey, version: i64) -> Option<Arc<Attributes>> {
        match self.get(Key::Attributes(key), version)? {
            Value::Attributes(a) => Some(a),
            _ => None,
        }
    }

    /// Keeps the rule attributes `key` read under entities version `version`.
    pub fn put_attributes(&self, key: AttributesKey, version: i64, attributes: Arc<Attributes>) {
        let bytes = attributes_bytes(&attributes);
        self.put(
            Key::Attributes(key),
            version,
            Value::Attributes(attributes),
            bytes,
        );
    }

    /// Bytes held now.
    pub fn bytes(&self) -> usize {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).bytes
    }
}

pub use super::super::new_stamp;

/// The row universe of `kind` in `org_key` and `scope` ([`report_entities::ids`] as columns), from the
/// `caches` while the group's `entities_version` is unchanged (one indexed
/// read per call), else read and kept.
pub async fn universe(
    db: &crate::Db,
    caches: &Caches,
    kind: EntityKind,
    org_key: i64,
    scope: EntityScope,
) -> Result<std::sync::Arc<Universe>, sqlx::Error> {
    // The version first: a write committed after it makes the next call read again.
    let version = crate::store::synced::entities_version(db, org_key).await?;
    let key = (org_key, kind as u8, scope.campaign_id, scope.ad_group_id);
    if let Some(u) = caches.universe(key, version) {
        return Ok(u);
    }
    let rows = report_entities::ids(db, kind, org_key, scope).await?;
    let mut u = Universe {
        ids: Vec::with_capacity(rows.len()),
        campaign_ids: Vec::with_capacity(rows.len()),
        ad_group_ids: Vec::with_capacity(rows.len()),
        deleted: Vec::with_capacity(rows.len()),
        hidden: Vec::with_capacity(rows.len()),
    };
    for r in rows {
        u.ids.push(r.id);
        u.campaign_ids.push(r.campaign_id);
        u.ad_group_ids.push(r.ad_group_id);
        u.deleted.push(r.deleted);
        u.hidden.push(r.hidden);
    }
    let u = std::sync::Arc::new(u);
    caches.put_universe(key, version, u.clone());
    Ok(u)
}

/// Every non-deleted campaign, ad group or keyword of `org_key` with what rules read of it
/// ([`report_entities::rule_entities`] of the whole group), from `caches` while the
/// group's `entities_version` is unchanged — every writer of these rows sets it anew, the
/// sync and the edits written back after Apple accepted a change alike
/// (`store::synced::edits`) —, else read and kept. None for other kinds (search terms are
/// too many to keep: [`report_entities::rule_entities`] reads the campaigns a rule names).
pub async fn rule_attributes(
    db: &crate::Db,
    caches: &Caches,
    kind: EntityKind,
    org_key: i64,
) -> Result<Option<std::sync::Arc<Attributes>>, sqlx::Error> {
    if !matches!(
        kind,
        EntityKind::Campaign | EntityKind::AdGroup | EntityKind::Keyword
    ) {
        return Ok(None);
    }
    // The version first: a write committed after it makes the next call read again.
    let version = crate::store::synced::entities_version(db, org_key).await?;
    let key = (org_key, kind as u8);
    if let Some(a) = caches.attributes(key, version) {
        return Ok(Some(a));
    }
    let a = std::sync::Arc::new(report_entities::rule_entities(db, kind, org_key, None).await?);
    caches.put_attributes(key, version, a.clone());
    Ok(Some(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blob(n: usize) -> Arc<DecodedBlob> {
        let entries: Vec<super::super::EntitySums> = (0..n as i64)
            .map(|id| super::super::EntitySums {
                entity_id: id,
                campaign_id: 1,
                ad_group_id: 2,
                counters: super::super::Counters([id + 1; 11]),
            })
            .collect();
        Arc::new(DecodedBlob::decode(&super::super::codec::encode(0, &entries)).unwrap())
    }

    #[test]
    fn a_changed_stamp_misses_and_zero_is_never_cached() {
        let c = Caches::default();
        c.put_blob((1, 3, 1, 10), 7, blob(3));
        assert!(c.blob((1, 3, 1, 10), 7).is_some());
        assert!(c.blob((1, 3, 1, 10), 8).is_none());
        assert!(c.blob((2, 3, 1, 10), 7).is_none());
        c.put_blob((1, 3, 1, 11), 0, blob(3));
        assert!(c.blob((1, 3, 1, 11), 0).is_none());
        c.put_universe((1, 2, None, None), 5, Arc::new(Universe::default()));
        assert!(c.universe((1, 2, None, None), 5).is_some());
        assert!(c.universe((1, 2, None, None), 6).is_none());
        assert!(c.universe((1, 2, Some(1), None), 5).is_none());
        let attributes = Arc::new(vec![crate::store::report_entities::RuleEntity {
            id: 7,
            campaign_id: 1,
            ad_group_id: 2,
            name: "photo editor".into(),
            status: Some("ACTIVE".into()),
            match_type: Some("EXACT".into()),
            money_micros: Some(1_000_000),
        }]);
        c.put_attributes((1, 2), 5, attributes.clone());
        assert_eq!(c.attributes((1, 2), 5).as_deref(), Some(&*attributes));
        assert!(c.attributes((1, 2), 6).is_none(), "another version");
        assert!(c.attributes((1, 3), 5).is_none(), "another level");
        assert!(
            c.universe((1, 2, None, None), 5).is_some(),
            "apart from the universe"
        );
        c.put_attributes((1, 4), 0, attributes);
        assert!(c.attributes((1, 4), 0).is_none());
    }

    #[test]
    fn the_bound_evicts_the_least_recently_used() {
        let one = blob(1_000).bytes();
        let c = Caches::with_limit(one * 3);
        for day in 0..3 {
            c.put_blob((1, 3, 1, day), 1, blob(1_000));
        }
        assert!(c.blob((1, 3, 1, 0), 1).is_some(), "day 0 used again");
        c.put_blob((1, 3, 1, 3), 1, blob(1_000));
        assert!(c.bytes() <= one * 3);
        assert!(c.blob((1, 3, 1, 0), 1).is_some());
        assert!(
            c.blob((1, 3, 1, 1), 1).is_none(),
            "the least recently used went"
        );
        assert!(c.blob((1, 3, 1, 3), 1).is_some());
        // Replacing an entry does not count it twice.
        c.put_blob((1, 3, 1, 3), 2, blob(1_000));
        assert!(c.bytes() <= one * 3);
    }
}
