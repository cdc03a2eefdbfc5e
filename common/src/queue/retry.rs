//! Exponential backoff with jitter and a cap, for retrying failed jobs.

use std::time::Duration;

use rand::Rng;

/// How often a job kind is tried and how long to wait between tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Runs allowed in total, counting the first one and runs lost to crashed workers.
    pub max_attempts: u32,
    /// Delay before the second attempt (before jitter).
    pub base_delay: Duration,
    /// No delay is ever longer than this.
    pub max_delay: Duration,
}

impl RetryPolicy {
    /// The delay before the attempt after `attempt` (1-based): `base * 2^(attempt-1)`, capped
    /// at `max_delay`, with "equal jitter" (uniform in the upper half). The upper-half jitter
    /// keeps successive delays non-decreasing while still spreading retries apart.
    pub fn delay_after(&self, attempt: u32) -> Duration {
        let exp = attempt.saturating_sub(1).min(30);
        let raw = self
            .base_delay
            .saturating_mul(1u32 << exp)
            .min(self.max_delay);
        let half = raw / 2;
        let jitter = rand::rng().random_range(0.0..=1.0);
        half + half.mul_f64(jitter)
    }

    /// Whether another attempt is allowed after `attempt` runs.
    pub fn may_retry(&self, attempt: u32) -> bool {
        attempt < self.max_attempts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_grow_exponentially_with_jitter_and_stop_at_the_cap() {
        let p = RetryPolicy {
            max_attempts: 10,
            base_delay: Duration::from_secs(2),
            max_delay: Duration::from_secs(20),
        };
        for _ in 0..200 {
            let d: Vec<_> = (1..=6).map(|a| p.delay_after(a)).collect();
            assert!(d[0] >= Duration::from_secs(1) && d[0] <= Duration::from_secs(2));
            assert!(d[2] >= Duration::from_secs(4) && d[2] <= Duration::from_secs(8));
            // Below the cap, successive delays never shrink.
            assert!(
                d[..4].windows(2).all(|w| w[0] <= w[1]),
                "non-decreasing: {d:?}"
            );
            assert!(d.iter().all(|x| *x <= p.max_delay));
            assert!(d[5] >= Duration::from_secs(10));
        }
        assert!(p.may_retry(9));
        assert!(!p.may_retry(10));
    }
}
