//! The decoded form of a day blob that the report caches keep and reports sum: columnar and
//! as narrow as the values allow, so that a year of blobs of a 100,000-keyword campaign group
//! fits the cache and summing one is a few straight passes over small arrays.
//!
//! - ids: ascending, as `u32` offsets from the smallest id when the blob's ids span less than
//!   2³² (Apple's ids of one campaign group do), else as `i64`;
//! - each of the 11 counters a column of its own: absent when zero for every entity (pre-
//!   orders, mostly), `u32` when every value is in `0..=u32::MAX` (a day's counters, most
//!   running sums), else `i64` (a year of spend in micros, Apple's negative corrections).
//!
//! A decoded daily blob of 100,000 keywords with 9 non-zero counters weighs 4.0 MB (the
//! entity-by-entity form with `i64` ids and counters weighed 9.6 MB).
//!
//! [`Sums`] adds signed blobs up by position in a report's row universe. A blob holding
//! exactly the universe's ids (every keyword had metrics that day, or ever, for a
//! checkpoint) is added column by column without looking at its ids; any other is matched
//! to the universe by id once and then scattered.

use super::{COUNTER_COLUMNS, Counters, codec};

const COUNTERS: usize = COUNTER_COLUMNS.len();

/// A blob's entity ids, ascending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ids {
    /// `base + offset` each.
    Offsets {
        base: i64,
        offsets: Vec<u32>,
    },
    Full(Vec<i64>),
}

impl Ids {
    fn from_sorted(ids: Vec<i64>) -> Ids {
        match (ids.first(), ids.last()) {
            (Some(&lo), Some(&hi)) if (hi as i128 - lo as i128) <= u32::MAX as i128 => {
                Ids::Offsets {
                    base: lo,
                    offsets: ids.iter().map(|&id| id.wrapping_sub(lo) as u32).collect(),
                }
            }
            _ => Ids::Full(ids),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Ids::Offsets { offsets, .. } => offsets.len(),
            Ids::Full(ids) => ids.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The id at `i`.
    pub fn get(&self, i: usize) -> i64 {
        match self {
            Ids::Offsets { base, offsets } => base.wrapping_add(offsets[i] as i64),
            Ids::Full(ids) => ids[i],
        }
    }

    /// Whether these are exactly `ids` (same ids, same order).
    pub fn same_as(&self, ids: &[i64]) -> bool {
        match self {
            Ids::Offsets { base, offsets } => {
                offsets.len() == ids.len()
                    && offsets
                        .iter()
                        .zip(ids)
                        .all(|(&o, &id)| base.wrapping_add(o as i64) == id)
            }
            Ids::Full(own) => own.as_slice() == ids,
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Ids::Offsets { offsets, .. } => offsets.capacity() * 4,
            Ids::Full(ids) => ids.capacity() * 8,
        }
    }
}

/// One counter of every entity of a blob, in the blob's id order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Column {
    /// Zero for every entity.
    Zero,
    U32(Vec<u32>),
    I64(Vec<i64>),
}

impl Column {
    fn from_values(values: Vec<i64>) -> Column {
        if values.iter().all(|&v| v == 0) {
            Column::Zero
        } else if values.iter().all(|&v| (0..=u32::MAX as i64).contains(&v)) {
            Column::U32(values.iter().map(|&v| v as u32).collect())
        } else {
            Column::I64(values)
        }
    }

    /// The value at `i`.
    pub fn get(&self, i: usize) -> i64 {
        match self {
            Column::Zero => 0,
            Column::U32(v) => v[i] as i64,
            Column::I64(v) => v[i],
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Column::Zero => 0,
            Column::U32(v) => v.capacity() * 4,
            Column::I64(v) => v.capacity() * 8,
        }
    }
}

/// A blob's entities and their counters, parents left out (a report joins them to its
/// universe, which has them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodedBlob {
    pub ids: Ids,
    pub columns: [Column; COUNTERS],
}

impl DecodedBlob {
    /// Decodes a stored blob.
    pub fn decode(data: &[u8]) -> Result<DecodedBlob, codec::Corrupt> {
        let mut d = codec::Decoder::new(data)?;
        let n = d.remaining();
        let mut ids = Vec::with_capacity(n);
        let mut values: [Vec<i64>; COUNTERS] = std::array::from_fn(|_| Vec::with_capacity(n));
        while let Some(e) = d.next_entry()? {
            ids.push(e.entity_id);
            for (col, v) in values.iter_mut().zip(e.counters.0) {
                col.push(v);
            }
        }
        d.finish()?;
        Ok(DecodedBlob {
            ids: Ids::from_sorted(ids),
            columns: values.map(Column::from_values),
        })
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The counters of the entity at `i`.
    pub fn counters(&self, i: usize) -> Counters {
        Counters(std::array::from_fn(|c| self.columns[c].get(i)))
    }

    /// The memory it holds (what the cache weighs it by).
    pub fn bytes(&self) -> usize {
        self.ids.bytes() + self.columns.iter().map(Column::bytes).sum::<usize>() + 128
    }
}

/// Signed sums of blobs by position in a universe of ids (ascending): one `i64` column per
/// counter. Arithmetic wraps, as the blobs' own does.
#[derive(Debug)]
pub struct Sums<'u> {
    ids: &'u [i64],
    columns: [Vec<i64>; COUNTERS],
    /// The counters summed (the others stay zero).
    summed: [bool; COUNTERS],
}

impl<'u> Sums<'u> {
    /// Zero sums for every entity of `ids` (ascending).
    pub fn new(ids: &'u [i64]) -> Sums<'u> {
        Sums {
            ids,
            columns: std::array::from_fn(|_| vec![0; ids.len()]),
            summed: [true; COUNTERS],
        }
    }

    /// Zero sums for every entity of `ids` of counter `column` alone (the others are left
    /// zero, and cost nothing to add).
    pub fn of_column(ids: &'u [i64], column: usize) -> Sums<'u> {
        Sums {
            ids,
            columns: std::array::from_fn(|c| vec![0; if c == column { ids.len() } else { 0 }]),
            summed: std::array::from_fn(|c| c == column),
        }
    }

    /// Adds `sign` × the blob's counters; entities of the blob outside the universe are left
    /// out.
    pub fn add(&mut self, blob: &DecodedBlob, sign: i64) {
        if blob.is_empty() {
            return;
        }
        if blob.ids.same_as(self.ids) {
            for ((acc, col), _) in self
                .columns
                .iter_mut()
                .zip(&blob.columns)
                .zip(self.summed)
                .filter(|(_, summed)| *summed)
            {
                add_column(acc, col, sign);
            }
            return;
        }
        // Match the blob's ids to positions once, then scatter every column.
        let mut at = Vec::with_capacity(blob.len());
        let mut i = 0;
        for b in 0..blob.len() {
            let id = blob.ids.get(b);
            i += gallop(&self.ids[i..], id);
            if i == self.ids.len() {
                break;
            }
            if self.ids[i] == id {
                at.push((b as u32, i as u32));
            }
        }
        for ((acc, col), _) in self
            .columns
            .iter_mut()
            .zip(&blob.columns)
            .zip(self.summed)
            .filter(|(_, summed)| *summed)
        {
            match col {
                Column::Zero => {}
                Column::U32(v) => {
                    for &(b, i) in &at {
                        let a = &mut acc[i as usize];
                        *a = a.wrapping_add((v[b as usize] as i64).wrapping_mul(sign));
                    }
                }
                Column::I64(v) => {
                    for &(b, i) in &at {
                        let a = &mut acc[i as usize];
                        *a = a.wrapping_add(v[b as usize].wrapping_mul(sign));
                    }
                }
            }
        }
    }

    /// The counters by position in the universe.
    pub fn into_counters(self) -> Vec<Counters> {
        (0..self.ids.len())
            .map(|i| {
                Counters(std::array::from_fn(|c| {
                    self.columns[c].get(i).copied().unwrap_or(0)
                }))
            })
            .collect()
    }
}

/// The number of leading ids below `id` in ascending `ids`: steps of 1, 2, 4, … then a
/// binary search, so matching a blob to a universe costs little whether the blob holds
/// most of the universe or a few entities of it.
fn gallop(ids: &[i64], id: i64) -> usize {
    let mut hi = 1;
    while hi < ids.len() && ids[hi - 1] < id {
        hi *= 2;
    }
    let lo = hi / 2;
    let hi = hi.min(ids.len());
    lo + ids[lo..hi].partition_point(|&u| u < id)
}

/// `acc[i] += sign × col[i]` for every position (the same length).
fn add_column(acc: &mut [i64], col: &Column, sign: i64) {
    match (col, sign) {
        (Column::Zero, _) => {}
        (Column::U32(v), 1) => {
            for (a, &x) in acc.iter_mut().zip(v) {
                *a = a.wrapping_add(x as i64);
            }
        }
        (Column::U32(v), -1) => {
            for (a, &x) in acc.iter_mut().zip(v) {
                *a = a.wrapping_sub(x as i64);
            }
        }
        (Column::U32(v), s) => {
            for (a, &x) in acc.iter_mut().zip(v) {
                *a = a.wrapping_add((x as i64).wrapping_mul(s));
            }
        }
        (Column::I64(v), 1) => {
            for (a, &x) in acc.iter_mut().zip(v) {
                *a = a.wrapping_add(x);
            }
        }
        (Column::I64(v), s) => {
            for (a, &x) in acc.iter_mut().zip(v) {
                *a = a.wrapping_add(x.wrapping_mul(s));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::report_facts::EntitySums;

    fn entry(id: i64, counters: [i64; COUNTERS]) -> EntitySums {
        EntitySums {
            entity_id: id,
            campaign_id: 1,
            ad_group_id: 2,
            counters: Counters(counters),
        }
    }

    fn decode(entries: &[EntitySums]) -> DecodedBlob {
        DecodedBlob::decode(&codec::encode(0, entries)).unwrap()
    }

    #[test]
    fn columns_are_as_narrow_as_their_values() {
        let mut a = [0; COUNTERS];
        a[0] = u32::MAX as i64;
        a[1] = 5;
        a[10] = u32::MAX as i64 + 1;
        let mut b = [0; COUNTERS];
        b[1] = -1;
        b[10] = 3;
        let blob = decode(&[entry(7, a), entry(9, b)]);
        assert_eq!(blob.columns[0], Column::U32(vec![u32::MAX, 0]));
        assert_eq!(blob.columns[1], Column::I64(vec![5, -1]), "negative");
        assert_eq!(blob.columns[2], Column::Zero);
        assert_eq!(blob.columns[10], Column::I64(vec![u32::MAX as i64 + 1, 3]));
        assert_eq!(
            blob.ids,
            Ids::Offsets {
                base: 7,
                offsets: vec![0, 2]
            }
        );
        assert_eq!(
            (blob.counters(0), blob.counters(1)),
            (Counters(a), Counters(b))
        );
    }

    #[test]
    fn ids_spanning_more_than_u32_are_kept_whole() {
        let ids = [i64::MIN, -1, 0, 1 << 40, i64::MAX];
        let entries: Vec<_> = ids.iter().map(|&id| entry(id, [1; COUNTERS])).collect();
        let blob = decode(&entries);
        assert_eq!(blob.ids, Ids::Full(ids.to_vec()));
        assert!(blob.ids.same_as(&ids));
        let near = decode(&[
            entry(i64::MAX - 1, [1; COUNTERS]),
            entry(i64::MAX, [1; COUNTERS]),
        ]);
        assert_eq!(near.ids.get(1), i64::MAX);
        assert!(near.ids.same_as(&[i64::MAX - 1, i64::MAX]));
        assert!(!near.ids.same_as(&[i64::MAX - 1]));
    }

    #[test]
    fn a_year_of_keywords_decodes_small() {
        let entries: Vec<_> = (0..10_000)
            .map(|k| {
                entry(
                    1_000_000_000 + k * 3,
                    [400, 9, 2, 1, 1, 1, 1, 0, 0, 0, 9_000_000],
                )
            })
            .collect();
        let blob = decode(&entries);
        // 4 bytes of id and 4 of each of the 9 non-zero counters per keyword.
        assert!(blob.bytes() <= 10_000 * 40 + 128, "{}", blob.bytes());
    }

    /// Sums of blobs, aligned to the universe or not, equal the entity-by-entity sums.
    #[test]
    fn sums_match_a_naive_sum_by_id() {
        let universe: Vec<i64> = (0..300).map(|i| 100 + i * 2).collect();
        let counters = |id: i64, salt: i64| -> [i64; COUNTERS] {
            std::array::from_fn(|c| {
                (id * 31 + salt * 7 + c as i64) % 23 - if c == 3 { 5 } else { 0 }
            })
        };
        // Every universe id; a few; ids outside the universe mixed in; empty.
        let blobs: Vec<(Vec<i64>, i64, i64)> = vec![
            (universe.clone(), 1, 1),
            (
                universe.iter().copied().filter(|i| i % 7 == 0).collect(),
                -1,
                2,
            ),
            ((50..800).filter(|i| i % 3 == 0).collect(), 1, 3),
            (vec![universe[299], 10_000], 2, 4),
            (Vec::new(), 1, 5),
            (universe.clone(), -1, 6),
        ];
        let mut sums = Sums::new(&universe);
        let mut spend = Sums::of_column(&universe, 10);
        let mut want = vec![Counters::default(); universe.len()];
        for (ids, sign, salt) in &blobs {
            let entries: Vec<_> = ids
                .iter()
                .map(|&id| entry(id, counters(id, *salt)))
                .collect();
            sums.add(&decode(&entries), *sign);
            spend.add(&decode(&entries), *sign);
            for e in &entries {
                if let Ok(i) = universe.binary_search(&e.entity_id) {
                    for (a, v) in want[i].0.iter_mut().zip(e.counters.0) {
                        *a += v * sign;
                    }
                }
            }
        }
        assert_eq!(sums.into_counters(), want);
        // One column alone: the same spend, every other counter zero.
        let spend = spend.into_counters();
        for (got, want) in spend.iter().zip(&want) {
            assert_eq!(got.spend_micros(), want.spend_micros());
            assert_eq!(got.0[..10], [0; 10]);
        }
    }

    #[test]
    fn galloping_finds_the_insertion_point() {
        let ids: Vec<i64> = (0..100).map(|i| i * 10).collect();
        for id in -5..1_005 {
            assert_eq!(gallop(&ids, id), ids.partition_point(|&u| u < id), "{id}");
        }
        assert_eq!(gallop(&[], 3), 0);
    }
}
