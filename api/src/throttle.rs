//! Throttles for the endpoints an attacker would hammer, tuned to stop guessing without
//! locking real users out.
//!
//! Each [`Throttle`] is a keyed GCRA: `burst` counted events at once, then one every
//! `period`. Password and code checks count **failures only**: an attempt reserves a slot
//! up front (so a parallel burst cannot slip past the limit) and gives it back when it
//! succeeds. Logins are limited per (email, client IP) strictly, and per email and per IP
//! loosely, so one attacker's wrong guesses from elsewhere do not lock the owner out.
//! (governor, used elsewhere, has no way to give a slot back, hence this small type.)
//!
//! Counts are per API process; that bounds guessing per process, a cheap first line rather
//! than accounting.

use std::{
    collections::HashMap,
    hash::Hash,
    net::IpAddr,
    sync::Mutex,
    time::{Duration, Instant},
};

use crate::error::ApiError;

/// Message when a login is throttled.
pub const LOGIN_THROTTLED: &str = "Too many login attempts. Try again in";
/// Message when password changes are throttled.
pub const PASSWORD_THROTTLED: &str = "Too many password attempts. Try again in";
/// Message when sign-ups from one address are throttled.
pub const REGISTER_THROTTLED: &str = "Too many sign-ups from this address. Try again in";
/// Message when recovery emails are throttled.
pub const RECOVERY_THROTTLED: &str = "Too many recovery emails. Try again in";
/// Message when recovery-code checks are throttled.
pub const CODE_THROTTLED: &str = "Too many attempts. Try again in";

/// One keyed limiter: `burst` events at once, then one every `period`.
pub struct Throttle<K: Hash + Eq + Clone> {
    /// Theoretical arrival time of the next event per key (GCRA).
    tat: Mutex<HashMap<K, Instant>>,
    burst: u32,
    period: Duration,
    message: &'static str,
}

/// A reserved attempt: counted as a failure unless [`Attempt::succeeded`] is called.
#[must_use = "an attempt counts as a failure unless marked succeeded"]
pub struct Attempt<'a, K: Hash + Eq + Clone> {
    throttle: &'a Throttle<K>,
    key: K,
}

impl<K: Hash + Eq + Clone> Attempt<'_, K> {
    /// The attempt succeeded: its slot is given back.
    pub fn succeeded(self) {
        let mut map = self.throttle.lock();
        if let Some(tat) = map.get_mut(&self.key) {
            *tat = tat
                .checked_sub(self.throttle.period)
                .unwrap_or_else(Instant::now);
        }
    }
}

impl<K: Hash + Eq + Clone> Throttle<K> {
    pub fn new(burst: u32, period: Duration, message: &'static str) -> Throttle<K> {
        assert!(
            burst > 0 && !period.is_zero(),
            "burst and period must be positive"
        );
        Throttle {
            tat: Mutex::new(HashMap::new()),
            burst,
            period,
            message,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, Instant>> {
        self.tat.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Counts one event for `key`; past the quota answers 429 with the wait in seconds.
    pub fn check(&self, key: &K) -> Result<(), ApiError> {
        let now = Instant::now();
        let mut map = self.lock();
        let tat = map.get(key).copied().unwrap_or(now).max(now);
        let next = tat + self.period;
        let allowed_until = now + self.period * self.burst;
        if next > allowed_until {
            let wait = (next - allowed_until).as_secs_f64().ceil().max(1.0) as u64;
            return Err(ApiError::too_many_requests(
                format!("{} {wait} seconds", self.message),
                wait,
            ));
        }
        map.insert(key.clone(), next);
        Ok(())
    }

    /// Reserves an attempt for `key` (429 when the failure budget is spent).
    pub fn attempt(&self, key: K) -> Result<Attempt<'_, K>, ApiError> {
        self.check(&key)?;
        Ok(Attempt {
            throttle: self,
            key,
        })
    }

    /// Drops keys whose budget has fully recovered (called now and then to bound memory).
    pub fn prune(&self) {
        let now = Instant::now();
        self.lock().retain(|_, tat| *tat > now);
    }

    /// Number of keys held (for tests and metrics).
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// All throttles of the API.
pub struct Throttles {
    /// Wrong passwords per (email, client IP): the strict limit a lone guesser hits.
    pub login_pair: Throttle<(String, IpAddr)>,
    /// Wrong passwords per email from anywhere: refills faster than one address may guess,
    /// so only a guesser with many addresses can spend it.
    pub login_email: Throttle<String>,
    /// Wrong passwords per client IP over all emails (credential stuffing).
    pub login_ip: Throttle<IpAddr>,
    /// Wrong current passwords per signed-in user (`changePassword`).
    pub change_password: Throttle<String>,
    /// Sign-ups per client IP (each one costs a password hash).
    pub register_ip: Throttle<IpAddr>,
    /// Recovery emails per address.
    pub recovery_email: Throttle<String>,
    /// Recovery requests per client IP.
    pub recovery_ip: Throttle<IpAddr>,
    /// Wrong recovery and invitation codes per client IP.
    pub code_ip: Throttle<IpAddr>,
    /// Wrong invitation codes per signed-in user (`team/checkCode`), as strict as wrong
    /// passwords per (email, address).
    pub invitation_user: Throttle<String>,
}

impl Default for Throttles {
    fn default() -> Throttles {
        let s = Duration::from_secs;
        Throttles {
            login_pair: Throttle::new(5, s(20), LOGIN_THROTTLED),
            login_email: Throttle::new(30, s(10), LOGIN_THROTTLED),
            login_ip: Throttle::new(30, s(2), LOGIN_THROTTLED),
            change_password: Throttle::new(5, s(20), PASSWORD_THROTTLED),
            register_ip: Throttle::new(10, s(60), REGISTER_THROTTLED),
            recovery_email: Throttle::new(3, s(120), RECOVERY_THROTTLED),
            recovery_ip: Throttle::new(10, s(6), RECOVERY_THROTTLED),
            code_ip: Throttle::new(10, s(6), CODE_THROTTLED),
            invitation_user: Throttle::new(5, s(20), CODE_THROTTLED),
        }
    }
}

/// A login attempt reserved on the pair, email and IP limits.
#[must_use = "an attempt counts as a failure unless marked succeeded"]
pub struct LoginAttempt<'a> {
    pair: Attempt<'a, (String, IpAddr)>,
    email: Attempt<'a, String>,
    ip: Attempt<'a, IpAddr>,
}

impl LoginAttempt<'_> {
    /// The password was right: none of the three limits counts it.
    pub fn succeeded(self) {
        self.pair.succeeded();
        self.email.succeeded();
        self.ip.succeeded();
    }
}

impl Throttles {
    /// Reserves a password check for `email` from `ip` on the strict (email, IP) limit and
    /// the looser per-email and per-IP limits. A refusal by one limit gives back what the
    /// others reserved, so only real password checks are ever counted.
    pub fn login(&self, email: &str, ip: IpAddr) -> Result<LoginAttempt<'_>, ApiError> {
        let pair = self.login_pair.attempt((email.to_string(), ip))?;
        let email = match self.login_email.attempt(email.to_string()) {
            Ok(a) => a,
            Err(e) => {
                pair.succeeded();
                return Err(e);
            }
        };
        match self.login_ip.attempt(ip) {
            Ok(ip) => Ok(LoginAttempt { pair, email, ip }),
            Err(e) => {
                pair.succeeded();
                email.succeeded();
                Err(e)
            }
        }
    }

    pub fn prune(&self) {
        self.login_pair.prune();
        self.login_email.prune();
        self.login_ip.prune();
        self.change_password.prune();
        self.register_ip.prune();
        self.recovery_email.prune();
        self.recovery_ip.prune();
        self.code_ip.prune();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn retry_after(result: Result<(), ApiError>) -> u64 {
        match result {
            Err(ApiError::Status {
                status,
                message,
                retry_after,
                ..
            }) => {
                assert_eq!(status.as_u16(), 429);
                assert!(message.starts_with(LOGIN_THROTTLED), "{message}");
                retry_after.unwrap()
            }
            other => panic!("expected 429, got {other:?}"),
        }
    }

    #[test]
    fn burst_then_429_with_wait() {
        let l: Throttle<String> = Throttle::new(2, Duration::from_secs(30), LOGIN_THROTTLED);
        let k = "a@x.io".to_string();
        assert!(l.check(&k).is_ok());
        assert!(l.check(&k).is_ok());
        assert!(retry_after(l.check(&k)) >= 29);
        assert!(
            l.check(&"b@x.io".to_string()).is_ok(),
            "other keys are unaffected"
        );
    }

    #[test]
    fn only_failed_attempts_are_counted() {
        let l: Throttle<String> = Throttle::new(3, Duration::from_secs(60), LOGIN_THROTTLED);
        let k = "a@x.io".to_string();
        for _ in 0..20 {
            l.attempt(k.clone()).unwrap().succeeded();
        }
        for _ in 0..3 {
            drop(l.attempt(k.clone()).unwrap());
        }
        assert!(retry_after(l.attempt(k.clone()).map(drop)) >= 59);
    }

    #[test]
    fn parallel_attempts_cannot_pass_the_budget() {
        let l: Throttle<u8> = Throttle::new(3, Duration::from_secs(60), LOGIN_THROTTLED);
        let held: Vec<_> = (0..3).map(|_| l.attempt(1).unwrap()).collect();
        assert!(
            l.attempt(1).is_err(),
            "a fourth in-flight attempt is refused"
        );
        held.into_iter().for_each(Attempt::succeeded);
        assert!(l.attempt(1).is_ok());
    }

    #[test]
    fn prune_keeps_only_keys_still_limited() {
        let l: Throttle<u8> = Throttle::new(1, Duration::from_secs(60), LOGIN_THROTTLED);
        l.check(&1).unwrap();
        l.attempt(2).unwrap().succeeded();
        l.prune();
        assert_eq!(l.len(), 1);
    }
}
