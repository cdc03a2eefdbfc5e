//! The custom tracking server's request signature, Stripe's scheme: the header
//! `X-Searchdeck-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
//! A request signed more than [`TOLERANCE_SECONDS`] before or after now is refused, so a
//! captured request cannot be replayed later; the comparison runs in constant time.

use std::fmt;

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The header the signature comes in.
pub const HEADER: &str = "X-Searchdeck-Signature";

/// How far the signed time may be from now, either way: five minutes.
pub const TOLERANCE_SECONDS: i64 = 300;

/// Why a signature was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignatureError {
    /// The header is not `t=<seconds>,v1=<hex>`.
    Malformed,
    /// Signed more than five minutes before or after now.
    OutsideTolerance,
    /// No `v1` matches the body under this secret.
    Mismatch,
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SignatureError::Malformed => "the signature header is not t=<seconds>,v1=<hex>",
            SignatureError::OutsideTolerance => {
                "the signature's time is more than five minutes from now"
            }
            SignatureError::Mismatch => "the signature does not match the body",
        })
    }
}

impl std::error::Error for SignatureError {}

fn mac(secret: &[u8], timestamp: i64, body: &[u8]) -> Hmac<Sha256> {
    // HMAC takes a key of any length, so this never fails.
    let mut mac = match Hmac::<Sha256>::new_from_slice(secret) {
        Ok(m) => m,
        Err(_) => unreachable!("HMAC-SHA256 accepts keys of any length"),
    };
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// The header value signing `body` at `timestamp` (what the user's server sends; also the
/// docs' and tests' example).
pub fn sign(secret: &[u8], timestamp: i64, body: &[u8]) -> String {
    let tag = mac(secret, timestamp, body).finalize().into_bytes();
    let hex: String = tag.iter().map(|b| format!("{b:02x}")).collect();
    format!("t={timestamp},v1={hex}")
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| s.get(i..i + 2).and_then(|b| u8::from_str_radix(b, 16).ok()))
        .collect()
}

/// Checks `header` against `body` under `secret` at `now_unix`. Several `v1` entries may be
/// given (as while the secret rotates); one match suffices.
pub fn verify(
    secret: &[u8],
    header: &str,
    body: &[u8],
    now_unix: i64,
) -> Result<(), SignatureError> {
    let mut timestamp = None;
    let mut tags = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", v)) => timestamp = v.parse::<i64>().ok(),
            Some(("v1", v)) => tags.push(unhex(v).ok_or(SignatureError::Malformed)?),
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or(SignatureError::Malformed)?;
    if tags.is_empty() {
        return Err(SignatureError::Malformed);
    }
    if now_unix.abs_diff(timestamp) > TOLERANCE_SECONDS.unsigned_abs() {
        return Err(SignatureError::OutsideTolerance);
    }
    let expected = mac(secret, timestamp, body);
    if tags
        .iter()
        .any(|tag| expected.clone().verify_slice(tag).is_ok())
    {
        Ok(())
    } else {
        Err(SignatureError::Mismatch)
    }
}
