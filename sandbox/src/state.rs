//! The shared state behind every route: the world (copy-on-write snapshots, so long reads
//! never hold the lock), the simulated clock, credentials and tokens, fault settings and
//! the rate-limit windows.

use std::ops::{Deref, DerefMut};
use std::path::PathBuf;
use std::sync::Arc;

use parking_lot::{RwLock, RwLockWriteGuard};
use time::OffsetDateTime;

use crate::api::report_cache::ReportCache;
use crate::auth::store::AuthStore;
use crate::clock::Clock;
use crate::faults::Faults;
use crate::journal::Journal;
use crate::world::{World, WorldConfig};

/// How to start a sandbox.
#[derive(Debug, Clone, Default)]
pub struct SandboxConfig {
    pub world: WorldConfig,
    pub faults: crate::faults::FaultConfig,
    /// The simulated now at start (`None`: the wall clock's now).
    pub now: Option<OffsetDateTime>,
    /// Whether the simulated clock stands still until set (tests); it runs by default.
    pub frozen_clock: bool,
    /// Directory where the sandbox keeps its writes (`None`: in memory only).
    pub data_dir: Option<PathBuf>,
}

impl SandboxConfig {
    /// The default configuration over a world of `size` (tests pick the mid-size world
    /// with `SandboxConfig::sized(WorldSize::Mid)`).
    pub fn sized(size: crate::world::WorldSize) -> Self {
        Self {
            world: WorldConfig {
                size,
                ..WorldConfig::default()
            },
            ..Self::default()
        }
    }
}

/// The world behind a lock that is held only to take a snapshot or to write.
pub struct WorldCell {
    inner: RwLock<Arc<World>>,
    clock: Arc<Clock>,
    journal: Option<Arc<Journal>>,
}

impl WorldCell {
    /// A snapshot of the world as of the clock's current hour. Readers keep it as long as
    /// they like: a writer copies the world instead of waiting for them.
    pub fn read(&self) -> Arc<World> {
        let snapshot = self.inner.read().clone();
        if snapshot.now_hour() == World::hour_of(self.clock.now()) {
            return snapshot;
        }
        let w = self.write();
        Arc::clone(&w.guard)
    }

    /// The world for writing, its `now` set from the clock. Writes made through it are
    /// appended to the journal when it is dropped.
    pub fn write(&self) -> WorldWrite<'_> {
        let now = self.clock.now();
        let mut guard = self.inner.write();
        if guard.now != now {
            Arc::make_mut(&mut guard).set_now(now);
        }
        WorldWrite { guard, cell: self }
    }

    /// The simulated clock.
    pub fn clock(&self) -> &Arc<Clock> {
        &self.clock
    }

    /// Records a decision on a recommendation in the journal (made under a world write, whose
    /// end compacts the journal when it has grown).
    pub fn journal_decision(&self, d: &crate::journal::DecisionLine) {
        if let Some(journal) = &self.journal {
            journal.append_decision(d);
        }
    }

    /// Records a change of the clock in the journal.
    pub fn clock_changed(&self) {
        if let Some(journal) = &self.journal {
            journal.append_clock(self.clock.now(), self.clock.running());
            self.compact_if_grown(journal);
        }
    }

    /// Compacts the journal if clock lines made it grow enough. The read lock keeps writers
    /// (and their journal lines) out meanwhile; never called under the world's lock.
    fn compact_if_grown(&self, journal: &Journal) {
        journal.compact_if_grown(&self.inner.read());
    }

    /// The journal, when writes are kept on disk.
    pub fn journal(&self) -> Option<&Journal> {
        self.journal.as_deref()
    }
}

/// Write access to the world; the write lock is held until it is dropped.
pub struct WorldWrite<'a> {
    guard: RwLockWriteGuard<'a, Arc<World>>,
    cell: &'a WorldCell,
}

impl Deref for WorldWrite<'_> {
    type Target = World;
    fn deref(&self) -> &World {
        &self.guard
    }
}

impl DerefMut for WorldWrite<'_> {
    fn deref_mut(&mut self) -> &mut World {
        let w = Arc::make_mut(&mut self.guard);
        w.bump_version();
        w
    }
}

impl Drop for WorldWrite<'_> {
    fn drop(&mut self) {
        if let Some(journal) = &self.cell.journal
            && self.guard.has_pending_writes()
        {
            journal.append_changes(Arc::make_mut(&mut self.guard));
        }
    }
}

/// One running sandbox.
pub struct Sandbox {
    pub world: WorldCell,
    pub auth: AuthStore,
    pub faults: Faults,
    /// Recommendations applied or dismissed through the API.
    pub recommendations: crate::api::recommendations::Decisions,
    /// Computed report rows kept for the next pages of the same report.
    pub reports: ReportCache,
    /// Faults of the attribution providers' reporting-API stand-ins.
    pub mmp: crate::api::mmp::MmpFaults,
    /// The App Store Connect API keys registered (`POST /sandbox/appstoreconnect/keys`).
    pub app_store_connect: crate::api::appstore_connect::AscKeys,
}

/// Days before today a started sandbox computes ahead ([`Sandbox::warm_up`]): the longest
/// DAILY window the reference allows.
pub const WARM_DAYS: i64 = 90;

impl Sandbox {
    /// Computes the settled days of the last [`WARM_DAYS`] of every campaign, then their
    /// search-term and ad weeks, on a thread of its own at a low priority, so the first
    /// reports of a large world read them instead of simulating and splitting them. Answers at once; the thread ends when done.
    pub fn warm_up(self: &Arc<Self>) {
        let sandbox = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .name("sandbox-warm-up".into())
            .spawn(move || {
                crate::api::crud::lower_priority();
                let started = std::time::Instant::now();
                let w = sandbox.world.read();
                let first = w.today - time::Duration::days(WARM_DAYS);
                let last = w.today - time::Duration::days(crate::sim::late::SETTLE_DAYS);
                let mut sim = crate::sim::Simulation::new(&w);
                for c in w.campaigns.keys() {
                    let mut day = first.max(w.first_day());
                    while day <= last {
                        sim.campaign_units(*c, day);
                        day = day.next_day().expect("date in range");
                    }
                }
                // Then the search-term and ad rows of the settled weeks, from the kept days.
                for c in w.campaigns.keys() {
                    crate::api::report_rows::keep_weeks(
                        &mut sim,
                        *c,
                        first.max(w.first_day()),
                        last,
                    );
                }
                tracing::info!(
                    elapsed_ms = started.elapsed().as_millis() as u64,
                    bytes = w.days.as_ref().map_or(0, |d| d.bytes()),
                    "sandbox days computed ahead"
                );
            });
        if let Err(e) = spawned {
            tracing::warn!(error = %e, "could not start the sandbox warm-up");
        }
    }

    /// Generates the world (replaying the journal of `config.data_dir` when there is one)
    /// and empty credential stores. Panics when the journal cannot be read: see
    /// [`Sandbox::open`] for the fallible form.
    pub fn new(config: SandboxConfig) -> Arc<Self> {
        Self::open(config).expect("sandbox state")
    }

    /// [`Sandbox::new`], answering an error when the data dir's journal is unusable.
    pub fn open(config: SandboxConfig) -> anyhow::Result<Arc<Self>> {
        let started = std::time::Instant::now();
        let start_now = config.now.unwrap_or_else(OffsetDateTime::now_utc);
        let mut world_config = config.world;
        world_config.today.get_or_insert(start_now.date());
        let (journal, world, now, running, decisions, auth) = match &config.data_dir {
            Some(dir) => {
                let opened = Journal::open(dir, world_config, config.now, !config.frozen_clock)?;
                let (now, running) = opened.clock;
                (
                    Some(Arc::new(opened.journal)),
                    opened.world,
                    now,
                    running,
                    opened.decisions,
                    opened.auth,
                )
            }
            None => (
                None,
                World::generate(world_config),
                start_now,
                !config.frozen_clock,
                Vec::new(),
                Vec::new(),
            ),
        };
        tracing::info!(
            seed = world_config.seed,
            keywords = world.keywords.len(),
            now = %now,
            elapsed_ms = started.elapsed().as_millis() as u64,
            "sandbox world ready"
        );
        // A running clock without a set start keeps pace with the wall clock: generating the
        // world took time, so it starts now rather than when generation began.
        let now = match (&config.data_dir, config.now, running) {
            (None, None, true) => OffsetDateTime::now_utc(),
            _ => now,
        };
        let clock = Arc::new(Clock::new(now, running));
        let mut world = world;
        world.set_now(now);
        world.days = Some(Arc::new(crate::sim::days::DayCache::new(
            crate::sim::days::DEFAULT_BYTES,
        )));
        // Keys, refresh tokens and codes are journaled with the world, so a restarted
        // sandbox still knows every client that connected.
        let auth_store = match &journal {
            Some(j) => AuthStore::journaled(clock.clone(), &auth, j.clone())?,
            None => AuthStore::with_clock(clock.clone()),
        };
        Ok(Arc::new(Sandbox {
            world: WorldCell {
                inner: RwLock::new(Arc::new(world)),
                clock,
                journal,
            },
            auth: auth_store,
            faults: Faults::new(config.faults, config.world.seed),
            recommendations: crate::api::recommendations::Decisions::restore(decisions),
            reports: ReportCache::default(),
            mmp: Default::default(),
            app_store_connect: Default::default(),
        }))
    }
}
