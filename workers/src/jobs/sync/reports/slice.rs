//! A slice's rows between its fetch and its day writes. Each page's rows are encoded
//! (varints, ~30 bytes a row instead of ~170 as [`DayRow`]s) and appended to an unnamed
//! temporary file, day by day, as the page arrives; [`store_slice`] then reads one day at a
//! time back and writes it in one transaction. Memory is one page and one day, whatever
//! the slice holds (a 15-day slice of the search terms of a 100,000-keyword ad account is
//! about 2.5 million rows).
//!
//! Nothing of the database changes until the whole slice is fetched, as before: a retried
//! page is fetched again and written once, and a worker killed mid-slice leaves no file
//! behind (it is unlinked from the start) and its successor fetches the slice again.

use std::io::SeekFrom;

use searchdeck_common::{
    Db,
    queue::JobError,
    store::synced::{
        self,
        metrics::{DayRow, Level},
    },
};
use time::{Date, Duration};
use tokio::io::{AsyncReadExt, AsyncSeekExt, AsyncWriteExt};

use super::day;

fn spill_error(e: std::io::Error) -> JobError {
    JobError::retryable(anyhow::Error::from(e).context("report rows' temporary file"))
}

/// The rows of one slice of days, out of memory; see the module.
pub(super) struct SliceRows {
    from: Date,
    to: Date,
    /// Created with the first page that has rows.
    file: Option<tokio::fs::File>,
    /// Bytes written to `file`.
    written: u64,
    /// The encoded rows of the page being read, per day of the slice.
    page: Vec<Vec<u8>>,
    /// Per day of the slice, where its rows lie in `file`: one (offset, length) per page.
    extents: Vec<Vec<(u64, usize)>>,
    rows: u64,
}

impl SliceRows {
    pub fn new(from: Date, to: Date) -> SliceRows {
        let days = ((to - from).whole_days() + 1).max(0) as usize;
        SliceRows {
            from,
            to,
            file: None,
            written: 0,
            page: vec![Vec::new(); days],
            extents: vec![Vec::new(); days],
            rows: 0,
        }
    }

    /// Rows added so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Adds the row of day `d` (within the slice; `row.day` is not read).
    pub fn add(&mut self, d: Date, row: &DayRow) {
        let i = (d - self.from).whole_days() as usize;
        encode(&mut self.page[i], row);
        self.rows += 1;
    }

    /// Writes out the rows added since the last call (one page's).
    pub async fn end_page(&mut self) -> Result<(), JobError> {
        let size: usize = self.page.iter().map(Vec::len).sum();
        if size == 0 {
            return Ok(());
        }
        let mut out = Vec::with_capacity(size);
        for (day, extents) in self.page.iter_mut().zip(&mut self.extents) {
            if !day.is_empty() {
                extents.push((self.written + out.len() as u64, day.len()));
                out.extend_from_slice(day);
                day.clear();
            }
        }
        let file = match &mut self.file {
            Some(file) => file,
            None => {
                let file = tokio::task::spawn_blocking(tempfile::tempfile)
                    .await
                    .map_err(|e| JobError::retryable(anyhow::anyhow!(e)))?
                    .map_err(spill_error)?;
                self.file.insert(tokio::fs::File::from_std(file))
            }
        };
        file.write_all(&out).await.map_err(spill_error)?;
        self.written += out.len() as u64;
        Ok(())
    }

    /// The rows of the slice's `i`-th day, in the order they were added. Read once every
    /// page is added: a page written after a read would land where the read left off.
    async fn day(&mut self, i: usize) -> Result<Vec<DayRow>, JobError> {
        let (Some(file), extents) = (&mut self.file, &self.extents[i]) else {
            return Ok(Vec::new());
        };
        file.flush().await.map_err(spill_error)?;
        let mut bytes = vec![0; extents.iter().map(|e| e.1).sum()];
        let mut at = 0;
        for &(offset, len) in extents {
            file.seek(SeekFrom::Start(offset))
                .await
                .map_err(spill_error)?;
            file.read_exact(&mut bytes[at..at + len])
                .await
                .map_err(spill_error)?;
            at += len;
        }
        let key = day(self.from + Duration::days(i as i64));
        decode(&bytes, &key).ok_or_else(|| {
            JobError::retryable(anyhow::anyhow!("report rows of {key} read back damaged"))
        })
    }
}

/// Appends `v` as a zigzag LEB128 varint.
fn put(out: &mut Vec<u8>, v: i64) {
    let mut z = ((v << 1) ^ (v >> 63)) as u64;
    while z >= 0x80 {
        out.push(z as u8 | 0x80);
        z >>= 7;
    }
    out.push(z as u8);
}

/// Reads a varint written by [`put`] at `*at`.
fn get(bytes: &[u8], at: &mut usize) -> Option<i64> {
    let mut z = 0u64;
    let mut shift = 0;
    loop {
        let b = *bytes.get(*at)?;
        *at += 1;
        z |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Some((z >> 1) as i64 ^ -((z & 1) as i64));
        }
        shift += 7;
        if shift > 63 {
            return None;
        }
    }
}

fn encode(out: &mut Vec<u8>, r: &DayRow) {
    for v in r.fields() {
        put(out, v);
    }
}

/// The rows of `bytes`, all of day `key`.
fn decode(bytes: &[u8], key: &str) -> Option<Vec<DayRow>> {
    let mut rows = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let mut f = [0i64; 14];
        for v in &mut f {
            *v = get(bytes, &mut at)?;
        }
        rows.push(DayRow::from_fields(key.to_string(), f));
    }
    Some(rows)
}

/// A write after which the queue gets a turn at SQLite's lock (see [`store_slice`]).
const LONG_WRITE: std::time::Duration = std::time::Duration::from_millis(100);

/// Stores one fetched slice day by day, each day by one `replace_days` (one transaction),
/// so a large account's slice never holds the database for long. A run cut short between
/// two days leaves the level part done; its checkpoint is written only after the whole
/// level, so the run that takes over fetches and replaces the same days again.
pub(super) async fn store_slice(
    db: &Db,
    org_key: i64,
    level: Level,
    mut rows: SliceRows,
) -> Result<(), JobError> {
    // On SQLite every write takes the one database lock, which the queue needs too (to
    // poll, to beat its heartbeats): a short pause after each long write lets it through,
    // so a long sync is not taken for a dead worker's job.
    let pause = || tokio::time::sleep(std::time::Duration::from_millis(50));
    let mut d = rows.from;
    while d <= rows.to {
        let key = day(d);
        let of_day = rows.day((d - rows.from).whole_days() as usize).await?;
        let started = std::time::Instant::now();
        synced::metrics::replace_days(&db.pool, org_key, level, &key, &key, &of_day).await?;
        drop(of_day);
        if started.elapsed() > LONG_WRITE {
            pause().await;
        }
        d += Duration::days(1);
    }
    pause().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    fn row(entity_id: i64, spend_micros: i64) -> DayRow {
        DayRow {
            entity_id,
            campaign_id: 1_234_567_890,
            ad_group_id: -7,
            impressions: 1 << 40,
            taps: i64::MAX,
            view_pre_orders: i64::MIN,
            spend_micros,
            ..Default::default()
        }
    }

    #[tokio::test]
    async fn rows_come_back_by_day_in_the_order_they_were_added() {
        let (from, to) = (date!(2026 - 03 - 01), date!(2026 - 03 - 03));
        let mut rows = SliceRows::new(from, to);
        rows.add(date!(2026 - 03 - 03), &row(1, 10));
        rows.add(from, &row(2, 0));
        rows.end_page().await.unwrap();
        rows.end_page().await.unwrap();
        rows.add(date!(2026 - 03 - 03), &row(3, -5));
        rows.end_page().await.unwrap();
        assert_eq!(rows.rows(), 3);
        let with_day = |mut r: DayRow, d: &str| {
            r.day = d.to_string();
            r
        };
        assert_eq!(
            rows.day(0).await.unwrap(),
            vec![with_day(row(2, 0), "2026-03-01")]
        );
        assert_eq!(rows.day(1).await.unwrap(), vec![]);
        assert_eq!(
            rows.day(2).await.unwrap(),
            vec![
                with_day(row(1, 10), "2026-03-03"),
                with_day(row(3, -5), "2026-03-03")
            ]
        );
        // Read again, the same.
        assert_eq!(rows.day(0).await.unwrap().len(), 1);
        assert_eq!(SliceRows::new(from, to).day(1).await.unwrap(), vec![]);
    }

    #[test]
    fn varints_round_trip() {
        let mut out = Vec::new();
        let values = [0, 1, -1, 63, -64, 64, 1 << 35, i64::MAX, i64::MIN];
        for v in values {
            put(&mut out, v);
        }
        let mut at = 0;
        for v in values {
            assert_eq!(get(&out, &mut at), Some(v));
        }
        assert_eq!(get(&out, &mut at), None);
    }
}
