//! What every adapter test does: load a documented sample, hand it to `parse` as the
//! ingest route would, and look at the one event it answers.

#![expect(dead_code, reason = "each test binary uses a part of the helpers")]

use searchdeck_attribution::{Parsed, Postback, parse};
use searchdeck_model::{
    FieldError,
    attribution::{AttributionEvent, Provider},
};
use time::OffsetDateTime;

/// A sample's bytes (`tests/samples/<path>`).
pub fn sample(path: &str) -> Vec<u8> {
    let full = format!("{}/tests/samples/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// `parse` of a GET with `query`.
pub fn get(provider: Provider, query: &str) -> Result<Parsed, Vec<FieldError>> {
    parse(
        provider,
        &Postback {
            query,
            content_type: None,
            body: b"",
        },
    )
}

/// `parse` of a JSON POST with `body`.
pub fn post(provider: Provider, body: &[u8]) -> Result<Parsed, Vec<FieldError>> {
    parse(
        provider,
        &Postback {
            query: "",
            content_type: Some("application/json"),
            body,
        },
    )
}

/// The one event `parsed` holds.
pub fn one(parsed: Result<Parsed, Vec<FieldError>>) -> AttributionEvent {
    let parsed = parsed.unwrap_or_else(|e| panic!("refused: {e:?}"));
    assert_eq!((parsed.events.len(), parsed.skipped), (1, 0), "{parsed:?}");
    parsed.events.into_iter().next().expect("one event")
}

/// That `parsed` skipped one event and kept none.
pub fn skipped(parsed: Result<Parsed, Vec<FieldError>>) {
    assert_eq!(
        parsed,
        Ok(Parsed {
            events: vec![],
            skipped: 1
        })
    );
}

/// The fields `parsed`'s refusal names.
pub fn refused(parsed: Result<Parsed, Vec<FieldError>>) -> Vec<String> {
    match parsed {
        Ok(p) => panic!("accepted: {p:?}"),
        Err(errors) => errors.into_iter().map(|e| e.field).collect(),
    }
}

/// A Unix time in seconds.
pub fn at(seconds: i64) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(seconds).expect("a valid time")
}

/// A sample with its first `from` replaced by `to` (a malformed value, another source).
pub fn edited(path: &str, from: &str, to: &str) -> Vec<u8> {
    let text = String::from_utf8(sample(path)).expect("UTF-8");
    assert!(text.contains(from), "{path} has no {from}");
    text.replacen(from, to, 1).into_bytes()
}

/// A query sample as text, edited like [`edited`].
pub fn query(path: &str, from: &str, to: &str) -> String {
    String::from_utf8(edited(path, from, to)).expect("UTF-8")
}
