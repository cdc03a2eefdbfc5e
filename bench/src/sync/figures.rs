//! What one backend's sync measured ([`Figures`]: provider traffic, wall minutes per phase,
//! rows per table and level, database size, memory and load) and its printed tables.

use std::collections::BTreeMap;

use searchdeck_provider::MetricsSnapshot;
use serde::Serialize;

use super::memory;
use super::phases::{LevelCounts, Minutes};

/// What one backend's sync measured.
#[derive(Debug, Serialize)]
pub(super) struct Figures {
    pub(super) backend: String,
    /// Why the sync did not complete (the figures are then those of the part done).
    pub(super) incomplete: Option<String>,
    pub(super) provider: MetricsSnapshot,
    pub(super) minutes: Minutes,
    pub(super) levels: BTreeMap<String, LevelCounts>,
    /// Rows per table (entities by kind, search terms, day blobs).
    pub(super) rows: BTreeMap<String, i64>,
    /// `asa_day_metrics` rows per level.
    pub(super) metric_rows: BTreeMap<String, i64>,
    pub(super) db_bytes: i64,
    /// This process: the sync's (and the sandbox's with `--in-process-sandbox`).
    pub(super) rss_before_mib: Option<f64>,
    pub(super) peak_rss_mib: Option<f64>,
    /// The sandbox child's, when it runs apart.
    pub(super) sandbox_rss_before_mib: Option<f64>,
    pub(super) sandbox_peak_rss_mib: Option<f64>,
    /// Highest RSS sampled (once a second) per phase: `entities`, `<level>` (fetching and
    /// storing its days), `<level> refresh` (its day blobs).
    pub(super) peak_rss_by_phase: BTreeMap<String, memory::PhasePeak>,
    pub(super) load_avg_mean: f64,
    pub(super) load_avg_max: f64,
    /// Jobs rescheduled after an error or a rate limit.
    pub(super) job_retries: u64,
}

/// Prints `f` as the tables of `searchdeck bench sync`.
pub(super) fn print(f: &Figures) {
    let p = &f.provider;
    println!("== {} ==", f.backend);
    if let Some(why) = &f.incomplete {
        println!("INCOMPLETE: {why}; the figures below are those of the part done");
    }
    println!(
        "provider: {} calls, {} requests ({} token exchanges), {} retries, {} × 429, {} failed; limiter wait {:.1} s",
        p.calls,
        p.requests,
        p.token_exchanges,
        p.retries,
        p.rate_limited_responses,
        p.failed(),
        p.limiter_wait_ms as f64 / 1000.0
    );
    let m = &f.minutes;
    println!(
        "wall minutes: total {:.2} = entities {:.2} + hand-over {:.2} + reports {:.2}",
        m.total, m.entities, m.handover, m.reports
    );
    println!(
        "  in provider calls (the sandbox's work, transfer, JSON parsing): {}",
        m.provider_calls
            .iter()
            .map(|(k, v)| format!("{k} {v:.2}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for (kind, min) in &m.entity_kinds {
        println!("  entities {kind:<18} {min:>7.2} min");
    }
    for (level, min) in &m.report_levels {
        let refresh = m.blob_refresh.get(level).copied().unwrap_or_default();
        let counts = f.levels.get(level);
        println!(
            "  report {level:<12} fetch+store {min:>7.2} min, blob refresh {refresh:>6.2} min, {} requests, {} rows",
            counts.map_or(0, |c| c.requests),
            counts.map_or(0, |c| c.rows)
        );
    }
    println!("rows:");
    for (table, n) in &f.rows {
        println!("  {table:<24} {n:>12}");
    }
    for (level, n) in &f.metric_rows {
        println!("  asa_day_metrics {level:<8} {n:>12}");
    }
    let whose = if f.sandbox_peak_rss_mib.is_some() {
        "the sync's"
    } else {
        "the sync's and the in-process sandbox's"
    };
    println!(
        "database: {:.1} MB; RSS before the sync {:.0} MiB, peak {:.0} MiB (this process: {whose}); load average mean {:.2}, max {:.2}; {} job retries",
        f.db_bytes as f64 / 1e6,
        f.rss_before_mib.unwrap_or_default(),
        f.peak_rss_mib.unwrap_or_default(),
        f.load_avg_mean,
        f.load_avg_max,
        f.job_retries
    );
    if let Some(peak) = f.sandbox_peak_rss_mib {
        println!(
            "sandbox child: RSS before the sync {:.0} MiB, peak {peak:.0} MiB",
            f.sandbox_rss_before_mib.unwrap_or_default()
        );
    }
    println!("peak RSS sampled per phase (MiB, sync / sandbox child):");
    for (phase, p) in &f.peak_rss_by_phase {
        println!("  {phase:<22} {:>7.0} / {:>7.0}", p.ours_mib, p.sandbox_mib);
    }
}
