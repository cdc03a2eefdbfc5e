//! The sandbox's writes on disk: `<dir>/journal.jsonl`, one JSON line per write
//! transaction (the entities it wrote, as stored, its change-history events and the id
//! counters) and per clock change, after a header naming the world (seed, size, the day it
//! was generated for). At start the world is generated again from the header and the lines
//! are replayed, so a restart keeps every entity, the change history and the clock.
//! Decisions on recommendations (applied, dismissed) have lines of their own. A journal of
//! many lines is compacted when it is opened: the header, one line with the latest state
//! of every entity ever written, the whole change history and the counters, the decisions,
//! then the clock; so a long-lived sandbox restarts in the time of its distinct writes.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use parking_lot::Mutex;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use time::{Date, OffsetDateTime};

use crate::world::audit::AuditEvent;
use crate::world::{Id, World, WorldConfig, WorldSize};

/// The journal file of a data dir.
pub fn path(dir: &Path) -> PathBuf {
    dir.join("journal.jsonl")
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Header {
    seed: u64,
    size: String,
    origin: Date,
}

#[derive(Debug, Serialize, Deserialize)]
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

/// Lines past which an opened journal is compacted.
pub const COMPACT_AFTER: usize = 200;

/// What [`Journal::open`] found.
pub struct Opened {
    pub journal: Journal,
    pub world: World,
    /// The clock to start from: `(now, running)`.
    pub clock: (OffsetDateTime, bool),
    /// Decisions on recommendations, oldest first.
    pub decisions: Vec<DecisionLine>,
    /// Lines read, and lines the journal holds after compaction.
    pub lines: (usize, usize),
}

/// An open journal, appended to under the world's write lock.
pub struct Journal {
    file: Mutex<File>,
}

fn size_name(size: WorldSize) -> &'static str {
    match size {
        WorldSize::Small => "small",
        WorldSize::Mid => "mid",
        WorldSize::Large => "large",
    }
}

impl Journal {
    /// Opens (or starts) the journal in `dir`: the world it describes with every write
    /// replayed, and the clock `(now, running)` to start from. A journal made for another
    /// seed or world size is refused. `start` (the `--now` option) moves a resumed clock
    /// forward when it is later.
    pub fn open(
        dir: &Path,
        config: WorldConfig,
        start: Option<OffsetDateTime>,
        running: bool,
    ) -> anyhow::Result<Opened> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("creating the sandbox data dir {}", dir.display()))?;
        let file_path = path(dir);
        let wall_now = OffsetDateTime::now_utc();
        let wanted = Header {
            seed: config.seed,
            size: size_name(config.size).into(),
            origin: config
                .today
                .unwrap_or_else(|| start.unwrap_or(wall_now).date()),
        };
        let mut world = None;
        let mut clock = None;
        let mut decisions: Vec<DecisionLine> = Vec::new();
        // Every entity a line wrote, for compaction.
        let mut written: std::collections::BTreeSet<(&'static str, Id)> = Default::default();
        let mut lines = 0;
        if file_path.exists() {
            let reader = BufReader::new(File::open(&file_path)?);
            for (n, line) in reader.lines().enumerate() {
                let line = line?;
                if line.trim().is_empty() {
                    continue;
                }
                lines += 1;
                let v: Value = serde_json::from_str(&line)
                    .with_context(|| format!("{} line {}", file_path.display(), n + 1))?;
                if let Some(h) = v.get("world") {
                    let h: Header = serde_json::from_value(h.clone())?;
                    if h.seed != wanted.seed || h.size != wanted.size {
                        bail!(
                            "{} holds a sandbox of seed {} and world {}, not seed {} and world {}: \
                             start with those options, or use another data dir",
                            file_path.display(),
                            h.seed,
                            h.size,
                            wanted.seed,
                            wanted.size
                        );
                    }
                    world = Some(World::generate(WorldConfig {
                        today: Some(h.origin),
                        ..config
                    }));
                } else if let Some(c) = v.get("clock") {
                    clock = Some(serde_json::from_value::<ClockLine>(c.clone())?);
                } else if let Some(d) = v.get("decision") {
                    decisions.push(serde_json::from_value(d.clone())?);
                } else if let Some(t) = v.get("txn") {
                    let w = world.as_mut().context("journal line before its header")?;
                    replay(w, serde_json::from_value(t.clone())?, &mut written)
                        .with_context(|| format!("{} line {}", file_path.display(), n + 1))?;
                }
            }
        }
        let fresh = world.is_none();
        let mut world = world.unwrap_or_else(|| {
            World::generate(WorldConfig {
                today: Some(wanted.origin),
                ..config
            })
        });
        world.mark_journaled();
        let (now, running) = match clock {
            Some(c) => {
                let mut now = if c.running {
                    c.now + time::Duration::seconds((wall_now.unix_timestamp() - c.wall).max(0))
                } else {
                    c.now
                };
                if let Some(s) = start.filter(|s| *s > now) {
                    now = s;
                }
                (now, c.running)
            }
            None => (start.unwrap_or(wall_now), running),
        };
        // The latest decision per recommendation.
        let mut latest: Vec<DecisionLine> = Vec::new();
        for d in decisions {
            latest.retain(|x| x.id != d.id);
            latest.push(d);
        }
        let mut kept = lines;
        if !fresh && lines > COMPACT_AFTER {
            let header: Header = {
                let first = BufReader::new(File::open(&file_path)?)
                    .lines()
                    .find_map(|l| {
                        l.ok()
                            .and_then(|l| serde_json::from_str::<Value>(&l).ok())
                            .and_then(|v| v.get("world").cloned())
                    })
                    .context("journal without its header")?;
                serde_json::from_value(first)?
            };
            kept = compact(&file_path, &header, &world, &written, &latest)?;
            tracing::info!(lines, kept, "sandbox journal compacted");
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&file_path)?;
        let journal = Journal {
            file: Mutex::new(file),
        };
        if fresh {
            journal.append(&json!({ "world": wanted }))?;
        }
        journal.append_clock(now, running);
        Ok(Opened {
            journal,
            world,
            clock: (now, running),
            decisions: latest,
            lines: (lines, kept + 1),
        })
    }

    /// Records a decision on a recommendation.
    pub fn append_decision(&self, d: &DecisionLine) {
        if let Err(e) = self.append(&json!({ "decision": d })) {
            tracing::error!(error = %e, "could not write the sandbox journal");
        }
    }

    fn append(&self, line: &Value) -> std::io::Result<()> {
        let mut text = line.to_string();
        text.push('\n');
        let mut file = self.file.lock();
        file.write_all(text.as_bytes())?;
        file.flush()
    }

    /// Records the clock.
    pub fn append_clock(&self, now: OffsetDateTime, running: bool) {
        let line = ClockLine {
            now,
            wall: OffsetDateTime::now_utc().unix_timestamp(),
            running,
        };
        if let Err(e) = self.append(&json!({ "clock": line })) {
            tracing::error!(error = %e, "could not write the sandbox journal");
        }
    }

    /// Records the entities written and the events added since the last call.
    pub fn append_changes(&self, w: &mut World) {
        let (touched, events) = w.take_pending();
        let entities = touched
            .into_iter()
            .filter_map(|(kind, id)| entity_json(w, kind, id).map(|v| (kind.to_string(), v)))
            .collect();
        let (next_id, next_txn) = w.counters();
        let txn = TxnLine {
            next_id,
            next_txn,
            entities,
            audit: w.audit[events].to_vec(),
        };
        if let Err(e) = self.append(&json!({ "txn": txn })) {
            tracing::error!(error = %e, "could not write the sandbox journal");
        }
    }
}

fn entity_json(w: &World, kind: &str, id: Id) -> Option<Value> {
    let v = match kind {
        "Campaign" => serde_json::to_value(w.campaigns.get(&id)?),
        "AdGroup" => serde_json::to_value(w.ad_groups.get(&id)?),
        "Keyword" => serde_json::to_value(w.keywords.get(&id)?),
        "NegativeKeyword" => serde_json::to_value(w.negative_keywords.get(&id)?),
        "Ad" => serde_json::to_value(w.ads.get(&id)?),
        "Creative" => serde_json::to_value(w.creatives.get(&id)?),
        _ => return None,
    };
    v.ok()
}

/// Rewrites the journal at `file_path` as its header, one line with the latest state of
/// every entity in `written`, the change history and the counters, then `decisions`
/// (written beside it, then renamed over it). Answers the lines written.
fn compact(
    file_path: &Path,
    header: &Header,
    w: &World,
    written: &std::collections::BTreeSet<(&'static str, Id)>,
    decisions: &[DecisionLine],
) -> anyhow::Result<usize> {
    let (next_id, next_txn) = w.counters();
    let txn = TxnLine {
        next_id,
        next_txn,
        entities: written
            .iter()
            .filter_map(|(kind, id)| entity_json(w, kind, *id).map(|v| (kind.to_string(), v)))
            .collect(),
        audit: w.audit.clone(),
    };
    let mut out = String::new();
    for line in [json!({ "world": header }), json!({ "txn": txn })]
        .into_iter()
        .chain(decisions.iter().map(|d| json!({ "decision": d })))
    {
        out.push_str(&line.to_string());
        out.push('\n');
    }
    let tmp = file_path.with_extension("jsonl.compacting");
    std::fs::write(&tmp, &out).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, file_path)
        .with_context(|| format!("replacing {}", file_path.display()))?;
    Ok(2 + decisions.len())
}

fn replay(
    w: &mut World,
    txn: TxnLine,
    written: &mut std::collections::BTreeSet<(&'static str, Id)>,
) -> anyhow::Result<()> {
    for (kind, value) in txn.entities {
        let kind: &'static str = crate::world::statics::intern(&kind);
        let id = value["id"].as_i64().context("entity without id")?;
        written.insert((kind, id));
        match kind {
            "Campaign" => {
                w.campaigns.insert(id, serde_json::from_value(value)?);
            }
            "AdGroup" => {
                w.ad_groups.insert(id, serde_json::from_value(value)?);
            }
            "Keyword" => {
                w.keywords.insert(id, serde_json::from_value(value)?);
            }
            "NegativeKeyword" => {
                w.negative_keywords
                    .insert(id, serde_json::from_value(value)?);
            }
            "Ad" => {
                w.ads.insert(id, serde_json::from_value(value)?);
            }
            "Creative" => {
                w.creatives.insert(id, serde_json::from_value(value)?);
            }
            other => bail!("unknown entity type {other}"),
        }
        w.index_entity(kind, id);
    }
    w.audit.extend(txn.audit);
    w.restore_counters(txn.next_id, txn.next_txn);
    Ok(())
}
