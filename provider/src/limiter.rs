//! The limiter the client waits on before every call, keyed by ad account (or by
//! credential for calls without one). [`RateGate`] is the seam for the shared,
//! cross-process limiter (Redis / database, built in `common::ratelimit`); [`LocalGate`]
//! is the in-process stand-in: a 429 (or `RateLimit-Remaining: 0`) pauses every caller of
//! that key until the server's reset, and an optional steady rate spaces calls out.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

use parking_lot::Mutex;

/// What the client needs from a rate limiter.
pub trait RateGate: Send + Sync {
    /// Waits until a call for `key` may go.
    fn acquire<'a>(&'a self, key: &'a str) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>>;
    /// Pauses every caller of `key` for `wait` (a 429 seen by anyone).
    fn pause(&self, key: &str, wait: Duration);
    /// Learns from a response's `RateLimit-Remaining` and `RateLimit-Reset`.
    fn observe(&self, key: &str, remaining: Option<u64>, reset: Option<Duration>);
}

#[derive(Default)]
struct KeyState {
    paused_until: Option<Instant>,
    next_slot: Option<Instant>,
}

/// The in-process limiter.
#[derive(Default)]
pub struct LocalGate {
    per_second: Option<u32>,
    keys: Mutex<HashMap<String, KeyState>>,
}

impl LocalGate {
    /// Pauses on 429s only.
    pub fn new() -> Self {
        Self::default()
    }

    /// Also spaces calls of each key at most `per_second` a second.
    pub fn per_second(per_second: u32) -> Self {
        LocalGate {
            per_second: Some(per_second.max(1)),
            keys: Mutex::default(),
        }
    }

    /// How long a caller of `key` must wait now, reserving its slot.
    fn reserve(&self, key: &str) -> Duration {
        let now = Instant::now();
        let mut keys = self.keys.lock();
        let state = keys.entry(key.to_string()).or_default();
        let mut at = now;
        if let Some(p) = state.paused_until.filter(|p| *p > at) {
            at = p;
        }
        if let Some(rate) = self.per_second {
            if let Some(slot) = state.next_slot.filter(|s| *s > at) {
                at = slot;
            }
            state.next_slot = Some(at + Duration::from_secs(1) / rate);
        }
        at - now
    }
}

impl RateGate for LocalGate {
    fn acquire<'a>(&'a self, key: &'a str) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>> {
        Box::pin(async move {
            loop {
                let wait = self.reserve(key);
                if wait.is_zero() {
                    return;
                }
                tokio::time::sleep(wait).await;
                // A pause may have grown while sleeping: check again.
                let paused = self.keys.lock().get(key).and_then(|s| s.paused_until);
                if paused.is_none_or(|p| p <= Instant::now()) {
                    return;
                }
            }
        })
    }

    fn pause(&self, key: &str, wait: Duration) {
        let until = Instant::now() + wait;
        let mut keys = self.keys.lock();
        let state = keys.entry(key.to_string()).or_default();
        if state.paused_until.is_none_or(|p| p < until) {
            state.paused_until = Some(until);
        }
    }

    fn observe(&self, key: &str, remaining: Option<u64>, reset: Option<Duration>) {
        if remaining == Some(0) {
            self.pause(key, reset.unwrap_or(Duration::from_secs(1)));
        }
    }
}
