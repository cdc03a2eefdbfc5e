//! Password hashing with argon2id (PHC strings), bounded and run off the async runtime.
//!
//! One argon2id hash takes about 19 MiB and tens of milliseconds of one core. Unbounded, a
//! burst of sign-ups or logins would start hundreds at once: memory grows by gigabytes and
//! the async threads starve (health checks included). So every hash takes one of a few
//! permits and runs on the blocking pool; a caller that cannot get a permit within
//! [`PasswordHasher::wait`] is answered 503 with `Retry-After` instead of queueing forever.
//!
//! Each permit reuses one argon2 memory buffer instead of allocating 19 MiB per hash: the
//! blocking pool runs hashes on ever-changing threads, and the allocator would otherwise keep
//! a freed buffer in each thread's arena, so memory grew with the number of hashes and stayed
//! up after the burst. With the buffers pooled, hashing holds `permits × 19 MiB`, no more.

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use argon2::{
    Algorithm, Argon2, Block, Params, Version,
    password_hash::{Output, ParamsString, PasswordHash, SaltString, rand_core::OsRng},
};
use tokio::sync::Semaphore;

use crate::error::ApiError;

/// The bounded pool every password hash and verification goes through.
#[derive(Clone)]
pub struct PasswordHasher {
    permits: Arc<Semaphore>,
    /// argon2 memory buffers, one per permit once warmed up.
    memory: Arc<Mutex<Vec<Vec<Block>>>>,
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
            memory: Arc::new(Mutex::new(Vec::new())),
            wait,
        }
    }

    /// How long a caller waits for a permit before being answered 503.
    pub fn wait(&self) -> Duration {
        self.wait
    }

    /// Runs `work` on the blocking pool under a permit, with a pooled memory buffer.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut [Block]) -> anyhow::Result<T> + Send + 'static,
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
        let pool = self.memory.clone();
        let result = tokio::task::spawn_blocking(move || {
            let taken = pool.lock().unwrap_or_else(|p| p.into_inner()).pop();
            let mut memory =
                taken.unwrap_or_else(|| vec![Block::default(); Params::default().block_count()]);
            let result = work(&mut memory);
            pool.lock().unwrap_or_else(|p| p.into_inner()).push(memory);
            drop(permit);
            result
        })
        .await
        .map_err(|e| anyhow::anyhow!("password hashing task: {e}"))??;
        Ok(result)
    }

    /// Hashes a password with argon2id and a random salt.
    pub async fn hash(&self, password: String) -> Result<String, ApiError> {
        self.run(move |memory| hash_with(memory, password.as_bytes()))
            .await
    }

    /// Checks a password against a stored hash. With no stored hash it still does the work
    /// of one verification, so response times don't reveal which emails have accounts.
    pub async fn verify(&self, password: String, stored: Option<String>) -> Result<bool, ApiError> {
        self.run(move |memory| {
            let known = stored.is_some();
            let stored = stored.as_deref().unwrap_or(DUMMY_HASH);
            Ok(verify_with(memory, password.as_bytes(), stored)? && known)
        })
        .await
    }
}

fn phc_error(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("argon2: {e}")
}

/// argon2id with the default parameters (19 MiB, 2 passes), as a PHC string.
fn hash_with(memory: &mut [Block], password: &[u8]) -> anyhow::Result<String> {
    let params = Params::default();
    let salt = SaltString::generate(&mut OsRng);
    let mut salt_buf = [0u8; 64];
    let salt_bytes = salt
        .as_salt()
        .decode_b64(&mut salt_buf)
        .map_err(phc_error)?;
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let blocks = params.block_count();
    let output = Output::init_with(Params::DEFAULT_OUTPUT_LEN, |out| {
        argon
            .hash_password_into_with_memory(password, salt_bytes, out, &mut memory[..blocks])
            .map_err(Into::into)
    })
    .map_err(phc_error)?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).map_err(phc_error)?,
        salt: Some(salt.as_salt()),
        hash: Some(output),
    };
    Ok(phc.to_string())
}

/// Recomputes a stored PHC hash's output with its own parameters and compares in constant
/// time. Hashes needing more memory than the pooled buffer get their own.
fn verify_with(memory: &mut [Block], password: &[u8], stored: &str) -> anyhow::Result<bool> {
    let parsed = PasswordHash::new(stored).map_err(phc_error)?;
    let params = Params::try_from(&parsed).map_err(phc_error)?;
    let algorithm = Algorithm::try_from(parsed.algorithm).map_err(phc_error)?;
    let version = match parsed.version {
        Some(v) => Version::try_from(v).map_err(phc_error)?,
        None => Version::default(),
    };
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        anyhow::bail!("stored hash has no salt or output");
    };
    let mut salt_buf = [0u8; 64];
    let salt_bytes = salt.decode_b64(&mut salt_buf).map_err(phc_error)?;
    let argon = Argon2::new(algorithm, version, params.clone());
    let blocks = params.block_count();
    let computed = Output::init_with(expected.len(), |out| {
        let result = if blocks <= memory.len() {
            argon.hash_password_into_with_memory(password, salt_bytes, out, &mut memory[..blocks])
        } else {
            argon.hash_password_into(password, salt_bytes, out)
        };
        result.map_err(Into::into)
    })
    .map_err(phc_error)?;
    Ok(computed == expected)
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
    async fn pooled_hashes_match_the_reference_implementation() {
        use argon2::{PasswordHasher as _, PasswordVerifier};
        let hasher = PasswordHasher::default();
        let ours = hasher.hash("correct horse".into()).await.unwrap();
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(
            Argon2::default()
                .verify_password(b"correct horse", &parsed)
                .is_ok()
        );
        let salt = SaltString::generate(&mut OsRng);
        let theirs = Argon2::default()
            .hash_password(b"battery staple", &salt)
            .unwrap()
            .to_string();
        assert!(
            hasher
                .verify("battery staple".into(), Some(theirs.clone()))
                .await
                .unwrap()
        );
        assert!(
            !hasher
                .verify("battery stable".into(), Some(theirs))
                .await
                .unwrap()
        );
        // Other parameters (more memory than the pooled buffer) still verify.
        let big = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(32 * 1024, 1, 1, None).unwrap(),
        );
        let stored = big.hash_password(b"tr0ub4dor", &salt).unwrap().to_string();
        assert!(
            hasher
                .verify("tr0ub4dor".into(), Some(stored))
                .await
                .unwrap()
        );
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
                    .run(move |_memory| {
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
