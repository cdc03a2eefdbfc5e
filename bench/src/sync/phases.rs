//! The sync's phases, read from the handlers' own tracing events: [`SyncPhases`] records
//! every event of this crate and of the provider client with its time, and [`phases`]
//! turns them into wall minutes per phase (the entity sync, the queue's hand-over, each
//! report level's fetching and storing and its day-blob refresh, time inside provider
//! calls), the requests and rows per report level, the jobs retried and each phase's
//! window for its memory peak.

use std::{
    collections::BTreeMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use serde::Serialize;
use tracing::{Subscriber, field::Visit};
use tracing_subscriber::{Layer, filter::Targets, layer::Context as LayerContext};

/// One recorded event of the sync handlers.
#[derive(Debug, Clone)]
pub(super) struct Recorded {
    at: Instant,
    message: String,
    fields: BTreeMap<String, String>,
}

/// The sync handlers' tracing events, recorded with their time: add [`SyncPhases::layer`]
/// to the process's subscriber and hand the same value to [`run`].
#[derive(Debug, Clone, Default)]
pub struct SyncPhases {
    events: Arc<Mutex<Vec<Recorded>>>,
}

struct Capture(SyncPhases);

#[derive(Default)]
struct Fields(BTreeMap<String, String>);

impl Visit for Fields {
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.insert(field.name().to_string(), value.to_string());
    }

    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0
            .insert(field.name().to_string(), format!("{value:?}"));
    }
}

impl<S: Subscriber> Layer<S> for Capture {
    fn on_event(&self, event: &tracing::Event<'_>, _ctx: LayerContext<'_, S>) {
        let mut fields = Fields::default();
        event.record(&mut fields);
        let message = fields.0.remove("message").unwrap_or_default();
        if let Ok(mut events) = self.0.events.lock() {
            events.push(Recorded {
                at: Instant::now(),
                message,
                fields: fields.0,
            });
        }
    }
}

impl SyncPhases {
    /// A layer recording the events of this crate and of the provider client (one per
    /// provider call, with its duration) at info level and above.
    pub fn layer<S>(&self) -> impl Layer<S> + Send + Sync + 'static
    where
        S: Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    {
        Capture(self.clone()).with_filter(
            Targets::new()
                .with_target(env!("CARGO_CRATE_NAME"), tracing::Level::INFO)
                .with_target("searchdeck_provider", tracing::Level::INFO),
        )
    }

    pub(super) fn take(&self) -> Vec<Recorded> {
        self.events
            .lock()
            .map(|mut e| std::mem::take(&mut *e))
            .unwrap_or_default()
    }
}

/// Wall time of the sync, by phase, in minutes.
#[derive(Debug, Default, Serialize)]
pub(super) struct Minutes {
    pub(super) total: f64,
    /// `sync-account`: every entity of every campaign group.
    pub(super) entities: f64,
    /// From `sync-account`'s end to `sync-reports`' start (the queue's hand-over).
    pub(super) handover: f64,
    /// `sync-reports` as a whole.
    pub(super) reports: f64,
    /// Per entity kind listed, over every campaign group.
    pub(super) entity_kinds: BTreeMap<String, f64>,
    /// Per report level: fetching and storing its days.
    pub(super) report_levels: BTreeMap<String, f64>,
    /// Per report level: refreshing its day blobs.
    pub(super) blob_refresh: BTreeMap<String, f64>,
    /// Time inside provider calls (the sandbox's work, the transfer and the parsing of the
    /// answer into JSON), per report level and `entities` for the rest; the remainder of a
    /// phase is ours (turning rows into records, storing them).
    pub(super) provider_calls: BTreeMap<String, f64>,
}

/// Rows and requests per report level.
#[derive(Debug, Default, Serialize)]
pub(super) struct LevelCounts {
    pub(super) requests: u64,
    pub(super) rows: u64,
}

pub(super) fn minutes(d: Duration) -> f64 {
    d.as_secs_f64() / 60.0
}

fn ms_field(e: &Recorded, name: &str) -> u64 {
    e.fields
        .get(name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_default()
}

/// Phases, per-level counts and job retries from the recorded events.
/// `finished`: when the sync was seen done (the total when the events lack its end).
/// Also returns the window of each phase, for its memory peak.
pub(super) type Phases = (
    Minutes,
    BTreeMap<String, LevelCounts>,
    u64,
    Vec<(String, Instant, Instant)>,
);

pub(super) fn phases(events: &[Recorded], started: Instant, finished: Instant) -> Phases {
    let mut m = Minutes::default();
    let mut windows = Vec::new();
    let mut levels: BTreeMap<String, LevelCounts> = BTreeMap::new();
    let mut retries = 0;
    let (mut account_start, mut account_done, mut reports_start, mut reports_done) =
        (None, None, None, None);
    for e in events {
        let kind = e.fields.get("job.kind").map(String::as_str);
        match (e.message.as_str(), kind) {
            ("job started", Some("sync-account")) => {
                account_start.get_or_insert(e.at);
            }
            ("job done", Some("sync-account")) => account_done = Some(e.at),
            ("job started", Some("sync-reports")) => {
                reports_start.get_or_insert(e.at);
            }
            ("job done", Some("sync-reports")) => reports_done = Some(e.at),
            ("entities listed", _) => {
                let kind = e.fields.get("kind").cloned().unwrap_or_default();
                *m.entity_kinds.entry(kind).or_default() += ms_field(e, "ms") as f64 / 60_000.0;
            }
            ("metrics level synced", _) => {
                let level = e.fields.get("level").cloned().unwrap_or_default();
                let (all, refresh) = (ms_field(e, "ms"), ms_field(e, "refresh_ms"));
                let ago = |ms: u64| e.at.checked_sub(Duration::from_millis(ms)).unwrap_or(e.at);
                windows.push((level.clone(), ago(all), ago(refresh)));
                windows.push((format!("{level} refresh"), ago(refresh), e.at));
                *m.report_levels.entry(level.clone()).or_default() +=
                    all.saturating_sub(refresh) as f64 / 60_000.0;
                *m.blob_refresh.entry(level.clone()).or_default() += refresh as f64 / 60_000.0;
                let counts = levels.entry(level).or_default();
                counts.requests += ms_field(e, "requests");
                counts.rows += ms_field(e, "rows");
            }
            ("provider call" | "provider call failed", _) => {
                let path = e.fields.get("path").map(String::as_str).unwrap_or_default();
                let level = path
                    .trim_matches('"')
                    .strip_prefix("/reports/apps/")
                    .and_then(|p| p.strip_suffix("/query"))
                    .unwrap_or("entities");
                *m.provider_calls.entry(level.to_string()).or_default() +=
                    ms_field(e, "duration_ms") as f64 / 60_000.0;
            }
            (msg, _)
                if msg.starts_with("job failed; retrying")
                    || msg.starts_with("job rate limited") =>
            {
                retries += 1;
            }
            _ => {}
        }
    }
    let span = |a: Option<Instant>, b: Option<Instant>| match (a, b) {
        (Some(a), Some(b)) => minutes(b.saturating_duration_since(a)),
        _ => 0.0,
    };
    m.entities = span(account_start, account_done);
    m.handover = span(account_done, reports_start);
    m.reports = span(reports_start, reports_done);
    m.total = span(Some(started), reports_done.or(Some(finished)));
    if let (Some(a), Some(b)) = (account_start, account_done) {
        windows.push(("entities".to_string(), a, b));
    }
    (m, levels, retries, windows)
}
