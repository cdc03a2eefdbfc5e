//! Encryption at rest: sealing, tamper and wrong-key detection, key formats and the
//! generated key file's permissions and reuse.

use std::{os::unix::fs::PermissionsExt, sync::Arc};

use base64::{Engine, engine::general_purpose::STANDARD};
use searchdeck_common::secrets::{KEY_FILE_NAME, SecretBox, SecretKey, SecretsError};
use secrecy::{ExposeSecret, SecretString};

const CONTEXT: &str = "connection:42:private_key";

#[test]
fn round_trip_with_a_fresh_nonce_per_value() {
    let sb = SecretBox::new(&SecretKey::generate());
    let pem = "-----BEGIN PRIVATE KEY-----\nMIGH...\n-----END PRIVATE KEY-----\n";
    let a = sb.seal(CONTEXT, pem.as_bytes());
    let b = sb.seal(CONTEXT, pem.as_bytes());
    assert!(a.starts_with(&format!("v1:{}:", sb.key_id())), "{a}");
    assert_ne!(a, b, "each value gets its own nonce");
    assert!(!a.contains("PRIVATE"));
    assert_eq!(sb.open(CONTEXT, &a).unwrap(), pem.as_bytes());
    assert_eq!(sb.open(CONTEXT, &b).unwrap(), pem.as_bytes());
    let token = SecretString::from("bearer-token-value");
    let sealed = sb.seal_str("connection:42:token", &token);
    let opened = sb.open_str("connection:42:token", &sealed).unwrap();
    assert_eq!(opened.expose_secret(), "bearer-token-value");
    assert_eq!(sb.open(CONTEXT, &sb.seal(CONTEXT, b"")).unwrap(), b"");
}

#[test]
fn tampering_is_detected() {
    let sb = SecretBox::new(&SecretKey::generate());
    let sealed = sb.seal(CONTEXT, b"top secret");
    let (head, body) = sealed.rsplit_once(':').unwrap();
    let mut bytes = STANDARD.decode(body).unwrap();
    for i in [0, 24, bytes.len() - 1] {
        bytes[i] ^= 0x01;
        let altered = format!("{head}:{}", STANDARD.encode(&bytes));
        assert!(
            matches!(sb.open(CONTEXT, &altered), Err(SecretsError::Tampered)),
            "flipping byte {i} must fail"
        );
        bytes[i] ^= 0x01;
    }
    assert!(matches!(
        sb.open("connection:43:private_key", &sealed),
        Err(SecretsError::Tampered)
    ));
    let truncated = format!("{head}:{}", STANDARD.encode(&bytes[..30]));
    assert!(matches!(
        sb.open(CONTEXT, &truncated),
        Err(SecretsError::Malformed(_))
    ));
    assert!(matches!(
        sb.open(CONTEXT, "plain"),
        Err(SecretsError::Malformed(_))
    ));
    let v2 = sealed.replacen("v1:", "v2:", 1);
    assert!(matches!(
        sb.open(CONTEXT, &v2),
        Err(SecretsError::Malformed(_))
    ));
}

#[test]
fn a_different_key_cannot_open() {
    let sealed = SecretBox::new(&SecretKey::generate()).seal(CONTEXT, b"x");
    let other = SecretBox::new(&SecretKey::generate());
    let err = other.open(CONTEXT, &sealed).unwrap_err();
    assert!(matches!(err, SecretsError::WrongKey { .. }), "{err}");
    // Even with the key id forged to match, authentication fails.
    let (_, rest) = sealed.split_once(':').unwrap();
    let (_, body) = rest.split_once(':').unwrap();
    let forged = format!("v1:{}:{body}", other.key_id());
    assert!(matches!(
        other.open(CONTEXT, &forged),
        Err(SecretsError::Tampered)
    ));
}

#[test]
fn keys_parse_from_hex_and_base64_and_bad_formats_are_rejected() {
    let bytes: Vec<u8> = (0u8..32).collect();
    let hex_text = hex::encode(&bytes);
    let b64 = STANDARD.encode(&bytes);
    let url = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes);
    let ids: Vec<String> = [hex_text.as_str(), &b64, &url, &format!("  {b64}\n")]
        .iter()
        .map(|t| SecretKey::parse(t).unwrap().id())
        .collect();
    assert!(ids.windows(2).all(|w| w[0] == w[1]), "{ids:?}");

    let short = STANDARD.encode([7u8; 16]);
    let long_hex = hex::encode([1u8; 33]);
    for bad in [
        "",
        "   ",
        "not a key!",
        short.as_str(),
        long_hex.as_str(),
        &hex_text[..63],
    ] {
        let err = SecretKey::parse(bad).unwrap_err();
        assert!(matches!(err, SecretsError::BadKey(_)), "{bad:?}: {err}");
        let message = err.to_string();
        assert!(message.contains("SEARCHDECK_SECRET_KEY") && message.contains("32 bytes"));
        if bad.len() > 8 {
            assert!(
                !message.contains(bad.trim()),
                "error echoes the key: {message}"
            );
        }
    }
}

#[test]
fn debug_output_never_shows_the_key() {
    let key = SecretKey::parse(&"ab".repeat(32)).unwrap();
    let shown = format!("{key:?} {:?}", SecretBox::new(&key));
    assert!(!shown.contains("abab") && !shown.contains("171"), "{shown}");
    assert!(shown.contains(&key.id()));
}

#[test]
fn generated_key_file_is_owner_only_and_reused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested").join(KEY_FILE_NAME);
    let first = SecretKey::load_or_create(&path).unwrap();
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "mode {mode:o}");
    let sealed = SecretBox::new(&first).seal(CONTEXT, b"kept");
    let second = SecretKey::load_or_create(&path).unwrap();
    assert_eq!(first.id(), second.id());
    assert_eq!(
        SecretBox::new(&second).open(CONTEXT, &sealed).unwrap(),
        b"kept"
    );
    let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temporary files left behind");
}

#[test]
fn concurrent_first_starts_agree_on_one_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = Arc::new(dir.path().join(KEY_FILE_NAME));
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let path = path.clone();
            std::thread::spawn(move || SecretKey::load_or_create(&path).unwrap().id())
        })
        .collect();
    let ids: Vec<String> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert!(ids.iter().all(|id| *id == ids[0]), "{ids:?}");
}

#[test]
fn readable_existing_key_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(KEY_FILE_NAME);
    SecretKey::load_or_create(&path).unwrap();
    for mode in [0o644, 0o640, 0o604, 0o660] {
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        let err = SecretKey::load_or_create(&path).unwrap_err();
        let message = err.to_string();
        assert!(matches!(err, SecretsError::KeyFile { .. }), "{message}");
        assert!(message.contains("chmod 600"), "{message}");
    }
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o400)).unwrap();
    SecretKey::load_or_create(&path).expect("owner read-only is fine");
}

#[test]
fn corrupt_key_file_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(KEY_FILE_NAME);
    std::fs::write(&path, "garbage\n").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    let message = SecretKey::load_or_create(&path).unwrap_err().to_string();
    assert!(
        message.contains(KEY_FILE_NAME) && message.contains("32-byte"),
        "{message}"
    );
}

fn config(data_dir: &std::path::Path, secret_key: Option<&str>) -> searchdeck_common::Config {
    use clap::Parser;
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        config: searchdeck_common::ConfigArgs,
    }
    let mut args = vec![
        "test".to_string(),
        "--data-dir".into(),
        data_dir.display().to_string(),
    ];
    if let Some(key) = secret_key {
        args.extend(["--secret-key".to_string(), key.to_string()]);
    }
    Cli::parse_from(args).config.resolve().unwrap()
}

#[test]
fn config_key_is_used_else_the_data_dir_key_file() {
    let dir = tempfile::tempdir().unwrap();
    let given = SecretKey::generate();
    let from_env =
        SecretBox::from_config(&config(dir.path(), Some(given.to_base64().expose_secret())))
            .unwrap();
    assert_eq!(from_env.key_id(), given.id());
    assert!(
        !dir.path().join(KEY_FILE_NAME).exists(),
        "no key file when a key is configured"
    );

    let embedded = SecretBox::from_config(&config(dir.path(), None)).unwrap();
    assert!(dir.path().join(KEY_FILE_NAME).exists());
    let again = SecretBox::from_config(&config(dir.path(), None)).unwrap();
    assert_eq!(embedded.key_id(), again.key_id());

    let err = SecretBox::from_config(&config(dir.path(), Some("too-short"))).unwrap_err();
    assert!(err.to_string().contains("SEARCHDECK_SECRET_KEY"));
}
