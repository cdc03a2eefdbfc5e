//! Opening a journal: a new one starts with its header; an existing one is read line by
//! line — refused when made for another seed or world size — with the world generated
//! again from its header and every write replayed, the clock resumed (past the downtime
//! when it was running), and compacted when it holds many lines.

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader};
use std::path::Path;

use anyhow::{Context, bail};
use parking_lot::Mutex;
use serde_json::{Value, json};
use time::OffsetDateTime;

use super::{
    COMPACT_AFTER, ClockLine, DecisionLine, Header, Inner, Journal, Opened, TxnLine, path,
};
use crate::auth::kept::AuthLine;
use crate::world::{Id, World, WorldConfig, WorldSize};

fn size_name(size: WorldSize) -> &'static str {
    match size {
        WorldSize::Small => "small",
        WorldSize::Mid => "mid",
        WorldSize::Large => "large",
        WorldSize::Agency => "agency",
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
        let mut header = None;
        let mut clock = None;
        let mut decisions: Vec<DecisionLine> = Vec::new();
        let mut auth: Vec<AuthLine> = Vec::new();
        // Every entity a line wrote, for compaction.
        let mut written: BTreeSet<(&'static str, Id)> = Default::default();
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
                    header = Some(h);
                } else if let Some(c) = v.get("clock") {
                    clock = Some(serde_json::from_value::<ClockLine>(c.clone())?);
                } else if let Some(d) = v.get("decision") {
                    decisions.push(serde_json::from_value(d.clone())?);
                } else if let Some(a) = v.get("auth") {
                    let line: AuthLine = serde_json::from_value(a.clone())
                        .with_context(|| format!("{} line {}", file_path.display(), n + 1))?;
                    line.keep(&mut auth);
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
        let (now, running) = match &clock {
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
        let header = header.unwrap_or(wanted);
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&file_path)?;
        let bytes = file.metadata()?.len();
        let mut inner = Inner {
            file,
            path: file_path,
            header,
            written,
            decisions: latest,
            auth: auth.clone(),
            clock,
            bytes,
            lines,
            compacted: (bytes, lines),
            compactions: 0,
        };
        if fresh {
            let header = json!({ "world": inner.header });
            inner.append(&header)?;
        } else if lines > COMPACT_AFTER {
            inner.compact(&world)?;
            tracing::info!(lines, kept = inner.lines, "sandbox journal compacted");
        }
        let decisions = inner.decisions.clone();
        let journal = Journal {
            inner: Mutex::new(inner),
        };
        journal.append_clock(now, running);
        let kept = journal.stats().1;
        Ok(Opened {
            journal,
            world,
            clock: (now, running),
            decisions,
            auth,
            lines: (lines, kept),
        })
    }
}

fn replay(
    w: &mut World,
    txn: TxnLine,
    written: &mut BTreeSet<(&'static str, Id)>,
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
