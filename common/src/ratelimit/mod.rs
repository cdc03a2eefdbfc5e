//! One rate limiter shared by every process, keyed by ad account (or by credential).
//!
//! Every provider call first awaits [`RateLimiter::acquire`] for its key and afterwards hands
//! the response's headers to [`RateLimiter::observe`]. Two layers pace the calls:
//!
//! 1. an in-process [`governor`] limiter per key, which smooths this process's own bursts
//!    before they reach the shared store (so one busy process cannot reserve far ahead);
//! 2. a [`SharedStore`] holding GCRA state per key, from which every process reserves its
//!    send slot: Redis when a Redis URL is configured, else a `rate_limits` database row
//!    (in-memory for single-process use and tests).
//!
//! The pace is learned from `RateLimit-Limit` (per `RateLimit-Policy` window, else
//! [`RateLimitSettings::window`]) times [`RateLimitSettings::safety`], and is shared through
//! the store, so one process's observation paces all. A 429 pauses the key in the store until
//! its `Retry-After`, which holds back every process; `RateLimit-Remaining: 0` with a reset
//! of two seconds or more pauses until the reset.
//!
//! A request is sent at its slot or not at all: a caller that wakes more than
//! [`RateLimitSettings::max_late`] after its slot (a busy machine, a slow store answer)
//! gives the slot up and reserves another. An unused slot only leaves the provider's window
//! a request short, while a late one followed by one on time could make one too many in it
//! (the pace's headroom, `window × (1/safety − 1)`, is 52 ms at the defaults).

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use secrecy::ExposeSecret;

mod db;
mod headers;
mod local;
mod redis;
mod store;

pub use db::DbStore;
pub use headers::{RateLimitInfo, parse_retry_after};
pub use redis::RedisStore;
pub use store::{MemoryStore, SharedStore};

/// A slot granted by the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reservation {
    /// How long to wait before sending.
    pub wait: Duration,
    /// The granted send time on the store's clock (microseconds; only differences matter).
    pub slot_us: i64,
    /// The pace learned for the key (microseconds between requests); `None` while no
    /// response has taught one and the caller's default applies.
    pub interval_us: Option<i64>,
    /// How long the store took to answer, from sending the request to reading the answer
    /// (zero in memory). The store read its clock somewhere within it, so the slot lies
    /// between `wait - round_trip` and `wait` from the moment the answer was read.
    pub round_trip: Duration,
}

impl Reservation {
    /// Builds a reservation from the store's answer; a slot already past means no wait.
    pub(crate) fn new(slot_us: i64, wait_us: i64, interval_us: Option<i64>) -> Reservation {
        Reservation {
            wait: Duration::from_micros(u64::try_from(wait_us).unwrap_or(0)),
            slot_us,
            interval_us: interval_us.filter(|i| *i > 0),
            round_trip: Duration::ZERO,
        }
    }

    /// The same reservation, answered after `round_trip`.
    pub(crate) fn answered_after(self, round_trip: Duration) -> Reservation {
        Reservation { round_trip, ..self }
    }
}

use local::LocalKeys;
use store::micros;

/// The rate-limit key of calls made in an ad account's context.
pub fn account_key(ad_account_id: &str) -> String {
    format!("account:{ad_account_id}")
}

/// The rate-limit key of calls made with a credential outside any ad account
/// (token exchange, `me`, `acls`).
pub fn credential_key(credential_id: &str) -> String {
    format!("credential:{credential_id}")
}

/// A failure of the shared store; the call should be retried later.
#[derive(Debug, thiserror::Error)]
pub enum RateLimitError {
    /// The `rate_limits` table could not be read or written.
    #[error("rate-limit store (database): {0}")]
    Database(#[from] sqlx::Error),
    /// Redis could not be reached or the script failed.
    #[error("rate-limit store (redis): {0}")]
    Redis(#[from] ::redis::RedisError),
}

/// Tuning of the limiter; the defaults suit Apple Ads.
#[derive(Debug, Clone)]
pub struct RateLimitSettings {
    /// Requests per second per key until a response has taught the real limit.
    pub initial_rate: f64,
    /// Fraction of the advertised limit to use, leaving room for clock and network jitter.
    pub safety: f64,
    /// Window of `RateLimit-Limit` when the server sends no `RateLimit-Policy`.
    pub window: Duration,
    /// Burst tolerance of the shared pace (zero: requests evenly spaced).
    pub tolerance: Duration,
    /// Burst of the in-process limiter, in requests.
    pub local_burst: u32,
    /// Pause after a 429 that carries neither `Retry-After` nor `RateLimit-Reset`.
    pub default_retry_after: Duration,
    /// Latest a request may be sent after its slot (counted from the earliest time the
    /// store's answer allows for the slot); later, the slot is given up and another
    /// reserved. Keep it under the pace's headroom, `window × (1/safety − 1)`.
    pub max_late: Duration,
}

impl Default for RateLimitSettings {
    fn default() -> Self {
        RateLimitSettings {
            initial_rate: 5.0,
            safety: 0.95,
            window: Duration::from_secs(1),
            tolerance: Duration::ZERO,
            local_burst: 2,
            default_retry_after: Duration::from_secs(1),
            max_late: Duration::from_millis(25),
        }
    }
}

struct Inner {
    store: SharedStore,
    settings: RateLimitSettings,
    keys: LocalKeys,
    /// Slots given up because the caller woke too late for them.
    missed: AtomicU64,
}

/// Slots in a row a caller gives up before it sends in the next one however late: a store
/// that always answers slower than `max_late` must slow the calls, not stop them.
const MISSED_IN_A_ROW: u32 = 3;

/// The shared rate limiter. Cheap to clone; clones share their local state.
#[derive(Clone)]
pub struct RateLimiter {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for RateLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimiter")
            .field("store", &self.inner.store.name())
            .field("settings", &self.inner.settings)
            .finish_non_exhaustive()
    }
}

impl RateLimiter {
    /// A limiter over `store`.
    pub fn new(store: SharedStore, settings: RateLimitSettings) -> RateLimiter {
        RateLimiter {
            inner: Arc::new(Inner {
                keys: LocalKeys::new(
                    interval_for_rate(settings.initial_rate),
                    settings.local_burst,
                ),
                store,
                settings,
                missed: AtomicU64::new(0),
            }),
        }
    }

    /// A limiter for one process only (state in memory).
    pub fn in_memory(settings: RateLimitSettings) -> RateLimiter {
        RateLimiter::new(SharedStore::memory(), settings)
    }

    /// The limiter the configuration asks for: Redis when `config.redis_url` is set, else
    /// the `rate_limits` table of `db` (migrated).
    pub async fn from_config(
        config: &crate::Config,
        db: &crate::Db,
        settings: RateLimitSettings,
    ) -> Result<RateLimiter, RateLimitError> {
        let store = match &config.redis_url {
            Some(url) => SharedStore::Redis(
                RedisStore::connect(url.expose_secret(), RedisStore::DEFAULT_PREFIX).await?,
            ),
            None => SharedStore::Database(DbStore::new(db.clone())),
        };
        Ok(RateLimiter::new(store, settings))
    }

    /// The shared store behind this limiter.
    pub fn store(&self) -> &SharedStore {
        &self.inner.store
    }

    /// Slots given up so far because their caller woke too late to send in them.
    pub fn missed_slots(&self) -> u64 {
        self.inner.missed.load(Ordering::Relaxed)
    }

    /// Waits until a request for `key` may be sent, and returns how long it waited.
    /// Each call spends one slot: call it once per request, right before sending.
    pub async fn acquire(&self, key: &str) -> Result<Duration, RateLimitError> {
        let started = Instant::now();
        let (s, keys) = (&self.inner.settings, &self.inner.keys);
        let default_interval = interval_for_rate(s.initial_rate);
        let mut missed = 0;
        loop {
            if let Some(until) = keys.paused_until(key) {
                tokio::time::sleep_until(until.into()).await;
            }
            let probe = keys.probe(key).await;
            keys.governor(key).until_ready().await;
            let reservation = self
                .inner
                .store
                .reserve(key, default_interval, micros(s.tolerance))
                .await?;
            // The slot on this process's clock: the store read its own clock while we
            // waited for its answer, so it lies within the round trip before `deadline`.
            let deadline = tokio::time::Instant::now() + reservation.wait;
            let earliest = deadline
                .checked_sub(reservation.round_trip)
                .unwrap_or(deadline);
            keys.follow(key, reservation.interval_us);
            let probing = probe.is_some();
            if let Some(permit) = probe {
                keys.hold_probe(key, permit);
            }
            tokio::time::sleep_until(deadline).await;
            // A 429 this process saw while we slept outranks our slot: reserve again.
            if keys.paused_until(key).is_some() {
                if probing {
                    keys.answered(key);
                }
                continue;
            }
            // Until a pace is known the probe lets one request out at a time, each after the
            // previous one's answer: a late one cannot be squeezed against the next.
            let late = earliest.elapsed();
            if late > s.max_late && reservation.interval_us.is_some() && missed < MISSED_IN_A_ROW {
                missed += 1;
                self.inner.missed.fetch_add(1, Ordering::Relaxed);
                tracing::debug!(
                    rate_limit.key = key,
                    late_ms = late.as_secs_f64() * 1e3,
                    round_trip_ms = reservation.round_trip.as_secs_f64() * 1e3,
                    "woke too late for the rate-limit slot; reserving another"
                );
                if probing {
                    keys.answered(key);
                }
                continue;
            }
            let waited = started.elapsed();
            if waited >= Duration::from_secs(5) {
                tracing::debug!(
                    rate_limit.key = key,
                    waited_ms = waited.as_millis() as u64,
                    "long rate-limit wait"
                );
            }
            return Ok(waited);
        }
    }

    /// Learns from a response for `key`: its limit sets the shared pace, and a 429 pauses
    /// every process for the key until `Retry-After`.
    pub async fn observe(&self, key: &str, info: &RateLimitInfo) -> Result<(), RateLimitError> {
        let (s, keys) = (&self.inner.settings, &self.inner.keys);
        // The pace goes to the store before this process calls it known and lets the
        // requests waiting behind its probe reserve their slots.
        let learned = self.learn(key, info).await;
        keys.answered(key);
        learned?;
        let pause = if info.is_rate_limited() {
            Some(
                info.retry_after
                    .or(info.reset)
                    .unwrap_or(s.default_retry_after),
            )
        } else if info.remaining == Some(0) || info.limit == Some(0) {
            info.reset.filter(|r| *r >= Duration::from_secs(2))
        } else {
            None
        };
        if let Some(pause) = pause {
            tracing::warn!(
                rate_limit.key = key,
                status = info.status,
                pause_ms = pause.as_millis() as u64,
                "rate limit reached; pausing every process for this key"
            );
            keys.pause(key, Instant::now() + pause);
            self.inner.store.pause(key, pause).await?;
        }
        Ok(())
    }

    /// Learns the pace of `key` from a response's limit: written to the store when it is
    /// new to this process, then followed here.
    async fn learn(&self, key: &str, info: &RateLimitInfo) -> Result<(), RateLimitError> {
        let (s, keys) = (&self.inner.settings, &self.inner.keys);
        let Some(limit) = info.limit.filter(|l| *l > 0) else {
            return Ok(());
        };
        let window = info.window.unwrap_or(s.window);
        let per_request = micros(window) as f64 / (limit as f64 * s.safety);
        let interval = (per_request.ceil() as i64).max(1);
        if keys.unwritten(key, interval) {
            tracing::info!(
                rate_limit.key = key,
                limit,
                window_s = window.as_secs_f64(),
                interval_us = interval,
                "rate-limit pace learned"
            );
            self.inner.store.set_interval(key, interval).await?;
            // The slot after this response's request was reserved at the pace known then
            // (the initial one, before a first answer): when the learned pace is slower,
            // that slot comes too early, and the request in it can be one too many in the
            // provider's window. Skipping one slot spaces the next request by the learned
            // interval at least (a slot lost once per process and key).
            if interval > interval_for_rate(s.initial_rate) {
                self.inner.store.reserve(key, interval, 0).await?;
            }
        }
        keys.learned(key, interval);
        Ok(())
    }

    /// [`RateLimiter::observe`] for callers that cannot await (synchronous hooks): this
    /// process's own pause applies at once, the shared store is updated on a spawned task
    /// (errors are logged). Must be called inside a Tokio runtime.
    pub fn observe_in_background(&self, key: &str, info: RateLimitInfo) {
        if info.is_rate_limited() {
            let s = &self.inner.settings;
            let pause = info
                .retry_after
                .or(info.reset)
                .unwrap_or(s.default_retry_after);
            self.inner.keys.pause(key, Instant::now() + pause);
        }
        let (limiter, key) = (self.clone(), key.to_string());
        tokio::spawn(async move {
            if let Err(e) = limiter.observe(&key, &info).await {
                tracing::warn!(rate_limit.key = %key, error = %e, "could not share a rate-limit observation");
            }
        });
    }
}

/// Microseconds between requests at `rate` per second.
fn interval_for_rate(rate: f64) -> i64 {
    let rate = if rate.is_finite() && rate > 0.0 {
        rate
    } else {
        1.0
    };
    ((1_000_000.0 / rate).ceil() as i64).max(1)
}
