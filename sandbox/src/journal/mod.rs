//! The sandbox's writes on disk: `<dir>/journal.jsonl`, one JSON line per write
//! transaction (the entities it wrote, as stored, its change-history events and the id
//! counters) and per clock change, after a header naming the world (seed, size, the day it
//! was generated for). At start the world is generated again from the header and the lines
//! are replayed, so a restart keeps every entity, the change history and the clock.
//! Decisions on recommendations (applied, dismissed) and the auth store's registered keys,
//! refresh tokens and codes ([`crate::auth::kept`]) have lines of their own. A journal is
//! compacted to the header, one line with the latest state of every entity ever written,
//! the whole change history and the counters, the decisions, then the clock: when it is
//! opened with many lines, and while the sandbox runs, once it has grown to twice its size
//! after the last compaction (and by [`COMPACT_AFTER`] lines), so its size stays within
//! twice that of its distinct writes and the work of compacting stays proportional to the
//! writes. A compaction runs under the world's lock and the journal's, so no write can
//! land between the state it reads and the file it replaces; the new file is written
//! beside the old and renamed over it, so a crash leaves one or the other whole.

mod compact;
mod open;

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use parking_lot::Mutex;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use time::{Date, OffsetDateTime};

use crate::auth::kept::{AuthLine, AuthSink};
use crate::world::audit::AuditEvent;
use crate::world::{Id, World};
use compact::{compact, entity_json};

/// The journal file of a data dir.
pub fn path(dir: &Path) -> PathBuf {
    dir.join("journal.jsonl")
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
struct Header {
    seed: u64,
    size: String,
    origin: Date,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct ClockLine {
    #[serde(with = "time::serde::rfc3339")]
    now: OffsetDateTime,
    /// Wall-clock unix time when it was written, so a running clock resumes past downtime.
    wall: i64,
    running: bool,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct TxnLine {
    next_id: Id,
    next_txn: u64,
    entities: Vec<(String, Value)>,
    audit: Vec<AuditEvent>,
}

/// A decision on a recommendation, as journaled.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct DecisionLine {
    pub id: String,
    /// `APPLIED` or `DISMISSED`.
    pub state: String,
    #[serde(with = "time::serde::rfc3339")]
    pub time: OffsetDateTime,
    /// The value applied (micros), if any.
    pub applied: Option<Id>,
}

/// Lines past which an opened journal is compacted, and lines a running journal gains
/// before it is compacted again.
pub const COMPACT_AFTER: usize = 200;

/// Bytes below which a running journal is not compacted.
const COMPACT_BYTES: u64 = 64 * 1024;

/// What [`Journal::open`] found.
pub struct Opened {
    pub journal: Journal,
    pub world: World,
    /// The clock to start from: `(now, running)`.
    pub clock: (OffsetDateTime, bool),
    /// Decisions on recommendations, oldest first.
    pub decisions: Vec<DecisionLine>,
    /// The auth store's keys, refresh tokens and codes, oldest first.
    pub auth: Vec<AuthLine>,
    /// Lines read, and lines the journal holds after compaction.
    pub lines: (usize, usize),
}

/// An open journal, appended to under the world's write lock.
pub struct Journal {
    inner: Mutex<Inner>,
}

/// The open file and what a compaction writes besides the world.
struct Inner {
    file: File,
    path: PathBuf,
    header: Header,
    /// Every entity a line wrote.
    written: BTreeSet<(&'static str, Id)>,
    /// The latest decision per recommendation.
    decisions: Vec<DecisionLine>,
    /// The auth lines a compaction keeps.
    auth: Vec<AuthLine>,
    /// The last clock line.
    clock: Option<ClockLine>,
    /// Bytes and lines the file holds.
    bytes: u64,
    lines: usize,
    /// The size and lines the last compaction left.
    compacted: (u64, usize),
    /// Compactions done since the journal was opened.
    compactions: usize,
}

impl Inner {
    fn append(&mut self, line: &Value) -> std::io::Result<()> {
        let mut text = line.to_string();
        text.push('\n');
        self.file.write_all(text.as_bytes())?;
        self.file.flush()?;
        self.bytes += text.len() as u64;
        self.lines += 1;
        Ok(())
    }

    /// Whether the file has grown enough since the last compaction to compact it again.
    fn grown(&self) -> bool {
        let (bytes, lines) = self.compacted;
        self.lines >= lines + COMPACT_AFTER && self.bytes >= (2 * bytes).max(COMPACT_BYTES)
    }

    /// Rewrites the file from `w` (which holds every write of its lines) and reopens it.
    fn compact(&mut self, w: &World) -> anyhow::Result<()> {
        let (bytes, lines) = compact(
            &self.path,
            &self.header,
            w,
            &self.written,
            &self.decisions,
            &self.auth,
            self.clock.as_ref(),
        )?;
        self.file = OpenOptions::new().append(true).open(&self.path)?;
        self.bytes = bytes;
        self.lines = lines;
        self.compacted = (bytes, lines);
        self.compactions += 1;
        Ok(())
    }
}

impl Journal {
    /// Records a decision on a recommendation.
    pub fn append_decision(&self, d: &DecisionLine) {
        let mut inner = self.inner.lock();
        inner.decisions.retain(|x| x.id != d.id);
        inner.decisions.push(d.clone());
        report(inner.append(&json!({ "decision": d })));
    }

    /// Records a change of the auth store.
    pub fn append_auth(&self, line: &AuthLine) {
        let mut inner = self.inner.lock();
        line.clone().keep(&mut inner.auth);
        report(inner.append(&json!({ "auth": line })));
    }

    /// Records the clock.
    pub fn append_clock(&self, now: OffsetDateTime, running: bool) {
        let line = ClockLine {
            now,
            wall: OffsetDateTime::now_utc().unix_timestamp(),
            running,
        };
        let mut inner = self.inner.lock();
        report(inner.append(&json!({ "clock": line })));
        inner.clock = Some(line);
    }

    /// Records the entities written and the events added since the last call. `w` is the
    /// world under its write lock, so it holds the writes of every line; the journal is
    /// compacted from it when it has grown enough.
    pub fn append_changes(&self, w: &mut World) {
        let (touched, events) = w.take_pending();
        let entities = touched
            .iter()
            .filter_map(|(kind, id)| entity_json(w, kind, *id).map(|v| (kind.to_string(), v)))
            .collect();
        let (next_id, next_txn) = w.counters();
        let txn = TxnLine {
            next_id,
            next_txn,
            entities,
            audit: w.audit[events].to_vec(),
        };
        let mut inner = self.inner.lock();
        inner.written.extend(touched);
        report(inner.append(&json!({ "txn": txn })));
        Self::compact_grown(&mut inner, w);
    }

    /// Compacts the journal when it has grown enough since the last compaction; `w` must be
    /// the world under a lock that keeps writers out (the read lock will do).
    pub fn compact_if_grown(&self, w: &World) {
        Self::compact_grown(&mut self.inner.lock(), w);
    }

    fn compact_grown(inner: &mut Inner, w: &World) {
        if !inner.grown() {
            return;
        }
        let (lines, started) = (inner.lines, std::time::Instant::now());
        match inner.compact(w) {
            Ok(()) => tracing::info!(
                lines,
                kept = inner.lines,
                bytes = inner.bytes,
                elapsed_ms = started.elapsed().as_millis() as u64,
                "sandbox journal compacted"
            ),
            Err(e) => {
                // Appending goes on to the old file; the next write tries again.
                tracing::error!(error = %e, "could not compact the sandbox journal");
            }
        }
    }

    /// Compactions done since the journal was opened, and the lines it holds.
    pub fn stats(&self) -> (usize, usize) {
        let inner = self.inner.lock();
        (inner.compactions, inner.lines)
    }
}

impl AuthSink for Journal {
    fn append_auth(&self, line: &AuthLine) {
        Journal::append_auth(self, line);
    }
}

fn report(written: std::io::Result<()>) {
    if let Err(e) = written {
        tracing::error!(error = %e, "could not write the sandbox journal");
    }
}
