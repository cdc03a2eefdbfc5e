//! Encryption at rest for provider private keys and tokens.
//!
//! Values are sealed with XChaCha20-Poly1305 under one 32-byte key and a fresh random 192-bit
//! nonce per value, and stored as text: `v1:<key id>:<base64(nonce || ciphertext || tag)>`.
//! The key id (8 hex digits of the key's SHA-256) only tells a value sealed under another key
//! apart from a tampered one; it reveals nothing usable about the key.
//!
//! The key comes from `SEARCHDECK_SECRET_KEY` (32 bytes, base64 or hex). Without it, the
//! embedded setup generates one into `<data dir>/secret.key` once, with owner-only
//! permissions, and every later start (and every other process on the same data dir)
//! reuses that file.

use std::path::{Path, PathBuf};

use base64::{
    Engine,
    engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD},
};
use chacha20poly1305::{
    KeyInit, XChaCha20Poly1305, XNonce,
    aead::{Aead, Payload},
};
use rand::RngCore;
use secrecy::{ExposeSecret, SecretString};
use sha2::{Digest, Sha256};
use zeroize::Zeroize;

use crate::config::Config;

mod keyfile;

/// Name of the generated key file inside the data directory.
pub const KEY_FILE_NAME: &str = "secret.key";

const VERSION: &str = "v1";
const NONCE_LEN: usize = 24;
const TAG_LEN: usize = 16;

/// Why a key could not be loaded or a value could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum SecretsError {
    /// The configured key is not 32 bytes of base64 or hex.
    #[error(
        "SEARCHDECK_SECRET_KEY must be 32 bytes written as base64 (44 characters) or hex \
         (64 characters): {0}"
    )]
    BadKey(String),
    /// The key file could not be used.
    #[error("secret key file {path}: {reason}")]
    KeyFile { path: PathBuf, reason: String },
    /// Reading or writing the key file failed.
    #[error("secret key file {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The stored text is not a sealed value of a known version.
    #[error("stored secret is malformed: {0}")]
    Malformed(&'static str),
    /// The value was sealed under a different key (the key changed or the wrong one is set).
    #[error("stored secret was encrypted with a different key (key id {found}, current {current})")]
    WrongKey { found: String, current: String },
    /// Authentication failed: the value or its context was altered.
    #[error("stored secret failed authentication (altered, or opened with the wrong context)")]
    Tampered,
}

/// A 256-bit encryption key. Wiped from memory on drop; `Debug` shows only its id.
#[derive(Clone)]
pub struct SecretKey([u8; 32]);

impl Drop for SecretKey {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SecretKey(id {}, redacted)", self.id())
    }
}

impl SecretKey {
    /// A new random key from the operating system's generator.
    pub fn generate() -> SecretKey {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        SecretKey(bytes)
    }

    /// Parses 32 bytes written as hex (64 digits) or base64 (standard or URL-safe, padded
    /// or not). Surrounding whitespace is ignored; the error never echoes the input.
    pub fn parse(text: &str) -> Result<SecretKey, SecretsError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(SecretsError::BadKey("it is empty".into()));
        }
        let mut bytes = if text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
            hex::decode(text).map_err(|_| SecretsError::BadKey("invalid hex".into()))?
        } else {
            [STANDARD, URL_SAFE, STANDARD_NO_PAD, URL_SAFE_NO_PAD]
                .iter()
                .find_map(|engine| engine.decode(text).ok())
                .ok_or_else(|| SecretsError::BadKey("neither hex nor base64".into()))?
        };
        let result = <[u8; 32]>::try_from(bytes.as_slice())
            .map(SecretKey)
            .map_err(|_| SecretsError::BadKey(format!("it decodes to {} bytes", bytes.len())));
        bytes.zeroize();
        result
    }

    /// The key as standard base64, the form written to the key file.
    pub fn to_base64(&self) -> SecretString {
        STANDARD.encode(self.0).into()
    }

    /// A short public identifier of the key: 8 hex digits of its SHA-256.
    pub fn id(&self) -> String {
        hex::encode(&Sha256::digest(self.0)[..4])
    }

    /// Reads the key at `path`, or creates it there (mode 0600, atomically) when absent.
    /// An existing file readable or writable by group or others is refused.
    pub fn load_or_create(path: &Path) -> Result<SecretKey, SecretsError> {
        keyfile::load_or_create(path)
    }

    /// The configured key, or the data directory's generated one in embedded mode.
    pub fn from_config(config: &Config) -> Result<SecretKey, SecretsError> {
        match &config.secret_key {
            Some(text) => SecretKey::parse(text.expose_secret()),
            None => SecretKey::load_or_create(&config.data_dir.join(KEY_FILE_NAME)),
        }
    }
}

/// Seals and opens stored secrets under one key.
#[derive(Clone)]
pub struct SecretBox {
    cipher: XChaCha20Poly1305,
    key_id: String,
}

impl std::fmt::Debug for SecretBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SecretBox(key id {})", self.key_id)
    }
}

impl SecretBox {
    /// A box over `key`.
    pub fn new(key: &SecretKey) -> SecretBox {
        SecretBox {
            cipher: XChaCha20Poly1305::new(&key.0.into()),
            key_id: key.id(),
        }
    }

    /// A box over the configured (or generated) key; see [`SecretKey::from_config`].
    pub fn from_config(config: &Config) -> Result<SecretBox, SecretsError> {
        Ok(SecretBox::new(&SecretKey::from_config(config)?))
    }

    /// The id of the key this box seals with.
    pub fn key_id(&self) -> &str {
        &self.key_id
    }

    /// Seals `plaintext` bound to `context` (associated data such as
    /// `"connection:<id>:private_key"`): the value only opens with the same context, so a
    /// sealed value copied into another row or field fails authentication.
    pub fn seal(&self, context: &str, plaintext: &[u8]) -> String {
        let mut nonce = [0u8; NONCE_LEN];
        rand::rng().fill_bytes(&mut nonce);
        let payload = Payload {
            msg: plaintext,
            aad: context.as_bytes(),
        };
        let sealed = self
            .cipher
            .encrypt(&XNonce::from(nonce), payload)
            .expect("XChaCha20-Poly1305 encrypts any length a process can hold");
        let mut out = Vec::with_capacity(NONCE_LEN + sealed.len());
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&sealed);
        format!("{VERSION}:{}:{}", self.key_id, STANDARD.encode(out))
    }

    /// Opens a value sealed by [`SecretBox::seal`] with the same context.
    pub fn open(&self, context: &str, stored: &str) -> Result<Vec<u8>, SecretsError> {
        let mut parts = stored.trim().splitn(3, ':');
        let (Some(version), Some(key_id), Some(body)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(SecretsError::Malformed("expected v1:<key id>:<base64>"));
        };
        if version != VERSION {
            return Err(SecretsError::Malformed("unknown version"));
        }
        if key_id != self.key_id {
            return Err(SecretsError::WrongKey {
                found: key_id.to_string(),
                current: self.key_id.clone(),
            });
        }
        let bytes = STANDARD
            .decode(body)
            .map_err(|_| SecretsError::Malformed("body is not base64"))?;
        if bytes.len() < NONCE_LEN + TAG_LEN {
            return Err(SecretsError::Malformed("body is too short"));
        }
        let (nonce, ciphertext) = bytes.split_at(NONCE_LEN);
        let nonce = XNonce::try_from(nonce).map_err(|_| SecretsError::Malformed("nonce"))?;
        let payload = Payload {
            msg: ciphertext,
            aad: context.as_bytes(),
        };
        self.cipher
            .decrypt(&nonce, payload)
            .map_err(|_| SecretsError::Tampered)
    }

    /// Seals a text secret (a token, a PEM private key).
    pub fn seal_str(&self, context: &str, secret: &SecretString) -> String {
        self.seal(context, secret.expose_secret().as_bytes())
    }

    /// Opens a text secret sealed by [`SecretBox::seal_str`].
    pub fn open_str(&self, context: &str, stored: &str) -> Result<SecretString, SecretsError> {
        let bytes = self.open(context, stored)?;
        String::from_utf8(bytes)
            .map(SecretString::from)
            .map_err(|e| {
                let mut bytes = e.into_bytes();
                bytes.zeroize();
                SecretsError::Malformed("plaintext is not UTF-8")
            })
    }
}
