//! Password hashing with argon2id (PHC strings), bounded and run off the async runtime.
//!
//! One argon2id hash takes about 19 MiB and tens of milliseconds of one core. Unbounded, a
//! burst of sign-ups or logins would start hundreds at once: memory grows by gigabytes and
//! the async threads starve (health checks included). So every hash takes one of a few
//! permits and runs on the blocking pool; a caller that cannot get a permit within
//! [`PasswordHasher::wait`] is answered 503 with `Retry-After` instead of queueing forever.

use std::{sync::Arc, time::Duration};

use argon2::{
    Argon2, PasswordHash, PasswordHasher as _, PasswordVerifier,
    password_hash::{SaltString, rand_core::OsRng},
};
use tokio::sync::Semaphore;

use crate::error::ApiError;

/// The bounded pool every password hash and verification goes through.
#[derive(Clone)]
pub struct PasswordHasher {
    permits: Arc<Semaphore>,
    wait: Duration,
}

impl Default for PasswordHasher {
    /// One permit per core (at least two, at most four) and a five-second wait: a burst of
    /// a few hundred sign-ups drains within it, a sustained flood is turned away.
    fn default() -> PasswordHasher {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        PasswordHasher::new(cores.clamp(2, 4), Duration::from_secs(5))
    }
}

impl PasswordHasher {
    /// A pool running at most `permits` hashes at once; callers wait at most `wait`.
    pub fn new(permits: usize, wait: Duration) -> PasswordHasher {
        PasswordHasher {
            permits: Arc::new(Semaphore::new(permits.max(1))),
            wait,
        }
    }

    /// How long a caller waits for a permit before being answered 503.
    pub fn wait(&self) -> Duration {
        self.wait
    }

    /// Runs `work` on the blocking pool under a permit.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> anyhow::Result<T> + Send + 'static,
    ) -> Result<T, ApiError> {
        let permit =
            match tokio::time::timeout(self.wait, self.permits.clone().acquire_owned()).await {
                Ok(Ok(permit)) => permit,
                Ok(Err(_closed)) => return Err(anyhow::anyhow!("hasher closed").into()),
                Err(_elapsed) => {
                    tracing::warn!("password hashing saturated: request turned away");
                    return Err(ApiError::busy());
                }
            };
        let result = tokio::task::spawn_blocking(move || {
            let result = work();
            drop(permit);
            result
        })
        .await
        .map_err(|e| anyhow::anyhow!("password hashing task: {e}"))??;
        Ok(result)
    }

    /// Hashes a password with argon2id and a random salt.
    pub async fn hash(&self, password: String) -> Result<String, ApiError> {
        self.run(move || {
            let salt = SaltString::generate(&mut OsRng);
            Argon2::default()
                .hash_password(password.as_bytes(), &salt)
                .map(|h| h.to_string())
                .map_err(|e| anyhow::anyhow!("hashing a password: {e}"))
        })
        .await
    }

    /// Checks a password against a stored hash. With no stored hash it still does the work
    /// of one verification, so response times don't reveal which emails have accounts.
    pub async fn verify(&self, password: String, stored: Option<String>) -> Result<bool, ApiError> {
        self.run(move || {
            let known = stored.is_some();
            let stored = stored.unwrap_or_else(|| DUMMY_HASH.to_string());
            let parsed = PasswordHash::new(&stored)
                .map_err(|e| anyhow::anyhow!("stored hash unreadable: {e}"))?;
            let ok = Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok();
            Ok(ok && known)
        })
        .await
    }
}

/// A valid argon2id hash of a random string, verified against when the user is unknown.
const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c2VhcmNoZGVja2R1bW15$yd0h8Xx5mZx2dAhq1r8M8y0o6HqJ0nQ2x3G8bC3y5U4";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{BUSY_MESSAGE, BUSY_RETRY_AFTER_SECS};
    use axum::http::StatusCode;

    #[tokio::test]
    async fn hashes_verify_and_differ_per_salt() {
        let hasher = PasswordHasher::default();
        let a = hasher.hash("correct horse".into()).await.unwrap();
        let b = hasher.hash("correct horse".into()).await.unwrap();
        assert!(a.starts_with("$argon2id$"));
        assert_ne!(a, b);
        assert!(
            hasher
                .verify("correct horse".into(), Some(a.clone()))
                .await
                .unwrap()
        );
        assert!(!hasher.verify("wrong horse".into(), Some(a)).await.unwrap());
        assert!(!hasher.verify("anything".into(), None).await.unwrap());
    }

    #[tokio::test]
    async fn a_saturated_pool_answers_503_with_retry_after() {
        let hasher = PasswordHasher::new(1, Duration::from_millis(50));
        let held = hasher.permits.clone().acquire_owned().await.unwrap();
        match hasher.hash("correct horse".into()).await {
            Err(ApiError::Status {
                status,
                retry_after,
                message,
                ..
            }) => {
                assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
                assert_eq!(retry_after, Some(BUSY_RETRY_AFTER_SECS));
                assert_eq!(message, BUSY_MESSAGE);
            }
            other => panic!("expected 503, got {other:?}"),
        }
        drop(held);
        assert!(hasher.hash("correct horse".into()).await.is_ok());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn at_most_permits_hashes_run_at_once() {
        let hasher = PasswordHasher::new(2, Duration::from_secs(60));
        let running = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let peak = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let tasks = (0..8).map(|_| {
            let (hasher, running, peak) = (hasher.clone(), running.clone(), peak.clone());
            tokio::spawn(async move {
                hasher
                    .run(move || {
                        use std::sync::atomic::Ordering::SeqCst;
                        let now = running.fetch_add(1, SeqCst) + 1;
                        peak.fetch_max(now, SeqCst);
                        std::thread::sleep(Duration::from_millis(20));
                        running.fetch_sub(1, SeqCst);
                        Ok(())
                    })
                    .await
            })
        });
        for t in futures::future::join_all(tasks).await {
            t.unwrap().unwrap();
        }
        assert_eq!(peak.load(std::sync::atomic::Ordering::SeqCst), 2);
    }
}
