//! The packed form of a day blob: a list of entities with their parents and counters,
//! sorted by entity id, in variable-length integers.
//!
//! ```text
//! blob   := varint(VERSION) zigzag(base) varint(count) entry*
//! entry  := varint(id - previous id) zigzag(campaign - previous campaign)
//!           zigzag(ad group - previous ad group) zigzag(counter) × 11
//! ```
//!
//! `base` is the Julian day the counters are summed from (the day itself for a daily blob,
//! the first stored day for a checkpoint), so a checkpoint says which history it covers.
//! Ids ascend, so their deltas are small and unsigned; an entity's campaign and ad group
//! are mostly its predecessor's, so their deltas are mostly a single zero byte. Counters
//! can be negative (Apple's corrections), hence zigzag. Arithmetic wraps, so every `i64`
//! round-trips.

use super::{Counters, EntitySums, Scope};

/// The format version (the first byte of every blob).
const VERSION: u64 = 1;

/// A blob that does not decode (truncated, or written by another format version).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("corrupt day blob: {0}")]
pub struct Corrupt(&'static str);

impl From<Corrupt> for sqlx::Error {
    fn from(e: Corrupt) -> Self {
        sqlx::Error::Decode(Box::new(e))
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

/// Packs `entries` (sorted by entity id, ascending) with the given base day, leaving out
/// those whose counters are all zero.
pub fn encode(base: i32, entries: &[EntitySums]) -> Vec<u8> {
    let count = entries.iter().filter(|e| !e.counters.is_zero()).count();
    let mut out = Vec::with_capacity(16 + count * 20);
    put_varint(&mut out, VERSION);
    put_varint(&mut out, zigzag(base as i64));
    put_varint(&mut out, count as u64);
    let (mut id, mut campaign, mut group) = (0i64, 0i64, 0i64);
    for e in entries.iter().filter(|e| !e.counters.is_zero()) {
        put_varint(&mut out, e.entity_id.wrapping_sub(id) as u64);
        put_varint(&mut out, zigzag(e.campaign_id.wrapping_sub(campaign)));
        put_varint(&mut out, zigzag(e.ad_group_id.wrapping_sub(group)));
        for &c in &e.counters.0 {
            put_varint(&mut out, zigzag(c));
        }
        (id, campaign, group) = (e.entity_id, e.campaign_id, e.ad_group_id);
    }
    out
}

/// Reads a blob's entries in order without materialising them.
pub struct Decoder<'a> {
    data: &'a [u8],
    at: usize,
    left: u64,
    base: i32,
    last: (i64, i64, i64),
}

impl<'a> Decoder<'a> {
    pub fn new(data: &'a [u8]) -> Result<Self, Corrupt> {
        let mut d = Decoder {
            data,
            at: 0,
            left: 0,
            base: 0,
            last: (0, 0, 0),
        };
        if d.varint()? != VERSION {
            return Err(Corrupt("unknown version"));
        }
        d.base = i32::try_from(unzigzag(d.varint()?)).map_err(|_| Corrupt("base day"))?;
        d.left = d.varint()?;
        Ok(d)
    }

    /// The Julian day the blob's counters are summed from.
    pub fn base(&self) -> i32 {
        self.base
    }

    /// Entries not yet read.
    pub(crate) fn remaining(&self) -> usize {
        self.left as usize
    }

    /// Checks that the blob ended where its last entry did.
    pub fn finish(&self) -> Result<(), Corrupt> {
        if self.left != 0 || self.at != self.data.len() {
            return Err(Corrupt("trailing bytes"));
        }
        Ok(())
    }

    #[inline(always)]
    fn varint(&mut self) -> Result<u64, Corrupt> {
        // One byte is the common case (small deltas and counters).
        if let Some(&b) = self.data.get(self.at)
            && b < 0x80
        {
            self.at += 1;
            return Ok(b as u64);
        }
        let mut v = 0u64;
        let mut shift = 0;
        loop {
            let Some(&b) = self.data.get(self.at) else {
                return Err(Corrupt("truncated"));
            };
            self.at += 1;
            if shift == 63 && b > 1 {
                return Err(Corrupt("varint overflow"));
            }
            v |= ((b & 0x7f) as u64) << shift;
            if b < 0x80 {
                return Ok(v);
            }
            shift += 7;
            if shift > 63 {
                return Err(Corrupt("varint overflow"));
            }
        }
    }

    /// The next entry, or None at the end.
    pub fn next_entry(&mut self) -> Result<Option<EntitySums>, Corrupt> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let id = self.last.0.wrapping_add(self.varint()? as i64);
        let campaign = self.last.1.wrapping_add(unzigzag(self.varint()?));
        let group = self.last.2.wrapping_add(unzigzag(self.varint()?));
        let mut counters = Counters::default();
        for c in &mut counters.0 {
            *c = unzigzag(self.varint()?);
        }
        self.last = (id, campaign, group);
        Ok(Some(EntitySums {
            entity_id: id,
            campaign_id: campaign,
            ad_group_id: group,
            counters,
        }))
    }

    /// Every remaining entry within `scope`.
    pub fn collect(mut self, scope: Scope) -> Result<Vec<EntitySums>, Corrupt> {
        let mut out = Vec::with_capacity(self.remaining());
        while let Some(e) = self.next_entry()? {
            if scope.contains(&e) {
                out.push(e);
            }
        }
        if self.at != self.data.len() {
            return Err(Corrupt("trailing bytes"));
        }
        Ok(out)
    }
}

/// `acc + sign × add`, both sorted by entity id (the result too). An entity's parents are
/// taken from `acc` when it has the entity, else from `add`.
pub fn merge(acc: Vec<EntitySums>, add: &[EntitySums], sign: i64) -> Vec<EntitySums> {
    let apply = |into: &mut Counters, from: &Counters| {
        for (a, b) in into.0.iter_mut().zip(from.0) {
            *a = a.wrapping_add(b.wrapping_mul(sign));
        }
    };
    // The usual case: the same entities on both sides (every keyword every day).
    if acc.len() == add.len() && acc.iter().zip(add).all(|(a, b)| a.entity_id == b.entity_id) {
        let mut acc = acc;
        for (a, b) in acc.iter_mut().zip(add) {
            apply(&mut a.counters, &b.counters);
        }
        return acc;
    }
    let mut out = Vec::with_capacity(acc.len().max(add.len()));
    let mut b = add.iter().peekable();
    for mut a in acc {
        while let Some(x) = b.next_if(|x| x.entity_id < a.entity_id) {
            let mut e = x.clone();
            e.counters = Counters::default();
            apply(&mut e.counters, &x.counters);
            out.push(e);
        }
        if let Some(x) = b.next_if(|x| x.entity_id == a.entity_id) {
            apply(&mut a.counters, &x.counters);
        }
        out.push(a);
    }
    for x in b {
        let mut e = x.clone();
        e.counters = Counters::default();
        apply(&mut e.counters, &x.counters);
        out.push(e);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: i64, c: i64, g: i64, v: i64) -> EntitySums {
        let mut counters = Counters::default();
        for (i, x) in counters.0.iter_mut().enumerate() {
            *x = v * (i as i64 + 1);
        }
        EntitySums {
            entity_id: id,
            campaign_id: c,
            ad_group_id: g,
            counters,
        }
    }

    fn roundtrip(base: i32, entries: &[EntitySums]) -> (i32, Vec<EntitySums>) {
        let blob = encode(base, entries);
        let d = Decoder::new(&blob).unwrap();
        (d.base(), d.collect(Scope::default()).unwrap())
    }

    #[test]
    fn varints_round_trip_at_every_width_and_sign() {
        let mut values = vec![0, 1, -1, 63, -64, 64, 127, 128, 300, i64::MAX, i64::MIN];
        for shift in 0..63 {
            values.push(1 << shift);
            values.push(-(1 << shift));
            values.push((1 << shift) - 1);
        }
        for v in values {
            let mut out = Vec::new();
            put_varint(&mut out, zigzag(v));
            let mut d = Decoder {
                data: &out,
                at: 0,
                left: 0,
                base: 0,
                last: (0, 0, 0),
            };
            assert_eq!(unzigzag(d.varint().unwrap()), v, "{v}");
            assert_eq!(d.at, out.len());
        }
        assert_eq!(zigzag(0), 0);
        assert_eq!(zigzag(-1), 1);
        assert_eq!(zigzag(1), 2);
    }

    #[test]
    fn blobs_round_trip_extreme_ids_parents_and_counters() {
        let entries = vec![
            entry(i64::MIN, i64::MAX, 0, -5),
            entry(-3, 7, -9, 0),
            entry(0, 7, -9, i64::MAX / 11),
            entry(1, 1_000_000_000_001, 2, -1),
            entry(9_007_199_254_740_993, 1, 2, 3),
            entry(i64::MAX, i64::MIN, i64::MAX, i64::MIN / 11),
        ];
        let mut kept = entries.clone();
        kept.remove(1);
        assert_eq!(
            roundtrip(2_461_000, &entries),
            (2_461_000, kept),
            "zeros left out"
        );
        assert_eq!(roundtrip(-7, &[]), (-7, Vec::new()));
    }

    #[test]
    fn neighbours_sharing_parents_pack_small() {
        let entries: Vec<EntitySums> = (0..1_000)
            .map(|i| entry(10_000_000 + i, 555_555_555, 777_777_777, 1))
            .collect();
        let blob = encode(0, &entries);
        // One byte per id delta, parent delta and small counter after the first entry.
        assert!(blob.len() < 1_000 * 15 + 40, "{}", blob.len());
    }

    #[test]
    fn corrupt_blobs_are_errors_not_panics() {
        let blob = encode(3, &[entry(5, 1, 2, 300)]);
        for cut in 0..blob.len() {
            let r = Decoder::new(&blob[..cut]).and_then(|d| d.collect(Scope::default()));
            assert!(r.is_err(), "cut at {cut}");
        }
        let mut extra = blob.clone();
        extra.push(0);
        assert!(
            Decoder::new(&extra)
                .unwrap()
                .collect(Scope::default())
                .is_err()
        );
        assert!(Decoder::new(&[2, 0, 0]).is_err(), "another version");
        assert!(Decoder::new(&[0xff; 12]).is_err(), "overlong varint");
    }

    #[test]
    fn decoding_keeps_only_the_scope() {
        let entries = vec![
            entry(1, 10, 20, 1),
            entry(2, 11, 21, 1),
            entry(3, 10, 22, 1),
        ];
        let blob = encode(0, &entries);
        let scope = Scope {
            campaign_id: Some(10),
            ad_group_id: None,
        };
        let got = Decoder::new(&blob).unwrap().collect(scope).unwrap();
        assert_eq!(got, vec![entries[0].clone(), entries[2].clone()]);
    }

    #[test]
    fn merging_adds_and_subtracts_by_entity() {
        let acc = vec![entry(1, 1, 1, 5), entry(3, 1, 1, 2)];
        let add = vec![entry(2, 1, 1, 1), entry(3, 1, 1, 2), entry(4, 1, 1, 1)];
        let got = merge(acc.clone(), &add, -1);
        assert_eq!(
            got,
            vec![
                entry(1, 1, 1, 5),
                entry(2, 1, 1, -1),
                entry(3, 1, 1, 0),
                entry(4, 1, 1, -1)
            ]
        );
        // Same ids: the fast path.
        let same = merge(acc.clone(), &acc, 1);
        assert_eq!(same, vec![entry(1, 1, 1, 10), entry(3, 1, 1, 4)]);
        assert_eq!(merge(Vec::new(), &add, 1), add);
    }
}
