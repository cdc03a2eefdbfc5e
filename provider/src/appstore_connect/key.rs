//! A team key of the App Store Connect API and the tokens it signs: ES256 (the P-256 key
//! type the Apple Ads client secret is signed with, [`crate::KeyPair`]), header `kid` = the
//! key id and `typ` = `JWT`, claims `iss` = the issuer id, `iat`, `exp` and `aud` =
//! [`AUDIENCE`]; and the shapes of the ids a user types (issuer id, key id, vendor number).

use serde_json::json;

use super::{AUDIENCE, TOKEN_LIFETIME_SECS};
use crate::KeyPair;

/// A team key: its issuer id, key id and private key.
#[derive(Debug, Clone)]
pub struct AscKey {
    pub issuer_id: String,
    pub key_id: String,
    key: KeyPair,
}

/// Why a key was not accepted before any call.
pub const NOT_A_P8_KEY: &str =
    "Upload the .p8 file App Store Connect gave: a PEM PKCS#8 EC P-256 private key";

impl AscKey {
    /// The key of `pem` (a `.p8` file: `-----BEGIN PRIVATE KEY-----`, PKCS#8, P-256).
    pub fn new(issuer_id: &str, key_id: &str, pem: &str) -> Result<AscKey, &'static str> {
        let pem = pem.trim();
        if !pem.starts_with("-----BEGIN PRIVATE KEY-----") {
            return Err(NOT_A_P8_KEY);
        }
        let key = KeyPair::from_pkcs8_pem(pem).map_err(|_| NOT_A_P8_KEY)?;
        Ok(AscKey {
            issuer_id: issuer_id.into(),
            key_id: key_id.into(),
            key,
        })
    }

    /// A token issued at `now` (unix seconds).
    pub fn token(&self, now: i64) -> String {
        self.key.sign_jwt(
            &json!({"alg": "ES256", "kid": self.key_id, "typ": "JWT"}),
            &json!({"iss": self.issuer_id, "iat": now, "exp": now + TOKEN_LIFETIME_SECS, "aud": AUDIENCE}),
        )
    }
}

/// Whether `raw` is an issuer id: a UUID (8-4-4-4-12 hexadecimal digits).
pub fn is_issuer_id(raw: &str) -> bool {
    let groups: Vec<&str> = raw.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Whether `raw` is a key id: 10 uppercase letters or digits (`2X9R4HXF34`).
pub fn is_key_id(raw: &str) -> bool {
    raw.len() == 10
        && raw
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
}

/// Whether `raw` is a vendor number: digits (Apple's are 8, `80012345`), at most 12.
pub fn is_vendor_number(raw: &str) -> bool {
    (1..=12).contains(&raw.len()) && raw.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_apples_shapes() {
        assert!(is_issuer_id("57246542-96fe-1a63-e053-0824d011072a"));
        assert!(!is_issuer_id("57246542-96fe-1a63-e053-0824d011072"));
        assert!(!is_issuer_id("57246542x96fe-1a63-e053-0824d011072a"));
        assert!(is_key_id("2X9R4HXF34"));
        assert!(!is_key_id("2x9r4hxf34"));
        assert!(!is_key_id("2X9R4HXF3"));
        assert!(is_vendor_number("80012345"));
        assert!(!is_vendor_number("8001-2345"));
    }

    #[test]
    fn a_key_must_be_a_p8_file() {
        let pair = KeyPair::generate();
        use secrecy::ExposeSecret;
        let pem = pair.private_pem().expose_secret().to_string();
        let key = AscKey::new("57246542-96fe-1a63-e053-0824d011072a", "2X9R4HXF34", &pem).unwrap();
        let token = key.token(1_700_000_000);
        assert_eq!(token.split('.').count(), 3);
        assert!(AscKey::new("i", "k", &pair.public_pem()).is_err());
        assert!(
            AscKey::new(
                "i",
                "k",
                "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"
            )
            .is_err()
        );
    }
}
