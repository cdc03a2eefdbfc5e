//! Throttles for the endpoints an attacker would hammer: login (per email and per IP),
//! recovery emails (per email) and recovery-code checks (per IP).
//!
//! In-process GCRA limiters (governor). Each API process keeps its own counts, which bounds
//! guessing per process; that is the intent here, a cheap first line rather than accounting.

use std::{hash::Hash, net::IpAddr, num::NonZeroU32, time::Duration};

use governor::{
    DefaultKeyedRateLimiter, Quota, RateLimiter,
    clock::{Clock, DefaultClock},
};

use crate::error::ApiError;

/// Message when a login is throttled.
pub const LOGIN_THROTTLED: &str = "Too many login attempts. Try again in";

/// One keyed limiter: `burst` requests at once, then one every `period`.
pub struct Limiter<K: Hash + Eq + Clone> {
    limiter: DefaultKeyedRateLimiter<K>,
    message: &'static str,
}

impl<K: Hash + Eq + Clone> Limiter<K> {
    pub fn new(burst: u32, period: Duration, message: &'static str) -> Limiter<K> {
        let burst = NonZeroU32::new(burst).expect("burst must be positive");
        let quota = Quota::with_period(period)
            .expect("period must be positive")
            .allow_burst(burst);
        Limiter {
            limiter: RateLimiter::keyed(quota),
            message,
        }
    }

    /// Counts one request for `key`; past the quota answers 429 with the wait in seconds.
    pub fn check(&self, key: &K) -> Result<(), ApiError> {
        self.limiter.check_key(key).map_err(|not_until| {
            let wait = not_until
                .wait_time_from(DefaultClock::default().now())
                .as_secs_f64()
                .ceil() as u64;
            let wait = wait.max(1);
            ApiError::too_many_requests(format!("{} {wait} seconds", self.message), wait)
        })
    }

    /// Drops keys whose state has fully recovered (called now and then to bound memory).
    pub fn prune(&self) {
        self.limiter.retain_recent();
    }
}

/// All throttles of the API.
pub struct Throttles {
    pub login_email: Limiter<String>,
    pub login_ip: Limiter<IpAddr>,
    pub recovery_email: Limiter<String>,
    pub code_ip: Limiter<IpAddr>,
}

impl Default for Throttles {
    fn default() -> Throttles {
        Throttles {
            // 5 quick tries per account, then one every 20 s.
            login_email: Limiter::new(5, Duration::from_secs(20), LOGIN_THROTTLED),
            // A shared office or NAT gets more room, but not a credential-stuffing run.
            login_ip: Limiter::new(30, Duration::from_secs(2), LOGIN_THROTTLED),
            recovery_email: Limiter::new(
                3,
                Duration::from_secs(120),
                "Too many recovery emails. Try again in",
            ),
            code_ip: Limiter::new(
                10,
                Duration::from_secs(6),
                "Too many attempts. Try again in",
            ),
        }
    }
}

impl Throttles {
    pub fn prune(&self) {
        self.login_email.prune();
        self.login_ip.prune();
        self.recovery_email.prune();
        self.code_ip.prune();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burst_then_429_with_wait() {
        let l: Limiter<String> = Limiter::new(2, Duration::from_secs(30), LOGIN_THROTTLED);
        let k = "a@x.io".to_string();
        assert!(l.check(&k).is_ok());
        assert!(l.check(&k).is_ok());
        match l.check(&k) {
            Err(ApiError::Status {
                status,
                message,
                retry_after,
                ..
            }) => {
                assert_eq!(status.as_u16(), 429);
                assert!(message.starts_with(LOGIN_THROTTLED), "{message}");
                assert!(retry_after.unwrap() >= 29);
            }
            other => panic!("expected 429, got {other:?}"),
        }
        assert!(
            l.check(&"b@x.io".to_string()).is_ok(),
            "other keys are unaffected"
        );
    }
}
