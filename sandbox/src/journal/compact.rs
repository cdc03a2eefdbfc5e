//! A compaction's file: the header, one line with the latest state of every entity ever
//! written, the whole change history and the counters, the decisions, the auth lines and
//! the clock — written beside the journal and renamed over it.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::Write;
use std::path::Path;

use anyhow::Context;
use serde_json::{Value, json};

use super::{ClockLine, DecisionLine, Header, TxnLine};
use crate::auth::kept::AuthLine;
use crate::world::{Id, World};

pub(super) fn entity_json(w: &World, kind: &str, id: Id) -> Option<Value> {
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
/// every entity in `written`, the change history and the counters, then `decisions` and
/// the clock (written beside it, then renamed over it). Answers the bytes and lines written.
pub(super) fn compact(
    file_path: &Path,
    header: &Header,
    w: &World,
    written: &BTreeSet<(&'static str, Id)>,
    decisions: &[DecisionLine],
    auth: &[AuthLine],
    clock: Option<&ClockLine>,
) -> anyhow::Result<(u64, usize)> {
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
    let mut lines = 0;
    for line in [json!({ "world": header }), json!({ "txn": txn })]
        .into_iter()
        .chain(decisions.iter().map(|d| json!({ "decision": d })))
        .chain(auth.iter().map(|a| json!({ "auth": a })))
        .chain(clock.map(|c| json!({ "clock": c })))
    {
        out.push_str(&line.to_string());
        out.push('\n');
        lines += 1;
    }
    let tmp = file_path.with_extension("jsonl.compacting");
    {
        let mut f = File::create(&tmp).with_context(|| format!("writing {}", tmp.display()))?;
        f.write_all(out.as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, file_path)
        .with_context(|| format!("replacing {}", file_path.display()))?;
    Ok((out.len() as u64, lines))
}
