//! Identifiers and clock helpers used across the data layer.

use time::OffsetDateTime;

/// A new random identifier (UUID v7: time-ordered, so indexes stay compact).
pub fn new_id() -> String {
    uuid::Uuid::now_v7().simple().to_string()
}

/// The current time as Unix milliseconds, the form every timestamp column stores.
pub fn now_ms() -> i64 {
    (OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
}

/// Unix milliseconds rendered as RFC 3339 for API responses.
pub fn rfc3339(ms: i64) -> String {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_default()
}
