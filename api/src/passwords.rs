//! Password hashing with argon2id (PHC strings), run off the async runtime.

use argon2::{
    Argon2, PasswordHash, PasswordHasher, PasswordVerifier,
    password_hash::{SaltString, rand_core::OsRng},
};

/// Hashes a password with argon2id and a random salt.
pub async fn hash(password: String) -> anyhow::Result<String> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| anyhow::anyhow!("hashing a password: {e}"))
    })
    .await?
}

/// Checks a password against a stored hash. With no stored hash it still does the work of
/// one verification, so response times don't reveal which emails have accounts.
pub async fn verify(password: String, stored: Option<String>) -> anyhow::Result<bool> {
    tokio::task::spawn_blocking(move || {
        let stored = stored.unwrap_or_else(|| DUMMY_HASH.to_string());
        let parsed = PasswordHash::new(&stored)
            .map_err(|e| anyhow::anyhow!("stored hash unreadable: {e}"))?;
        let ok = Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok();
        Ok(ok && stored != DUMMY_HASH)
    })
    .await?
}

/// A valid argon2id hash of a random string, verified against when the user is unknown.
const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c2VhcmNoZGVja2R1bW15$yd0h8Xx5mZx2dAhq1r8M8y0o6HqJ0nQ2x3G8bC3y5U4";

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn hashes_verify_and_differ_per_salt() {
        let a = super::hash("correct horse".into()).await.unwrap();
        let b = super::hash("correct horse".into()).await.unwrap();
        assert!(a.starts_with("$argon2id$"));
        assert_ne!(a, b);
        assert!(
            super::verify("correct horse".into(), Some(a.clone()))
                .await
                .unwrap()
        );
        assert!(!super::verify("wrong horse".into(), Some(a)).await.unwrap());
        assert!(!super::verify("anything".into(), None).await.unwrap());
    }
}
