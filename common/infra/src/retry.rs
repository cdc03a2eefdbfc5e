//! Exponential backoff with jitter and a cap: the one delay rule of job retries and of the
//! provider client's retries.

use std::time::Duration;

use rand::Rng;

/// Delays that double from `base` up to `max`, with "equal jitter".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    /// Delay before the second attempt (before jitter).
    pub base: Duration,
    /// No delay is ever longer than this.
    pub max: Duration,
}

impl Backoff {
    /// The delay before the attempt after `attempt` (1-based): `base * 2^(attempt-1)`, capped
    /// at `max`, with "equal jitter" (uniform in the upper half). The upper-half jitter
    /// keeps successive delays non-decreasing while still spreading retries apart.
    pub fn delay_after(&self, attempt: u32) -> Duration {
        let exp = attempt.saturating_sub(1).min(30);
        let raw = self.base.saturating_mul(1u32 << exp).min(self.max);
        let half = raw / 2;
        let jitter = rand::rng().random_range(0.0..=1.0);
        half + half.mul_f64(jitter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_grow_exponentially_with_jitter_and_stop_at_the_cap() {
        let b = Backoff {
            base: Duration::from_secs(2),
            max: Duration::from_secs(20),
        };
        for _ in 0..200 {
            let d: Vec<_> = (1..=6).map(|a| b.delay_after(a)).collect();
            assert!(d[0] >= Duration::from_secs(1) && d[0] <= Duration::from_secs(2));
            assert!(d[2] >= Duration::from_secs(4) && d[2] <= Duration::from_secs(8));
            // Below the cap, successive delays never shrink.
            assert!(
                d[..4].windows(2).all(|w| w[0] <= w[1]),
                "non-decreasing: {d:?}"
            );
            assert!(d.iter().all(|x| *x <= b.max));
            assert!(d[5] >= Duration::from_secs(10));
        }
    }
}
